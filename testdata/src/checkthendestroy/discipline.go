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

// Popping one of the pending errors: check, then take, without the lock
// that guards the slice elsewhere.
type Ctx struct {
	mu   sync.Mutex
	errs []error
}

func (c *Ctx) push(err error) {
	c.mu.Lock()
	c.errs = append(c.errs, err)
	c.mu.Unlock()
}

func (c *Ctx) Pop() error {
	if len(c.errs) > 0 { // want `Pop checks c.errs and then sets it \(line 153\) without a guard`
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
