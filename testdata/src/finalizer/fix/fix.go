// Package fix uses img from another package (whose finalizer it learns from
// a fact), without cgo, and checks the suggested fix.
package fix

import "finalizer/img"

// Width borrows the handle through img's wrapper.
func Width(i *img.Image) int {
	return img.Use(i.P) // want `i may be collected while Use runs with i.P: nothing uses i after the call, so the finalizer set at img.go:21 \(func literal\) can release i.P during it; add runtime.KeepAlive\(i\) after the call`
}

// Height keeps i alive.
func Height(i *img.Image) int {
	n := img.Use(i.P)
	i.P = nil
	return n
}

// Area calls twice; only the second call is at risk.
func Area(i *img.Image) int {
	w := img.Use(i.P)
	h := img.Use(i.P) // want `i may be collected while Use runs with i.P`
	return w * h
}
