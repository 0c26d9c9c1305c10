// Package mapkey holds handles stored in a map as its key: the map keeps
// them (a registry of live objects, a set of pending buffers), and
// whoever owns the map releases them, by ranging over its keys. Only a
// path that returns before the store leaks.
package mapkey

/*
#include <stdlib.h>
*/
import "C"

import (
	"errors"
	"unsafe"
)

// Live objects, by their C pointer.
type Registry struct {
	live map[unsafe.Pointer]string
	set  map[*C.char]bool
}

func newObj() unsafe.Pointer { return C.malloc(16) }

// Stored as a key of a field's map.
func (r *Registry) Add(name string) {
	r.live[newObj()] = name
}

// A set of strings: the key is the only place the pointer is kept.
func (r *Registry) Intern(s string) {
	r.set[C.CString(s)] = true
}

// Released by its keys.
func (r *Registry) Close() {
	for p := range r.live {
		C.free(p)
	}
	for s := range r.set {
		C.free(unsafe.Pointer(s))
	}
}

var pending = map[unsafe.Pointer]int{}

// Stored as a key of a package-level map, in a closure.
func Queue(n int) func() {
	return func() {
		pending[C.malloc(C.size_t(n))] = n
	}
}

var errFull = errors.New("full")

// The return before the store leaks the buffer.
func (r *Registry) AddChecked(name string, max int) error {
	p := newObj() // want `the handle newObj returns is not released on every path`
	if len(r.live) >= max {
		return errFull
	}
	r.live[p] = name
	return nil
}

// Corrected: released on that path.
func (r *Registry) AddCheckedFixed(name string, max int) error {
	p := newObj()
	if len(r.live) >= max {
		C.free(p)
		return errFull
	}
	r.live[p] = name
	return nil
}

// Through a helper that stores its parameter as a key.
func (r *Registry) track(p unsafe.Pointer) { r.live[p] = "tracked" }

func (r *Registry) AddVia() {
	r.track(newObj())
}
