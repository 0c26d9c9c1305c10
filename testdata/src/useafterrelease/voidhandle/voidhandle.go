// Package voidhandle holds useafterrelease cases of handles typed void *,
// a typedef of void * and an integer, released by functions of the
// package's own C whose bodies pass the parameter to free on every path
// (or every path where it is not NULL).
package voidhandle

/*
#include <stdlib.h>
#include <stdint.h>

typedef void *vh;
typedef uintptr_t ih;

static vh vh_new(void) { return calloc(1, 8); }
static void vh_finish(vh o) { free(o); }
static int vh_get(vh o) { return *(int *)o; }

static ih ih_new(void) { return (ih)calloc(1, 8); }
static int ih_drop(ih h) { if (!h) return -1; free((void *)h); return 0; }
static int ih_get(ih h) { return *(int *)h; }

static void *raw_new(void) { return calloc(1, 8); }
static void raw_done(void *p) { if (p != NULL) { free(p); } }
static int raw_get(void *p) { return *(int *)p; }

// not a release: only when asked
static void vh_maybe(vh o, int keep) { if (keep == 0) free(o); }
*/
import "C"

import "unsafe"

func TypedefAfter() int {
	h := C.vh_new()
	C.vh_finish(h)
	return int(C.vh_get(h)) // want `h is passed to C.vh_get after C.vh_finish released it at line 35`
}

func TypedefBefore() int {
	h := C.vh_new()
	n := int(C.vh_get(h))
	C.vh_finish(h)
	return n
}

func IntegerAfter() int {
	h := C.ih_new()
	C.ih_drop(h)
	return int(C.ih_get(h)) // want `h is passed to C.ih_get after C.ih_drop released it at line 48`
}

func IntegerBefore() int {
	h := C.ih_new()
	defer C.ih_drop(h)
	return int(C.ih_get(h))
}

// a field of a Go value, in a method
type Raw struct{ p unsafe.Pointer }

func (r *Raw) CloseThenGet() int {
	C.raw_done(r.p)
	return int(C.raw_get(r.p)) // want `r.p is passed to C.raw_get after C.raw_done released it at line 62`
}

func (r *Raw) GetThenClose() int {
	n := int(C.raw_get(r.p))
	C.raw_done(r.p)
	r.p = nil
	return n
}

func NewRaw() *Raw { return &Raw{C.raw_new()} }

// Known negative: vh_maybe frees on some paths only.
func Maybe() int {
	h := C.vh_new()
	C.vh_maybe(h, 1)
	return int(C.vh_get(h))
}
