package refs

/*
#include <stdlib.h>
typedef struct { int live; } obj;
static obj* obj_new(void) { return malloc(sizeof(obj)); }
static void obj_free(obj* o) { free(o); }
*/
import "C"

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// A reference count: its zero test guards the release.
type Shared struct {
	refs int
	o    *C.obj
}

func NewShared() *Shared {
	s := &Shared{o: C.obj_new()}
	s.refs = 1 // a new object: not yet shared
	s.refs++
	return s
}

func (s *Shared) Retain() { s.refs++ } // want `Retain increments s.refs without atomics or a lock: s.refs is a reference count \(its zero test at line 34 guards C.obj_free\)`

func (s *Shared) Release() {
	s.refs-- // want `Release decrements s.refs without atomics or a lock`
	if s.refs == 0 {
		C.obj_free(s.o)
	}
}

// Fixed: atomic.Int32, and the value Add returns decides.
type AtomicShared struct {
	refs atomic.Int32
	o    *C.obj
}

func (s *AtomicShared) Retain() { s.refs.Add(1) }

func (s *AtomicShared) Release() {
	if s.refs.Add(-1) == 0 {
		C.obj_free(s.o)
	}
}

// Fixed: a mutex around every update.
type LockedShared struct {
	mu   sync.Mutex
	refs int
	o    *C.obj
}

func (s *LockedShared) Retain() {
	s.mu.Lock()
	s.refs++
	s.mu.Unlock()
}

func (s *LockedShared) Release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refs--
	if s.refs == 0 {
		C.obj_free(s.o)
	}
}

// Stats is safe for concurrent use by multiple goroutines.
type Stats struct {
	calls int64
}

func (st *Stats) Hit() { st.calls += 1 } // want `Hit increments st.calls without atomics or a lock: Stats is documented as safe for concurrent use`

// Pool has a mutex that guards its counter elsewhere.
type Pool struct {
	mu    sync.Mutex
	inUse int
}

func (p *Pool) Get() {
	p.mu.Lock()
	p.inUse++
	p.mu.Unlock()
}

func (p *Pool) Put() { p.inUse-- } // want `Put decrements p.inUse without atomics or a lock: Pool has a mutex, which Get holds when it accesses inUse`

// Local is used by one goroutine at a time.
//
//lifetime:confined
type Local struct{ n int }

func (l *Local) Inc() { l.n++ }

// Silent: a counter of a type with no sign of sharing.
type Plain struct{ n int }

func (p *Plain) Inc() { p.n++ }

// Updated by goroutines started in a loop.
type Work struct{ done int }

func (w *Work) Run() {
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.finish()
		}()
	}
	wg.Wait()
}

func (w *Work) finish() { w.done++ } // want `finish increments w.done without atomics or a lock: two goroutines can run finish at once \(the goroutines started at line 115\)`

// A node released by its finalizer shares a reference-counted parent.
type Parent struct {
	refs int
	o    *C.obj
}

type Child struct{ p *Parent }

func NewChild(p *Parent) *Child {
	c := &Child{p: p}
	p.refs++ // want `NewChild increments p.refs without atomics or a lock: p.refs is a reference count`
	runtime.SetFinalizer(c, func(c *Child) { c.p.drop() })
	return c
}

func (p *Parent) drop() {
	p.refs-- // want `drop decrements p.refs without atomics or a lock`
	if p.refs <= 0 {
		C.obj_free(p.o)
	}
}
