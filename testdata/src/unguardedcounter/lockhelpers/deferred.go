package lockhelpers

// #include <stdlib.h>
// typedef struct { int live; } ctx;
// static int ctx_run(ctx* c, int n) { return n; }
import "C"

import "sync"

// Holder counts its holders in the helpers that take and give back the
// lock: a deferred release() runs its body holding the lock until it
// unlocks, as a direct call does.
type Holder struct {
	mu      sync.Mutex
	holders int
	uses    int
	c       *C.ctx
}

func (h *Holder) acquire() {
	h.mu.Lock()
	h.holders++
}

func (h *Holder) release() {
	h.holders--
	h.mu.Unlock()
}

func (h *Holder) Do() {
	h.acquire()
	defer h.release()
	h.uses++
	C.ctx_run(h.c, 1)
}

// Late counts in a deferred function that runs after the unlock.
func (h *Holder) Late() {
	defer func() { h.uses++ }() // want `the function literal in Late increments h.uses without atomics or a lock`
	h.acquire()
	defer h.release()
	C.ctx_run(h.c, 1)
}

func (h *Holder) Spawn() {
	for range 4 {
		go h.Do()
		go h.Late()
	}
}
