// Package handleleak holds the analysistest cases of the handleleak
// analyzer: each bug beside its corrected version.
package handleleak

/*
#include <stdlib.h>
#include <string.h>
typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st { int live; } *CUcontext;
typedef int CUdevice;
static CUresult cuMemAlloc(CUdeviceptr *p, size_t n) { *p = (CUdeviceptr)malloc(n); return 0; }
static CUresult cuMemFree(CUdeviceptr p) { free((void*)p); return 0; }
static CUresult cuCtxGetCurrent(CUcontext *c) { *c = 0; return 0; }
static CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) { return 0; }
static CUresult cuDevicePrimaryCtxRelease(CUdevice d) { return 0; }
static void keep(void* p) { }
*/
import "C"

import (
	"errors"
	"unsafe"
)

// An error return between the acquisition and the release.
func name(s string) error {
	p := C.CString(s) // want `the handle C.CString returns is not released on every path \(the return at line 30 leaks it\); release it \(C.free\) on that path`
	if C.strlen(p) == 0 {
		return errors.New("empty")
	}
	C.free(unsafe.Pointer(p))
	return nil
}

// Corrected with a defer.
func nameOK(s string) error {
	p := C.CString(s)
	defer C.free(unsafe.Pointer(p))
	if C.strlen(p) == 0 {
		return errors.New("empty")
	}
	return nil
}

// A failed acquisition holds nothing.
func alloc(n int) (C.CUdeviceptr, error) {
	var p C.CUdeviceptr
	if C.cuMemAlloc(&p, C.size_t(n)) != 0 {
		return 0, errors.New("alloc failed")
	}
	return p, nil
}

// A nil result holds nothing.
func mallocOK(n int) error {
	p := C.malloc(C.size_t(n))
	if p == nil {
		return errors.New("out of memory")
	}
	C.free(p)
	return nil
}

// Returned, stored or handed on: not a leak.
type Buf struct{ p unsafe.Pointer }

func newBuf(n int) *Buf {
	b := &Buf{}
	b.p = C.malloc(C.size_t(n))
	return b
}

var global unsafe.Pointer

func stash(n int) {
	global = C.malloc(C.size_t(n))
}

func handOn(n int, sink func(unsafe.Pointer)) {
	p := C.malloc(C.size_t(n))
	sink(p)
}

// A borrowed handle needs no release.
func current() C.CUcontext {
	var c C.CUcontext
	C.cuCtxGetCurrent(&c)
	return nil
}

// A primary context retain needs its release.
func retain(dev C.CUdevice, fail bool) error {
	var c C.CUcontext
	if C.cuDevicePrimaryCtxRetain(&c, dev) != 0 { // want `the handle C.cuDevicePrimaryCtxRetain acquires into c is not released on every path`
		return errors.New("retain failed")
	}
	if fail {
		return errors.New("later failure")
	}
	C.cuDevicePrimaryCtxRelease(dev)
	return nil
}

// A Go function that returns a fresh handle passes the duty to its caller.
func useAlloc(n int) error {
	p, err := alloc(n) // want `the handle alloc returns is not released on every path`
	if err != nil {
		return err
	}
	if n > 100 {
		return errors.New("too big")
	}
	C.cuMemFree(p)
	return nil
}

// freeNested releases what it allocates in one expression: cgo turns the
// call into a closure that checks the pointer, and the release is inside it.
func freeNested() { C.free(C.malloc(1)) }

// The leak at the end of a function with no return statement.
func noReturn() {
	p := C.malloc(8) // want `the handle C.malloc returns is not released on every path \(the end of the function at line 126 leaks it\)`
	_ = p
}

// One directive at the acquisition silences the finding at the return too.
func ignored(fail bool) error {
	//lifetime:ignore handleleak the buffer is handed to C's allocator tracking in a later release
	p := C.malloc(8)
	if fail {
		return errors.New("fail")
	}
	C.free(p)
	return nil
}
