// Package onces holds the finalizer cases of a release that a method value
// run by (*sync.Once).Do makes, on a Once outside the object (a global's,
// a helper's parameter): the finalizer cannot release during the Do's
// call when it releases under the same Once, whose Do waits for the
// running one and then runs nothing.
package onces

/*
#include <stdlib.h>
typedef struct { int live; } res;
static res* res_new(void) { return calloc(1, sizeof(res)); }
static void res_free(res* r) { free(r); }
*/
import "C"

import (
	"runtime"
	"sync"
)

// Lib frees under one global Once in Close and in its finalizer.
type Lib struct{ r *C.res }

var libOnce sync.Once

func OpenLib() *Lib {
	l := &Lib{r: C.res_new()}
	runtime.SetFinalizer(l, func(l *Lib) { libOnce.Do(l.free) })
	return l
}

func (l *Lib) free() { C.res_free(l.r) }

func (l *Lib) Close() { libOnce.Do(l.free) }

// Split's Close runs another global Once than its finalizer.
type Split struct{ r *C.res }

var splitOnce, splitFinOnce sync.Once

func OpenSplit() *Split {
	s := &Split{r: C.res_new()}
	runtime.SetFinalizer(s, func(s *Split) { splitFinOnce.Do(s.free) })
	return s
}

func (s *Split) free() { C.res_free(s.r) } // want `s may be collected while C.res_free runs with s.r`

func (s *Split) Close() { splitOnce.Do(s.free) }

// Handle's Close runs the object's own Once through a helper that takes
// it as a *sync.Once.
type Handle struct {
	r    *C.res
	once sync.Once
}

func OpenHandle() *Handle {
	h := &Handle{r: C.res_new()}
	runtime.SetFinalizer(h, func(h *Handle) { h.once.Do(h.free) })
	return h
}

func (h *Handle) free() { C.res_free(h.r) }

func doOnce(once *sync.Once, h *Handle) { once.Do(h.free) }

func (h *Handle) Close() { doOnce(&h.once, h) }

// Other's Close passes the helper a Once its finalizer never runs.
type Other struct {
	r           *C.res
	once, other sync.Once
}

func OpenOther() *Other {
	o := &Other{r: C.res_new()}
	runtime.SetFinalizer(o, func(o *Other) { o.once.Do(o.free) })
	return o
}

func (o *Other) free() { C.res_free(o.r) } // want `o may be collected while C.res_free runs with o.r`

func doOther(once *sync.Once, o *Other) { once.Do(o.free) }

func (o *Other) Close() { doOther(&o.other, o) }
