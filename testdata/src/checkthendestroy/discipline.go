package checkthendestroy

/*
#include <stdlib.h>
typedef struct { int live; } stmt;
static void stmt_finalize(stmt* s) { free(s); }
static int stmt_step(stmt* s) { return 0; }
typedef struct { int live; } lib;
static void lib_close(lib* l) { free(l); }
*/
import "C"

import (
	"errors"
	"sync"
)

// Stmt closes under its lock; Next tests the flag before taking it.
type Stmt struct {
	mu     sync.Mutex
	s      *C.stmt
	closed bool
}

func (st *Stmt) Close() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.closed = true
	C.stmt_finalize(st.s)
}

func (st *Stmt) Next() int {
	if st.closed { // want `Next reads st.closed without st.mu, which Close holds when it changes it \(line 28\)`
		return -1
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return int(C.stmt_step(st.s))
}

// Corrected: the flag is read under the lock.
type StmtOK struct {
	mu     sync.Mutex
	s      *C.stmt
	closed bool
}

func (st *StmtOK) Close() {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.closed {
		st.closed = true
		C.stmt_finalize(st.s)
	}
}

func (st *StmtOK) Next() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return -1
	}
	return int(C.stmt_step(st.s))
}

// A handle passed to C outside the lock that guards its release.
type Cursor struct {
	mu sync.Mutex
	s  *C.stmt
}

func (c *Cursor) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	C.stmt_finalize(c.s)
	c.s = nil
}

func (c *Cursor) Step() int {
	return int(C.stmt_step(c.s)) // want `Step passes C.stmt_step the handle in c.s without c.mu, which Close holds when it changes it`
}

// go-nvml's dl.Close shape: an unexported close whose only caller holds
// the library lock is guarded.
type dynlib struct{ h *C.lib }

func (d *dynlib) close() {
	if d.h != nil {
		C.lib_close(d.h)
		d.h = nil
	}
}

type Library struct {
	mu       sync.Mutex
	dl       *dynlib
	refcount int
}

func (l *Library) Shutdown() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.refcount == 0 {
		return errors.New("not initialized")
	}
	l.refcount--
	if l.refcount == 0 {
		l.dl.close()
	}
	return nil
}

func (l *Library) Version() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.refcount
}

// checklocks annotations declare the guard.
type Annotated struct {
	mu sync.Mutex
	// +checklocks:mu
	s *C.stmt
}

func (a *Annotated) Close() {
	a.mu.Lock()
	C.stmt_finalize(a.s)
	a.s = nil
	a.mu.Unlock()
}

func (a *Annotated) Peek() int {
	return int(C.stmt_step(a.s)) // want `Peek passes C.stmt_step the handle in a.s without a.mu`
}

// Popping one of the pending errors of a context that owns a handle:
// check, then take, without the lock that guards the slice elsewhere.
type Ctx struct {
	mu   sync.Mutex
	h    *C.lib
	errs []error
}

func (c *Ctx) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	C.lib_close(c.h)
	c.h = nil
}

func (c *Ctx) push(err error) {
	c.mu.Lock()
	c.errs = append(c.errs, err)
	c.mu.Unlock()
}

func (c *Ctx) Pop() error {
	if len(c.errs) > 0 { // want `Pop checks c.errs and then sets it \(line 161\) without a guard`
		e := c.errs[0]
		c.errs = c.errs[1:]
		return e
	}
	return nil
}

func (c *Ctx) PopOK() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.errs) > 0 {
		e := c.errs[0]
		c.errs = c.errs[1:]
		return e
	}
	return nil
}

// The same shape in a type that owns no handle: the lock that push holds
// is the evidence, and in a package that calls C the race detector misses
// it (every cgo call synchronizes).
type Queue struct {
	mu   sync.Mutex
	errs []error
}

func (q *Queue) push(err error) {
	q.mu.Lock()
	q.errs = append(q.errs, err)
	q.mu.Unlock()
}

func (q *Queue) Pop() error {
	if len(q.errs) > 0 { // want `Pop checks q.errs and then sets it \(line \d+\) without a guard: two goroutines \(Queue has a mutex, which guards errs elsewhere\)`
		e := q.errs[0]
		q.errs = q.errs[1:]
		return e
	}
	return nil
}

// A closed flag of a pure-Go type, read outside the lock its Close holds:
// not lifetime state, silent.
type Pipe struct {
	mu     sync.Mutex
	closed bool
}

func (p *Pipe) Close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
}

func (p *Pipe) Write() bool { return !p.closed }

// Functions that say their callers hold the lock: by name (Go's ...Locked
// convention), by doc comment, or by a checklocks annotation. They are
// reached through a hook the analysis cannot follow.
type Cache struct {
	mu     sync.Mutex
	h      *C.stmt
	closed bool
	hooks  []func() int
}

func (c *Cache) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.closed = true
		C.stmt_finalize(c.h)
	}
}

func (c *Cache) Register() {
	c.hooks = append(c.hooks, c.stepLocked, c.peek, c.look, c.step)
}

func (c *Cache) stepLocked() int {
	if c.closed {
		return -1
	}
	return int(C.stmt_step(c.h))
}

// peek is called with c.mu held.
func (c *Cache) peek() int {
	if c.closed {
		return -1
	}
	return int(C.stmt_step(c.h))
}

// +checklocks:c.mu
func (c *Cache) look() int {
	if c.closed {
		return -1
	}
	return int(C.stmt_step(c.h))
}

// step says nothing about the lock: its read of the flag is unguarded.
func (c *Cache) step() int {
	if c.closed { // want `step reads c.closed without c.mu, which Close holds when it changes it`
		return -1
	}
	return int(C.stmt_step(c.h))
}
