// Package fix uses img from another package (whose finalizer it learns from
// a fact), without cgo, and checks the suggested fix.
package fix

import "finalizer/img"

// Width borrows the handle through img's wrapper.
func Width(i *img.Image) int {
	return img.Use(i.P) // want `i may be collected while Use runs with i.P: nothing uses i after the call, so the finalizer set at img.go:21 \(func literal\) can release i.P during it; add defer runtime.KeepAlive\(i\) before the call`
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

// Loop is at risk at two calls in a loop: a KeepAlive after the first would
// not cover the second, and a deferred one in a loop piles up, so no fix is
// offered (the golden file keeps Loop as it is).
func Loop(i *img.Image, n int) int {
	s := 0
	p := i.P
	for range n {
		s += img.Use(p) // want `i may be collected while Use runs with i.P: .* \(and the same at line 34\); add runtime.KeepAlive\(i\) after the last of them`
		s += img.Use(p)
	}
	return s
}

// Pair is at risk at two calls outside a loop: the fix defers one
// KeepAlive before the first.
func Pair(i *img.Image) int {
	p := i.P
	w := img.Use(p) // want `i may be collected while Use runs with i.P: .* \(and the same at line 44\); add defer runtime.KeepAlive\(i\) before the first of them`
	h := img.Use(p)
	return w + h
}
