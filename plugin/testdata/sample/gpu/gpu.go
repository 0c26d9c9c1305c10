// Package gpu is a cgo binding with a double release.
package gpu

/*
#include <stdlib.h>
typedef struct { int live; } obj;
static obj* obj_new(void) { return malloc(sizeof(obj)); }
static void obj_free(obj* o) { free(o); }
static obj* retired; static void obj_retire(obj* o) { o->live = 0; retired = o; }
*/
import "C"

// Obj owns a C object.
type Obj struct{ p *C.obj }

// New returns a new Obj.
func New() *Obj { return &Obj{p: C.obj_new()} }

// Close releases the C object.
func (o *Obj) Close() { C.obj_free(o.p) }

// Twice releases a handle twice.
func Twice() {
	o := C.obj_new()
	C.obj_free(o)
	C.obj_free(o)
}

// Retire releases a handle twice through obj_retire, which only a model
// file says releases its argument (its body keeps it and frees nothing).
func Retire() {
	o := C.obj_new()
	C.obj_retire(o)
	C.obj_retire(o)
}
