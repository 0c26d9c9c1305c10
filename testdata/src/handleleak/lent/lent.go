// Package lent: a handle that a live borrowed handle depends on (a model's
// borrowed-from=N) is not leaked when the borrowed handle outlives the
// function (returned, stored in a global or a field, handed on): the
// lender must stay loaded as long as the borrow, so the obligation lives as
// long as it. A borrow that does not outlive the function leaves the
// lender leaked.
package lent

/*
#include <stdlib.h>
typedef struct { int n; } lib_t;
typedef struct { int id; } sym_t;
//lifetime:acquire lib_open
//lifetime:release lib_close
//lifetime:acquire lib_sym borrowed-from=0
//lifetime:borrow lib_peek out=1 borrowed-from=0
//lifetime:borrow sym_call arg=0
static lib_t* lib_open(const char* path) { return calloc(1, sizeof(lib_t)); }
static void lib_close(lib_t* l) { free(l); }
static sym_t* lib_sym(lib_t* l, const char* name) { static sym_t s; return &s; }
static int lib_peek(lib_t* l, sym_t** out) { static sym_t s; *out = &s; return 0; }
static int sym_call(sym_t* s, int v) { return v; }
*/
import "C"

import (
	"errors"
	"unsafe"
)

var errMissing = errors.New("symbol missing")

// The symbol is returned: the library stays loaded for it.
func loadSym(path, name string) *C.sym_t {
	cp := C.CString(path)
	defer C.free(unsafe.Pointer(cp))
	cn := C.CString(name)
	defer C.free(unsafe.Pointer(cn))
	l := C.lib_open(cp)
	return C.lib_sym(l, cn)
}

// Kept in a package-level variable for the program's lifetime.
var cached *C.sym_t

func bindGlobal(path string) {
	l := C.lib_open(nil)
	cached = C.lib_sym(l, nil)
}

// Kept in a field of the receiver.
type Plugin struct{ entry *C.sym_t }

func (p *Plugin) bind() {
	l := C.lib_open(nil)
	p.entry = C.lib_sym(l, nil)
}

// Through an out-parameter (borrow ... out=1 borrowed-from=0), returned
// with an error.
func peek() (*C.sym_t, error) {
	l := C.lib_open(nil)
	var s *C.sym_t
	if C.lib_peek(l, &s) != 0 {
		C.lib_close(l)
		return nil, errMissing
	}
	return s, nil
}

// The symbol is used and dropped: the library leaks.
func probe() bool {
	l := C.lib_open(nil) // want `the handle C.lib_open returns is not released on every path`
	s := C.lib_sym(l, nil)
	return C.sym_call(s, 1) == 1
}

func probeOK() bool {
	l := C.lib_open(nil)
	defer C.lib_close(l)
	s := C.lib_sym(l, nil)
	return C.sym_call(s, 1) == 1
}

// The symbol is missing on one path: nothing outlives the function there,
// and the library leaks on that return.
func loadOrFail() (*C.sym_t, error) {
	l := C.lib_open(nil) // want `the handle C.lib_open returns is not released on every path \(the return at line 91 leaks it\)`
	s := C.lib_sym(l, nil)
	if s == nil {
		return nil, errMissing
	}
	return s, nil
}

func loadOrFailOK() (*C.sym_t, error) {
	l := C.lib_open(nil)
	s := C.lib_sym(l, nil)
	if s == nil {
		C.lib_close(l)
		return nil, errMissing
	}
	return s, nil
}

// A symbol of another library escapes; this one's leaks.
func two() *C.sym_t {
	a := C.lib_open(nil)
	b := C.lib_open(nil) // want `the handle C.lib_open returns is not released on every path`
	C.sym_call(C.lib_sym(b, nil), 0)
	return C.lib_sym(a, nil)
}

// Returned by a closure.
func loader() func() *C.sym_t {
	return func() *C.sym_t {
		l := C.lib_open(nil)
		return C.lib_sym(l, nil)
	}
}

// Handed to a function that keeps it in a registry.
var registry = map[string]*C.sym_t{}

func register(name string, s *C.sym_t) { registry[name] = s }

func bindNamed(name string) {
	l := C.lib_open(nil)
	register(name, C.lib_sym(l, nil))
}

// Handed to a function that only looks at it: the library leaks.
func describe(s *C.sym_t) bool { return s != nil }

func bindLooked(name string) bool {
	l := C.lib_open(nil) // want `the handle C.lib_open returns is not released on every path`
	return describe(C.lib_sym(l, nil))
}
