// Package rangefunc checks that a finding in a range-over-func loop body
// names the loop variable, not go/ssa's parameter of the body (arg0).
package rangefunc

/*
#include <stdlib.h>
typedef struct { int live; } obj;
static obj* obj_new(void) { return calloc(1, sizeof(obj)); }
static void obj_free(obj* o) { free(o); }
*/
import "C"

import (
	"iter"
	"runtime"
	"slices"
)

type W struct{ o *C.obj }

func New() *W {
	w := &W{o: C.obj_new()}
	runtime.SetFinalizer(w, func(w *W) { C.obj_free(w.o) })
	return w
}

// FreeAll frees each W's object and leaves its finalizer armed.
func FreeAll(ws []*W) {
	for _, w := range slices.All(ws) {
		C.obj_free(w.o) // want `^w\.o is released here and again by the finalizer set at line 23 .*runtime\.SetFinalizer\(w, nil\)`
	}
}

// FreeSeq does the same over a one-value sequence.
func FreeSeq(seq iter.Seq[*W]) {
	for x := range seq {
		C.obj_free(x.o) // want `^x\.o is released here .*runtime\.SetFinalizer\(x, nil\)`
	}
}

// FreeDisarmed disarms each finalizer first.
func FreeDisarmed(ws []*W) {
	for _, w := range slices.All(ws) {
		runtime.SetFinalizer(w, nil)
		C.obj_free(w.o)
	}
}
