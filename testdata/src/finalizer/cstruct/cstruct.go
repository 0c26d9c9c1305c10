// Package cstruct holds handles copied into a C parameter struct that is
// passed to C: cgo keeps the struct alive for the call, not the object the
// handle came from, whose finalizer can release the handle while C reads
// it out of the struct.
package cstruct

/*
#include <stdlib.h>
typedef struct { int n; } model;
static model* model_load(void) { return calloc(1, sizeof(model)); }
static void model_free(model* m) { free(m); }
typedef struct { model* m; int threads; } run_params;
static int model_run(run_params* p) { return p->m->n + p->threads; }
static int model_run_value(run_params p) { return p.m->n; }
*/
import "C"

import (
	"runtime"
	"unsafe"
)

type Model struct {
	m       *C.model
	threads int
}

func Load() *Model {
	x := &Model{m: C.model_load()}
	runtime.SetFinalizer(x, func(x *Model) { C.model_free(x.m) })
	return x
}

func (x *Model) Fields() int {
	var p C.run_params
	p.m = x.m
	p.threads = 4
	return int(C.model_run(&p)) // want `x may be collected while C.model_run runs with x.m`
}

func (x *Model) Literal() int {
	p := C.run_params{m: x.m, threads: 4}
	return int(C.model_run(&p)) // want `x may be collected while C.model_run runs with x.m`
}

func (x *Model) ByValue() int {
	return int(C.model_run_value(C.run_params{m: x.m})) // want `x may be collected while C.model_run_value runs with x.m`
}

func (x *Model) Allocated() int {
	p := (*C.run_params)(C.malloc(C.sizeof_run_params))
	defer C.free(unsafe.Pointer(p))
	p.m = x.m
	return int(C.model_run(p)) // want `x may be collected while C.model_run runs with x.m`
}

// Kept keeps the object alive past the call.
func (x *Model) Kept() int {
	p := C.run_params{m: x.m}
	defer runtime.KeepAlive(x)
	return int(C.model_run(&p))
}

// UsedAfter uses the object after the call.
func (x *Model) UsedAfter() int {
	p := C.run_params{m: x.m}
	n := int(C.model_run(&p))
	return n + x.threads
}

// Local fills the struct with a handle of its own.
func Local() int {
	m := C.model_load()
	defer C.model_free(m)
	p := C.run_params{m: m}
	return int(C.model_run(&p))
}

// Later stores the handle after the call.
func (x *Model) Later() int {
	var p C.run_params
	n := int(C.model_run(&p))
	p.m = x.m
	_ = p
	return n
}
