// Package fixstmt checks where the KeepAlive fix goes in each kind of
// statement list (a block, a case or comm clause's body, under a label)
// and next to each kind of statement (one that returns, panics or never
// falls through, one that shares its line with another).
package fixstmt

import "finalizer/img"

// Case returns from a case clause of a switch with a default: the
// KeepAlive is deferred before the return (after it, it would never run,
// and the switch would no longer end the function).
func Case(i *img.Image, k int) int {
	switch k {
	case 1:
		return img.Use(i.P) // want `i may be collected while Use runs with i.P: .*; add defer runtime.KeepAlive\(i\) before the call`
	default:
		return 0
	}
}

// Select returns from a comm clause.
func Select(i *img.Image, ch chan int) int {
	select {
	case <-ch:
		return img.Use(i.P) // want `i may be collected while Use runs with i.P: .*; add defer runtime.KeepAlive\(i\) before the call`
	}
}

// Labeled returns under a label a goto names: the defer goes after the
// label, so that the jump runs it.
func Labeled(i *img.Image, n int) int {
	if n > 0 {
		goto L
	}
	n++
L:
	return img.Use(i.P) + n // want `i may be collected while Use runs with i.P: .*; add defer runtime.KeepAlive\(i\) before the call`
}

// Panic panics with the result: nothing after the panic runs.
func Panic(i *img.Image) {
	panic(img.Use(i.P)) // want `i may be collected while Use runs with i.P: .*; add defer runtime.KeepAlive\(i\) before the call`
}

// Both calls in the condition of an if whose branches both return: the if
// never falls through.
func Both(i *img.Image) int {
	if img.Use(i.P) > 0 { // want `i may be collected while Use runs with i.P: .*; add defer runtime.KeepAlive\(i\) before the call`
		return 1
	} else {
		return 2
	}
}

// Retry is the same in a function with a goto that jumps back: a defer
// could pile up, so no fix is offered (the golden file keeps Retry).
func Retry(i *img.Image, n int) int {
again:
	n--
	if n > 0 {
		goto again
	}
	if img.Use(i.P) > 0 { // want `i may be collected while Use runs with i.P: .*; add defer runtime.KeepAlive\(i\) before the call`
		return 1
	} else {
		return 2
	}
}

// InCase uses the result in a case clause and goes on: the KeepAlive
// goes after the call, in the clause's body.
func InCase(i *img.Image, k int) int {
	n := 0
	switch k {
	case 1:
		n = img.Use(i.P) // want `i may be collected while Use runs with i.P: .*; add runtime.KeepAlive\(i\) after the call`
		n++
	}
	return n
}

// SameLine has another statement after the call on its line, behind a
// comment (the want comment): the KeepAlive goes right after the call, on a line of its own.
func SameLine(i *img.Image) {
	n := img.Use(i.P); /* want `i may be collected while Use runs with i.P: .*; add runtime.KeepAlive\(i\) after the call` */ println(n)
}

// Trailing has only a comment after the call: the KeepAlive goes after
// the comment.
func Trailing(i *img.Image) {
	n := img.Use(i.P) /* see Use */ // want `i may be collected while Use runs with i.P: .*; add runtime.KeepAlive\(i\) after the call`
	println(n)
}

// OneLine is a one-line body.
func OneLine(i *img.Image) { println(img.Use(i.P)) } // want `i may be collected while Use runs with i.P: .*; add runtime.KeepAlive\(i\) after the call`

// Spin calls in the init of a labeled loop that never ends (it returns
// from inside): the defer goes before the label, which a continue names.
func Spin(i *img.Image, ch chan int) {
outer:
	for n := img.Use(i.P); ; n++ { // want `i may be collected while Use runs with i.P: .*; add defer runtime.KeepAlive\(i\) before the call`
		select {
		case <-ch:
			continue outer
		default:
			return
		}
	}
}

// CaseExpr calls in a case's expression: the KeepAlive goes after the
// switch (which can fall through), not beside the clause.
func CaseExpr(i *img.Image, k int) int {
	switch k {
	case img.Use(i.P): // want `i may be collected while Use runs with i.P: .*; add runtime.KeepAlive\(i\) after the call`
		k++
	}
	return k
}

// Send calls in a select's send: the select ends the function, so the
// KeepAlive is deferred before it.
func Send(i *img.Image, ch chan int) {
	select {
	case ch <- img.Use(i.P): // want `i may be collected while Use runs with i.P: .*; add defer runtime.KeepAlive\(i\) before the call`
		return
	}
}
