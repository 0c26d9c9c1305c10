// Package held checks objects that the runtime keeps reachable during a
// call: a cgo.Handle's table holds its value until Delete, a
// runtime.Pinner its pinned objects until Unpin (the runtime/cgo and
// runtime documentation). Without either, the object is at risk.
package held

import (
	"finalizer/img"
	"runtime"
	"runtime/cgo"
)

// Handle passes a handle of i to C for a callback; the handle holds i.
func Handle(i *img.Image) int {
	h := cgo.NewHandle(i)
	defer h.Delete()
	return img.Use(i.P) + int(h&0)
}

// Pinned pins i for the call.
func Pinned(i *img.Image) int {
	var p runtime.Pinner
	p.Pin(i)
	defer p.Unpin()
	return img.Use(i.P)
}

// Unheld holds nothing: i may be collected during the call.
func Unheld(i *img.Image) int {
	n := img.Use(i.P) // want `i may be collected while Use runs with i.P`
	return n
}

// Deleted deletes the handle before the call: nothing holds i then.
func Deleted(i *img.Image) int {
	h := cgo.NewHandle(i)
	h.Delete()
	n := img.Use(i.P) // want `i may be collected while Use runs with i.P`
	return n
}
