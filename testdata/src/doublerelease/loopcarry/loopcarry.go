// Package loopcarry: a handle a loop's trip makes and carries into the
// next trip (through a phi, or a variable cgo's wrapper keeps in memory)
// is the previous trip's there, and the trip makes a new one under the
// same name: releasing the carried one is no double release, and the new
// one is live. Each correct shape beside the bug it resembles.
package loopcarry

/*
#include <stdlib.h>
typedef struct obj { int live; struct obj *next; } obj;
static obj *obj_new(void) { return calloc(1, sizeof(obj)); }
static void obj_free(obj *o) { free(o); }
static int obj_use(obj *o) { return o->live; }
static obj *obj_next(obj *o) { return o->next; }
static obj *list3(void) { obj *a = obj_new(), *b = obj_new(), *c = obj_new(); a->next = b; b->next = c; return a; }
*/
import "C"

// A rotation: each trip frees the current handle and keeps the new one.
func rotate() {
	cur := C.obj_new()
	for i := 0; i < 3; i++ {
		next := C.obj_new()
		C.obj_free(cur)
		cur = next
	}
	C.obj_use(cur)
	C.obj_free(cur)
}

// The previous trip's handle, freed on the next trip and after the loop.
func keepPrev() {
	var prev *C.obj
	for i := 0; i < 3; i++ {
		o := C.obj_new()
		if prev != nil {
			C.obj_free(prev)
		}
		prev = o
	}
	C.obj_free(prev)
}

// Freed once more after the loop: reported.
func keepPrevTwice() {
	var prev *C.obj
	for i := 0; i < 3; i++ {
		o := C.obj_new()
		if prev != nil {
			C.obj_free(prev)
		}
		prev = o
	}
	C.obj_free(prev)
	C.obj_free(prev) // want `prev is released twice`
}

// A list freed item by item, the next item read through a C accessor
// before the free (cgo keeps cur in memory for its pointer check).
func freeList() {
	cur := C.list3()
	for cur != nil {
		next := C.obj_next(cur)
		C.obj_free(cur)
		cur = next
	}
}

// Each item freed twice: reported.
func freeListTwice() {
	cur := C.list3()
	for cur != nil {
		next := C.obj_next(cur)
		C.obj_free(cur)
		C.obj_free(cur) // want `cur is released twice`
		cur = next
	}
}
