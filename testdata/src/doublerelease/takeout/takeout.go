// Package takeout holds the doublerelease cases of take-out helpers: a
// function that reads a handle from a field and clears the field on every
// path hands its caller the handle once; a second call finds nil.
package takeout

/*
#include <stdlib.h>
typedef struct { int live; } res;
static res* res_open(void) { return calloc(1, sizeof(res)); }
static void res_close(res* r) { free(r); }
*/
import "C"

import (
	"sync"
	"sync/atomic"
)

type Buf struct{ h *C.res }

func (b *Buf) take() *C.res {
	p := b.h
	b.h = nil
	return p
}

// peek reads the handle and leaves it in place.
func (b *Buf) peek() *C.res { return b.h }

func (b *Buf) Drain() {
	if p := b.take(); p != nil {
		C.res_close(p)
	}
	if p := b.take(); p != nil {
		C.res_close(p)
	}
}

func (b *Buf) DrainPeeked() {
	C.res_close(b.peek())
	C.res_close(b.peek()) // want `released twice`
}

// Restore puts the closed handle back: the second take-out returns it.
func (b *Buf) Restore() {
	p := b.take()
	C.res_close(p)
	b.h = p
	C.res_close(b.take()) // want `released twice`
}

type Cell struct{ h atomic.Pointer[C.res] }

func (c *Cell) take() *C.res { return c.h.Swap(nil) }

func takeCell(p *atomic.Pointer[C.res]) *C.res { return p.Swap(nil) }

func (c *Cell) Drain() {
	if p := c.take(); p != nil {
		C.res_close(p)
	}
	if p := c.take(); p != nil {
		C.res_close(p)
	}
}

func (c *Cell) DrainCell() {
	C.res_close(takeCell(&c.h))
	C.res_close(takeCell(&c.h))
}

// DrainLoaded closes what the cell holds twice.
func (c *Cell) DrainLoaded() {
	C.res_close(c.h.Load())
	C.res_close(c.h.Load()) // want `released twice`
}

// restore clears the field and writes the handle back: the field is
// unchanged, and a second call returns the same handle.
func (b *Buf) restore() *C.res {
	p := b.h
	b.h = nil
	b.h = p
	return p
}

func (b *Buf) DrainRestored() {
	C.res_close(b.restore())
	C.res_close(b.restore()) // want `released twice`
}

// takeLocked takes the handle out under a lock unlocked by a defer.
func (b *Locked) take() *C.res {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.h
	b.h = nil
	return p
}

type Locked struct {
	mu sync.Mutex
	h  *C.res
}

func (b *Locked) Drain() {
	C.res_close(b.take())
	C.res_close(b.take())
}

// peek reads the handle under the lock and leaves it.
func (b *Locked) peek() *C.res {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.h
}

func (b *Locked) DrainPeeked() {
	C.res_close(b.peek())
	C.res_close(b.peek()) // want `released twice`
}

// get also says whether it found a handle, and leaves it in place.
func (b *Buf) get() (*C.res, bool) { return b.h, b.h != nil }

func (b *Buf) DrainGot() {
	if p, ok := b.get(); ok {
		C.res_close(p)
	}
	if p, ok := b.get(); ok {
		C.res_close(p) // want `released twice`
	}
}

// takeOK takes it out and says whether it found one.
func (b *Buf) takeOK() (*C.res, bool) {
	p := b.h
	b.h = nil
	return p, p != nil
}

func (b *Buf) DrainTaken() {
	if p, ok := b.takeOK(); ok {
		C.res_close(p)
	}
	if p, ok := b.takeOK(); ok {
		C.res_close(p)
	}
}

// takeDeferred clears the field in a deferred literal.
func (b *Buf) takeDeferred() *C.res {
	defer func() { b.h = nil }()
	return b.h
}

func (b *Buf) DrainDeferred() {
	if p := b.takeDeferred(); p != nil {
		C.res_close(p)
	}
	if p := b.takeDeferred(); p != nil {
		C.res_close(p)
	}
}
