package checkthendestroy

/*
#include <stdlib.h>
typedef struct { int live; } arena;
static void arena_free(arena* a) { free(a); }
static int arena_use(arena* a) { return 0; }
*/
import "C"

import "sync"

// Deferred function literals run at the return, with the locks still held
// then: those taken before and unlocked by an earlier defer.
type Arena struct {
	mu sync.Mutex
	a  *C.arena
}

func (a *Arena) Use() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return int(C.arena_use(a.a))
}

// Reset releases in a literal deferred after the deferred unlock: it runs
// first, with the lock held.
func (a *Arena) Reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	defer func() {
		if a.a != nil {
			C.arena_free(a.a)
			a.a = nil
		}
	}()
}

// Close defers the literal before it takes the lock: it runs after the
// deferred unlock, without it.
func (a *Arena) Close() {
	defer func() {
		if a.a != nil { // want `the function literal in Close checks a.a and then releases it \(line \d+\) without a guard: two goroutines \(Arena has a mutex, which guards a elsewhere\)`
			C.arena_free(a.a)
			a.a = nil
		}
	}()
	a.mu.Lock()
	defer a.mu.Unlock()
}

// Drop unlocks explicitly before returning: the literal runs without the
// lock.
func (a *Arena) Drop() {
	a.mu.Lock()
	defer func() {
		if a.a != nil { // want `the function literal in Drop checks a.a and then releases it`
			C.arena_free(a.a)
			a.a = nil
		}
	}()
	a.mu.Unlock()
}

// Rewind is exported, so code outside the package may call it unlocked;
// that Recycle locks around its call says nothing about those calls.
func (a *Arena) Rewind() {
	if a.a != nil { // want `Rewind checks a.a and then releases it \(line \d+\) without a guard: two goroutines \(Arena has a mutex, which guards a elsewhere\)`
		C.arena_free(a.a)
		a.a = nil
	}
}

func (a *Arena) Recycle() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.Rewind()
}

// rewind is unexported and every caller holds the lock: guarded.
func (a *Arena) rewind() {
	if a.a != nil {
		C.arena_free(a.a)
		a.a = nil
	}
}

func (a *Arena) Recycle2() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.rewind()
}

func (a *Arena) Recycle3() {
	a.mu.Lock()
	a.rewind()
	a.mu.Unlock()
}
