// Package keepalive is cgo code for the fixes tests.
package keepalive

/*
#include <stdlib.h>
typedef struct { int live; } obj;
static obj* obj_new(void) { return malloc(sizeof(obj)); }
static void obj_use(obj* o) { o->live = 1; }
static void obj_free(obj* o) { free(o); }
*/
import "C"

import "runtime"

// Obj owns a C object.
type Obj struct{ p *C.obj }

// Use passes o's handle to C.
func (o *Obj) Use() {
	p := o.p
	C.obj_use(p)
}

// Free frees the handle.
func Free(p *C.obj) { C.obj_free(p) }

var _ = runtime.KeepAlive
