// Package deref holds reads and writes of C memory, through a pointer to
// a C struct, after a release that frees that memory (free, a wrapper
// whose body frees it): the next allocation may already reuse it. A
// release that only ends the object's use (unref, close) may leave the
// struct readable, and memory read before the release is fine.
package deref

/*
#include <stdlib.h>
typedef struct item { struct item *next; int flags; } item;
static item *item_new(void) { return calloc(1, sizeof(item)); }
// the package's own release: its body frees the item
static void item_drop(item *it) { free(it); }
// a counted object's release: the count may keep it
void item_unref(item *it);
*/
import "C"

import "unsafe"

// The list freed item by item, reading the link after the free.
func FreeAll(head *C.item) {
	for it := head; it != nil; it = it.next { // want `the memory it points to is read after C.free released it`
		C.free(unsafe.Pointer(it))
	}
}

// Corrected: the link read first.
func FreeAllFixed(head *C.item) {
	for it := head; it != nil; {
		next := it.next
		C.free(unsafe.Pointer(it))
		it = next
	}
}

// A write after the package's own release.
func Reset(it *C.item) {
	C.item_drop(it)
	it.flags = 0 // want `the memory it points to is written after C.item_drop released it`
}

// Corrected.
func ResetFixed(it *C.item) {
	it.flags = 0
	C.item_drop(it)
}

// A field of a Go wrapper, read in a method after its release.
type Box struct{ it *C.item }

func (b *Box) Flags() int {
	it := b.it
	C.free(unsafe.Pointer(it))
	return int(it.flags) // want `the memory it points to is read after C.free released it`
}

// Silent: unref ends this reference; the object may live on.
func Unref(it *C.item) int {
	C.item_unref(it)
	return int(it.flags)
}

// Silent: the struct is Go's (a copy), read after the C memory is freed.
func Copy() int {
	p := C.item_new()
	v := *p
	C.free(unsafe.Pointer(p))
	return int(v.flags)
}

// The list freed item by item, then its head read: the message names the
// pointer read, not the loop variable that freed it.
func FreeAllThenHead(head *C.item) int {
	for it := head; it != nil; {
		next := it.next
		C.free(unsafe.Pointer(it))
		it = next
	}
	return int(head.flags) // want `the memory head points to is read after C.free released it`
}

// The block freed as an unsafe.Pointer, then made a struct pointer and
// read: the conversion after the free gives its type.
func CastAfter() int {
	p := C.calloc(1, C.size_t(unsafe.Sizeof(C.item{})))
	C.free(p)
	it := (*C.item)(p)
	return int(it.flags) // want `the memory p points to is read after C.free released it`
}

// Corrected: read, then freed.
func CastAfterFixed() int {
	p := C.calloc(1, C.size_t(unsafe.Sizeof(C.item{})))
	flags := int((*C.item)(p).flags)
	C.free(p)
	return flags
}

// Silent: a Go variable's address made a C struct pointer is Go's memory,
// whatever C was given it.
func GoMemory() int {
	var v C.item
	p := unsafe.Pointer(&v)
	C.item_unref((*C.item)(p))
	return int((*C.item)(p).flags)
}
