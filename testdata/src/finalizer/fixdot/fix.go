// Package fixdot checks the suggested fix in a file that dot-imports
// runtime: it calls KeepAlive unqualified, and offers no fix where a local
// KeepAlive hides runtime's.
package fixdot

import (
	"finalizer/img"
	. "runtime"
)

var _ = GC

// Width gets KeepAlive(i) after the call.
func Width(i *img.Image) int {
	n := img.Use(i.P) // want `i may be collected while Use runs with i.P`
	return n
}

// Param: a parameter called KeepAlive hides runtime's. No fix.
func Param(i *img.Image, KeepAlive int) int {
	n := img.Use(i.P) // want `i may be collected while Use runs with i.P`
	return n + KeepAlive
}

// Local: a local function called KeepAlive would be called instead. No
// fix.
func Local(i *img.Image) int {
	KeepAlive := func(any) {}
	n := img.Use(i.P) // want `i may be collected while Use runs with i.P`
	KeepAlive(n)
	return n
}
