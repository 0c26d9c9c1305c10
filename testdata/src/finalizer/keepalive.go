// Package finalizer holds the analysistest cases of the finalizer analyzer:
// each bug beside its corrected version, which must stay silent.
package finalizer

/*
#include <stdlib.h>
typedef struct { int live; int bands; } img;
static img* img_new(int b) { img* i = malloc(sizeof *i); i->live = 1; i->bands = b; return i; }
static void img_free(img* i) { free(i); }
static int img_bands(img* i) { return i->bands; }
static int img_copy(img* dst, img* src) { return 0; }
static void img_clear(img** i) { free(*i); *i = NULL; }
static float run_all(img** in, int n) { return 0; }
static int img_tag(img* i, void* tag) { return 0; }
*/
import "C"

import (
	"runtime"
	"sync"
	"unsafe"
)

type Image struct {
	mu sync.Mutex
	p  *C.img
}

func NewImage(bands int) *Image {
	i := &Image{p: C.img_new(C.int(bands))}
	runtime.SetFinalizer(i, func(i *Image) { C.img_free(i.p) })
	return i
}

// The receiver is not used after the call: the finalizer can free i.p
// while img_bands reads it.
func (i *Image) Bands() int {
	return int(C.img_bands(i.p)) // want `i may be collected while C.img_bands runs with i.p: nothing uses i after the call, so the finalizer set at line 31 \(func literal\) can release i.p during it; add defer runtime.KeepAlive\(i\) before the call`
}

// Corrected with a deferred KeepAlive.
func (i *Image) BandsOK() int {
	defer runtime.KeepAlive(i)
	return int(C.img_bands(i.p))
}

// Corrected with KeepAlive after the call.
func (i *Image) BandsOK2() int {
	n := C.img_bands(i.p)
	runtime.KeepAlive(i)
	return int(n)
}

// A deferred unlock uses the receiver at exit.
func (i *Image) BandsLocked() int {
	i.mu.Lock()
	defer i.mu.Unlock()
	return int(C.img_bands(i.p))
}

// A later use of the object keeps it alive across the first call only.
func (i *Image) CopyTo(dst *Image) int {
	n := C.img_bands(i.p)
	C.img_copy(dst.p, i.p) // want `i may be collected while C.img_copy runs with i.p` `dst may be collected while C.img_copy runs with dst.p`
	return int(n)
}

// &o.field passed to C keeps o alive for the call.
func (i *Image) Clear() {
	C.img_clear(&i.p)
}

// A handle from a local copy: still the object's.
func (i *Image) Handle() int {
	h := i.p
	return int(C.img_bands(h)) // want `i may be collected while C.img_bands runs with i.p`
}

// The object is used after the call on one path only: the compiler keeps
// it live across the call all the same (liveness is a union over paths).
func (i *Image) Maybe(b bool) int {
	n := C.img_bands(i.p)
	if b {
		runtime.KeepAlive(i)
	}
	return int(n)
}

// An accessor returning the handle counts as loading it.
func (i *Image) ptr() *C.img { return i.p }

func (i *Image) ViaAccessor() int {
	return int(C.img_bands(i.ptr())) // want `i may be collected while C.img_bands runs with i.p`
}

// A Go wrapper that passes its argument to C borrows it.
func bands(p *C.img) int { return int(C.img_bands(p)) }

func (i *Image) ViaWrapper() int {
	return bands(i.p) // want `i may be collected while bands runs with i.p`
}

// A new object used after the call: fine.
func Fresh() int {
	i := NewImage(3)
	n := C.img_bands(i.p)
	i.Close()
	return int(n)
}

func (i *Image) Close() {
	i.mu.Lock()
	defer i.mu.Unlock()
	C.img_clear(&i.p)
	runtime.SetFinalizer(i, nil)
}

// Handles copied out of a slice of managed objects into a C array: the
// slice must outlive the call.
func RunAll(in []*Image) float32 {
	cs := make([]*C.img, len(in))
	for k, im := range in {
		cs[k] = im.p
	}
	return float32(C.run_all(&cs[0], C.int(len(cs)))) // want `the Image objects in in may be collected while C.run_all runs with handles copied out of them`
}

func RunAllOK(in []*Image) float32 {
	cs := make([]*C.img, len(in))
	for k, im := range in {
		cs[k] = im.p
	}
	r := C.run_all(&cs[0], C.int(len(cs)))
	runtime.KeepAlive(in)
	return float32(r)
}

