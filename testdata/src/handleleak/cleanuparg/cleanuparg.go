// Package cleanuparg holds handles handed to runtime.AddCleanup as its
// arg: the runtime keeps the argument and passes it to the cleanup once
// the object is unreachable (the runtime package's documentation of
// AddCleanup), so the handle is no longer the function's to release. A
// handle that only a cleanup's unrelated argument goes with still leaks.
package cleanuparg

/*
#include <stdlib.h>
typedef struct res { int fd; } res;
static res *res_open(void) { return calloc(1, sizeof(res)); }
static void res_close(res *r) { free(r); }
*/
import "C"

import "runtime"

type File struct{ name string }

// Open hands the handle to the cleanup as its argument.
func Open(name string) *File {
	r := C.res_open()
	f := &File{name: name}
	runtime.AddCleanup(f, func(r *C.res) { C.res_close(r) }, r)
	return f
}

func closeRes(r *C.res) { C.res_close(r) }

// OpenNamed does so with a named cleanup function.
func OpenNamed(name string) *File {
	r := C.res_open()
	f := &File{name: name}
	runtime.AddCleanup(f, closeRes, r)
	return f
}

type pair struct {
	a, b *C.res
}

// OpenPair hands two handles over inside a struct.
func OpenPair(name string) *File {
	p := pair{C.res_open(), C.res_open()}
	f := &File{name: name}
	runtime.AddCleanup(f, func(p pair) { C.res_close(p.a); C.res_close(p.b) }, p)
	return f
}

// track hands its parameter over; its callers' handles go with it.
func track(f *File, r *C.res) {
	runtime.AddCleanup(f, closeRes, r)
}

func OpenTracked(name string) *File {
	r := C.res_open()
	f := &File{name: name}
	track(f, r)
	return f
}

// OpenLeak registers a cleanup that the handle does not go with.
func OpenLeak(name string) *File {
	r := C.res_open() // want `the handle C.res_open returns is not released on every path \(the return at line 68 leaks it\)`
	f := &File{name: name}
	runtime.AddCleanup(f, func(n int) { println(n) }, 0)
	_ = r.fd
	return f
}
