// Package counted: leaks of counted references. A retain the path balances
// leaks nothing; one whose reference the path may still owe is not
// reported when the retain may add nothing (g_object_ref_sink of a floating
// object takes over the reference it had).
package counted

/*
#include <stdlib.h>
typedef void *gpointer;
typedef struct { int refs; } GObject;
static gpointer g_object_new_with_properties(int type, unsigned n, void *names, void *values) { GObject *o = calloc(1, sizeof(GObject)); o->refs = 1; return o; }
static gpointer g_object_ref_sink(gpointer o) { return o; }
static gpointer g_object_ref(gpointer o) { ((GObject *)o)->refs++; return o; }
static void g_object_unref(gpointer o) { if (--((GObject *)o)->refs == 0) free(o); }

typedef struct obj { int refs; } obj;
static obj *obj_new(void) { obj *o = calloc(1, sizeof(obj)); o->refs = 1; return o; }
static obj *obj_ref(obj *o) { o->refs++; return o; }
static void obj_unref(obj *o) { if (--o->refs == 0) free(o); }
*/
import "C"

// A floating object sunk: one reference, one release.
func sunk() {
	o := C.g_object_new_with_properties(0, 0, nil, nil)
	C.g_object_ref_sink(o)
	C.g_object_unref(o)
}

func balanced() {
	o := C.g_object_new_with_properties(0, 0, nil, nil)
	C.g_object_ref(o)
	C.g_object_unref(o)
	C.g_object_unref(o)
}

// Never released.
func never() {
	o := C.g_object_new_with_properties(0, 0, nil, nil) // want `the handle C.g_object_new_with_properties returns is not released on every path`
	_ = o
}

// The package's own pair: the retain is balanced on every path.
func ownBalanced(fail bool) {
	o := C.obj_new()
	C.obj_ref(o)
	if fail {
		C.obj_unref(o)
		return
	}
	C.obj_unref(o)
	C.obj_unref(o)
}

// A retain never dropped.
func ownKept() {
	o := C.obj_new()
	C.obj_ref(o) // want `the handle C.obj_ref returns is not released on every path`
}

// A retain of a handle the caller holds, kept: the caller's to drop (a
// Retain helper).
func ownRetainParam(o *C.obj) {
	C.obj_ref(o)
}
