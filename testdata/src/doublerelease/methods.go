package doublerelease

/*
#include <stdlib.h>
typedef struct { int live; } res;
static res* res_new(void) { return malloc(sizeof(res)); }
static void res_destroy(res* r) { free(r); }
static int res_use(res* r) { return 0; }
*/
import "C"

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// A helper that releases a field, then a direct release of the same field.
type Holder struct{ r *C.res }

func (h *Holder) drop() { C.res_destroy(h.r) }

func helperThenDirect(h *Holder) {
	h.drop()
	C.res_destroy(h.r) // want `h.r is released twice: by \(\*Holder\).drop at line 24 and again here`
}

// Corrected: the helper clears the field, so the second release sees nil.
type ClearingHolder struct{ r *C.res }

func (h *ClearingHolder) drop() {
	C.res_destroy(h.r)
	h.r = nil
}

func helperThenDirectOK(h *ClearingHolder) {
	h.drop()
	C.res_destroy(h.r)
}

// A field loaded twice with a store in between holds two handles.
func fieldReload(h *Holder) {
	C.res_destroy(h.r)
	h.r = C.res_new()
	C.res_destroy(h.r)
}

// A release method that neither clears nor checks, called twice on one
// value by the package: reported in the method.
type Conn struct{ r *C.res }

func (c *Conn) Close() {
	C.res_destroy(c.r) // want `c.r is released twice when \(\*Conn\).Close is called twice on the same value, as useConn does`
}

func useConn() {
	c := &Conn{r: C.res_new()}
	c.Close()
	c.Close()
}

// Corrected: Close checks and clears under a lock; calling it twice is fine.
type SafeConn struct {
	mu sync.Mutex
	r  *C.res
}

func (c *SafeConn) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.r != nil {
		C.res_destroy(c.r)
		c.r = nil
	}
}

func useSafeConn() {
	c := &SafeConn{r: C.res_new()}
	c.Close()
	c.Close()
}

// A reference count guards the release: idempotent by design.
type Shared struct {
	refs atomic.Int32
	r    *C.res
}

func (s *Shared) Release() {
	if s.refs.Add(-1) == 0 {
		C.res_destroy(s.r)
	}
}

func useShared() {
	s := &Shared{r: C.res_new()}
	s.refs.Store(2)
	s.Release()
	s.Release()
}

// The same with a plain count the method itself decrements, under a
// mutex or not, tested after the decrement in any spelling: the release
// is guarded by the count (a maintainer's unguardedcounter concern, not a
// double release), and a use between the releases finds the handle live.
type PlainShared struct {
	mu   sync.Mutex
	refs int
	r    *C.res
}

func (s *PlainShared) Retain() { s.mu.Lock(); s.refs++; s.mu.Unlock() }

func (s *PlainShared) Release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refs--
	if s.refs > 0 {
		return
	}
	C.res_destroy(s.r)
}

func (s *PlainShared) Use() int { return int(C.res_use(s.r)) }

func usePlainShared() {
	s := &PlainShared{refs: 1, r: C.res_new()}
	s.Retain()
	s.Release()
	s.Use()
	s.Release()
}

type CountedModel struct {
	ctx  *C.res
	refs uint32
}

func (m *CountedModel) Free() {
	if m.refs--; m.refs == 0 {
		C.res_destroy(m.ctx)
	}
}

func useCountedModel() {
	m := &CountedModel{ctx: C.res_new(), refs: 2}
	m.Free()
	m.Free()
}

// A non-idempotent Close by itself is not reported (io.Closer leaves a
// second Close undefined).
type PlainCloser struct{ r *C.res }

func (p *PlainCloser) Close() error {
	C.res_destroy(p.r)
	return nil
}

// A method value called twice.
func methodValue() {
	c := &Conn{r: C.res_new()}
	f := c.Close
	f()
	f()
}

// Finalizer armed after Close: the finalizer releases the handle again.
type Image struct{ r *C.res }

func NewImage() *Image {
	img := &Image{r: C.res_new()}
	runtime.SetFinalizer(img, func(i *Image) { C.res_destroy(i.r) })
	return img
}

func (i *Image) Close() {
	C.res_destroy(i.r) // want `i.r is released here and again by the finalizer set at line 173 \(func literal\) once the Image is collected`
}

// Corrected: Close clears the handle and disarms the finalizer.
type SafeImage struct{ r *C.res }

func NewSafeImage() *SafeImage {
	img := &SafeImage{r: C.res_new()}
	runtime.SetFinalizer(img, (*SafeImage).free)
	return img
}

func (i *SafeImage) free() {
	if i.r != nil {
		C.res_destroy(i.r)
		i.r = nil
	}
}

func (i *SafeImage) Close() {
	i.free()
	runtime.SetFinalizer(i, nil)
}

// The finalizer is the exported Close itself: an explicit Close leaves it
// armed, and the collector calls Close again.
type Tensor struct{ r *C.res }

func NewTensor() *Tensor {
	t := &Tensor{r: C.res_new()}
	runtime.SetFinalizer(t, (*Tensor).Close)
	return t
}

func (t *Tensor) Close() {
	C.res_destroy(t.r) // want `t.r is released here and again by the finalizer set at line 208 \(\(\*Tensor\).Close\)`
}

// A cleanup stopped and a handle cleared: fine.
type Ctx struct {
	r  *C.res
	cl runtime.Cleanup
}

func NewCtx() *Ctx {
	c := &Ctx{r: C.res_new()}
	c.cl = runtime.AddCleanup(c, func(r *C.res) { C.res_destroy(r) }, c.r)
	return c
}

func (c *Ctx) Close() {
	c.cl.Stop()
	C.res_destroy(c.r)
	c.r = nil
}

// A cleanup left armed.
type ArmedCtx struct{ r *C.res }

func NewArmedCtx() *ArmedCtx {
	c := &ArmedCtx{r: C.res_new()}
	runtime.AddCleanup(c, func(r *C.res) { C.res_destroy(r) }, c.r)
	return c
}

func (c *ArmedCtx) Close() {
	C.res_destroy(c.r) // want `c.r is released here and again by the cleanup added at line 239`
}

// The finalizer tests a flag that Close sets: fine.
type Flagged struct {
	closed bool
	r      *C.res
}

func NewFlagged() *Flagged {
	f := &Flagged{r: C.res_new()}
	runtime.SetFinalizer(f, func(f *Flagged) {
		if !f.closed {
			C.res_destroy(f.r)
		}
	})
	return f
}

func (f *Flagged) Close() {
	C.res_destroy(f.r)
	f.closed = true
}

// A field the method sets to something else than an update of itself (a
// call's result, a constant) and then tests guards nothing: called twice,
// the release runs twice.
type Flusher struct {
	err error
	r   *C.res
}

func (f *Flusher) flush() error { return nil }

func (f *Flusher) Close() error {
	f.err = f.flush()
	if f.err != nil {
		return f.err
	}
	C.res_destroy(f.r) // want `f.r is released twice when \(\*Flusher\).Close is called twice on the same value`
	return nil
}

func useFlusher() {
	f := &Flusher{r: C.res_new()}
	f.Close()
	f.Close()
}
