package lifetime_test

import (
	"testing"

	"github.com/lifetimevet/lifetimevet/passes/lifetime"
)

// TestListWalks: a walk of a linked list (n = n.next in a loop) gives a
// value loaded from the variable's own content on each trip; the states
// at the loop's header reach a fixpoint (the value stands for any item)
// instead of growing a token per trip until maxVisits (gpgme's Verify,
// and a plain walk with one C call per item, stopped there and were
// reported as incomplete). No function here is incomplete, and each has
// the findings it should: a release of the item on each trip is no
// double release; the read of the next item's link after the free of this
// one is a use after release.
func TestListWalks(t *testing.T) {
	src := `package walks

/*
#include <stdlib.h>
typedef struct item { struct item *next; struct item *child; int flags; } item;
typedef struct list { item *head; } list;
int item_check(item *it);
*/
import "C"

import "unsafe"

func CList(l *C.list) int { // want CList:"lifetime summary"
	n := 0
	for it := l.head; it != nil; it = it.next {
		if C.item_check(it) != 0 {
			n++
		}
	}
	return n
}

type node struct {
	next *node
	h    *C.item
}

func GoListParam(n *node) int { // want GoListParam:"lifetime summary"
	k := 0
	for ; n != nil; n = n.next {
		k += int(C.item_check(n.h))
	}
	return k
}

// a field walked as a cursor
type cursor struct{ cur *C.item }

func (c *cursor) Drain() { // want Drain:"lifetime summary"
	for c.cur != nil {
		C.item_check(c.cur)
		c.cur = c.cur.next
	}
}

// two links, and a walk in a closure
func Tree(root *C.item) int { // want Tree:"lifetime summary"
	k := 0
	visit := func(it *C.item) {
		for ; it != nil; it = it.child {
			for s := it; s != nil; s = s.next {
				k += int(C.item_check(s))
			}
		}
	}
	visit(root)
	return k
}

func FreeEach(head *C.item) { // want FreeEach:"lifetime summary"
	for it := head; it != nil; {
		next := it.next
		C.free(unsafe.Pointer(it))
		it = next
	}
}

func FreeThenNext(head *C.item) { // want FreeThenNext:"lifetime summary"
	for it := head; it != nil; it = it.next {
		C.free(unsafe.Pointer(it))
	}
}
`
	// the double releases and uses after release each function has
	want := map[string][2]int{
		"CList": {}, "GoListParam": {}, "Drain": {}, "Tree": {}, "Tree$1": {}, "FreeEach": {}, "FreeThenNext": {0, 1},
	}
	checkComplete(t, "walks", src, [2]lifetime.EventKind{lifetime.DoubleRelease, lifetime.UseAfterRelease}, want)
}
