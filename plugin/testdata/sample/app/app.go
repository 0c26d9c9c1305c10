// Package app uses cgo and the pure-Go wrapper.
package app

// #include <stdlib.h>
import "C"

import "example.com/sample/wrap"

// Run closes a W twice: only facts that flow through the pure-Go package
// wrap say that W.Close releases.
func Run() {
	w := wrap.New()
	w.Close()
	w.Close()
}

// Alloc is here so that the package calls into C.
//
//lifetime:relese
func Alloc() { C.free(C.malloc(1)) }
