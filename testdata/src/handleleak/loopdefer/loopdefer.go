// Package loopdefer: handles acquired on each iteration of a loop and
// released by a call deferred on the same iteration.
package loopdefer

/*
#include <stdlib.h>
typedef struct obj { int live; } obj;
static obj* obj_new(void) { return malloc(sizeof(obj)); }
static void obj_free(obj* o) { free(o); }
static void use(char* s) {}
static int obj_create(obj** out) { *out = malloc(sizeof(obj)); return 0; }
*/
import "C"

import "unsafe"

// Every iteration's string released by its own deferred call: none leaks.
func names(ns []string) {
	for _, n := range ns {
		p := C.CString(n)
		defer C.free(unsafe.Pointer(p))
		C.use(p)
	}
}

// The iteration that skips the defer leaks its string.
func namesSkip(ns []string) {
	for _, n := range ns {
		p := C.CString(n) // want `the handle C.CString returns is not released on every path`
		if n == "x" {
			continue
		}
		defer C.free(unsafe.Pointer(p))
	}
}

// A 3-clause loop left by a break, the release in a deferred closure.
func objects(n int) {
	for i := 0; ; i++ {
		o := C.obj_new()
		defer func() { C.obj_free(o) }()
		if i == n {
			break
		}
	}
}

// Every iteration's handle, written by the C call into h, released by its
// own deferred call: none leaks.
func outParams(n int) {
	var h *C.obj
	for i := 0; i < n; i++ {
		C.obj_create(&h)
		defer C.obj_free(h)
	}
}
