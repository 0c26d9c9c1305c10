// Package initlife holds the handleleak cases of handles that live for the
// process: created by init or by a test's TestMain.
package initlife

/*
#include <stdlib.h>
typedef int CUresult;
typedef struct CUctx_st { int live; } *CUcontext;
typedef struct cublasContext *cublasHandle_t;
static CUresult cuInit(unsigned flags) { return 0; }
static CUresult cuCtxCreate(CUcontext *c, unsigned flags, int dev) { return 0; }
static CUresult cuCtxDestroy(CUcontext c) { return 0; }
static int cublasCreate(cublasHandle_t *h) { return 0; }

//lifetime:acquire zz_lib_open
//lifetime:release zz_lib_close arg=0
typedef struct zz_lib { int n; } zz_lib;
static zz_lib *zz_lib_open(const char *name) { return 0; }
static void zz_lib_close(zz_lib *l) { }
*/
import "C"

import (
	"errors"
	"log"
	"os"
	"unsafe"
)

type Lib struct{ l *C.zz_lib }

var (
	defaultCtx C.CUcontext
	handles    []C.cublasHandle_t
	libs       = map[string]*Lib{}
	names      []*C.char
	std        *Lib
)

// Stored in a package-level variable by init: it lives for the process.
func init() {
	var ctx C.CUcontext
	if C.cuCtxCreate(&ctx, 0, 0) != 0 {
		return
	}
	defaultCtx = ctx
}

// Appended to a package-level slice.
func init() {
	for range 2 {
		var h C.cublasHandle_t
		if C.cublasCreate(&h) != 0 {
			log.Fatal("no cublas")
		}
		handles = append(handles, h)
	}
	name := C.CString("std")
	names = append(names, name)
}

// Through a constructor, kept in a map and a variable.
func open(name string) (*Lib, error) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	l := C.zz_lib_open(cs)
	if l == nil {
		return nil, errors.New("no library")
	}
	return &Lib{l: l}, nil
}

func init() {
	l, err := open("std")
	if err != nil {
		log.Fatalf("open: %v", err)
	}
	libs["std"] = l
	std, _ = open("fallback")
}

// Acquired by init and dropped on one path: init runs once, and what it
// holds lives for the process.
var (
	scratch unsafe.Pointer
	small   bool
)

func init() {
	p := C.malloc(64)
	if small {
		return
	}
	scratch = p
}

// A Go acquirer of the raw handle, for the test's TestMain.
func openRaw(name string) (*C.zz_lib, error) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	l := C.zz_lib_open(cs)
	if l == nil {
		return nil, errors.New("no library")
	}
	return l, nil
}

// A context made current for the process before os.Exit.
func Main(run func() int) {
	var ctx C.CUcontext
	if C.cuCtxCreate(&ctx, 0, 0) != 0 {
		os.Exit(1)
	}
	os.Exit(run())
}

// Not init: a context created and dropped on the error path leaks.
func setup(fail bool) error {
	var ctx C.CUcontext
	if C.cuCtxCreate(&ctx, 0, 0) != 0 { // want `the handle C.cuCtxCreate acquires into ctx is not released on every path`
		return errors.New("no context")
	}
	if fail {
		return errors.New("later failure")
	}
	defaultCtx = ctx
	return nil
}
