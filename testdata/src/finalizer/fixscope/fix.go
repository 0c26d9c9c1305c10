// Package fixscope checks that the suggested fix names, where it inserts
// runtime.KeepAlive, the package and the object it names at the call: a
// statement that declares runtime or the object's name moves both out of
// reach after it.
package fixscope

import (
	"finalizer/img"
	"runtime"
)

var _ = runtime.GC

type meter struct{ n int }

func (m meter) add(n int) int { return m.n + n }

// Declares: the statement declares a variable called runtime; after it,
// runtime.KeepAlive would name the variable. No fix.
func Declares(i *img.Image) int {
	n := 0
	{
		runtime := meter{n: img.Use(i.P)} // want `i may be collected while Use runs with i.P`
		n = runtime.add(1)
	}
	return n
}

// Rebinds: the statement declares a new i in a nested block; after it,
// KeepAlive(i) would keep the width alive, not the image. No fix.
func Rebinds(i *img.Image) int {
	n := 0
	if i != nil {
		i := img.Use(i.P) // want `i may be collected while Use runs with i.P`
		n = i * 2
	}
	return n
}

// Sibling: a variable called runtime in a block that has ended does not
// reach the insertion point: the fix is offered.
func Sibling(i *img.Image) int {
	{
		runtime := 1
		_ = runtime
	}
	w := img.Use(i.P) // want `i may be collected while Use runs with i.P`
	return w
}

// Reassigns: the statement gives i another value; a KeepAlive after it
// would keep that one alive, so the defer before it takes the image.
func Reassigns(i, next *img.Image) int {
	var n int
	n, i = img.Use(i.P), next // want `i may be collected while Use runs with i.P: .*; add defer runtime.KeepAlive\(i\) before the call`
	_ = i
	return n
}

// Element: the object is an element of a slice, which the advice names as
// the call does; no fix (the index may not be the same after the call).
func Element(is []*img.Image, i int) int {
	n := img.Use(is[0].P) // want `is\[0\] may be collected while Use runs with is\[0\].P: .*; add runtime.KeepAlive\(is\[0\]\) after the call`
	return n + i
}

// ElementVar: the element is held in a variable at the call, which the
// fix keeps alive.
func ElementVar(is []*img.Image) int {
	im := is[len(is)-1]
	n := img.Use(im.P) // want `im may be collected while Use runs with im.P: .*; add runtime.KeepAlive\(im\) after the call`
	return n
}

// Elements: two calls at two elements: no one name fits them, no fix.
func Elements(is []*img.Image, k int) int {
	im := is[0]
	if k > 0 {
		im = is[1]
		return img.Use(im.P) // want `is\[i\] may be collected while Use runs with is\[i\].P: .* \(and the same at line \d+\); hold it in a variable, and keep that alive past the call \(runtime.KeepAlive\)`
	}
	return img.Use(im.P)
}

func touch(any) int { return 0 }

// FieldAddress: the statement takes the address of a field of i, which
// leaves i as it is: the KeepAlive goes after it.
func FieldAddress(i *img.Image) int {
	n := touch(&i.P) + img.Use(i.P) // want `i may be collected while Use runs with i.P: .*; add runtime.KeepAlive\(i\) after the call`
	return n
}
