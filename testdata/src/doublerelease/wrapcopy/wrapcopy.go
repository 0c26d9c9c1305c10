// Package wrapcopy: a wrapper whose finalizer releases a copy of a handle
// its caller also releases.
package wrapcopy

/*
#include <stdlib.h>
typedef struct { int n; } gpu_ctx;
static gpu_ctx* gpu_ctx_create(int dev) { return calloc(1, sizeof(gpu_ctx)); }
static void gpu_ctx_destroy(gpu_ctx* c) { free(c); }
static int gpu_ctx_sync(gpu_ctx* c) { return 0; }

typedef struct { int n; } dec_stream;
static void dec_stream_free(dec_stream* s) { free(s); }
*/
import "C"

import "runtime"

// The raw context and its wrapper with a finalizer.
type RawCtx struct{ ctx *C.gpu_ctx }

func NewRawCtx(dev int) *RawCtx { return &RawCtx{ctx: C.gpu_ctx_create(C.int(dev))} }

func (r *RawCtx) Destroy() { C.gpu_ctx_destroy(r.ctx) }

type Ctx struct {
	RawCtx
	dev int
}

func finalizeCtx(c *Ctx) { C.gpu_ctx_destroy(c.ctx) }

// CtxFromRaw wraps a copy of the caller's context; its finalizer destroys it.
func CtxFromRaw(dev int, raw RawCtx) *Ctx {
	c := &Ctx{RawCtx: raw, dev: dev}
	runtime.SetFinalizer(c, finalizeCtx)
	return c
}

func useBoth(dev int) int {
	raw := NewRawCtx(dev)
	c := CtxFromRaw(dev, *raw)
	n := int(C.gpu_ctx_sync(c.ctx))
	raw.Destroy() // want `this releases the handle that CtxFromRaw at line 42 copied into a Ctx, whose finalizer set at line 36 \(finalizeCtx\) releases it again once the Ctx is collected`
	return n
}

// Corrected: the wrapper owns the context; nobody else destroys it.
func useWrapper(dev int) int {
	raw := NewRawCtx(dev)
	c := CtxFromRaw(dev, *raw)
	return int(C.gpu_ctx_sync(c.ctx))
}

// A handle passed by pointer to its holder, wrapped by a closure finalizer;
// the caller frees it directly.
type Holder struct{ s *C.dec_stream }

type Stream struct{ s *C.dec_stream }

func WrapStream(h *Holder) *Stream {
	st := &Stream{s: h.s}
	runtime.SetFinalizer(st, func(st *Stream) { C.dec_stream_free(st.s) })
	return st
}

func decode(h *Holder) *Stream {
	st := WrapStream(h)
	C.dec_stream_free(h.s) // want `this releases the handle that WrapStream at line 68 copied into a Stream`
	return st
}

// A wrapper that borrows: its finalizer releases nothing.
type View struct{ s *C.dec_stream }

func ViewStream(h *Holder) *View {
	v := &View{s: h.s}
	runtime.SetFinalizer(v, func(v *View) { v.s = nil })
	return v
}

func viewThenFree(h *Holder) *View {
	v := ViewStream(h)
	C.dec_stream_free(h.s)
	return v
}

// A handle passed by value to a constructor that takes it over: releasing
// it on the error path before wrapping is the caller's job; after, it is
// the wrapper's.
func wrapRaw(s *C.dec_stream) *Stream {
	st := &Stream{s: s}
	runtime.SetFinalizer(st, func(st *Stream) { C.dec_stream_free(st.s) })
	return st
}

func openStream(s *C.dec_stream, bad bool) *Stream {
	if bad {
		C.dec_stream_free(s)
		return nil
	}
	return wrapRaw(s)
}

func openStreamTwice(s *C.dec_stream) *Stream {
	st := wrapRaw(s)
	C.dec_stream_free(s) // want `this releases the handle that wrapRaw at line 106 copied into a Stream`
	return st
}

// The caller disarms the wrapper's finalizer before releasing the handle
// itself: one release.
func openStreamDisarmed(s *C.dec_stream, bad bool) *Stream {
	st := wrapRaw(s)
	if bad {
		runtime.SetFinalizer(st, nil)
		C.dec_stream_free(s)
		return nil
	}
	return st
}
