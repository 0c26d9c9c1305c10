package checkthendestroy

/*
#include <stdlib.h>
typedef struct { int live; } blob_t;
static blob_t* blob_new(void) { return malloc(sizeof(blob_t)); }
static void blob_destroy(blob_t* b) { free(b); }
static int blob_len(blob_t* b) { return 0; }
*/
import "C"

import (
	"sync"
	"sync/atomic"
)

// Store checks and releases its handle under RLock: every reader holds the
// lock at once, so two Closes both pass the check.
type Store struct {
	mu sync.RWMutex
	b  *C.blob_t
}

func (s *Store) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return int(C.blob_len(s.b))
}

func (s *Store) Close() {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.b != nil { // want `Close checks s.b and then releases it \(line \d+\) under s.mu held only for reading \(RLock\), which does not exclude other readers: .* hold s.mu with Lock, not RLock, across both`
		C.blob_destroy(s.b)
		s.b = nil
	}
}

// StoreOK holds the lock exclusively across the check and the release.
type StoreOK struct {
	mu sync.RWMutex
	b  *C.blob_t
}

func (s *StoreOK) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return int(C.blob_len(s.b))
}

func (s *StoreOK) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.b != nil {
		C.blob_destroy(s.b)
		s.b = nil
	}
}

// Upgrade checks under RLock, then takes Lock and checks again: the
// re-check under the exclusive lock decides.
type Upgrade struct {
	mu sync.RWMutex
	b  *C.blob_t
}

func (s *Upgrade) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return int(C.blob_len(s.b))
}

func (s *Upgrade) Close() {
	s.mu.RLock()
	live := s.b != nil
	s.mu.RUnlock()
	if !live {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.b != nil {
		C.blob_destroy(s.b)
		s.b = nil
	}
}

// flagged sets a flag it checked under a read lock through a read-lock
// helper of its own: two callers both see it unset.
type flagged struct {
	mu     sync.RWMutex
	closed bool
	b      *C.blob_t
}

func (f *flagged) rlock()   { f.mu.RLock() }
func (f *flagged) runlock() { f.mu.RUnlock() }

func (f *flagged) Len() int {
	f.rlock()
	defer f.runlock()
	return int(C.blob_len(f.b))
}

func (f *flagged) Shutdown() {
	f.rlock()
	defer f.runlock()
	if !f.closed { // want `Shutdown checks f.closed and then sets it \(line \d+\) under f.mu held only for reading \(RLock\)`
		f.closed = true
	}
}

// Slot keeps its handle in an atomic.Pointer but loads, tests and releases
// it in three steps: two Closes both load the same handle. Slot is safe for
// concurrent use.
type Slot struct{ b atomic.Pointer[C.blob_t] }

func (s *Slot) Len() int { return int(C.blob_len(s.b.Load())) }

func (s *Slot) Close() {
	b := s.b.Load() // want `Close checks s.b and then releases it \(line \d+\) without a guard: two goroutines \(Slot is documented as safe for concurrent use\)`
	if b != nil {
		C.blob_destroy(b)
		s.b.Store(nil)
	}
}

// SlotOK claims it with Swap before releasing it. SlotOK is safe for
// concurrent use.
type SlotOK struct{ b atomic.Pointer[C.blob_t] }

func (s *SlotOK) Len() int { return int(C.blob_len(s.b.Load())) }

func (s *SlotOK) Close() {
	if s.b.Load() == nil {
		return
	}
	if b := s.b.Swap(nil); b != nil {
		C.blob_destroy(b)
	}
}

// SlotCAS claims it with CompareAndSwap of the loaded value. SlotCAS is safe
// for concurrent use.
type SlotCAS struct{ b atomic.Pointer[C.blob_t] }

func (s *SlotCAS) Len() int { return int(C.blob_len(s.b.Load())) }

func (s *SlotCAS) Close() {
	b := s.b.Load()
	if b != nil && s.b.CompareAndSwap(b, nil) {
		C.blob_destroy(b)
	}
}

// Cell says nothing of its use, but keeps its handle in an atomic.Pointer:
// a handle kept atomically is meant to be shared. The release goes through
// a helper.
type Cell struct{ b atomic.Pointer[C.blob_t] }

func destroyBlob(b *C.blob_t) { C.blob_destroy(b) }

func (c *Cell) Release() {
	if b := c.b.Load(); b != nil { // want `Release checks c.b and then releases it \(line \d+\) without a guard: two goroutines \(Cell.b is atomic, so it is shared\)`
		destroyBlob(b)
		c.b.Store(nil)
	}
}

// CellOK claims it first, in the same helper shape.
type CellOK struct{ b atomic.Pointer[C.blob_t] }

func (c *CellOK) Release() {
	if b := c.b.Swap(nil); b != nil {
		destroyBlob(b)
	}
}

// Gauge tests an atomic flag that is no handle: not this analyzer's.
type Gauge struct {
	on atomic.Bool
	n  int
}

func (g *Gauge) Stop() {
	if g.on.Load() {
		g.on.Store(false)
	}
}
