// Package constloop: a counting loop whose counter starts below a constant
// bound runs its first trip, so the path that skips it is not one the
// program takes; with a bound the code does not fix, it is.
package constloop

/*
#include <stdlib.h>
typedef struct obj { int refs; } obj;
static obj *obj_new(void) { obj *o = calloc(1, sizeof(obj)); o->refs = 1; return o; }
static obj *obj_ref(obj *o) { o->refs++; return o; }
static void obj_unref(obj *o) { if (--o->refs == 0) free(o); }
*/
import "C"

// The first trip releases p.
func firstTrip() {
	p := C.malloc(8)
	for i := 0; i < 3; i++ {
		C.free(p)
		break
	}
}

// n may be 0: the loop may release nothing.
func maybeNoTrip(n int) {
	p := C.malloc(8) // want `the handle C.malloc returns is not released on every path`
	for i := 0; i < n; i++ {
		C.free(p)
		break
	}
}

// Counted down to a constant: the first trip too.
func countDown() {
	p := C.malloc(8)
	for i := 0; i > -2; i-- {
		C.free(p)
		break
	}
}

// Three retains and four releases, both loops bounded by constants:
// balanced (breakit9 F_refloop).
func refLoop() {
	o := C.obj_new()
	for i := 0; i < 3; i++ {
		C.obj_ref(o)
	}
	for i := 0; i < 4; i++ {
		C.obj_unref(o)
	}
}
