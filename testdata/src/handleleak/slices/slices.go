// Package slices holds the handleleak cases of C memory handed out as the
// backing array of a Go slice or string.
package slices

/*
#include <stdlib.h>
typedef struct { float x, y; } vec2;
static void fill(float *p, int n) { }
*/
import "C"

import (
	"errors"
	"reflect"
	"unsafe"
)

// The block is returned as the slice's backing array: the caller frees it.
func Floats(n int) []float32 {
	p := C.malloc(C.size_t(n) * 4)
	return unsafe.Slice((*float32)(p), n)
}

func Vecs(n int) ([]C.vec2, error) {
	if n <= 0 {
		return nil, errors.New("bad size")
	}
	p := (*C.vec2)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(C.vec2{}))))
	if p == nil {
		return nil, errors.New("out of memory")
	}
	return unsafe.Slice(p, n), nil
}

// A slice header built over it.
func Bytes(n int) []byte {
	p := C.malloc(C.size_t(n))
	var b []byte
	h := (*reflect.SliceHeader)(unsafe.Pointer(&b))
	h.Data, h.Len, h.Cap = uintptr(p), n, n
	return b
}

// An array pointer sliced.
func Ints(n int) []int32 {
	p := C.malloc(C.size_t(n) * 4)
	return (*[1 << 28]int32)(p)[:n:n]
}

// A string over C memory.
func Text(n int) string {
	p := C.malloc(C.size_t(n))
	return unsafe.String((*byte)(p), n)
}

// In a struct the caller receives.
type Buffer struct{ Data []float32 }

func NewBuffer(n int) *Buffer {
	p := C.malloc(C.size_t(n) * 4)
	return &Buffer{Data: unsafe.Slice((*float32)(p), n)}
}

// Freed through the slice.
func Sum(n int) float32 {
	p := C.malloc(C.size_t(n) * 4)
	s := unsafe.Slice((*float32)(p), n)
	defer C.free(unsafe.Pointer(&s[0]))
	C.fill((*C.float)(unsafe.Pointer(&s[0])), C.int(n))
	var t float32
	for _, x := range s {
		t += x
	}
	return t
}

// The slice is built, then dropped on an error path.
func SumLeak(n int) (float32, error) {
	p := C.malloc(C.size_t(n) * 4) // want `the handle C.malloc returns is not released on every path \(the return at line 82 leaks it\)`
	s := unsafe.Slice((*float32)(p), n)
	if n > 1024 {
		return 0, errors.New("too large")
	}
	var t float32
	for _, x := range s {
		t += x
	}
	C.free(p)
	return t, nil
}
