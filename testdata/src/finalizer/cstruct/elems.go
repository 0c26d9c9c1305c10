package cstruct

/*
typedef struct { int n; } model;
typedef struct { model* m; int n; } item;
static int model_run_items(item* items, int n) { return items[0].m->n + n; }
static int model_run_many(model** ms, int n) { return ms[0]->n + n; }
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// The other ways a Go array of handles reaches C: its first element by
// unsafe.SliceData, a slice literal, appends in a loop, and arrays of the
// handles themselves (model **, as onnxruntime's OrtValue ** inputs).

func (x *Model) SliceData() int {
	items := make([]C.item, 2)
	items[0].m = x.m
	return int(C.model_run_items(unsafe.SliceData(items), 2)) // want `x may be collected while C.model_run_items runs with x.m`
}

func (x *Model) SliceLiteral() int {
	items := []C.item{{m: x.m, n: 1}, {m: x.m, n: 2}}
	return int(C.model_run_items(&items[0], 2)) // want `x may be collected while C.model_run_items runs with x.m`
}

func (x *Model) Appended(k int) int {
	var items []C.item
	for i := 0; i < k; i++ {
		items = append(items, C.item{m: x.m, n: C.int(i)})
	}
	return int(C.model_run_items(&items[0], C.int(len(items)))) // want `x may be collected while C.model_run_items runs with x.m`
}

func (x *Model) Handles() int {
	ms := []*C.model{x.m, x.m}
	return int(C.model_run_many(&ms[0], 2)) // want `x may be collected while C.model_run_many runs with x.m`
}

func (x *Model) HandlesFilled(n int) int {
	ms := make([]*C.model, n)
	for i := range ms {
		ms[i] = x.m
	}
	return int(C.model_run_many(unsafe.SliceData(ms), C.int(n))) // want `x may be collected while C.model_run_many runs with x.m`
}

// HandlesKept keeps the object alive past the call.
func (x *Model) HandlesKept() int {
	ms := []*C.model{x.m}
	n := int(C.model_run_many(&ms[0], 1))
	runtime.KeepAlive(x)
	return n
}

// Unrelated passes handles C owns: no object of the package in them.
func Unrelated(a, b *C.model) int {
	ms := []*C.model{a, b}
	return int(C.model_run_many(&ms[0], 2))
}

// fill copies x's handle into the parameter block its caller passes.
func (x *Model) fill(p *C.item) { p.m = x.m; p.n = 1 }

// Filled has a method fill the struct in through its address.
func (x *Model) Filled() int {
	var p C.item
	x.fill(&p)
	return int(C.model_run_items(&p, 1)) // want `x may be collected while C.model_run_items runs with x.m`
}

// FilledKept keeps x alive past the call.
func (x *Model) FilledKept() int {
	var p C.item
	x.fill(&p)
	defer runtime.KeepAlive(x)
	return int(C.model_run_items(&p, 1))
}

// zero fills in no handle of an object.
func zero(p *C.item) { p.n = 0 }

func (x *Model) Zeroed() int {
	var p C.item
	zero(&p)
	return int(C.model_run_items(&p, 1))
}

// Pair copies the handles of two objects into an array literal.
func Pair(a, b *Model) int {
	ms := [2]*C.model{a.m, b.m}
	return int(C.model_run_many(&ms[0], 2)) // want `a may be collected while C.model_run_many runs with a.m` `b may be collected while C.model_run_many runs with b.m`
}

// PairOneKept keeps a alive, and b not.
func PairOneKept(a, b *Model) int {
	ms := [2]*C.model{a.m, b.m}
	defer runtime.KeepAlive(a)
	return int(C.model_run_many(&ms[0], 2)) // want `b may be collected while C.model_run_many runs with b.m`
}

// PairKept keeps both alive.
func PairKept(a, b *Model) int {
	ms := [2]*C.model{a.m, b.m}
	defer runtime.KeepAlive(b)
	defer runtime.KeepAlive(a)
	return int(C.model_run_many(&ms[0], 2))
}

// Gathered appends the handles of a slice of objects.
func Gathered(xs []*Model) int {
	ms := make([]*C.model, 0, len(xs))
	for _, x := range xs {
		ms = append(ms, x.m)
	}
	return int(C.model_run_many(unsafe.SliceData(ms), C.int(len(ms)))) // want `the Model objects in xs may be collected while C.model_run_many runs`
}

// GatheredKept keeps the slice of objects alive.
func GatheredKept(xs []*Model) int {
	var ms []*C.model
	for _, x := range xs {
		ms = append(ms, x.m)
	}
	n := int(C.model_run_many(&ms[0], C.int(len(ms))))
	runtime.KeepAlive(xs)
	return n
}
