// Package gpu is a wrapper package: its summaries reach importers as facts.
package gpu

/*
#include <stdlib.h>
typedef unsigned long long CUdeviceptr;
typedef int CUresult;
static CUresult cuMemAlloc(CUdeviceptr *p, size_t n) { *p = (CUdeviceptr)malloc(n); return 0; }
static CUresult cuMemFree(CUdeviceptr p) { free((void*)p); return 0; }
*/
import "C"

// Buffer is device memory.
type Buffer struct{ p C.CUdeviceptr }

// Alloc allocates n bytes.
func Alloc(n int) *Buffer {
	b := &Buffer{}
	C.cuMemAlloc(&b.p, C.size_t(n))
	return b
}

// Free releases b's memory and does not clear it.
func Free(b *Buffer) { C.cuMemFree(b.p) }

// Release releases b's memory and clears it.
func Release(b *Buffer) {
	C.cuMemFree(b.p)
	b.p = 0
}
