// Package fixnames checks how the object is named, in the message and the
// fix: as the call's argument names it, never after the variable that the
// call's result is assigned to, and never by a name go/ssa made up.
package fixnames

import (
	"finalizer/img"
)

// MapVar: the object is a map's element; x is the call's result, not it.
func MapVar(m map[string]*img.Image, k string) int {
	var x, y int
	x, y = img.Use(m[k].P), 2 // want `m\[k\] may be collected while Use runs with m\[k\].P: .*; add runtime.KeepAlive\(m\[k\]\) after the call`
	return x + y
}

// Received: the object has no name; the advice says to give it one.
func Received(ch chan *img.Image) int {
	var r int
	r = img.Use((<-ch).P) // want `the object may be collected while Use runs with its handle: .*; hold it in a variable, and keep that alive past the call \(runtime.KeepAlive\)`
	return r
}

// Asserted: the same for a type assertion.
func Asserted(v any) int {
	r := img.Use(v.(*img.Image).P) // want `the object may be collected while Use runs with its handle`
	return r
}

// Deref: the object is *pi, written so.
func Deref(pi **img.Image) int {
	n := img.Use((*pi).P) // want `\*pi may be collected while Use runs with \(\*pi\).P: .*; add runtime.KeepAlive\(\*pi\) after the call`
	return n
}

// Copied: the call names the object by the variable that holds it.
func Copied(is []*img.Image) int {
	im := is[0]
	n := img.Use(im.P) // want `im may be collected while Use runs with im.P: .*; add runtime.KeepAlive\(im\) after the call`
	return n
}

// ElementReturn: an element in a return: the advice is a defer, and no
// fix names it.
func ElementReturn(is []*img.Image) int {
	return img.Use(is[0].P) // want `is\[0\] may be collected while Use runs with is\[0\].P: .*; add defer runtime.KeepAlive\(is\[0\]\) before the call`
}

type holder struct{ im *img.Image }

func (h *holder) take() *img.Image { im := h.im; h.im = nil; return im }

// Taken: the call's object comes from a call, which clears h.im: no name
// the path gives (h.im) holds it after the call. No fix.
func Taken(h *holder) int {
	n := img.Use(h.take().P) // want `the object may be collected while Use runs with its handle: .*; hold it in a variable`
	return n
}

// TakenVar: held in a variable, the accessor's result itself, which the
// advice and the fix name (a KeepAlive of it is a use of the object).
func TakenVar(h *holder) int {
	im := h.take()
	n := img.Use(im.P) // want `im may be collected while Use runs with im.P: .*; add runtime.KeepAlive\(im\) after the call`
	return n
}
