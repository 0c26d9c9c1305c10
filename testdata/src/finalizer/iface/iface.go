// Package iface: finalizers set on an interface value, or by a helper
// that takes one, are armed on the dynamic type: its methods that pass the
// handle to C without keeping the object alive are at risk. When the
// dynamic type cannot be determined, nothing is said.
package iface

/*
#include <stdlib.h>
typedef struct { int n; } stream_t;
static stream_t* stream_open(void) { return calloc(1, sizeof(stream_t)); }
static void stream_close(stream_t* s) { free(s); }
static int stream_read(stream_t* s) { return s->n; }

typedef struct { int n; } model_t;
static model_t* model_load(void) { return calloc(1, sizeof(model_t)); }
static void model_destroy(model_t* m) { free(m); }
static int model_eval(model_t* m, int x) { return x; }
*/
import "C"

import (
	"io"
	"runtime"
)

type Stream struct{ s *C.stream_t }

func (s *Stream) Close() error {
	runtime.SetFinalizer(s, nil)
	C.stream_close(s.s)
	return nil
}

// The object boxed into an io.Closer, and the finalizer closing it
// through the interface.
func OpenStream() *Stream {
	s := &Stream{s: C.stream_open()}
	var c io.Closer = s
	runtime.SetFinalizer(c, func(c io.Closer) { c.Close() })
	return s
}

func (s *Stream) Read() int {
	return int(C.stream_read(s.s)) // want `s may be collected while C.stream_read runs with s.s: nothing uses s after the call, so the finalizer set at line 39 \(func literal\)`
}

func (s *Stream) ReadOK() int {
	defer runtime.KeepAlive(s)
	return int(C.stream_read(s.s))
}

// A helper that takes an interface and arms a finalizer of its own.
func autoClose(c io.Closer) {
	runtime.SetFinalizer(c, func(c io.Closer) { c.Close() })
}

type Model struct{ m *C.model_t }

func (m *Model) Close() error {
	runtime.SetFinalizer(m, nil)
	C.model_destroy(m.m)
	return nil
}

func LoadModel() *Model {
	m := &Model{m: C.model_load()}
	autoClose(m)
	return m
}

func (m *Model) Eval(x int) int {
	return int(C.model_eval(m.m, C.int(x))) // want `m may be collected while C.model_eval runs with m.m: nothing uses m after the call, so the finalizer set at line 67 \(func literal\)`
}

func (m *Model) EvalOK(x int) int {
	r := C.model_eval(m.m, C.int(x))
	runtime.KeepAlive(m)
	return int(r)
}

// A generic helper with a method constraint.
type closer interface{ Close() error }

func track[T closer](v T) {
	runtime.SetFinalizer(v, func(v T) { v.Close() })
}

type Tensor struct{ m *C.model_t }

func (t *Tensor) Close() error {
	runtime.SetFinalizer(t, nil)
	C.model_destroy(t.m)
	return nil
}

func NewTensor() *Tensor {
	t := &Tensor{m: C.model_load()}
	track(t)
	return t
}

func (t *Tensor) Eval() int {
	return int(C.model_eval(t.m, 0)) // want `t may be collected while C.model_eval runs with t.m`
}

// The dynamic type is unknown where the finalizer is set (an interface
// the caller passes): nothing is said about any type.
type Buffer struct{ s *C.stream_t }

func (b *Buffer) Close() error {
	C.stream_close(b.s)
	return nil
}

func Manage(c io.Closer) {
	runtime.SetFinalizer(c, func(c io.Closer) { c.Close() })
}

func (b *Buffer) Read() int {
	return int(C.stream_read(b.s))
}

// An interface value whose finalizer method releases nothing: no risk.
type Counter struct {
	s *C.stream_t
	n int
}

func (k *Counter) Close() error {
	k.n = 0
	return nil
}

func NewCounter() *Counter {
	k := &Counter{s: C.stream_open()}
	var c io.Closer = k
	runtime.SetFinalizer(c, func(c io.Closer) { c.Close() })
	return k
}

func (k *Counter) Read() int {
	return int(C.stream_read(k.s))
}
