// Package fixvia checks objects found through an accessor of another
// package (q.H.Get returns h.im, a field q does not export): the object is
// named, and kept alive, by the variable that holds the accessor's result;
// a result no variable holds has no name, and gets no fix.
package fixvia

import (
	"finalizer/fixvia/q"
	"finalizer/img"
	"runtime"
)

// Held: im holds Take's result; the fix keeps im.
func Held(h *q.H) int {
	im := h.Take()
	n := img.Use(im.Ptr()) // want `im may be collected while Use runs with im.P: .*; add runtime.KeepAlive\(im\) after the call`
	return n
}

// Direct: the accessor's result is not held: no name, no fix.
func Direct(h *q.H) int {
	n := img.Use(h.Get().Ptr()) // want `the object may be collected while Use runs with its handle: .*; hold it in a variable`
	return n
}

// Chained: Get's result, reached through In's, is not held: no name.
func Chained(p *q.Pair) int {
	hp := p.In()
	n := img.Use(hp.Get().P) // want `the object may be collected while Use runs with its handle`
	return n
}

// Inner: the object is a field of the variable's value (op.Im): the fix
// keeps op, which reaches it.
func Inner(p *q.Pair) int {
	op := p.Op()
	n := img.Use(op.Im.P) // want `op.Im may be collected while Use runs with op.Im.P: .*; add runtime.KeepAlive\(op\) after the call`
	return n
}

// Kept: the variable is kept alive already.
func Kept(h *q.H) int {
	im := h.Get()
	n := img.Use(im.Ptr())
	runtime.KeepAlive(im)
	return n
}
