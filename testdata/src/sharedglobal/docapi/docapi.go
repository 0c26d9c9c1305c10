// Package docapi says of one function that callers call it from many
// goroutines: that is the evidence, for that function only.
package docapi

/*
#include <stdlib.h>
*/
import "C"

import "unsafe"

var allocated int64

// Malloc may be called from multiple goroutines.
func Malloc(n int) unsafe.Pointer {
	allocated += int64(n) // want `Malloc updates the package-level variable allocated \(read-modify-write\) without a lock: two goroutines can run Malloc at once \(callers of Malloc, library API of a package that documents Malloc for concurrent callers\)`
	return C.malloc(C.size_t(n))
}

var freed int64

// Free releases p.
func Free(p unsafe.Pointer, n int) {
	freed += int64(n)
	C.free(p)
}
