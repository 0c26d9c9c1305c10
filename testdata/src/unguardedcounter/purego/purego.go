// Package purego does not call C: the race detector sees races on its
// counters (no cgo call hides them), so unguardedcounter leaves its plain
// counters, mixed atomic and plain accesses and atomic check-then-store
// alone. A decrement-then-reload is reported everywhere: it is wrong on one
// schedule that the race detector cannot tell from a right one.
package purego

import (
	"sync"
	"sync/atomic"
)

// Stats is safe for concurrent use.
type Stats struct {
	mu   sync.Mutex
	hits int
	miss int
	done uint32
	refs int32
	free func()
}

func (s *Stats) Hit() {
	s.mu.Lock()
	s.hits++
	s.mu.Unlock()
}

// Silent here: a pure-Go counter.
func (s *Stats) Miss() { s.miss++ }

func (s *Stats) Finish() {
	atomic.StoreUint32(&s.done, 1)
}

// Silent here: mixed access in a pure-Go package.
func (s *Stats) Done() bool { return s.done == 1 }

// Silent here: check-then-store on an atomic in a pure-Go package.
func (s *Stats) Once(f func()) {
	if atomic.LoadUint32(&s.done) == 0 {
		atomic.StoreUint32(&s.done, 1)
		f()
	}
}

func (s *Stats) Release() {
	atomic.AddInt32(&s.refs, -1)
	if atomic.LoadInt32(&s.refs) == 0 { // want `Release tests s.refs with a separate atomic Load after the atomic Add`
		s.free()
	}
}
