// Package cleanupcopy holds the doublerelease cases of runtime.AddCleanup,
// whose argument is a copy taken when the cleanup is added: clearing the
// object's field after a release does not keep the cleanup from releasing
// the copy again; Stop does, and so does a write through the value copied
// (a state struct the cleanup reads when it runs).
package cleanupcopy

/*
#include <stdlib.h>
typedef struct { int live; } widget;
static widget* widget_new(void) { return calloc(1, sizeof(widget)); }
static void widget_unref(widget* w) { free(w); }
*/
import "C"

import "runtime"

type Widget struct {
	w *C.widget
}

func NewWidget() *Widget {
	w := &Widget{w: C.widget_new()}
	runtime.AddCleanup(w, func(p *C.widget) { C.widget_unref(p) }, w.w)
	return w
}

// Clearing w.w changes nothing the cleanup reads.
func (w *Widget) Close() {
	C.widget_unref(w.w) // want `w.w is released here and again by the cleanup added at line 24`
	w.w = nil
}

// The corrected wrapper keeps its Cleanup and stops it.
type Gadget struct {
	w       *C.widget
	cleanup runtime.Cleanup
}

func NewGadget() *Gadget {
	g := &Gadget{w: C.widget_new()}
	g.cleanup = runtime.AddCleanup(g, func(p *C.widget) { C.widget_unref(p) }, g.w)
	return g
}

func (g *Gadget) Close() {
	g.cleanup.Stop()
	C.widget_unref(g.w)
	g.w = nil
}

// The cleanup reads the handle through a state struct when it runs:
// clearing the handle there keeps it out.
type state struct {
	w *C.widget
}

type Shared struct {
	st *state
}

func NewShared() *Shared {
	s := &Shared{st: &state{w: C.widget_new()}}
	runtime.AddCleanup(s, func(st *state) {
		if st.w != nil {
			C.widget_unref(st.w)
		}
	}, s.st)
	return s
}

func (s *Shared) Close() {
	C.widget_unref(s.st.w)
	s.st.w = nil
}
