// Package cleanupcell holds the doublerelease cases of a runtime.AddCleanup
// whose argument is the handle an atomic cell holds: the cleanup keeps its
// copy, so a Close that swaps the handle out of the cell and releases it
// leaves the cleanup to release it again, unless it stops the cleanup.
package cleanupcell

/*
#include <stdlib.h>
typedef struct { int live; } res;
static res* res_open(void) { return calloc(1, sizeof(res)); }
static void res_close(res* r) { free(r); }
*/
import "C"

import (
	"runtime"
	"sync/atomic"
)

type Conn struct{ h atomic.Pointer[C.res] }

func Open() *Conn {
	c := &Conn{}
	c.h.Store(C.res_open())
	runtime.AddCleanup(c, func(p *C.res) { C.res_close(p) }, c.h.Load())
	return c
}

func (c *Conn) Close() {
	if p := c.h.Swap(nil); p != nil {
		C.res_close(p) // want `c.h is released here and again by the cleanup added at line \d+`
	}
}

// Stored puts the handle in the cell, then gives the same handle to the
// cleanup.
type Stored struct{ h atomic.Pointer[C.res] }

func OpenStored() *Stored {
	s := &Stored{}
	p := C.res_open()
	s.h.Store(p)
	runtime.AddCleanup(s, func(p *C.res) { C.res_close(p) }, p)
	return s
}

func (s *Stored) Close() {
	if p := s.h.Swap(nil); p != nil {
		C.res_close(p) // want `s.h is released here and again by the cleanup added at line \d+`
	}
}

// Stopped stops its cleanup before it releases.
type Stopped struct {
	h       atomic.Pointer[C.res]
	cleanup runtime.Cleanup
}

func OpenStopped() *Stopped {
	s := &Stopped{}
	p := C.res_open()
	s.h.Store(p)
	s.cleanup = runtime.AddCleanup(s, func(p *C.res) { C.res_close(p) }, p)
	return s
}

func (s *Stopped) Close() {
	if p := s.h.Swap(nil); p != nil {
		s.cleanup.Stop()
		C.res_close(p)
	}
}
