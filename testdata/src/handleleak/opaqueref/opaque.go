// Package opaqueref: a retain whose argument cgo's wrapper computes (a
// method call on a pointer to an incomplete C type) adds a reference to
// the handle the method returns: nothing the function leaks. A handle the
// function makes and drops on the floor still leaks.
package opaqueref

/*
#include "opaque.h"
//lifetime:acquire blob_new
*/
import "C"

type Blob struct{ b *C.Blob }

func (v *Blob) native() *C.Blob {
	if v == nil || v.b == nil {
		return nil
	}
	return v.b
}

// Ref adds a reference for the caller: silent.
func (v *Blob) Ref()   { C.blob_ref(v.native()) }
func (v *Blob) Unref() { C.blob_unref(v.native()) }

func New() *Blob { return &Blob{C.blob_new()} }

func lost() bool {
	b := C.blob_new() // want `the handle C.blob_new returns is not released on every path`
	return b != nil
}
