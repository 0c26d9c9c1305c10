// Package loopdefer: defer statements inside loops. Each run of a defer
// statement registers one more deferred call, of the arguments as they are
// then: a handle computed on each iteration is another handle each time,
// and each is released once by its own call; one that is the same on every
// iteration is released once per iteration.
package loopdefer

/*
#include <stdlib.h>
typedef struct obj { int live; } obj;
static obj* obj_new(void) { return malloc(sizeof(obj)); }
static void obj_free(obj* o) { free(o); }
static int obj_create(obj** out) { *out = malloc(sizeof(obj)); return 0; }
*/
import "C"

// Each handle of a slice released by its own deferred call (break-it
// trial 5: the analysis of this function used to stop at its budget).
func freeAll(hs []*C.obj) {
	for _, h := range hs {
		defer C.obj_free(h)
	}
}

// Released by the deferred call and again right away, on every iteration.
func freeEachTwice(hs []*C.obj) {
	for _, h := range hs {
		defer C.obj_free(h)
		C.obj_free(h) // want `h is released here and again by the deferred C.obj_free at line 28 when freeEachTwice returns`
	}
}

// freePair releases both of its arguments.
func freePair(p, h *C.obj) {
	C.obj_free(p)
	C.obj_free(h)
}

// p is the same on every iteration: each deferred call releases it.
func sharedArg(p *C.obj, hs []*C.obj) {
	for _, h := range hs {
		defer freePair(p, h) // want `p is released by a deferred freePair registered on each iteration of a loop`
	}
}

// Corrected: p released once, by a call deferred before the loop (it runs
// after the loop's).
func sharedArgOK(p *C.obj, hs []*C.obj) {
	defer C.obj_free(p)
	for _, h := range hs {
		defer C.obj_free(h)
	}
}

type wrap struct{ o *C.obj }

func newWrap() *wrap { return &wrap{o: C.obj_new()} }

func (w *wrap) Close() { C.obj_free(w.o) }

// The same wrapper closed by a deferred call registered on each iteration.
func closeSame(n int) {
	w := newWrap()
	for i := 0; i < n; i++ {
		defer w.Close() // want `w.o is released by a deferred \(\*wrap\).Close registered on each iteration of a loop`
	}
}

// Corrected: a wrapper per iteration, closed by its own deferred call, in a
// loop left by a break.
func closeEach(n int) {
	for i := 0; i < n; i++ {
		w := newWrap()
		defer w.Close()
		if i > 3 {
			break
		}
	}
}

// A method value of a wrapper made on each iteration.
func closeEachValue(n int) {
	for i := 0; i < n; i++ {
		closeFn := newWrap().Close
		defer closeFn()
	}
}

// A deferred closure over a handle declared in the body of a range over a
// map: each closure frees its own iteration's handle.
func closureEach(m map[string]int) {
	for k := range m {
		o := C.obj_new()
		defer func() { C.obj_free(o) }()
		_ = k
	}
}

// A deferred closure over a variable declared before the loop: every
// closure reads it when it runs, and they all free the last handle.
func closureShared(m map[string]int) {
	var o *C.obj
	for range m {
		o = C.obj_new()
		defer func() { C.obj_free(o) }() // want `released by a deferred function literal`
	}
}

// Each iteration's C call writes a new handle into h: each deferred call
// releases its own (the call's result is another value on each run).
func outParamEach(n int) {
	var h *C.obj
	for i := 0; i < n; i++ {
		C.obj_create(&h)
		defer C.obj_free(h)
	}
}

// The handle is written once, before the loop: every deferred call
// releases it.
func outParamOnce(n int) {
	var h *C.obj
	C.obj_create(&h)
	for i := 0; i < n; i++ {
		defer C.obj_free(h) // want `h is released by a deferred C.obj_free registered on each iteration of a loop`
	}
}

// Through a field, each iteration's handle written by the C call.
type holder struct{ h *C.obj }

func (x *holder) outParamField(n int) {
	for i := 0; i < n; i++ {
		C.obj_create(&x.h)
		defer C.obj_free(x.h)
	}
}
