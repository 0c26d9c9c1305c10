// Package cgohandle deletes runtime/cgo handles, which a callback
// registry hands to C: Delete invalidates a handle, and panics when given
// one it has deleted already ("misuse of an invalid Handle").
package cgohandle

/*
#include <stdint.h>
static void lib_register(uintptr_t h) {}
static void lib_unregister(uintptr_t h) {}
*/
import "C"

import (
	"runtime/cgo"
	"sync"
)

type Callback func(int)

// Sub unregisters and deletes once, and clears the handle.
type Sub struct {
	h cgo.Handle
}

func Subscribe(f Callback) *Sub {
	s := &Sub{h: cgo.NewHandle(f)}
	C.lib_register(C.uintptr_t(s.h))
	return s
}

func (s *Sub) Close() {
	if s.h == 0 {
		return
	}
	C.lib_unregister(C.uintptr_t(s.h))
	s.h.Delete()
	s.h = 0
}

func closeTwice(f Callback) {
	s := Subscribe(f)
	s.Close()
	s.Close()
}

// Bad deletes without clearing: a second Close panics.
type Bad struct {
	h cgo.Handle
}

func (b *Bad) Close() {
	C.lib_unregister(C.uintptr_t(b.h))
	b.h.Delete()
}

func badTwice(b *Bad) {
	b.Close()
	b.Close() // want `b.h is released twice: by \(\*Bad\).Close at line 57 and again here`
}

// Once deletes under a sync.Once.
type Once struct {
	once sync.Once
	h    cgo.Handle
}

func (o *Once) Close() {
	o.once.Do(func() { o.h.Delete() })
}

func onceTwice(o *Once) {
	o.Close()
	o.Close()
}

// call deletes on the error path and again in the defer.
func call(f Callback, fail bool) error {
	h := cgo.NewHandle(f)
	defer h.Delete()
	C.lib_register(C.uintptr_t(h))
	if fail {
		h.Delete() // want `h is released here and again by the deferred`
		return nil
	}
	C.lib_unregister(C.uintptr_t(h))
	return nil
}

// callOnce deletes only in the defer.
func callOnce(f Callback) {
	h := cgo.NewHandle(f)
	defer h.Delete()
	C.lib_register(C.uintptr_t(h))
	C.lib_unregister(C.uintptr_t(h))
}

// kept is never deleted: a registry handle for the life of the program
// is no leak.
var kept = cgo.NewHandle(Callback(func(int) {}))
