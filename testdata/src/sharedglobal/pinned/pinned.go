// Package pinned pins its work to the OS thread of Init (where a GPU
// context is made current), so its API runs on one goroutine: even with a
// package-level lock elsewhere, its updates are not reported.
package pinned

/*
#include <stdlib.h>
*/
import "C"

import (
	"runtime"
	"sync"
	"unsafe"
)

var ctx unsafe.Pointer

func Init() {
	runtime.LockOSThread()
	ctx = C.malloc(1)
}

var (
	mu    sync.Mutex
	peaks = map[int]int{}
)

func Peak(k int) int {
	mu.Lock()
	defer mu.Unlock()
	return peaks[k]
}

var launches int

func Launch() { launches++ }

var buffers = map[uintptr]int{}

func Alloc(n int) unsafe.Pointer {
	p := C.malloc(C.size_t(n))
	buffers[uintptr(p)] = n
	return p
}
