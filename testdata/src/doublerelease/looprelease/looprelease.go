// Package looprelease holds the doublerelease cases of a release in a
// loop of a handle the loop does not acquire: reported when every trip
// that goes on to the next releases it, silent when a condition tested in
// the loop decides (a count that reaches zero once, a flag the release
// sets), since the paths do not tell how often it holds.
package looprelease

/*
#include <stdlib.h>
typedef struct obj { int n; } obj;
static obj *obj_new(void) { return calloc(1, sizeof(obj)); }
static void obj_free(obj *o) { free(o); }
*/
import "C"

import "sync"

// Every trip frees the same handle.
func freeEach(h *C.obj, n int) {
	for i := 0; i < n; i++ {
		C.obj_free(h) // want `h is released again on the next iteration of the loop`
	}
}

// The same through a range loop that goes on after the release.
func freeEachRange(h *C.obj, xs []int) int {
	t := 0
	for _, x := range xs {
		C.obj_free(h) // want `h is released again on the next iteration of the loop`
		t += x
	}
	return t
}

type Buf struct {
	mu   sync.Mutex
	refs int
	p    *C.obj
}

// The count reaches zero on one trip at most.
func (b *Buf) UnrefN(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := 0; i < n; i++ {
		b.refs--
		if b.refs == 0 {
			C.obj_free(b.p)
		}
	}
}

type Stream struct {
	closed bool
	h      *C.obj
}

// The flag the release sets keeps later trips out.
func (s *Stream) Pump(events []int) {
	for _, ev := range events {
		if ev == 0 && !s.closed {
			C.obj_free(s.h)
			s.closed = true
		}
	}
}

// The same with a local flag.
func drain(h *C.obj, events []int) {
	released := false
	for _, ev := range events {
		if ev == 0 && !released {
			C.obj_free(h)
			released = true
		}
	}
}
