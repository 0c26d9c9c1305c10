// Package counted: a counted release that leaves a reference the path took
// (a constructor's and a retain's, one dropped) does not release the
// object, so using it afterwards is no use after release; the release of
// the last one is.
package counted

/*
#include <stdlib.h>
typedef void *gpointer;
typedef struct { int refs; } GObject;
static gpointer g_object_new_with_properties(int type, unsigned n, void *names, void *values) { GObject *o = calloc(1, sizeof(GObject)); o->refs = 1; return o; }
static gpointer g_object_ref(gpointer o) { ((GObject *)o)->refs++; return o; }
static void g_object_unref(gpointer o) { if (--((GObject *)o)->refs == 0) free(o); }
static void g_object_notify(gpointer o, const char *name) {}

typedef struct obj { int refs; } obj;
static obj *obj_new(void) { obj *o = calloc(1, sizeof(obj)); o->refs = 1; return o; }
static obj *obj_ref(obj *o) { o->refs++; return o; }
static void obj_unref(obj *o) { if (--o->refs == 0) free(o); }
static void obj_use(obj *o) {}
static gpointer mkobj(void) { GObject *o = calloc(1, sizeof(GObject)); o->refs = 1; return o; }
*/
import "C"

func balancedUse() {
	o := C.g_object_new_with_properties(0, 0, nil, nil)
	C.g_object_ref(o)
	C.g_object_unref(o)
	C.g_object_notify(o, nil) // still holds the constructor's reference
	C.g_object_unref(o)
}

func lastUse() {
	o := C.g_object_new_with_properties(0, 0, nil, nil)
	C.g_object_ref(o)
	C.g_object_unref(o)
	C.g_object_unref(o)
	C.g_object_notify(o, nil) // want `o is passed to C.g_object_notify after C.g_object_unref released it`
}

// The package's own pair, the handle from its own C: between the releases
// the object is held.
func ownUse() {
	o := C.obj_new()
	C.obj_ref(o)
	C.obj_unref(o)
	C.obj_use(o)
	C.obj_unref(o)
}

// A wrapper's Close past the last reference is a double release
// (doublerelease reports it), not also a use after release: the drop is
// Close's release, not a use.
type gwrap struct{ o C.gpointer }

func (w *gwrap) ref()   { C.g_object_ref(w.o) }
func (w *gwrap) close() { C.g_object_unref(w.o) }

func wrapperCloses() {
	w := &gwrap{o: C.mkobj()}
	w.ref()
	w.close()
	w.close()
	w.close()
}
