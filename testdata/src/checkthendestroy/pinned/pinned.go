// Package pinned pins its work to one OS thread in Init: its types are
// used from that thread, one goroutine at a time, whatever locks they have.
package pinned

/*
#include <stdlib.h>
typedef struct { int live; } buf;
static void buf_free(buf* b) { free(b); }
static int buf_use(buf* b) { return 0; }
*/
import "C"

import (
	"runtime"
	"sync"
)

func Init() { runtime.LockOSThread() }

type Buffer struct {
	mu sync.Mutex
	b  *C.buf
}

func (b *Buffer) Use() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return int(C.buf_use(b.b))
}

func (b *Buffer) Close() {
	if b.b != nil {
		C.buf_free(b.b)
		b.b = nil
	}
}
