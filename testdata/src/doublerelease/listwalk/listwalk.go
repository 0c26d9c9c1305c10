// Package listwalk holds releases after and inside walks of linked lists,
// C's and Go's: n = n.next in a loop gives a new value on each trip, and
// the analysis follows the function past the loop (it used to stop at
// its visit limit there, silent on what came after).
package listwalk

/*
#include <stdlib.h>
typedef struct item { struct item *next; int flags; } item;
typedef struct list { item *head; } list;
list *list_load(const char *path);
void list_free(list *l);
int item_check(item *it);
*/
import "C"

import "unsafe"

// A C list, walked with a C call on each item, then freed twice.
func CountTwice(path *C.char) int {
	l := C.list_load(path)
	n := 0
	for it := l.head; it != nil; it = it.next {
		if C.item_check(it) != 0 {
			n++
		}
	}
	C.list_free(l)
	C.list_free(l) // want `l is released twice`
	return n
}

// Corrected.
func Count(path *C.char) int {
	l := C.list_load(path)
	defer C.list_free(l)
	n := 0
	for it := l.head; it != nil; it = it.next {
		if C.item_check(it) != 0 {
			n++
		}
	}
	return n
}

// A Go list of C buffers, walked through a parameter.
type node struct {
	next *node
	buf  unsafe.Pointer
}

func (n *node) sum() int {
	s := 0
	for ; n != nil; n = n.next {
		s += int(C.item_check((*C.item)(n.buf)))
	}
	return s
}

func SumAndFree(head *node, scratch unsafe.Pointer) int {
	s := head.sum()
	for n := head; n != nil; n = n.next {
		s += int(C.item_check((*C.item)(n.buf)))
	}
	C.free(scratch)
	C.free(scratch) // want `scratch is released twice`
	return s
}

// Silent: each trip frees another item, read before the free.
func FreeAll(head *C.item) {
	for it := head; it != nil; {
		next := it.next
		C.free(unsafe.Pointer(it))
		it = next
	}
}
