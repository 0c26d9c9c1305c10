// Package nested checks handles held in a struct value inside the object
// (o.in.h, an embedded Inner's h): the finalizer's release and the call's
// argument read the same field however go/ssa compiles the selection.
package nested

/*
#include <stdlib.h>
typedef struct { int live; } obj;
static obj* obj_new(void) { return calloc(1, sizeof(obj)); }
static void obj_free(obj* o) { free(o); }
static int obj_use(obj* o) { return o->live; }
*/
import "C"

import "runtime"

type Inner struct{ h *C.obj }

type Named struct {
	name string
	in   Inner
}

func NewNamed() *Named {
	o := &Named{in: Inner{h: C.obj_new()}}
	runtime.SetFinalizer(o, func(o *Named) { C.obj_free(o.in.h) })
	return o
}

func (o *Named) Use() int {
	return int(C.obj_use(o.in.h)) // want `o may be collected while C.obj_use runs with o.in.h`
}

func (o *Named) Kept() int {
	n := C.obj_use(o.in.h)
	runtime.KeepAlive(o)
	return int(n)
}

type Emb struct {
	Inner
}

func NewEmb() *Emb {
	o := &Emb{Inner{h: C.obj_new()}}
	runtime.SetFinalizer(o, (*Emb).free)
	return o
}

func (o *Emb) free() { C.obj_free(o.h) }

func (o *Emb) Use() int {
	return int(C.obj_use(o.h)) // want `o may be collected while C.obj_use runs with o.h`
}

// Copied: the handle read out of a copy of the inner struct, then the
// object is kept.
func (o *Emb) Copied() int {
	in := o.Inner
	n := C.obj_use(in.h)
	runtime.KeepAlive(o)
	return int(n)
}

// Outer's finalizer is Emb's free, promoted: the message names it as the
// registration writes it.
type Outer struct{ Emb }

func NewOuter() *Outer {
	o := &Outer{Emb{Inner{h: C.obj_new()}}}
	runtime.SetFinalizer(o, (*Outer).free)
	return o
}

func (o *Outer) Peek() int {
	return int(C.obj_use(o.h)) // want `o may be collected while C.obj_use runs with o.h: .*the finalizer set at line \d+ \(\(\*Outer\).free\)`
}
