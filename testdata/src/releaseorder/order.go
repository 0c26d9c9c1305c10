// Package releaseorder holds the analysistest cases of the releaseorder
// analyzer: each bug beside its corrected version.
package releaseorder

/*
#include <stdlib.h>
typedef struct { int live; } cuctx;
typedef struct { cuctx* ctx; } custream;
//lifetime:acquire ctx_create
//lifetime:acquire stream_create parent=0
//lifetime:release mem_free arg=1
static cuctx* ctx_create(void) { cuctx* c = malloc(sizeof *c); c->live = 1; return c; }
static int ctx_destroy(cuctx* c) { c->live = 0; return 0; }
static custream* stream_create(cuctx* c) { custream* s = malloc(sizeof *s); s->ctx = c; return s; }
static int stream_destroy(custream* s) { return 0; }
static int mem_free(cuctx* owner, void* p) { return 0; }
*/
import "C"

import "runtime"

// The deferred child releases run after the explicit parent release.
func deferred() {
	ctx := C.ctx_create()
	s := C.stream_create(ctx)
	defer C.stream_destroy(s) // want `s is released by the deferred C.stream_destroy when deferred returns, after ctx was destroyed by C.ctx_destroy at line 29`
	buf := C.malloc(64)
	defer C.mem_free(ctx, buf) // want `buf is released by the deferred C.mem_free when deferred returns, after ctx was destroyed`
	C.ctx_destroy(ctx)
}

// Corrected: the parent's release is deferred first, so it runs last.
func deferredOK() {
	ctx := C.ctx_create()
	defer C.ctx_destroy(ctx)
	s := C.stream_create(ctx)
	defer C.stream_destroy(s)
	buf := C.malloc(64)
	defer C.mem_free(ctx, buf)
}

// Explicit releases in the wrong order.
func explicit() {
	ctx := C.ctx_create()
	s := C.stream_create(ctx)
	C.ctx_destroy(ctx)
	C.stream_destroy(s) // want `s is released by C.stream_destroy after ctx was destroyed by C.ctx_destroy at line 46`
}

func explicitOK() {
	ctx := C.ctx_create()
	s := C.stream_create(ctx)
	C.stream_destroy(s)
	C.ctx_destroy(ctx)
}

// Wrappers: Stream's finalizer destroys the stream, Context's the
// context; a Stream that keeps no *Context lets the collector finalize the
// Context first.
type Context struct{ c *C.cuctx }

func NewContext() *Context {
	c := &Context{c: C.ctx_create()}
	runtime.SetFinalizer(c, func(c *Context) { C.ctx_destroy(c.c) })
	return c
}

type Stream struct{ s *C.custream }

func (c *Context) NewStream() *Stream {
	s := &Stream{}
	s.s = C.stream_create(c.c) // want `Stream keeps no reference to the Context whose finalizer destroys the parent of the handle C.stream_create creates here`
	runtime.SetFinalizer(s, func(s *Stream) { C.stream_destroy(s.s) })
	return s
}

// Corrected: the stream keeps its context alive.
type StreamOK struct {
	ctx *Context
	s   *C.custream
}

func (c *Context) NewStreamOK() *StreamOK {
	s := &StreamOK{ctx: c}
	s.s = C.stream_create(c.c)
	runtime.SetFinalizer(s, func(s *StreamOK) { C.stream_destroy(s.s) })
	return s
}
