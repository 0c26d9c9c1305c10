// Package takeout holds the finalizer cases of take-out helpers: a
// function that reads a handle from a field and clears the field on every
// path (p := b.h; b.h = nil; return p, or return b.h.Swap(nil)). Its
// caller owns the handle it got; a finalizer that runs later finds the
// cleared field. What the finalizer releases through such a helper is the
// field's handle, so the field's other users must keep the owner alive.
package takeout

/*
#include <stdlib.h>
typedef struct { int live; } res;
static res* res_open(void) { return calloc(1, sizeof(res)); }
static void res_close(res* r) { free(r); }
static int res_read(res* r) { return r->live; }
*/
import "C"

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Buf takes its handle out with a method.
type Buf struct{ h *C.res }

func NewBuf() *Buf {
	b := &Buf{h: C.res_open()}
	runtime.SetFinalizer(b, (*Buf).Close)
	return b
}

func (b *Buf) take() *C.res {
	p := b.h
	b.h = nil
	return p
}

func (b *Buf) Close() {
	if p := b.take(); p != nil {
		C.res_close(p)
	}
}

// Read uses the handle the finalizer closes through take.
func (b *Buf) Read() int {
	return int(C.res_read(b.h)) // want `b may be collected while C.res_read runs with b.h`
}

// Reset closes what it took out: the finalizer finds nil.
func (b *Buf) Reset() {
	C.res_close(b.take())
	b.h = C.res_open()
}

// Drain takes the handle out twice: the second finds nil.
func (b *Buf) Drain() {
	if p := b.take(); p != nil {
		C.res_close(p)
	}
	if p := b.take(); p != nil {
		C.res_close(p)
	}
}

// Dev takes its handle out with a function of the field's address.
type Dev struct{ h *C.res }

func NewDev() *Dev {
	d := &Dev{h: C.res_open()}
	runtime.SetFinalizer(d, func(d *Dev) { C.res_close(takeRes(&d.h)) })
	return d
}

func takeRes(pp **C.res) *C.res {
	p := *pp
	*pp = nil
	return p
}

func (d *Dev) Read() int {
	return int(C.res_read(d.h)) // want `d may be collected while C.res_read runs with d.h`
}

func (d *Dev) Close() {
	C.res_close(takeRes(&d.h))
}

// detach takes the handle out through the helper.
func (d *Dev) detach() *C.res { return takeRes(&d.h) }

func (d *Dev) CloseDetached() {
	C.res_close(d.detach())
}

// Cell keeps its handle in an atomic.Pointer and takes it out with Swap.
type Cell struct{ h atomic.Pointer[C.res] }

func NewCell() *Cell {
	c := &Cell{}
	c.h.Store(C.res_open())
	runtime.SetFinalizer(c, (*Cell).Close)
	return c
}

func (c *Cell) take() *C.res { return c.h.Swap(nil) }

func (c *Cell) Close() {
	if p := c.take(); p != nil {
		C.res_close(p)
	}
}

func (c *Cell) Read() int {
	return int(C.res_read(c.h.Load())) // want `c may be collected while C.res_read runs with c.h`
}

func (c *Cell) CloseTwice() {
	if p := c.take(); p != nil {
		C.res_close(p)
	}
	if p := c.take(); p != nil {
		C.res_close(p)
	}
}

// Lazy clears the field only when asked: on the other path the finalizer
// still finds the handle.
type Lazy struct {
	h    *C.res
	keep bool
}

func NewLazy() *Lazy {
	l := &Lazy{h: C.res_open()}
	runtime.SetFinalizer(l, func(l *Lazy) { C.res_close(l.h) })
	return l
}

func (l *Lazy) maybeTake() *C.res {
	p := l.h
	if !l.keep {
		l.h = nil
	}
	return p
}

func (l *Lazy) Release() {
	C.res_close(l.maybeTake()) // want `l may be collected while C.res_close runs with l.h`
}

// Early returns nil where the field is nil already, and takes the handle
// out otherwise: on every return that gives the handle, the field is nil.
type Early struct{ h *C.res }

func NewEarly() *Early {
	e := &Early{h: C.res_open()}
	runtime.SetFinalizer(e, (*Early).Close)
	return e
}

func (e *Early) take() *C.res {
	if e.h == nil {
		return nil
	}
	p := e.h
	e.h = nil
	return p
}

func (e *Early) Close() { C.res_close(e.take()) }

func (e *Early) Drain() {
	C.res_close(e.take())
	C.res_close(e.take())
}

func (e *Early) Read() int {
	return int(C.res_read(e.h)) // want `e may be collected while C.res_read runs with e.h`
}

// Locked takes the handle out under its mutex, unlocked by a defer.
type Locked struct {
	mu sync.Mutex
	h  *C.res
}

func NewLocked() *Locked {
	l := &Locked{h: C.res_open()}
	runtime.SetFinalizer(l, (*Locked).Close)
	return l
}

func (l *Locked) take() *C.res {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.h
	l.h = nil
	return p
}

func (l *Locked) Close() { C.res_close(l.take()) }

func (l *Locked) Read() int {
	return int(C.res_read(l.h)) // want `l may be collected while C.res_read runs with l.h`
}

