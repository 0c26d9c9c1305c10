package lifetime_test

import (
	"testing"

	"github.com/lifetimevet/lifetimevet/passes/lifetime"
)

// TestAtomicListWalks: links kept in atomic cells (next
// atomic.Pointer[node]) are walked as plain links are: n =
// n.next.Load() reads the link as n = n.next does, and the states at the
// loop's header reach a fixpoint instead of a token per trip (both walks
// below stopped at the work budget).
func TestAtomicListWalks(t *testing.T) {
	src := `package awalks

/*
#include <stdlib.h>
typedef struct { int live; } res;
static int res_read(res* r) { return r->live; }
static void res_close(res* r) { free(r); }
*/
import "C"

import "sync/atomic"

type node struct {
	h    *C.res
	next atomic.Pointer[node]
}

type List struct{ head atomic.Pointer[node] }

func (l *List) Sum() int { // want Sum:"lifetime summary"
	s := 0
	for n := l.head.Load(); n != nil; n = n.next.Load() {
		s += int(C.res_read(n.h))
	}
	return s
}

func (l *List) Free() { // want Free:"lifetime summary"
	for n := l.head.Swap(nil); n != nil; {
		nx := n.next.Load()
		C.res_close(n.h)
		n = nx
	}
}

func (l *List) FreeTwice() { // want FreeTwice:"lifetime summary"
	for n := l.head.Load(); n != nil; n = n.next.Load() {
		C.res_close(n.h)
		C.res_close(n.h)
	}
}
`
	want := map[string][2]int{"Sum": {}, "Free": {}, "FreeTwice": {1, 0}}
	checkComplete(t, "awalks", src, [2]lifetime.EventKind{lifetime.DoubleRelease, lifetime.UseAfterRelease}, want)
}
