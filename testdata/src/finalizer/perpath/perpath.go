// Package perpath: a finalizer is at risk for a C call only on the paths
// where it is armed, where it would still find the call's handle in the
// field it releases, and where nothing live reaches the object. Each
// negative has its positive beside it.
package perpath

/*
#include <stdlib.h>
typedef struct { int n; } db;
static int db_open(db** out, int mode) { *out = calloc(1, sizeof(db)); return mode < 0; }
static void db_close(db* d) { free(d); }
static int db_errcode(db* d) { return 0; }
static int db_exec(db* d, int q) { return q; }
typedef struct { void *buf; } blob;
static blob *blob_new(void) { return calloc(1, sizeof(blob)); }
static void blob_free(blob *b) { free(b); }
static int blob_len(blob *b) { return 0; }
*/
import "C"

import (
	"errors"
	"runtime"
)

type DB struct{ h *C.db }

func (d *DB) close() { C.db_close(d.h) }

// setFinalizer arms the finalizer for the package's constructors.
func setFinalizer(d *DB) { runtime.SetFinalizer(d, (*DB).close) }

// Open asks C for the error before arming the finalizer (new(T), a method
// expression as the finalizer): that path is not at risk.
func Open(mode int) (*DB, error) {
	d := new(DB)
	if C.db_open(&d.h, C.int(mode)) != 0 {
		code := C.db_errcode(d.h)
		C.db_close(d.h)
		return nil, errors.New("open failed: " + string(rune(code)))
	}
	runtime.SetFinalizer(d, (*DB).close)
	return d, nil
}

// OpenExec runs a query after arming: at risk.
func OpenExec(q int) int {
	d := new(DB)
	C.db_open(&d.h, 0)
	runtime.SetFinalizer(d, (*DB).close)
	return int(C.db_exec(d.h, C.int(q))) // want `d may be collected while C.db_exec runs with d.h`
}

// OpenVia arms through a helper: before the helper's call nothing is armed,
// after it the finalizer is.
func OpenVia(q int) (int, error) {
	d := &DB{}
	if C.db_open(&d.h, C.int(q)) != 0 {
		return int(C.db_errcode(d.h)), errors.New("open failed")
	}
	setFinalizer(d)
	return int(C.db_exec(d.h, C.int(q))), nil // want `d may be collected while C.db_exec runs with d.h`
}

// Opener's function literal checks the handle before arming: its error
// branch is not at risk.
func Opener(mode int) func() (*DB, error) {
	return func() (*DB, error) {
		d := &DB{}
		C.db_open(&d.h, C.int(mode))
		if C.db_errcode(d.h) != 0 {
			C.db_close(d.h)
			return nil, errors.New("open failed")
		}
		runtime.SetFinalizer(d, (*DB).close)
		return d, nil
	}
}

// A handle swapped out of the field before the call is not the
// finalizer's: it releases what the field holds when it runs.
type Conn struct {
	db   *DB
	Name string
}

// Reopen replaces the handle and closes the old one (the field is
// overwritten with another handle, not cleared).
func (d *DB) Reopen() {
	old := d.h
	d.h = openHandle()
	C.db_close(old)
}

func openHandle() *C.db {
	var h *C.db
	C.db_open(&h, 0)
	return h
}

// Detach swaps the handle out in one assignment and releases it through a
// helper.
func (d *DB) Detach() {
	var h *C.db
	h, d.h = d.h, nil
	closeHandle(h)
}

func closeHandle(h *C.db) { C.db_close(h) }

// MaybeDetach clears the field on one path only: on the other the
// finalizer still finds the handle.
func (d *DB) MaybeDetach(keep bool) {
	h := d.h
	if !keep {
		d.h = nil
	}
	C.db_close(h) // want `d may be collected while C.db_close runs with d.h`
}

// Exec reads the handle into a local and keeps the field: at risk.
func (d *DB) Exec(q int) int {
	h := d.h
	return int(C.db_exec(h, C.int(q))) // want `d may be collected while C.db_exec runs with d.h`
}

// An object reachable from a live object is not collected.
type Pool struct {
	primary, fallback *DB
	uses              int
}

// Query picks one of two fields; p is used after the call, so both stay
// reachable.
func (p *Pool) Query(q int) int {
	d := p.primary
	if d == nil {
		d = p.fallback
	}
	n := int(C.db_exec(d.h, C.int(q)))
	p.uses++
	return n
}

// QueryOnce does the same and never uses p again: at risk, and the fix
// keeps d itself (not a copy of *d).
func (p *Pool) QueryOnce(q int) int {
	d := p.primary
	if d == nil {
		d = p.fallback
	}
	return int(C.db_exec(d.h, C.int(q))) // want `d may be collected while C.db_exec runs with d.h: .*; add defer runtime.KeepAlive\(d\) before the call`
}

// Pick chooses in a switch; p is used after the call.
func (p *Pool) Pick(q int) int {
	var d *DB
	switch {
	case q > 0:
		d = p.primary
	default:
		d = p.fallback
	}
	n := int(C.db_exec(d.h, C.int(q)))
	p.uses++
	return n
}

// PickOnce does not use p after the call: at risk.
func (p *Pool) PickOnce(q int) int {
	var d *DB
	switch {
	case q > 0:
		d = p.primary
	default:
		d = p.fallback
	}
	return int(C.db_exec(d.h, C.int(q))) // want `d may be collected while C.db_exec runs with d.h`
}

// ExecDetached has no live owner after the call.
func (c *Conn) ExecDetached(q int) int {
	d := c.db
	return int(C.db_exec(d.h, C.int(q))) // want `d may be collected while C.db_exec runs with d.h`
}

// Blob's C struct holds a pointer, so cgo checks the argument in a closure
// of its own: the swapped-out handle is still not the finalizer's.
type Blob struct {
	b    *C.blob
	size int
}

func NewBlob() *Blob {
	x := &Blob{b: C.blob_new()}
	runtime.SetFinalizer(x, func(x *Blob) {
		if x.b != nil {
			C.blob_free(x.b)
		}
	})
	return x
}

func (x *Blob) Free() {
	b := x.b
	if b == nil {
		return
	}
	x.b = nil
	C.blob_free(b)
}

// Len keeps the handle in the field: at risk.
func (x *Blob) Len() int {
	b := x.b
	return int(C.blob_len(b)) // want `x may be collected while C.blob_len runs with x.b`
}
