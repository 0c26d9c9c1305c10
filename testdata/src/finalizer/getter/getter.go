// Package getter checks objects reached through an accessor (a method or
// function whose result is one of its parameter's paths): a use of the
// accessor's result after the call is a use of the object, since the
// result is the object's pointer itself.
package getter

import (
	"finalizer/img"
	"runtime"
)

type holder struct{ im *img.Image }

func (h *holder) get() *img.Image { return h.im }

func (h *holder) take() *img.Image { im := h.im; h.im = nil; return im }

func get(h *holder) *img.Image { return h.im }

type outer struct{ in *holder }

func (o *outer) inner() *holder { return o.in }

// Kept: the getter's result is kept alive past the call.
func Kept(h *holder) int {
	im := h.get()
	n := img.Use(im.P)
	runtime.KeepAlive(im)
	return n
}

// Deferred: the same, with a deferred KeepAlive.
func Deferred(h *holder) int {
	im := h.get()
	defer runtime.KeepAlive(im)
	return img.Use(im.P)
}

// FuncGetter: a function, not a method, as the accessor.
func FuncGetter(h *holder) int {
	im := get(h)
	n := img.Use(im.P)
	runtime.KeepAlive(im)
	return n
}

// TakenKept: take clears h.im; the result, kept alive, is still the object.
func TakenKept(h *holder) int {
	im := h.take()
	n := img.Use(im.P)
	runtime.KeepAlive(im)
	return n
}

// Chained: two accessors; the result is used (a method call) after.
func Chained(o *outer) int {
	im := o.inner().get()
	n := img.Use(im.P)
	if im.Ptr() == nil {
		return 0
	}
	return n
}

// Unkept: nothing uses the getter's result after the call.
func Unkept(h *holder) int {
	im := h.get()
	n := img.Use(im.P) // want `im may be collected while Use runs with im.P`
	return n
}

// KeptOther: the KeepAlive keeps another holder's image.
func KeptOther(h, g *holder) int {
	im := h.get()
	n := img.Use(im.P) // want `im may be collected while Use runs with im.P`
	runtime.KeepAlive(g.get())
	return n
}
