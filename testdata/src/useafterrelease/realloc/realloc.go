// Package realloc holds the useafterrelease cases of realloc, which frees
// its argument only where it succeeds (its result is not NULL).
package realloc

/*
#include <stdlib.h>
#include <string.h>
*/
import "C"

import "unsafe"

// The old block is used where realloc moved it.
func grow(n int) unsafe.Pointer {
	p := C.malloc(16)
	q := C.realloc(p, C.size_t(n))
	if q == nil {
		C.free(p)
		return nil
	}
	C.memset(p, 0, 16) // want `p is passed to C.memset after C.realloc released it at line 16`
	return q
}

// The corrected version: the new block is used, and the old one only
// where realloc failed and left it.
func growFixed(n int) unsafe.Pointer {
	p := C.malloc(16)
	q := C.realloc(p, C.size_t(n))
	if q == nil {
		C.memset(p, 0, 16)
		C.free(p)
		return nil
	}
	C.memset(q, 0, 16)
	return q
}
