package checkthendestroy

/*
#include <stdlib.h>
typedef struct { int live; } pic;
static pic* pic_new(void) { return malloc(sizeof(pic)); }
static void pic_free(pic* p) { free(p); }
static pic* pic_blur(pic* p) { return p; }
static pic* pic_crop(pic* p) { return p; }
static int pic_width(pic* p) { return 0; }
typedef struct { int live; } ctxh;
static int ctxh_create(ctxh** c) { *c = malloc(sizeof(ctxh)); return 0; }
static int ctxh_destroy(ctxh* c) { free(c); return 0; }
static int ctxh_axpy(ctxh* c, int n) { return 0; }
static int ctxh_scal(ctxh* c, int n) { return 0; }
static int ctxh_dot(ctxh* c, int n) { return 0; }
*/
import "C"

import (
	"runtime"
	"sync"
)

// Picture locks its mutex only where it replaces or frees its handle (the
// shape of an image binding: Close may race the finalizer); every other
// method uses the handle without it, by design: one goroutine at a time.
// The mutex is a lock of its lifecycle, no evidence about those methods.
type Picture struct {
	mu  sync.Mutex
	p   *C.pic
	buf []byte
}

func NewPicture() *Picture {
	pc := &Picture{p: C.pic_new()}
	runtime.SetFinalizer(pc, (*Picture).Close)
	return pc
}

func (pc *Picture) Close() {
	pc.mu.Lock()
	if pc.p != nil {
		C.pic_free(pc.p)
		pc.p = nil
	}
	pc.buf = nil
	pc.mu.Unlock()
}

func (pc *Picture) set(p *C.pic) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.p == p {
		return
	}
	if pc.p != nil {
		C.pic_free(pc.p)
	}
	pc.p = p
}

func (pc *Picture) Blur()         { pc.set(C.pic_blur(pc.p)) }
func (pc *Picture) Crop()         { pc.set(C.pic_crop(pc.p)) }
func (pc *Picture) Width() int    { return int(C.pic_width(pc.p)) }
func (pc *Picture) Load(b []byte) { pc.buf = b; pc.set(C.pic_new()) }

// Engine embeds a mutex that Init and Close take; its many operations
// write the last error and pass the handle to C without it (the shape of a
// BLAS binding): a lifecycle lock again.
type Engine struct {
	h   *C.ctxh
	err C.int
	sync.Mutex
}

func (e *Engine) Init() {
	e.Lock()
	defer e.Unlock()
	var h *C.ctxh
	C.ctxh_create(&h)
	e.h = h
}

func (e *Engine) Close() {
	e.Lock()
	defer e.Unlock()
	if e.h == nil {
		return
	}
	C.ctxh_destroy(e.h)
	e.h = nil
}

func (e *Engine) Axpy(n int) { e.err = C.ctxh_axpy(e.h, C.int(n)) }
func (e *Engine) Scal(n int) { e.err = C.ctxh_scal(e.h, C.int(n)) }
func (e *Engine) Dot(n int) int {
	e.err = C.ctxh_dot(e.h, C.int(n))
	return int(e.err)
}

// Album has a lifecycle lock too, but its Close tests the handle before
// taking it: two calls of Close (which the lock shows are expected: Close
// against Close, or against the finalizer) can both pass the test.
type Album struct {
	mu sync.Mutex
	p  *C.pic
	n  int
}

func (a *Album) Close() {
	if a.p == nil { // want `Close checks a.p and then releases it \(line \d+\) without a guard: two goroutines \(Close holds Album's mutex, which only 2 of the 5 functions that use its state take: a lock of its lifecycle, that makes them safe against each other\)`
		return
	}
	a.mu.Lock()
	C.pic_free(a.p)
	a.p = nil
	a.mu.Unlock()
}

func (a *Album) Reset(p *C.pic) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.p = p
}

func (a *Album) Next()      { a.n++; C.pic_width(a.p) }
func (a *Album) Prev()      { a.n--; C.pic_width(a.p) }
func (a *Album) Seek(n int) { a.n = n; C.pic_width(a.p) }

// AlbumOK tests the handle under the lock.
type AlbumOK struct {
	mu sync.Mutex
	p  *C.pic
	n  int
}

func (a *AlbumOK) Close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.p == nil {
		return
	}
	C.pic_free(a.p)
	a.p = nil
}

func (a *AlbumOK) Reset(p *C.pic) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.p = p
}

func (a *AlbumOK) Next()      { a.n++; C.pic_width(a.p) }
func (a *AlbumOK) Prev()      { a.n--; C.pic_width(a.p) }
func (a *AlbumOK) Seek(n int) { a.n = n; C.pic_width(a.p) }

// Shared: most of its functions take its lock, so the lock is its
// contract and the one that forgets it is reported.
type Shared struct {
	mu sync.Mutex
	p  *C.pic
}

func (s *Shared) Width() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int(C.pic_width(s.p))
}

func (s *Shared) Blur() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.p = C.pic_blur(s.p)
}

func (s *Shared) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	C.pic_free(s.p)
	s.p = nil
}

func (s *Shared) Crop() *C.pic {
	return C.pic_crop(s.p) // want `Crop passes C.pic_crop the handle in s.p without s.mu, which Blur holds when it changes it \(line \d+\): Blur can run in between \(Shared has a mutex\)`
}
