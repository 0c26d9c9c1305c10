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

// A test of the object's field keeps out a finalizer, which reads the
// field when it runs, but not a cleanup, which runs with its copy.
type Checked struct {
	w *C.widget
}

func NewChecked() *Checked {
	c := &Checked{w: C.widget_new()}
	runtime.AddCleanup(c, func(p *C.widget) { C.widget_unref(p) }, c.w)
	return c
}

func (c *Checked) Close() {
	if c.w != nil {
		C.widget_unref(c.w) // want `c.w is released here and again by the cleanup added at line \d+`
		c.w = nil
	}
}

// CheckedStopped tests the field, stops the cleanup, then releases.
type CheckedStopped struct {
	w       *C.widget
	cleanup runtime.Cleanup
}

func NewCheckedStopped() *CheckedStopped {
	c := &CheckedStopped{w: C.widget_new()}
	c.cleanup = runtime.AddCleanup(c, func(p *C.widget) { C.widget_unref(p) }, c.w)
	return c
}

func (c *CheckedStopped) Close() {
	if c.w != nil {
		c.cleanup.Stop()
		C.widget_unref(c.w)
		c.w = nil
	}
}

// SharedChecked releases through the state's own test, as its cleanup
// does: the first to run clears st.w for the other.
type SharedChecked struct {
	st *state
}

func (st *state) release() {
	if st.w != nil {
		C.widget_unref(st.w)
		st.w = nil
	}
}

func NewSharedChecked() *SharedChecked {
	s := &SharedChecked{st: &state{w: C.widget_new()}}
	runtime.AddCleanup(s, (*state).release, s.st)
	return s
}

func (s *SharedChecked) Close() { s.st.release() }

// A finalizer reads the field: the test keeps it out.
type Finalized struct {
	w *C.widget
}

func NewFinalized() *Finalized {
	f := &Finalized{w: C.widget_new()}
	runtime.SetFinalizer(f, (*Finalized).Close)
	return f
}

func (f *Finalized) Close() {
	if f.w != nil {
		C.widget_unref(f.w)
		f.w = nil
	}
}

// StoppedVia stops its cleanup through a helper given the Cleanup's
// address.
type StoppedVia struct {
	w       *C.widget
	cleanup runtime.Cleanup
}

func NewStoppedVia() *StoppedVia {
	s := &StoppedVia{w: C.widget_new()}
	s.cleanup = runtime.AddCleanup(s, func(p *C.widget) { C.widget_unref(p) }, s.w)
	return s
}

func stop(c *runtime.Cleanup) { c.Stop() }

func (s *StoppedVia) Close() {
	if s.w != nil {
		stop(&s.cleanup)
		C.widget_unref(s.w)
		s.w = nil
	}
}

// Many keeps its Cleanups in a slice and stops them all.
type Many struct {
	w        *C.widget
	cleanups []runtime.Cleanup
}

func NewMany() *Many {
	m := &Many{w: C.widget_new()}
	m.cleanups = append(m.cleanups, runtime.AddCleanup(m, func(p *C.widget) { C.widget_unref(p) }, m.w))
	return m
}

func (m *Many) Close() {
	for _, c := range m.cleanups {
		c.Stop()
	}
	if m.w != nil {
		C.widget_unref(m.w)
		m.w = nil
	}
}

// Bound stops its cleanup through a method value made before the test.
type Bound struct {
	w       *C.widget
	cleanup runtime.Cleanup
}

func NewBound() *Bound {
	b := &Bound{w: C.widget_new()}
	b.cleanup = runtime.AddCleanup(b, func(p *C.widget) { C.widget_unref(p) }, b.w)
	return b
}

func (b *Bound) Close() {
	stop := b.cleanup.Stop
	if b.w != nil {
		stop()
		C.widget_unref(b.w)
		b.w = nil
	}
}

// ByValue stops a copy of its Cleanup in a helper: Stop on a copy works.
type ByValue struct {
	w       *C.widget
	cleanup runtime.Cleanup
}

func NewByValue() *ByValue {
	b := &ByValue{w: C.widget_new()}
	b.cleanup = runtime.AddCleanup(b, func(p *C.widget) { C.widget_unref(p) }, b.w)
	return b
}

func stopCopy(c runtime.Cleanup) { c.Stop() }

func (b *ByValue) Close() {
	if b.w != nil {
		stopCopy(b.cleanup)
		C.widget_unref(b.w)
		b.w = nil
	}
}

// stopper holds a Cleanup and stops it.
type stopper struct{ c runtime.Cleanup }

func (s *stopper) stop() { s.c.Stop() }

// Nested keeps its Cleanup in a struct with a stop method.
type Nested struct {
	w  *C.widget
	cl stopper
}

func NewNested() *Nested {
	n := &Nested{w: C.widget_new()}
	n.cl.c = runtime.AddCleanup(n, func(p *C.widget) { C.widget_unref(p) }, n.w)
	return n
}

func (n *Nested) Close() {
	n.cl.stop()
	C.widget_unref(n.w)
	n.w = nil
}

// Pointed keeps a pointer to its Cleanup.
type Pointed struct {
	w  *C.widget
	cl *runtime.Cleanup
}

func NewPointed() *Pointed {
	p := &Pointed{w: C.widget_new()}
	c := runtime.AddCleanup(p, func(p *C.widget) { C.widget_unref(p) }, p.w)
	p.cl = &c
	return p
}

func (p *Pointed) Close() {
	p.cl.Stop()
	C.widget_unref(p.w)
	p.w = nil
}

// group stops every Cleanup it holds.
type group struct{ cs []runtime.Cleanup }

func (g *group) stopAll() {
	for _, c := range g.cs {
		c.Stop()
	}
}

type Grouped struct {
	w  *C.widget
	cl group
}

func NewGrouped() *Grouped {
	g := &Grouped{w: C.widget_new()}
	g.cl.cs = append(g.cl.cs, runtime.AddCleanup(g, func(p *C.widget) { C.widget_unref(p) }, g.w))
	return g
}

func (g *Grouped) Close() {
	g.cl.stopAll()
	C.widget_unref(g.w)
	g.w = nil
}
