// Package oncefin holds the doublerelease cases of a Close that releases
// through sync.Once.Do: the Once keeps a second Close out, not the
// finalizer, which must be disarmed.
package oncefin

/*
#include <stdlib.h>
typedef struct { int live; } cctx;
static cctx* cctx_create(void) { return calloc(1, sizeof(cctx)); }
static void cctx_free(cctx* c) { free(c); }
*/
import "C"

import (
	"runtime"
	"sync"
	"sync/atomic"
)

type Encoder struct {
	c    *C.cctx
	once sync.Once
}

func NewEncoder() *Encoder {
	e := &Encoder{c: C.cctx_create()}
	runtime.SetFinalizer(e, func(e *Encoder) { C.cctx_free(e.c) })
	return e
}

// The finalizer stays armed: a closed Encoder is freed again when it is
// collected.
func (e *Encoder) Close() {
	e.once.Do(func() {
		C.cctx_free(e.c) // want `e.c is released here and again by the finalizer set at line 27`
	})
}

type Decoder struct {
	c    *C.cctx
	once sync.Once
}

func NewDecoder() *Decoder {
	d := &Decoder{c: C.cctx_create()}
	runtime.SetFinalizer(d, func(d *Decoder) { C.cctx_free(d.c) })
	return d
}

// The corrected Close disarms the finalizer inside the Once.
func (d *Decoder) Close() {
	d.once.Do(func() {
		runtime.SetFinalizer(d, nil)
		C.cctx_free(d.c)
	})
}

// Closed twice: the Once lets one release through.
func closeTwice(d *Decoder) {
	d.Close()
	d.Close()
}

// Stream's finalizer is its Close, which releases through the Once: a
// Close and the finalizer are two calls of one once.Do, which lets one
// release through.
type Stream struct {
	c    *C.cctx
	once sync.Once
}

func NewStream() *Stream {
	s := &Stream{c: C.cctx_create()}
	runtime.SetFinalizer(s, (*Stream).Close)
	return s
}

func (s *Stream) Close() {
	s.once.Do(func() { C.cctx_free(s.c) })
}

// Pool's finalizer is a literal that calls the same Close.
type Pool struct {
	c    *C.cctx
	once sync.Once
}

func NewPool() *Pool {
	p := &Pool{c: C.cctx_create()}
	runtime.SetFinalizer(p, func(p *Pool) { p.Close() })
	return p
}

func (p *Pool) Close() {
	p.once.Do(func() { C.cctx_free(p.c) })
}

// Wrap's Close runs a helper inside the Once, and its finalizer is a
// literal that calls Close: the helper's release is Close's, which the
// finalizer shares.
type Wrap struct {
	c    *C.cctx
	once sync.Once
}

func NewWrap() *Wrap {
	w := &Wrap{c: C.cctx_create()}
	runtime.SetFinalizer(w, func(w *Wrap) { w.Close() })
	return w
}

func (w *Wrap) Close() { w.once.Do(func() { w.free() }) }

func (w *Wrap) free() { C.cctx_free(w.c) }

// Bound hands the helper to the Once as a method value.
type Bound struct {
	c    *C.cctx
	once sync.Once
}

func NewBound() *Bound {
	b := &Bound{c: C.cctx_create()}
	runtime.SetFinalizer(b, (*Bound).Close)
	return b
}

func (b *Bound) Close() { b.once.Do(b.free) }

func (b *Bound) free() { C.cctx_free(b.c) }

// Leaky calls the same kind of helper outside the Once too, on an error
// path of its constructor's caller: that release and the finalizer's are
// two.
type Leaky struct {
	c    *C.cctx
	once sync.Once
}

func NewLeaky() *Leaky {
	l := &Leaky{c: C.cctx_create()}
	runtime.SetFinalizer(l, func(l *Leaky) { l.Close() })
	return l
}

func (l *Leaky) Close() { l.once.Do(func() { l.free() }) }

func (l *Leaky) Reset() { l.free() }

func (l *Leaky) free() {
	C.cctx_free(l.c) // want `l.c is released here and again by the finalizer set at line \d+`
}

// Two has two Onces: Release's is not the one the finalizer's Close
// shares, so Release and the finalizer each let a release through.
type Two struct {
	c        *C.cctx
	closeOne sync.Once
	relOne   sync.Once
}

func NewTwo() *Two {
	t := &Two{c: C.cctx_create()}
	runtime.SetFinalizer(t, func(t *Two) { t.Close() })
	return t
}

func (t *Two) Close() { t.closeOne.Do(func() { t.free() }) }

func (t *Two) Release() { t.relOne.Do(func() { t.free() }) }

func (t *Two) free() {
	C.cctx_free(t.c) // want `t.c is released here and again by the finalizer set at line \d+`
}

// Claimed's Close claims with a compare-and-swap and releases through a
// helper; the finalizer calls Close.
type Claimed struct {
	c      *C.cctx
	closed atomic.Bool
}

