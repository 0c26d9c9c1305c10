// Package refcount holds the doublerelease cases of reference counting
// where the handle's count is not known: a retain adds a reference to the
// handle it is keyed on whatever its origin (the package's own C, a
// parameter, a field), so the releases that balance it are no double
// release. A retain is a model's keyed acquire (g_object_ref,
// clRetainContext) or, for C functions no model describes, a *_ref /
// *Retain whose pair *_unref / *Release the package also calls (the
// retain-name rule). Where the count is known (a counted constructor) or
// no retain was applied, a release too many is still reported.
package refcount

/*
#include <stdlib.h>

// GLib's names (the built-in glib model); g_object_new is variadic, so Go
// reaches it through a wrapper of the package's own C, as GLib code does
typedef void *gpointer;
typedef struct { int refs; } GObject;
static gpointer g_object_new_with_properties(int type, unsigned n, void *names, void *values) { return calloc(1, sizeof(GObject)); }
static gpointer g_object_ref(gpointer o) { ((GObject *)o)->refs++; return o; }
static void g_object_unref(gpointer o) { if (--((GObject *)o)->refs == 0) free(o); }
static gpointer mkobj(void) { GObject *o = calloc(1, sizeof(GObject)); o->refs = 1; return o; }

// the package's own reference counting: obj_ref pairs with obj_unref
typedef struct obj { int refs; } obj;
static obj *obj_new(void) { obj *o = calloc(1, sizeof(obj)); o->refs = 1; return o; }
static obj *obj_ref(obj *o) { o->refs++; return o; }
static void obj_unref(obj *o) { if (--o->refs == 0) free(o); }

// CoreFoundation-style names, glued: BoxRetain pairs with BoxRelease
typedef struct box { int refs; } *BoxRef;
static BoxRef BoxCreate(void) { BoxRef b = calloc(1, sizeof(struct box)); b->refs = 1; return b; }
static BoxRef BoxRetain(BoxRef b) { b->refs++; return b; }
static void BoxRelease(BoxRef b) { if (--b->refs == 0) free(b); }

// OpenCL's names (the built-in opencl model)
typedef struct _cl_context { int refs; } *cl_context;
static int clRetainContext(cl_context c) { c->refs++; return 0; }
static int clReleaseContext(cl_context c) { if (--c->refs == 0) free(c); return 0; }
*/
import "C"

import "unsafe"

// GLib: an object from the package's own C, retained with the result
// ignored (GLib code's rule), then released twice: balanced.
func gobjectOwnC() {
	o := C.mkobj()
	C.g_object_ref(o)
	C.g_object_unref(o)
	C.g_object_unref(o)
}

// From a counted constructor the count is known: one reference, two releases.
func gobjectKnown() {
	o := C.g_object_new_with_properties(0, 0, nil, nil)
	C.g_object_unref(o)
	C.g_object_unref(o) // want `o is released twice`
}

// Known, retained once: the third release is one too many.
func gobjectKnownRetained() {
	o := C.g_object_new_with_properties(0, 0, nil, nil)
	C.g_object_ref(o)
	C.g_object_unref(o)
	C.g_object_unref(o)
	C.g_object_unref(o) // want `o is released twice`
}

func gobjectKnownRetainedOK() {
	o := C.g_object_new_with_properties(0, 0, nil, nil)
	C.g_object_ref(o)
	C.g_object_unref(o)
	C.g_object_unref(o)
}

// The package's own pair: obj_ref is a retain because obj_unref releases.
func ownPair() {
	o := C.obj_new()
	C.obj_ref(o)
	C.obj_unref(o)
	C.obj_unref(o)
}

// The retain's result is the handle.
func ownPairResult() {
	o := C.obj_new()
	o2 := C.obj_ref(o)
	C.obj_unref(o2)
	C.obj_unref(o)
}

// No retain: obj_unref is a release by its name, once only.
func ownOnce() {
	o := C.obj_new()
	C.obj_unref(o)
	C.obj_unref(o) // want `o is released twice`
}

// A retain of one handle says nothing of another: free is once only.
func freeOther() {
	p := C.malloc(8)
	o := C.obj_new()
	C.obj_ref(o)
	C.free(p)
	C.obj_unref(o)
	C.obj_unref(o)
	C.free(p) // want `p is released twice`
}

// A parameter's count is the caller's: unknown.
func ownParam(o *C.obj) {
	C.obj_ref(o)
	C.obj_unref(o)
	C.obj_unref(o)
}

// A field of a Go wrapper.
type wrapper struct{ o *C.obj }

func fieldPair(w *wrapper) {
	w.o = C.obj_new()
	C.obj_ref(w.o)
	C.obj_unref(w.o)
	C.obj_unref(w.o)
}

func fieldOnce(w *wrapper) {
	w.o = C.obj_new()
	C.obj_unref(w.o)
	C.obj_unref(w.o) // want `w.o is released twice`
}

