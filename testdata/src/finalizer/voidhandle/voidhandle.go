// Package voidhandle checks finalizers that release handles typed void *,
// a typedef of void * or an integer, through functions of the package's
// own C that pass the parameter to free (or to another such function) on
// every path: the finalizer's release is seen, though no name fits the
// handle's type.
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
static void ih_drop(ih h) { if (h) free((void *)(h)); }
static int ih_get(ih h) { return *(int *)h; }

static void *raw_new(void) { return calloc(1, 8); }
static void raw_release(void *p) { free(p); }
static void raw_done(void *p) { raw_release(p); }
static int raw_get(void *p) { return *(int *)p; }

// a callback's user data: used, not released
static int on_event(void *user_data) { return user_data != NULL; }

// declared only, and its name does not name the handle's type: which
// argument it releases, if any, is not known
void widget_free(vh w);
*/
import "C"

import (
	"runtime"
	"unsafe"
)

type Typed struct{ h C.vh }

func NewTyped() *Typed {
	t := &Typed{C.vh_new()}
	runtime.SetFinalizer(t, func(t *Typed) { C.vh_finish(t.h) })
	return t
}

func (t *Typed) Get() int {
	return int(C.vh_get(t.h)) // want `t may be collected while C.vh_get runs with t.h`
}

func (t *Typed) GetOK() int {
	defer runtime.KeepAlive(t)
	return int(C.vh_get(t.h))
}

type Int struct{ h C.ih }

func NewInt() *Int {
	i := &Int{C.ih_new()}
	runtime.SetFinalizer(i, func(i *Int) { C.ih_drop(i.h) })
	return i
}

func (i *Int) Get() int {
	return int(C.ih_get(i.h)) // want `i may be collected while C.ih_get runs with i.h`
}

func (i *Int) GetOK() int {
	n := C.ih_get(i.h)
	runtime.KeepAlive(i)
	return int(n)
}

// released through a method the finalizer calls
type Raw struct{ p unsafe.Pointer }

func NewRaw() *Raw {
	r := &Raw{C.raw_new()}
	runtime.SetFinalizer(r, (*Raw).free)
	return r
}

func (r *Raw) free() { C.raw_done(r.p) }

func (r *Raw) Get() int {
	return int(C.raw_get(r.p)) // want `r may be collected while C.raw_get runs with r.p`
}

// Known negatives: a finalizer that hands the pointer to a callback as its
// user data, and one that calls a declared-only function whose name does
// not name the handle's type, release nothing the analysis can see.
type Event struct{ p unsafe.Pointer }

func NewEvent() *Event {
	e := &Event{C.raw_new()}
	runtime.SetFinalizer(e, func(e *Event) { C.on_event(e.p) })
	return e
}

func (e *Event) Get() int { return int(C.raw_get(e.p)) }

type Widget struct{ w C.vh }

func NewWidget() *Widget {
	w := &Widget{C.vh_new()}
	runtime.SetFinalizer(w, func(w *Widget) { C.widget_free(w.w) })
	return w
}

func (w *Widget) Get() int { return int(C.vh_get(w.w)) }
