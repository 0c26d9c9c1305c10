// Package gpu is a small CUDA wrapper written the way real bindings are,
// with the lifetime bugs lifetimevet exists to find. The C side is a stub
// in the cgo preamble (no CUDA needed): it marks objects dead instead of
// freeing them, so the package builds and runs anywhere.
//
// Run lifetimevet on it from the repository's root:
//
//	go run ./cmd/lifetimevet ./examples/...
package gpu

/*
#include <stdlib.h>
#include <string.h>
typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st { int live; } *CUcontext;
typedef struct CUstream_st { int live; } *CUstream;
typedef unsigned long long CUdeviceptr;
static CUresult cuCtxCreate(CUcontext *c, unsigned int flags, CUdevice d) { *c = calloc(1, sizeof **c); (*c)->live = 1; return 0; }
static CUresult cuCtxDestroy(CUcontext c) { c->live = 0; return 0; }
static CUresult cuStreamCreate(CUstream *s, unsigned int flags) { *s = calloc(1, sizeof **s); (*s)->live = 1; return 0; }
static CUresult cuStreamDestroy(CUstream s) { s->live = 0; return 0; }
static CUresult cuStreamSynchronize(CUstream s) { return s->live ? 0 : 400; }
static CUresult cuMemAlloc(CUdeviceptr *p, size_t n) { *p = (CUdeviceptr)calloc(1, n); return 0; }
static CUresult cuMemFree(CUdeviceptr p) { return 0; }
static CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n) { memcpy((void*)dst, src, n); return 0; }
*/
import "C"

import (
	"errors"
	"runtime"
	"unsafe"
)

// Context is a CUDA context.
type Context struct {
	ctx C.CUcontext
}

// NewContext creates a context on device 0.
func NewContext() (*Context, error) {
	c := &Context{}
	if C.cuCtxCreate(&c.ctx, 0, 0) != 0 {
		return nil, errors.New("cuCtxCreate failed")
	}
	runtime.SetFinalizer(c, func(c *Context) { C.cuCtxDestroy(c.ctx) })
	return c, nil
}

// Close destroys the context. Bug: the finalizer stays armed and destroys
// the context again once c is collected.
func (c *Context) Close() {
	C.cuCtxDestroy(c.ctx)
}

// Upload copies data to a new device buffer and returns its address.
// Bug: on the error path the buffer is freed here and again by the defer.
func Upload(data []byte) error {
	var p C.CUdeviceptr
	if C.cuMemAlloc(&p, C.size_t(len(data))) != 0 {
		return errors.New("cuMemAlloc failed")
	}
	defer C.cuMemFree(p)
	if C.cuMemcpyHtoD(p, unsafe.Pointer(&data[0]), C.size_t(len(data))) != 0 {
		C.cuMemFree(p)
		return errors.New("cuMemcpyHtoD failed")
	}
	return nil
}

// Stream is a CUDA stream, owned by value in the structs that use it.
type Stream struct{ s C.CUstream }

// NewStream creates a stream.
func NewStream() Stream {
	var s C.CUstream
	C.cuStreamCreate(&s, 0)
	return Stream{s: s}
}

// Destroy destroys the stream and clears it, so that a second Destroy does
// nothing.
func (s *Stream) Destroy() {
	if s.s != nil {
		C.cuStreamDestroy(s.s)
		s.s = nil
	}
}

// Pipeline keeps a stream between runs.
type Pipeline struct{ stream Stream }

// Reset replaces the pipeline's stream. Bug: it destroys a copy, so
// p.stream keeps the destroyed stream and the next Reset destroys it again.
func (p *Pipeline) Reset(again bool) {
	old := p.stream
	old.Destroy()
	if again {
		p.stream = NewStream()
	}
}
