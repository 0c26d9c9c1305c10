package cstruct

/*
typedef struct { int n; } model;
typedef struct { model* m; int threads; } run_params;
static int model_exec(run_params* p) { return p->m->n + p->threads; }
typedef struct { model* m; int n; } batch_item;
static int model_run_batch(batch_item* items, int n) { return items[0].m->n + n; }
*/
import "C"

import "runtime"

// Batch fills a Go slice of C structs and hands C its first element:
// C reads every element, and cgo keeps only the slice alive.
func (x *Model) Batch() int {
	items := make([]C.batch_item, 2)
	items[0].m = x.m
	items[1].m = x.m
	return int(C.model_run_batch(&items[0], 2)) // want `x may be collected while C.model_run_batch runs with x.m`
}

// Array does the same with an array.
func (x *Model) Array() int {
	var items [4]C.batch_item
	for i := range items {
		items[i].m = x.m
		items[i].n = C.int(i)
	}
	return int(C.model_run_batch(&items[0], 4)) // want `x may be collected while C.model_run_batch runs with x.m`
}

// BatchKept keeps the object alive past the call.
func (x *Model) BatchKept() int {
	items := make([]C.batch_item, 2)
	items[0].m = x.m
	n := int(C.model_run_batch(&items[0], 2))
	runtime.KeepAlive(x)
	return n
}

// params builds the parameter block for x.
func (x *Model) params() C.run_params { return C.run_params{m: x.m, threads: C.int(x.threads)} }

// Built has a method build the struct.
func (x *Model) Built() int {
	p := x.params()
	return int(C.model_exec(&p)) // want `x may be collected while C.model_exec runs with x.m`
}

// BuiltKept keeps it alive.
func (x *Model) BuiltKept() int {
	p := x.params()
	defer runtime.KeepAlive(x)
	return int(C.model_exec(&p))
}
