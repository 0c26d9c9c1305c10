package slices

/*
#include <stdlib.h>
static int tool_main(int argc, char **argv) { return argc; }
static int sum(int *a, int n) { return n; }
*/
import "C"

import "unsafe"

// An array C.malloc returns, seen as a Go slice, is freed through the
// address of its first element, which cgo's wrapper takes: the free
// releases the block whatever the element type.

func ToolMain(args []string) int {
	argv := unsafe.Slice((**C.char)(C.malloc(C.size_t(len(args))*C.size_t(unsafe.Sizeof((*C.char)(nil))))), len(args))
	defer C.free(unsafe.Pointer(&argv[0]))
	for i, a := range args {
		argv[i] = C.CString(a)
		defer C.free(unsafe.Pointer(argv[i]))
	}
	return int(C.tool_main(C.int(len(args)), &argv[0]))
}

func ToolMainArray(args []string) int {
	n := len(args)
	argv := (*[1 << 28]*C.char)(C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof((*C.char)(nil)))))[:n:n]
	defer C.free(unsafe.Pointer(&argv[0]))
	for i, a := range args {
		argv[i] = C.CString(a)
		defer C.free(unsafe.Pointer(argv[i]))
	}
	return int(C.tool_main(C.int(n), &argv[0]))
}

func IntsFreed(n int) {
	a := unsafe.Slice((*C.int)(C.malloc(C.size_t(n)*4)), n)
	C.free(unsafe.Pointer(&a[0]))
}

// Kept frees the block on one path only.
func Kept(n int) int {
	a := unsafe.Slice((*unsafe.Pointer)(C.malloc(C.size_t(n)*8)), n) // want `the handle C.malloc returns is not released on every path`
	if n > 4 {
		C.free(unsafe.Pointer(&a[0]))
		return -1
	}
	return 0
}
