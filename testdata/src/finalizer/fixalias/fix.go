// Package fixalias checks that the suggested fix names package runtime as
// the file does, and that no fix is offered where the name means something
// else.
package fixalias

import (
	"finalizer/img"
	rt "runtime"
)

var _ = rt.GC

// Width: the file imports runtime as rt.
func Width(i *img.Image) int {
	return img.Use(i.P) // want `i may be collected while Use runs with i.P`
}

type runtimeT struct{ n int }

// Shadowed: a parameter called rt hides the package; the fix would not
// compile, so none is offered.
func Shadowed(i *img.Image, rt runtimeT) int {
	return img.Use(i.P) + rt.n // want `i may be collected while Use runs with i.P: .*; add defer runtime.KeepAlive\(i\) before the call`
}
