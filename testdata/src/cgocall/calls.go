// Package cgocall exercises every form of call into C that cgo produces.
package cgocall

/*
#include <stdlib.h>
#include <errno.h>
typedef struct { int live; } obj;
typedef struct { void* p; } holder;
static obj* obj_new(void) { return malloc(sizeof(obj)); }
static void obj_free(obj* o) { free(o); }
static int take_ptr(void* p) { return 0; }
static int fill(holder* h) { return 0; }
static int fails(void) { errno = 1; return -1; }
*/
import "C"

import "unsafe"

type T struct {
	o *C.obj
	h C.holder
}

func forms(t *T, s string) {
	o := C.obj_new()                // want `C.obj_new\(\) direct`
	C.obj_free(o)                   // want `C.obj_free\(o\) direct`
	p := C.CString(s)               // want `C.CString\(s\) direct`
	defer C.free(unsafe.Pointer(p)) // want `C.free\(p\) deferred`
	C.take_ptr(unsafe.Pointer(p))   // want `C.take_ptr\(p\) direct`
	defer C.obj_free(t.o)           // want `C.obj_free\(t.o\) deferred`
	C.fill(&t.h)                    // want `C.fill\(&t.h\) direct`
	_, err := C.fails()             // want `C.fails\(\) direct`
	_ = err
	m := C.malloc(8) // want `C.malloc\(8\) direct`
	go C.take_ptr(m) // want `C.take_ptr\(m\) spawned`
	defer func() {
		C.free(m) // want `C.free\(m\) direct`
	}()
	// An argument that calls C runs inside the wrapper of the outer call.
	C.free(C.malloc(1))                           // want `C.malloc\(1\) direct` `C.free\(\?C.malloc\(1\)\) direct`
	defer C.take_ptr(unsafe.Pointer(C.obj_new())) // want `C.obj_new\(\) direct` `C.take_ptr\(\?C.obj_new\(\)\) deferred`
}