// Retain and Release methods on a Go type: Retain's summary says it adds
// a reference to r.o, so the second Release balances it.
type Ref struct{ o *C.obj }

func (r *Ref) Retain()  { C.obj_ref(r.o) }
func (r *Ref) Release() { C.obj_unref(r.o) } // want `r.o is released twice when \(\*Ref\).Release is called twice on the same value`

func methods() {
	r := &Ref{o: C.obj_new()}
	r.Retain()
	r.Release()
	r.Release()
}

// Without the Retain, the second Release is one too many.
func methodsTwice() {
	r := &Ref{o: C.obj_new()}
	r.Release()
	r.Release()
}

// A GLib wrapper with Ref and Close methods over a handle of unknown
// count: past the path's references one Close is the release, as with
// the C calls, so the third Close after one Ref is one too many (a double
// release, not also a use after release); two balance.
type GWrap struct{ o C.gpointer }

func (w *GWrap) Ref()   { C.g_object_ref(w.o) }
func (w *GWrap) Close() { C.g_object_unref(w.o) } // want `w.o is released twice when \(\*GWrap\).Close is called twice on the same value, as gwrapThrice does`

func gwrapThrice() {
	w := &GWrap{o: C.mkobj()}
	w.Ref()
	w.Close()
	w.Close()
	w.Close()
}

func gwrapBalanced() {
	w := &GWrap{o: C.mkobj()}
	w.Ref()
	w.Close()
	w.Close()
}

// Glued names of another convention.
func boxPair() {
	b := C.BoxCreate()
	C.BoxRetain(b)
	C.BoxRelease(b)
	C.BoxRelease(b)
}

func boxOnce() {
	b := C.BoxCreate()
	C.BoxRelease(b)
	C.BoxRelease(b) // want `b is released twice`
}

// OpenCL's model: a context the caller holds, retained and released.
func clParam(c C.cl_context) {
	C.clRetainContext(c)
	C.clReleaseContext(c)
	C.clReleaseContext(c)
}

// Retains and releases in loops: the count is not followed past a few
// trips, and a handle that held references before stays silent.
func loops(o *C.obj) {
	for i := 0; i < 3; i++ {
		C.obj_ref(o)
	}
	for i := 0; i < 4; i++ {
		C.obj_unref(o)
	}
}

// Silent: retains in a loop, whose trips are not counted, then as many
// releases in straight line (three trips and the constructor's: four);
// after a retain in a loop no release past the count can be proved.
func loopRetainsThenReleases() {
	o := C.obj_new()
	for i := 0; i < 3; i++ {
		C.obj_ref(o)
	}
	C.obj_unref(o)
	C.obj_unref(o)
	C.obj_unref(o)
	C.obj_unref(o)
}

// A loop whose every trip releases what it retains leaves the count as
// it was: the releases after it are counted, and one too many is
// reported.
func balancedLoopThenOverRelease() {
	o := C.obj_new()
	for i := 0; i < 3; i++ {
		C.obj_ref(o)
		C.obj_unref(o)
	}
	C.obj_unref(o)
	C.obj_unref(o) // want `o is released twice`
}

// Silent: a loop over a slice the path cannot size may make no trip, one,
// or many; a retain in it leaves the count unknown on every path out, the
// path of no trip included. The releases after it balance two trips (the
// constructor's reference and two retains).
func rangeRetainsThenReleases() {
	o := C.obj_new()
	kids := []int{1, 2}
	for range kids {
		C.obj_ref(o)
	}
	C.obj_unref(o)
	C.obj_unref(o)
	C.obj_unref(o)
}

// Silent: a loop of retains and a loop of releases over the same slice,
// with a counted constructor (GLib's names) and through a field.
func twoRangesCounted(kids []int) {
	o := C.g_object_new_with_properties(0, 0, nil, nil)
	for range kids {
		C.g_object_ref(o)
	}
	for range kids {
		C.g_object_unref(o)
	}
	C.g_object_unref(o)
}

type Tree struct {
	kids []int
	box  C.BoxRef
}

func (t *Tree) twoRangesField() {
	for range t.kids {
		C.BoxRetain(t.box)
	}
	for range t.kids {
		C.BoxRelease(t.box)
	}
	C.BoxRelease(t.box)
}

// Silent: the retain is a Go method called in the loop, of a global's
// handle, and in a closure that a helper runs once per element.
type Obj struct{ p *C.obj }

func (o *Obj) Ref()   { C.obj_ref(o.p) }
func (o *Obj) Unref() { C.obj_unref(o.p) }

func rangeMethodRetains(kids []int) {
	o := &Obj{C.obj_new()}
	for range kids {
		o.Ref()
	}
	for range kids {
		o.Unref()
	}
	o.Unref()
}

var shared *C.obj

func rangeGlobalRetains(kids []int) {
	shared = C.obj_new()
	for range kids {
		C.obj_ref(shared)
	}
	C.obj_unref(shared)
	C.obj_unref(shared)
	C.obj_unref(shared)
}