func (l *Locked) Drain() {
	C.res_close(l.take())
	C.res_close(l.take())
}

// box holds the handle; Boxed's finalizer releases what its box field
// points to. Taking the box out (a store of nil, a Swap, a successful
// CompareAndSwap, a helper) takes the handle with it.
type box struct{ h *C.res }

type Boxed struct{ b *box }

func NewBoxed() *Boxed {
	x := &Boxed{b: &box{h: C.res_open()}}
	runtime.SetFinalizer(x, (*Boxed).Close)
	return x
}

func (x *Boxed) Close() {
	if b := x.b; b != nil {
		x.b = nil
		C.res_close(b.h)
	}
}

func (x *Boxed) Release() {
	b := x.b
	x.b = nil
	if b != nil {
		C.res_close(b.h)
	}
}

// ReleaseKept leaves the box in place.
func (x *Boxed) ReleaseKept() {
	if b := x.b; b != nil {
		C.res_close(b.h) // want `x may be collected while C.res_close runs with x.b.h`
	}
}

type CellBoxed struct{ b atomic.Pointer[box] }

func NewCellBoxed() *CellBoxed {
	x := &CellBoxed{}
	x.b.Store(&box{h: C.res_open()})
	runtime.SetFinalizer(x, (*CellBoxed).Close)
	return x
}

func (x *CellBoxed) Close() {
	if b := x.b.Swap(nil); b != nil {
		C.res_close(b.h)
	}
}

func (x *CellBoxed) ReleaseCAS() {
	b := x.b.Load()
	if b != nil && x.b.CompareAndSwap(b, nil) {
		C.res_close(b.h)
	}
}

func (x *CellBoxed) takeBox() *box { return x.b.Swap(nil) }

func (x *CellBoxed) ReleaseVia() {
	if b := x.takeBox(); b != nil {
		C.res_close(b.h)
	}
}

func (x *CellBoxed) ReleaseLoaded() {
	if b := x.b.Load(); b != nil {
		C.res_close(b.h) // want `x may be collected while C.res_close runs with x.b.h`
	}
}

// Pair's take-out also says whether it found a handle.
type Pair struct{ h *C.res }

func NewPair() *Pair {
	p := &Pair{h: C.res_open()}
	runtime.SetFinalizer(p, (*Pair).Close)
	return p
}

func (p *Pair) take() (*C.res, bool) {
	h := p.h
	p.h = nil
	return h, h != nil
}

func (p *Pair) Close() {
	if h, ok := p.take(); ok {
		C.res_close(h)
	}
}

func (p *Pair) Drain() {
	if h, ok := p.take(); ok {
		C.res_close(h)
	}
	if h, ok := p.take(); ok {
		C.res_close(h)
	}
}

func (p *Pair) Read() int {
	return int(C.res_read(p.h)) // want `p may be collected while C.res_read runs with p.h`
}

// Lit takes its handle out with a function literal.
type Lit struct{ h *C.res }

func NewLit() *Lit {
	l := &Lit{h: C.res_open()}
	runtime.SetFinalizer(l, (*Lit).Close)
	return l
}

func (l *Lit) Close() {
	take := func() *C.res {
		p := l.h
		l.h = nil
		return p
	}
	if p := take(); p != nil {
		C.res_close(p)
	}
}

func (l *Lit) Drain() {
	take := func() *C.res {
		p := l.h
		l.h = nil
		return p
	}
	C.res_close(take())
	C.res_close(take())
}

func (l *Lit) Read() int {
	return int(C.res_read(l.h)) // want `l may be collected while C.res_read runs with l.h`
}

// Deferred clears the field in a deferred literal, after the result was
// read.
type Deferred struct{ h *C.res }

func NewDeferred() *Deferred {
	d := &Deferred{h: C.res_open()}
	runtime.SetFinalizer(d, (*Deferred).Close)
	return d
}

func (d *Deferred) take() *C.res {
	defer func() { d.h = nil }()
	return d.h
}

func (d *Deferred) Close() { C.res_close(d.take()) }

func (d *Deferred) Drain() {
	C.res_close(d.take())
	C.res_close(d.take())
}

func (d *Deferred) Read() int {
	return int(C.res_read(d.h)) // want `d may be collected while C.res_read runs with d.h`
}

// LockedEarly holds its mutex with a defer and returns nil early.
type LockedEarly struct {
	mu sync.Mutex
	h  *C.res
}

func NewLockedEarly() *LockedEarly {
	l := &LockedEarly{h: C.res_open()}
	runtime.SetFinalizer(l, (*LockedEarly).Close)
	return l
}

func (l *LockedEarly) take() *C.res {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.h == nil {
		return nil
	}
	p := l.h
	l.h = nil
	return p
}

func (l *LockedEarly) Close() {
	if p := l.take(); p != nil {
		C.res_close(p)
	}
}

func (l *LockedEarly) Drain() {
	C.res_close(l.take())
	C.res_close(l.take())
}

func (l *LockedEarly) Read() int {
	return int(C.res_read(l.h)) // want `l may be collected while C.res_read runs with l.h`
}