// A type whose finalizer releases nothing is not at risk.
type Logged struct{ p *C.img }

func NewLogged() *Logged {
	l := &Logged{p: C.img_new(1)}
	runtime.SetFinalizer(l, func(l *Logged) { println("collected") })
	return l
}

func (l *Logged) Bands() int { return int(C.img_bands(l.p)) }

// Cleanups count like finalizers, and Stop disarms them.
type Session struct {
	p  *C.img
	cl runtime.Cleanup
}

func NewSession() *Session {
	s := &Session{p: C.img_new(1)}
	s.cl = runtime.AddCleanup(s, func(p *C.img) { C.img_free(p) }, s.p)
	return s
}

func (s *Session) Bands() int {
	return int(C.img_bands(s.p)) // want `s may be collected while C.img_bands runs with s.p: nothing uses s after the call, so the cleanup added at line 157`
}

func (s *Session) Close() {
	p := s.p
	s.cl.Stop()
	C.img_free(p)
}

// Generic code is checked too.
type Boxed[T any] struct {
	p   *C.img
	val T
}

func NewBoxed[T any](v T) *Boxed[T] {
	b := &Boxed[T]{p: C.img_new(1), val: v}
	runtime.SetFinalizer(b, func(b *Boxed[T]) { C.img_free(b.p) })
	return b
}

func (b *Boxed[T]) Bands() int {
	return int(C.img_bands(b.p)) // want `b may be collected while C.img_bands runs with b.p`
}

// With an unsafe.Pointer argument cgo wraps the call in a closure that
// captures the receiver, which go/ssa spills to a variable: still not kept
// alive.
func (i *Image) Tagged(tag unsafe.Pointer) int {
	return int(C.img_tag(i.p, tag)) // want `i may be collected while C.img_tag runs with i.p`
}

// A variable copy of the object used after the call keeps it alive.
func (i *Image) Copied() int {
	j := i
	n := C.img_bands(j.p)
	j.mu.Lock()
	j.mu.Unlock()
	return int(n)
}

// Several calls at risk with the same object: one report, naming the others.
func (i *Image) Twice() (int, int) {
	h := i.p
	a := C.img_bands(h) // want `i may be collected while C.img_bands runs with i.p: nothing uses i after the call, so the finalizer set at line 31 \(func literal\) can release i.p during it \(and the same at line 207\); add defer runtime.KeepAlive\(i\) before the first of them`
	b := C.img_bands(h)
	return int(a), int(b)
}

// A goroutine that captured the object holds it while it runs.
func (i *Image) Interrupt(done chan struct{}) {
	go func() {
		i.mu.Lock()
		i.mu.Unlock()
		close(done)
	}()
	C.img_bands(i.p)
	<-done
}

// git2go's Objecter: AsObject returns a pointer into the value behind the
// interface (&c.Object), so keeping the interface value alive keeps the
// object alive.
type Objecter interface{ AsObject() *Object }

type Object struct{ p *C.img }

func allocObject() *Object {
	o := &Object{p: C.img_new(1)}
	runtime.SetFinalizer(o, (*Object).Free)
	return o
}

func (o *Object) Free() {
	runtime.SetFinalizer(o, nil)
	C.img_free(o.p)
}

type Commit struct {
	Object
	n int
}

func (c *Commit) AsObject() *Object { return &c.Object }

func TagKept(obj Objecter) int {
	o := obj.AsObject()
	n := C.img_bands(o.p)
	runtime.KeepAlive(obj)
	return int(n)
}

func TagLost(obj Objecter) int {
	o := obj.AsObject()
	return int(C.img_bands(o.p)) // want `o may be collected while C.img_bands runs with o.p`
}

// A cleanup stopped through a helper method before the release cannot run
// during it: silent. A helper that does not stop it leaves it armed.
type Stream struct {
	p  *C.img
	cl runtime.Cleanup
}

func NewStream() *Stream {
	s := &Stream{p: C.img_new(1)}
	s.cl = runtime.AddCleanup(s, func(p *C.img) { C.img_free(p) }, s.p)
	return s
}

func (s *Stream) stop()  { s.cl.Stop() }
func (s *Stream) touch() { _ = s.cl }

func (s *Stream) Close() {
	s.stop()
	C.img_free(s.p)
}

func (s *Stream) Drop() {
	s.touch()
	C.img_free(s.p) // want `s may be collected while C.img_free runs with s.p`
}
