// Package atomiccheck holds check-then-act on atomics: a Load tested, then
// a separate Add or Store that the test was meant to allow.
package atomiccheck

/*
#include <stdlib.h>
typedef struct { int live; } slot;
static int slot_use(slot* s) { return 0; }
*/
import "C"

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Limiter admits at most max users: the bound is tested, then passed.
type Limiter struct {
	active atomic.Int32
	max    int32
	s      *C.slot
}

func (l *Limiter) Enter() bool {
	if l.active.Load() >= l.max { // want `Enter checks l.active with an atomic Load and then changes it with a separate Add \(line \d+\): two goroutines can both pass the check before either adds`
		return false
	}
	l.active.Add(1)
	C.slot_use(l.s)
	return true
}

// EnterOK claims its place with a CompareAndSwap loop.
func (l *Limiter) EnterOK() bool {
	for {
		n := l.active.Load()
		if n >= l.max {
			return false
		}
		if l.active.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// A package-level count in the functions of sync/atomic, through a helper.
var inflight int64

func admit(limit int64) bool {
	if atomic.LoadInt64(&inflight) < limit { // want `admit checks inflight with an atomic Load and then changes it with a separate Add`
		atomic.AddInt64(&inflight, 1)
		return true
	}
	return false
}

func Begin() bool { return admit(8) }

// A peak: the last Store wins whether or not it still passes the check.
var peak atomic.Int64

func Observe(v int64) {
	if v > peak.Load() { // want `Observe checks peak with an atomic Load and then sets it with a separate Store \(line \d+\): two goroutines can both pass the check, and the one that stores last can undo the other's update`
		peak.Store(v)
	}
}

func ObserveOK(v int64) {
	for {
		p := peak.Load()
		if v <= p || peak.CompareAndSwap(p, v) {
			return
		}
	}
}

// Silent: a flag stored with a constant and nothing else done (idempotent).
var warned atomic.Bool

func Warn() {
	if !warned.Load() {
		warned.Store(true)
	}
}

// Silent: the test and the Add under one lock.
type Gate struct {
	mu    sync.Mutex
	count atomic.Int32
}

func (g *Gate) Enter(max int32) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.count.Load() >= max {
		return false
	}
	g.count.Add(1)
	return true
}

// Holder loads, tests and releases a handle kept in an atomic.Pointer, then
// stores nil: a handle released twice, which checkthendestroy reports (with
// its fix); not a lost update of a counter.
type Holder struct{ s atomic.Pointer[C.slot] }

func freeSlot(s *C.slot) { C.free(unsafe.Pointer(s)) }

func (h *Holder) Close() {
	if s := h.s.Load(); s != nil {
		freeSlot(s)
		h.s.Store(nil)
	}
}
