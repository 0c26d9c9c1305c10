// Package lifecycle: a count updated under a lock that only the type's
// lifecycle functions take says nothing about its other methods.
package lifecycle

/*
#include <stdlib.h>
typedef struct { int live; } ctx;
static ctx* ctx_open(void) { return malloc(sizeof(ctx)); }
static void ctx_close(ctx* c) { free(c); }
static int ctx_run(ctx* c, int n) { return n; }
*/
import "C"

import "sync"

// Engine opens and closes under its mutex; everything else runs without
// it, one goroutine at a time by design.
type Engine struct {
	mu    sync.Mutex
	opens int
	c     *C.ctx
	last  int
}

func (e *Engine) Open() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.opens++
	e.c = C.ctx_open()
}

func (e *Engine) Close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.opens--
	C.ctx_close(e.c)
}

func (e *Engine) Run(n int) { e.last = int(C.ctx_run(e.c, C.int(n))) }
func (e *Engine) Add(n int) { e.last += int(C.ctx_run(e.c, C.int(n))) }
func (e *Engine) Sub(n int) { e.last -= int(C.ctx_run(e.c, C.int(n))) }

// Opened reads the count without the lock: silent, the lock is not the
// type's contract.
func (e *Engine) Opened() bool { return e.opens > 0 }

// Pool's functions take its mutex: a read of the count without it is an
// exception to the contract the code keeps.
type Pool struct {
	mu    sync.Mutex
	users int
	c     *C.ctx
}

func (p *Pool) Get() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.users++
	C.ctx_run(p.c, 1)
}

func (p *Pool) Put() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.users--
	C.ctx_run(p.c, 0)
}

func (p *Pool) Busy() bool {
	return p.users > 0 // want `Busy reads the counter p.users without p.mu, which Get holds when it updates it \(line \d+\): the update can run at the same time \(Pool has a mutex that guards users\)`
}
