// Package unresolved holds the handleleak cases of a Go helper that hands
// its parameter to code the analysis cannot see (a function value, an
// interface method, a callback): the helper may release it, so the
// caller's handle is not reported; a helper that only reads its parameter
// does not release it, and the leak is reported.
package unresolved

/*
#include <stdlib.h>
typedef struct buf { int n; } buf;
//lifetime:acquire buf_new
//lifetime:release buf_free
//lifetime:borrow buf_len arg=0
static buf *buf_new(int n) { buf *b = malloc(sizeof *b); b->n = n; return b; }
static void buf_free(buf *b) { free(b); }
static int buf_len(const buf *b) { return b->n; }
static int name_len(const char *s) { return s[0]; }
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Allocator is a user-supplied pair of functions held in a struct field.
type Allocator struct {
	Free func(unsafe.Pointer)
}

var alloc = &Allocator{Free: func(p unsafe.Pointer) { C.free(p) }}

// releaseVia hands the pointer to the function value of a field: unknown
// code, which may release it.
func releaseVia(a *Allocator, p unsafe.Pointer) { a.Free(p) }

func FieldFunc(s string) int {
	cs := C.CString(s)
	defer releaseVia(alloc, unsafe.Pointer(cs))
	return int(C.name_len(cs))
}

// disposer is an interface of another shape: a method of a handle type.
type disposer interface{ Dispose(*C.buf) }

type cDisposer struct{}

func (cDisposer) Dispose(b *C.buf) { C.buf_free(b) }

type pool struct{ d disposer }

// put hands the handle to the pool's interface, through a method.
func (p *pool) put(b *C.buf) { p.d.Dispose(b) }

func Method(p *pool, n int) int {
	b := C.buf_new(C.int(n))
	k := int(C.buf_len(b))
	p.put(b)
	return k
}

// withCallback passes the handle to a callback it was given: the callback
// is the caller's code, unknown here.
func withCallback(b *C.buf, done func(*C.buf)) { done(b) }

func Callback(n int, done func(*C.buf)) int {
	b := C.buf_new(C.int(n))
	k := int(C.buf_len(b))
	withCallback(b, done)
	return k
}

// queue sends the handle to a channel: another goroutine may release it.
var freeq = make(chan *C.buf, 16)

func enqueue(b *C.buf) { freeq <- b }

func Queued(n int) int {
	b := C.buf_new(C.int(n))
	k := int(C.buf_len(b))
	enqueue(b)
	return k
}

// Helpers that provably only read their parameter release nothing: the
// leak stays reported.

// label reads the handle: a nil test and a constant result.
func label(b *C.buf) string {
	if b == nil {
		return "none"
	}
	return "buf"
}

// describe formats a count, not the handle.
func describe(b *C.buf, n int) string { return fmt.Sprint(n) + label(b) }

func ReadOnly(n int) int {
	b := C.buf_new(C.int(n)) // want `the handle C.buf_new returns is not released on every path`
	_ = describe(b, n)
	return int(C.buf_len(b))
}

func ReadOnlyFixed(n int) int {
	b := C.buf_new(C.int(n))
	defer C.buf_free(b)
	_ = describe(b, n)
	return int(C.buf_len(b))
}
