package refs

import (
	"sync"
	"sync/atomic"
)

/*
#include <stdlib.h>
static void lib_init(void) {}
*/
import "C"

// Check-then-act on an atomic guarding a once-only action.
type Lib struct {
	started atomic.Int32
	ready   int32
}

func (l *Lib) Start() {
	if l.started.Load() == 0 { // want `Start checks l.started with an atomic Load and then sets it with a separate Store \(line 23\)`
		C.lib_init()
		l.started.Store(1)
	}
}

func (l *Lib) StartOld() {
	if atomic.LoadInt32(&l.ready) == 0 { // want `StartOld checks l.ready with an atomic Load and then sets it with a separate Store`
		C.lib_init()
		atomic.StoreInt32(&l.ready, 1)
	}
}

// Fixed: CompareAndSwap claims the action.
func (l *Lib) StartCAS() {
	if l.started.CompareAndSwap(0, 1) {
		C.lib_init()
	}
}

// Fixed: sync.Once.
type OnceLib struct{ once sync.Once }

func (l *OnceLib) Start() { l.once.Do(func() { C.lib_init() }) }

// Fixed: double-checked locking.
type DCLib struct {
	mu   sync.Mutex
	done atomic.Bool
}

func (l *DCLib) Start() {
	if !l.done.Load() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if !l.done.Load() {
			C.lib_init()
			l.done.Store(true)
		}
	}
}
