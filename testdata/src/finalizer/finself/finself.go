// Package finself: the finalizer's own function, and the helpers only it
// calls, run on an object that is being finalized already; they are never
// told to keep it alive. A helper that exported code calls too still is.
package finself

/*
typedef struct { int open; } stmt;
static void stmt_close(stmt* s) {}
static int stmt_step(stmt* s) { return 0; }
typedef struct { int n; } ctx;
static void ctx_destroy(ctx* c) {}
static void ctx_sync(ctx* c) {}
*/
import "C"

import "runtime"

// A method expression as the finalizer: the method itself is the
// finalizer's function.
type Stmt struct{ s *C.stmt }

func (s *Stmt) finalize() { C.stmt_close(s.s) }

func newStmt(h *C.stmt) *Stmt {
	s := &Stmt{s: h}
	runtime.SetFinalizer(s, (*Stmt).finalize)
	return s
}

func (s *Stmt) Step() int {
	return int(C.stmt_step(s.s)) // want `s may be collected while C.stmt_step runs with s.s`
}

// A literal that calls a helper only it calls, which calls another.
type Ctx struct{ c *C.ctx }

func (c *Ctx) syncAndDestroy() {
	C.ctx_sync(c.c)
	c.destroy()
}

func (c *Ctx) destroy() { C.ctx_destroy(c.c) }

func NewCtx(h *C.ctx) *Ctx {
	c := &Ctx{c: h}
	runtime.SetFinalizer(c, func(c *Ctx) { c.syncAndDestroy() })
	return c
}

// The helper an exported method also calls: there the object can be
// collected during the C call (reported in the helper).
type Dev struct{ c *C.ctx }

func (d *Dev) sync() { C.ctx_sync(d.c) } // want `d may be collected while C.ctx_sync runs with d.c`

func NewDev(h *C.ctx) *Dev {
	d := &Dev{c: h}
	runtime.SetFinalizer(d, func(d *Dev) {
		d.sync()
		C.ctx_destroy(d.c)
	})
	return d
}

func (d *Dev) Sync() {
	d.sync()
}
