// Package atomiccell holds the finalizer cases of handles kept in atomic
// cells (atomic.Pointer[T], atomic.Uintptr, a pointer or uintptr that
// atomic.LoadPointer and its kin reach): the cell is the handle's field,
// its Load a read of the field, its Swap a read and an overwrite in one
// step.
package atomiccell

/*
#include <stdint.h>
#include <stdlib.h>
typedef struct { int live; } res;
static res* res_open(void) { return calloc(1, sizeof(res)); }
static void res_close(res* r) { free(r); }
static int res_read(res* r) { return r->live; }
static void res_close_id(uintptr_t r) { free((void*)r); }
static int res_read_id(uintptr_t r) { return ((res*)r)->live; }
*/
import "C"

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// Conn keeps its handle in an atomic.Pointer; its finalizer takes the
// handle out with Swap(nil) and closes it.
type Conn struct {
	h atomic.Pointer[C.res]
}

func Open() *Conn {
	c := &Conn{}
	c.h.Store(C.res_open())
	runtime.SetFinalizer(c, (*Conn).Close)
	return c
}

// Close swapped the handle out: a finalizer that runs during res_close
// finds nil and closes nothing.
func (c *Conn) Close() {
	if p := c.h.Swap(nil); p != nil {
		C.res_close(p)
	}
}

func (c *Conn) Read() int {
	return int(C.res_read(c.h.Load())) // want `c may be collected while C.res_read runs with c.h`
}

func (c *Conn) ReadKept() int {
	n := int(C.res_read(c.h.Load()))
	runtime.KeepAlive(c)
	return n
}

func (c *Conn) ReadChecked() int {
	p := c.h.Load()
	if p == nil {
		return 0
	}
	return int(C.res_read(p)) // want `c may be collected while C.res_read runs with c.h`
}

// Release closes the handle still in the cell: the finalizer can close it
// during the call.
func (c *Conn) Release() {
	C.res_close(c.h.Load()) // want `c may be collected while C.res_close runs with c.h`
}

// ReleaseStored takes the handle out with a separate Store: the finalizer
// finds nil (another goroutine's Release is checkthendestroy's concern).
func (c *Conn) ReleaseStored() {
	p := c.h.Load()
	c.h.Store(nil)
	C.res_close(p)
}

// ReleaseCAS takes the handle out with a compare-and-swap, and closes it
// only where the swap succeeded.
func (c *Conn) ReleaseCAS() {
	p := c.h.Load()
	if c.h.CompareAndSwap(p, nil) {
		C.res_close(p)
	}
}

// ReleaseCASFailed closes the handle where the swap failed: the cell
// still holds it.
func (c *Conn) ReleaseCASFailed() {
	p := c.h.Load()
	if !c.h.CompareAndSwap(p, nil) {
		C.res_close(p) // want `c may be collected while C.res_close runs with c.h`
	}
}

// ReleaseCASCompared tests the swap's result against a constant: where
// it is not false, the swap succeeded.
func (c *Conn) ReleaseCASCompared() {
	p := c.h.Load()
	if c.h.CompareAndSwap(p, nil) == false {
		return
	}
	C.res_close(p)
}

// ReleaseCASKept keeps the result and returns where it is not true.
func (c *Conn) ReleaseCASKept() {
	p := c.h.Load()
	swapped := c.h.CompareAndSwap(p, nil)
	if !(swapped == true) {
		return
	}
	C.res_close(p)
}

// ReleaseCASComparedFailed closes where the comparison says the swap
// failed.
func (c *Conn) ReleaseCASComparedFailed() {
	p := c.h.Load()
	if c.h.CompareAndSwap(p, nil) != false {
		return
	}
	C.res_close(p) // want `c may be collected while C.res_close runs with c.h`
}

// ReleaseCASLoop retries until its swap succeeds, then closes what it
// took out.
func (c *Conn) ReleaseCASLoop() {
	for {
		p := c.h.Load()
		if p == nil {
			return
		}
		if c.h.CompareAndSwap(p, nil) == true {
			C.res_close(p)
			return
		}
	}
}

// ptr is an accessor of the cell: its result is c.h.
func (c *Conn) ptr() *C.res { return c.h.Load() }

func (c *Conn) ReadVia() int {
	return int(C.res_read(c.ptr())) // want `c may be collected while C.res_read runs with c.h`
}

// Stream keeps its handle as an address in an atomic.Uintptr.
type Stream struct {
	id atomic.Uintptr
}

func NewStream() *Stream {
	s := &Stream{}
	s.id.Store(uintptr(unsafe.Pointer(C.res_open())))
	runtime.SetFinalizer(s, func(s *Stream) {
		if id := s.id.Swap(0); id != 0 {
			C.res_close_id(C.uintptr_t(id))
		}
	})
	return s
}

func (s *Stream) Read() int {
	return int(C.res_read_id(C.uintptr_t(s.id.Load()))) // want `s may be collected while C.res_read_id runs with s.id`
}

func (s *Stream) Close() {
	if id := s.id.Swap(0); id != 0 {
		C.res_close_id(C.uintptr_t(id))
	}
}

// Legacy keeps an unsafe.Pointer that the functions of sync/atomic read
// and write, the layout from before atomic.Pointer.
type Legacy struct {
	p unsafe.Pointer
}

func NewLegacy() *Legacy {
	l := &Legacy{p: unsafe.Pointer(C.res_open())}
	runtime.SetFinalizer(l, (*Legacy).Close)
	return l
}

func (l *Legacy) Close() {
	if p := atomic.SwapPointer(&l.p, nil); p != nil {
		C.res_close((*C.res)(p))
	}
}

func (l *Legacy) Read() int {
	return int(C.res_read((*C.res)(atomic.LoadPointer(&l.p)))) // want `l may be collected while C.res_read runs with l.p`
}

func (l *Legacy) ReadKept() int {
	defer runtime.KeepAlive(l)
	return int(C.res_read((*C.res)(atomic.LoadPointer(&l.p))))
}

// box is what Holder's cell points to: the handle is a field of the
// cell's content, named through the cell (h.b.h), not through
// atomic.Pointer's own fields.
type box struct{ h *C.res }

type Holder struct{ b atomic.Pointer[box] }

func NewHolder() *Holder {
	h := &Holder{}
	h.b.Store(&box{h: C.res_open()})
	runtime.SetFinalizer(h, (*Holder).Close)
	return h
}

func (h *Holder) Close() {
	if b := h.b.Swap(nil); b != nil {
		C.res_close(b.h)
	}
}

func (h *Holder) Read() int {
	return int(C.res_read(h.b.Load().h)) // want `h may be collected while C.res_read runs with h\.b\.h: nothing uses h after the call, so the finalizer set at line \d+ \(\(\*Holder\)\.Close\) can release h\.b\.h during it`
}

// Tracked stores its handle in the cell and gives the same handle to its
// cleanup: the cleanup releases what the cell holds.
type Tracked struct{ h atomic.Pointer[C.res] }

func NewTracked() *Tracked {
	t := &Tracked{}
	p := C.res_open()
	t.h.Store(p)
	runtime.AddCleanup(t, func(p *C.res) { C.res_close(p) }, p)
	return t
}

func (t *Tracked) Read() int {
	return int(C.res_read(t.h.Load())) // want `t may be collected while C.res_read runs with t.h: nothing uses t after the call, so the cleanup added at line \d+`
}

func (t *Tracked) ReadKept() int {
	defer runtime.KeepAlive(t)
	return int(C.res_read(t.h.Load()))
}
