// Package deferred: defer runtime.SetFinalizer(&local, f) on a variable
// whose value is then returned by copy, the shape c-for-go generates: the
// finalizer is set on the variable, which dies when the function returns,
// and frees what the returned copy still points to.
package deferred

/*
#include <stdlib.h>
typedef struct { int kind; void* next; } submit_info;
typedef struct { int n; } buf;
static buf* buf_new(void) { return calloc(1, sizeof(buf)); }
static void buf_free(buf* b) { free(b); }
*/
import "C"

import (
	"runtime"
	"sync"
	"unsafe"
)

// The allocation map c-for-go keeps next to each converted value.
type allocMap struct {
	mu sync.Mutex
	m  map[unsafe.Pointer]struct{}
}

func (a *allocMap) Add(p unsafe.Pointer) {
	a.mu.Lock()
	if a.m == nil {
		a.m = map[unsafe.Pointer]struct{}{}
	}
	a.m[p] = struct{}{}
	a.mu.Unlock()
}

func (a *allocMap) Free() {
	if a == nil {
		return
	}
	a.mu.Lock()
	for p := range a.m {
		C.free(p)
		delete(a.m, p)
	}
	a.mu.Unlock()
}

type SubmitInfo struct{ Kind int }

// unpackSubmitInfos converts Go values into a C array whose memory the
// deferred finalizer frees once the variable unpacked is collected.
func unpackSubmitInfos(x []SubmitInfo) (unpacked *C.submit_info, allocs *allocMap) {
	if x == nil {
		return nil, nil
	}
	allocs = new(allocMap)
	defer runtime.SetFinalizer(&unpacked, func(**C.submit_info) { // want `the finalizer is set on &unpacked, but unpacked is returned by value`
		go allocs.Free()
	})
	mem := C.calloc(C.size_t(len(x)), C.size_t(unsafe.Sizeof(C.submit_info{})))
	allocs.Add(mem)
	unpacked = (*C.submit_info)(mem)
	return
}

// A struct value returned by copy.
type Buf struct{ b *C.buf }

func NewBuf() Buf {
	var b Buf
	b.b = C.buf_new()
	defer runtime.SetFinalizer(&b, func(b *Buf) { C.buf_free(b.b) }) // want `the finalizer is set on &b, but b is returned by value`
	return b
}

// Returning the pointer the finalizer is set on is right.
func NewBufPtr() *Buf {
	var b Buf
	b.b = C.buf_new()
	defer runtime.SetFinalizer(&b, func(b *Buf) { C.buf_free(b.b) })
	return &b
}

// A finalizer that releases nothing leaves the copy intact.
func countedInfos(x []SubmitInfo, n *int) (unpacked *C.submit_info) {
	defer runtime.SetFinalizer(&unpacked, func(**C.submit_info) { *n-- })
	*n++
	return nil
}