func NewClaimed() *Claimed {
	c := &Claimed{c: C.cctx_create()}
	runtime.SetFinalizer(c, func(c *Claimed) { c.Close() })
	return c
}

func (c *Claimed) Close() {
	if c.closed.CompareAndSwap(false, true) {
		c.free()
	}
}

func (c *Claimed) free() { C.cctx_free(c.c) }

// One runs the helper under the same Once from Close and Release, at two
// Do calls: still one Once, which the finalizer's Close shares.
type One struct {
	c    *C.cctx
	once sync.Once
}

func NewOne() *One {
	o := &One{c: C.cctx_create()}
	runtime.SetFinalizer(o, func(o *One) { o.Close() })
	return o
}

func (o *One) Close() { o.once.Do(func() { o.free() }) }

func (o *One) Release() { o.once.Do(o.free) }

func (o *One) free() { C.cctx_free(o.c) }

// Flags claims a flag in Close and another in Release, both before the
// same helper: after Release, the finalizer's Close releases again.
type Flags struct {
	c                *C.cctx
	closed, released atomic.Bool
}

func NewFlags() *Flags {
	f := &Flags{c: C.cctx_create()}
	runtime.SetFinalizer(f, func(f *Flags) { f.Close() })
	return f
}

func (f *Flags) Close() {
	if f.closed.CompareAndSwap(false, true) {
		f.free()
	}
}

func (f *Flags) Release() {
	if f.released.CompareAndSwap(false, true) {
		f.free()
	}
}

func (f *Flags) free() {
	C.cctx_free(f.c) // want `f.c is released here and again by the finalizer set at line \d+`
}

// Second's Close runs a helper that has the object as its second
// parameter and runs its Once; Release runs the same Once itself: one
// Once, whichever parameter the helper has the object as.
type Second struct {
	c    *C.cctx
	once sync.Once
}

func NewSecond() *Second {
	s := &Second{c: C.cctx_create()}
	runtime.SetFinalizer(s, func(s *Second) { s.Close() })
	return s
}

func closeWith(tag string, s *Second) { s.once.Do(func() { C.cctx_free(s.c) }) }

func (s *Second) Close() { closeWith("close", s) }

func (s *Second) Release() { s.once.Do(func() { C.cctx_free(s.c) }) }

// Picked's helper runs the Once of its first argument and frees its
// second: Close passes the object's own Once, Release its peer's. After
// Release, the finalizer's Close finds its Once unused and frees again.
type Picked struct {
	c    *C.cctx
	once sync.Once
	peer *Picked
}

func NewPicked() *Picked {
	p := &Picked{c: C.cctx_create(), peer: &Picked{}}
	runtime.SetFinalizer(p, func(p *Picked) { p.Close() })
	return p
}

func under(g, p *Picked) {
	g.once.Do(func() { C.cctx_free(p.c) }) // want `p.c is released here and again by the finalizer set at line \d+`
}

func (p *Picked) Close() { under(p, p) }

func (p *Picked) Release() { under(p.peer, p) }

// Passed hands the Once itself to a helper: Close and Release pass the
// same one, which the finalizer's Close shares.
type Passed struct {
	c    *C.cctx
	once sync.Once
}

func NewPassed() *Passed {
	p := &Passed{c: C.cctx_create()}
	runtime.SetFinalizer(p, func(p *Passed) { p.Close() })
	return p
}

func freeUnder(o *sync.Once, p *Passed) { o.Do(func() { C.cctx_free(p.c) }) }

func (p *Passed) Close() { freeUnder(&p.once, p) }

func (p *Passed) Release() { freeUnder(&p.once, p) }

// Spare's Release hands the helper another Once of the object than
// Close does: two Onces, and the finalizer's Close frees after Release.
type Spare struct {
	c           *C.cctx
	once, spare sync.Once
}

func NewSpare() *Spare {
	s := &Spare{c: C.cctx_create()}
	runtime.SetFinalizer(s, func(s *Spare) { s.Close() })
	return s
}

func freeSpare(o *sync.Once, s *Spare) {
	o.Do(func() { C.cctx_free(s.c) }) // want `s.c is released here and again by the finalizer set at line \d+`
}

func (s *Spare) Close() { freeSpare(&s.once, s) }

func (s *Spare) Release() { freeSpare(&s.spare, s) }

// Deferred's Close runs the Once inside a closure it calls: the Once the
// closure captures is the object's, which Release and the finalizer's
// Close share.
type Deferred struct {
	c    *C.cctx
	once sync.Once
}

func NewDeferred() *Deferred {
	d := &Deferred{c: C.cctx_create()}
	runtime.SetFinalizer(d, func(d *Deferred) { d.Close() })
	return d
}

func (d *Deferred) Close() {
	run := func() { d.once.Do(func() { C.cctx_free(d.c) }) }
	run()
}

func (d *Deferred) Release() { d.once.Do(func() { C.cctx_free(d.c) }) }
