// Package claims holds the doublerelease cases of a release helper whose
// callers claim the object first (a compare-and-swap, a flag set under a
// lock) while a finalizer releases the handle too. A caller's claim keeps
// the finalizer out when the finalizer claims the same location on its
// way to its release, or the caller disarms it first; a claim of another
// flag, or a finalizer that releases without one, keeps nothing out.
package claims

/*
#include <stdlib.h>
typedef struct { int live; } sess;
static sess* sess_open(void) { return calloc(1, sizeof(sess)); }
static void sess_close(sess* s) { free(s); }
*/
import "C"

import (
	"runtime"
	"sync/atomic"
)

// One claims one flag in Close and in Release: the finalizer's Close
// claims it too, and only one of the three claims succeeds.
type One struct {
	s      *C.sess
	closed atomic.Bool
}

func NewOne() *One {
	o := &One{s: C.sess_open()}
	runtime.SetFinalizer(o, func(o *One) { o.Close() })
	return o
}

func (o *One) free() { C.sess_close(o.s) }

func (o *One) Close() {
	if o.closed.CompareAndSwap(false, true) {
		o.free()
	}
}

func (o *One) Release() {
	if o.closed.CompareAndSwap(false, true) {
		o.free()
	}
}

// Disarmed claims, disarms the finalizer, and frees through a helper: a
// finalizer that runs later found Close never ran.
type Disarmed struct {
	s      *C.sess
	closed atomic.Bool
}

func NewDisarmed() *Disarmed {
	d := &Disarmed{s: C.sess_open()}
	runtime.SetFinalizer(d, func(d *Disarmed) { C.sess_close(d.s) })
	return d
}

func (d *Disarmed) free() { C.sess_close(d.s) }

func (d *Disarmed) Close() {
	if d.closed.CompareAndSwap(false, true) {
		runtime.SetFinalizer(d, nil)
		d.free()
	}
}

// Stopped does the same with a cleanup and its Stop.
type Stopped struct {
	s       *C.sess
	closed  atomic.Bool
	cleanup runtime.Cleanup
}

func closeSess(s *C.sess) { C.sess_close(s) }

func NewStopped() *Stopped {
	st := &Stopped{s: C.sess_open()}
	st.cleanup = runtime.AddCleanup(st, closeSess, st.s)
	return st
}

func (st *Stopped) free() { C.sess_close(st.s) }

func (st *Stopped) Close() {
	if st.closed.CompareAndSwap(false, true) {
		st.cleanup.Stop()
		st.free()
	}
}

// Direct's finalizer frees without a claim: after Close, it frees again.
type Direct struct {
	s      *C.sess
	closed atomic.Bool
}

func NewDirect() *Direct {
	d := &Direct{s: C.sess_open()}
	runtime.SetFinalizer(d, func(d *Direct) { d.free() })
	return d
}

func (d *Direct) free() {
	C.sess_close(d.s) // want `d.s is released here and again by the finalizer set at line \d+`
}

func (d *Direct) Close() {
	if d.closed.CompareAndSwap(false, true) {
		d.free()
	}
}

// Wrapped has two constructors arming two finalizers, through Close and
// through Release, which claim different flags: a Close'd object of
// WrapWrapped is freed again by its finalizer's Release.
type Wrapped struct {
	s                *C.sess
	closed, released atomic.Bool
}

func NewWrapped() *Wrapped {
	w := &Wrapped{s: C.sess_open()}
	runtime.SetFinalizer(w, func(w *Wrapped) { w.Close() })
	return w
}

func WrapWrapped(s *C.sess) *Wrapped {
	w := &Wrapped{s: s}
	runtime.SetFinalizer(w, func(w *Wrapped) { w.Release() })
	return w
}

func (w *Wrapped) free() {
	C.sess_close(w.s) // want `w.s is released here and again by the finalizer set at line \d+`
}

func (w *Wrapped) Close() {
	if w.closed.CompareAndSwap(false, true) {
		w.free()
	}
}

func (w *Wrapped) Release() {
	if w.released.CompareAndSwap(false, true) {
		w.free()
	}
}

// Owned's finalizer calls Close; another type's finalizer calls Release,
// which claims another flag. That finalizer says nothing of Owned's: a
// Released Owned is freed again by its own finalizer's Close.
type Owned struct {
	s                *C.sess
	closed, released atomic.Bool
}

func NewOwned() *Owned {
	o := &Owned{s: C.sess_open()}
	runtime.SetFinalizer(o, func(o *Owned) { o.Close() })
	return o
}

func (o *Owned) free() {
	C.sess_close(o.s) // want `o.s is released here and again by the finalizer set at line \d+`
}

func (o *Owned) Close() {
	if o.closed.CompareAndSwap(false, true) {
		o.free()
	}
}

func (o *Owned) Release() {
	if o.released.CompareAndSwap(false, true) {
		o.free()
	}
}

type Holder struct{ o *Owned }

func NewHolder(o *Owned) *Holder {
	h := &Holder{o: o}
	runtime.SetFinalizer(h, func(h *Holder) { h.o.Release() })
	return h
}

// flag is a claim a helper makes on an atomic value.
type flag struct{ set atomic.Bool }

func (f *flag) claim() bool { return f.set.CompareAndSwap(false, true) }

// Helper claims through a field's method in Close and directly in
// Release: one location, one winner.
type Helper struct {
	f flag
	s *C.sess
}

func NewHelper() *Helper {
	h := &Helper{s: C.sess_open()}
	runtime.SetFinalizer(h, func(h *Helper) { h.Close() })
	return h
}

func (h *Helper) free() { C.sess_close(h.s) }

func (h *Helper) Close() {
	if h.f.claim() {
		h.free()
	}
}

func (h *Helper) Release() {
	if h.f.set.CompareAndSwap(false, true) {
		h.free()
	}
}

// HelperOther claims another flag's helper in Release.
type HelperOther struct {
	f, g flag
	s    *C.sess
}

func NewHelperOther() *HelperOther {
	h := &HelperOther{s: C.sess_open()}
	runtime.SetFinalizer(h, func(h *HelperOther) { h.Close() })
	return h
}

func (h *HelperOther) free() { C.sess_close(h.s) } // want `h.s is released here and again by the finalizer`

func (h *HelperOther) Close() {
	if h.f.claim() {
		h.free()
	}
}

func (h *HelperOther) Release() {
	if h.g.claim() {
		h.free()
	}
}
