// Package owned holds reference counts that one goroutine owns: started
// once per object on the object its constructor built, it is the only
// code that touches the count, and other goroutines reach it through a
// channel. Beside them, counts that two goroutines can touch.
package owned

/*
#include <stdlib.h>
typedef struct { int n; } surface;
static surface* surface_create(void) { return calloc(1, sizeof(surface)); }
static void surface_destroy(surface* s) { free(s); }
*/
import "C"

import "runtime"

type op int

const (
	retain op = iota
	release
)

// Renderer's loop runs every C call on one locked OS thread.
type Renderer struct {
	ops  chan op
	refs int
	s    *C.surface
}

func NewRenderer() *Renderer {
	r := &Renderer{ops: make(chan op), refs: 1}
	go r.loop()
	return r
}

func (r *Renderer) loop() {
	runtime.LockOSThread()
	r.s = C.surface_create()
	for o := range r.ops {
		switch o {
		case retain:
			r.refs++
		case release:
			r.refs--
			if r.refs == 0 {
				C.surface_destroy(r.s)
				r.s = nil
			}
		}
	}
}

func (r *Renderer) Retain()  { r.ops <- retain }
func (r *Renderer) Release() { r.ops <- release }

// Actor's goroutine is a literal that captures the object.
type Actor struct {
	ops  chan op
	refs int
	s    *C.surface
}

func NewActor() *Actor {
	a := &Actor{ops: make(chan op), refs: 1, s: C.surface_create()}
	go func() {
		for o := range a.ops {
			if o == retain {
				a.refs++
				continue
			}
			a.refs--
			if a.refs == 0 {
				C.surface_destroy(a.s)
			}
		}
	}()
	return a
}

// Started's loop is started by a method: called twice, two loops share
// the object.
type Started struct {
	ops  chan op
	refs int
	s    *C.surface
}

func (x *Started) Start() { go x.loop() }

func (x *Started) loop() {
	for o := range x.ops {
		if o == retain {
			x.refs++ // want `loop increments x.refs without atomics or a lock`
			continue
		}
		x.refs-- // want `loop decrements x.refs without atomics or a lock`
		if x.refs == 0 {
			C.surface_destroy(x.s)
		}
	}
}

// Split's count is touched by two goroutines.
type Split struct {
	in, out chan op
	refs    int
	s       *C.surface
}

func NewSplit() *Split {
	x := &Split{in: make(chan op), out: make(chan op), refs: 1, s: C.surface_create()}
	go x.retains()
	go x.releases()
	return x
}

func (x *Split) retains() {
	for range x.in {
		x.refs++ // want `retains increments x.refs without atomics or a lock`
	}
}

func (x *Split) releases() {
	for range x.out {
		x.refs-- // want `releases decrements x.refs without atomics or a lock`
		if x.refs == 0 {
			C.surface_destroy(x.s)
		}
	}
}

// Generic is Renderer with a type parameter: the go statement starts the
// generic method's body.
type Generic[T any] struct {
	in   chan T
	refs int
	s    *C.surface
}

func NewGeneric[T any]() *Generic[T] {
	g := &Generic[T]{in: make(chan T), refs: 1}
	go g.run()
	return g
}

func (g *Generic[T]) run() {
	g.s = C.surface_create()
	for range g.in {
		g.refs--
		if g.refs == 0 {
			C.surface_destroy(g.s)
			g.s = nil
		}
	}
}