func each(kids []int, f func()) {
	for range kids {
		f()
	}
}

func closureRetains() {
	o := C.obj_new()
	each([]int{1, 2}, func() { C.obj_ref(o) })
	C.obj_unref(o)
	C.obj_unref(o)
	C.obj_unref(o)
}

// Still reported: a loop over a slice whose every trip releases what it
// retained, then one release too many; and a release before the loop of
// retains, which the loop's first retain uses.
func balancedRangeThenOverRelease(kids []int) {
	o := C.obj_new()
	for range kids {
		C.obj_ref(o)
		C.obj_unref(o)
	}
	C.obj_unref(o)
	C.obj_unref(o) // want `o is released twice`
}

func releasedBeforeRangeRetains(kids []int) {
	o := C.obj_new()
	C.obj_unref(o)
	for range kids {
		C.obj_ref(o)
	}
	C.obj_unref(o) // want `o is released twice`
}

// A retain through a method that returns a new wrapper of the same
// handle: the new wrapper's field holds the handle, so its releases count
// against the retain. Two references, two releases balance; a third is
// one too many. GLib's unref is a counted drop, silent on a handle whose
// count is unknown: without the wrapper's field, the third went unseen.
type GDup struct{ o C.gpointer }

func (w *GDup) Dup() *GDup { C.g_object_ref(w.o); return &GDup{o: w.o} }
func (w *GDup) Close()     { C.g_object_unref(w.o) } // want `w.o is released twice when \(\*GDup\).Close is called twice on the same value, as gdupThrice does`

func gdupBalanced() {
	a := &GDup{C.mkobj()}
	b := a.Dup()
	a.Close()
	b.Close()
}

func gdupThrice() {
	a := &GDup{C.mkobj()}
	b := a.Dup()
	a.Close()
	b.Close()
	b.Close()
}

// The same through a function with two results, and OpenCL's names.
type CLCtx struct {
	name string
	c    C.cl_context
}

func retainCtx(x *CLCtx) (*CLCtx, error) {
	C.clRetainContext(x.c)
	return &CLCtx{name: x.name, c: x.c}, nil
}

func ctxDupBalanced(c C.cl_context) {
	x := &CLCtx{c: c}
	y, err := retainCtx(x)
	if err != nil {
		return
	}
	C.clReleaseContext(x.c)
	C.clReleaseContext(y.c)
}

func ctxDupOver(c C.cl_context) {
	x := &CLCtx{c: c}
	y, _ := retainCtx(x)
	C.clReleaseContext(x.c)
	C.clReleaseContext(y.c)
	C.clReleaseContext(y.c) // want `y.c is released twice`
}

// A handle made in the loop's body is each trip's own: its count is
// followed from the trip's start, and a trip that releases it once too
// often is reported; one that balances is not (the package's own pair,
// and a counted constructor's through a range loop).
func bodyInLoop() {
	for i := 0; i < 2; i++ {
		o := C.obj_new()
		C.obj_ref(o)
		C.obj_unref(o)
		C.obj_unref(o)
		C.obj_unref(o) // want `o is released twice`
	}
}

func bodyInLoopBalanced() {
	for i := 0; i < 2; i++ {
		o := C.obj_new()
		C.obj_ref(o)
		C.obj_unref(o)
		C.obj_unref(o)
	}
}

func bodyInRangeCounted(kids []int) {
	for range kids {
		o := C.g_object_new_with_properties(0, 0, nil, nil)
		C.g_object_ref(o)
		for j := 0; j < 3; j++ {
			_ = j
		}
		C.g_object_unref(o)
		C.g_object_unref(o)
	}
}

var _ = unsafe.Pointer(nil)

// A retain raises what the path may drop by one; whatever gave the handle
// gave at most one reference with it: ref, then three unrefs, is one too
// many, in the package's own pair and in GLib's.
func ownPairOverRelease() {
	o := C.obj_new()
	C.obj_ref(o)
	C.obj_unref(o)
	C.obj_unref(o)
	C.obj_unref(o) // want `o is released twice`
}

func gobjectOverRelease() {
	o := C.mkobj()
	C.g_object_ref(o)
	C.g_object_unref(o)
	C.g_object_unref(o)
	C.g_object_unref(o) // want `o is released twice`
}

// newObject is a Go constructor returning a counted object's one
// reference: its callers' counts are known too.
func newObject() unsafe.Pointer {
	return unsafe.Pointer(C.g_object_new_with_properties(0, 0, nil, nil))
}

func helperKnown() {
	o := newObject()
	C.g_object_unref(C.gpointer(o))
	C.g_object_unref(C.gpointer(o)) // want `o is released twice`
}

func helperKnownRetained() {
	o := newObject()
	C.g_object_ref(C.gpointer(o))
	C.g_object_unref(C.gpointer(o))
	C.g_object_unref(C.gpointer(o))
}
