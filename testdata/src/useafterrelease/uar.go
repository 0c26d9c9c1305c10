// Package useafterrelease holds the analysistest cases of the
// useafterrelease analyzer: each bug beside its corrected version.
package useafterrelease

/*
#include <stdlib.h>
typedef struct { int live; int n; } mat;
static mat* mat_new(void) { return calloc(1, sizeof(mat)); }
static void mat_close(mat* m) { free(m); }
static int mat_rows(mat* m) { return m->n; }
*/
import "C"

import (
	"errors"
	"sync"
)

var (
	regMu sync.Mutex
	live  = map[*C.mat]bool{}
)

func track(m *C.mat, on bool) {
	regMu.Lock()
	defer regMu.Unlock()
	live[m] = on
}

type Mat struct{ p *C.mat }

// Close frees, then unregisters: the address may already be reused.
func (m *Mat) Close() {
	C.mat_close(m.p)
	track(m.p, false) // want `m.p is used by track after C.mat_close released it at line 34`
	m.p = nil
}

// Corrected: unregister first.
func (m *Mat) CloseOK() {
	track(m.p, false)
	C.mat_close(m.p)
	m.p = nil
}

// A use after release on one path only (the error path).
func rows(fail bool) int {
	m := C.mat_new()
	if fail {
		C.mat_close(m)
	}
	n := C.mat_rows(m) // want `m is passed to C.mat_rows after C.mat_close released it at line 50`
	C.mat_close(m)
	return int(n)
}

func rowsOK(fail bool) int {
	m := C.mat_new()
	defer C.mat_close(m)
	if fail {
		return -1
	}
	return int(C.mat_rows(m))
}

// Used as a registry key after the release.
func unregisterLate() {
	m := C.mat_new()
	live[m] = true
	C.mat_close(m)
	delete(live, m)
	live[m] = false // want `m is used as a map key after C.mat_close released it at line 70`
}

// A deferred release runs last: uses before it are fine.
func deferredOK() int {
	m := C.mat_new()
	defer C.mat_close(m)
	return int(C.mat_rows(m))
}

// Verifier's Close checks, releases and clears its handle: Verify must
// check too.
type Verifier struct{ v *C.mat }

func (v *Verifier) Close() {
	if v.v != nil {
		C.mat_close(v.v)
		v.v = nil
	}
}

func (v *Verifier) Rows() int {
	return int(C.mat_rows(v.v)) // want `Rows passes v.v to C.mat_rows without checking it, but Close checks it, releases it and sets it to nil, and 4 of the 5 methods of Verifier that pass it to C check it first`
}

var ErrClosed = errors.New("closed")

func (v *Verifier) RowsOK() (int, error) {
	if v.v == nil {
		return 0, ErrClosed
	}
	return int(C.mat_rows(v.v)), nil
}

// Verifier's other methods check too: checking is the type's convention.
func (v *Verifier) Cols() (int, error) {
	if v.v == nil {
		return 0, ErrClosed
	}
	return int(C.mat_rows(v.v)), nil
}

func (v *Verifier) Size() (int, error) {
	if v.v == nil {
		return 0, ErrClosed
	}
	return int(C.mat_rows(v.v)) * 2, nil
}

func (v *Verifier) Depth() int {
	if v.v == nil {
		return -1
	}
	return int(C.mat_rows(v.v))
}

// A type whose Close does not clear: nothing to say about nil.
type Plain struct{ p *C.mat }

func (p *Plain) Close()    { C.mat_close(p.p) }
func (p *Plain) Rows() int { return int(C.mat_rows(p.p)) }
