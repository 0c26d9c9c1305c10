// Package fixbranch checks where the deferred runtime.KeepAlive goes when
// several calls are at risk: before the statement, of the innermost
// statement list holding them all, that holds the first, never in a block
// that the later calls' paths do not enter; and that a defer statement
// keeps the object alive only for the calls it runs before on every path.
package fixbranch

import (
	"finalizer/img"
	"runtime"
)

// Early: the first call is in a branch that returns; the defer goes before
// the if, where both calls' paths pass.
func Early(i *img.Image, k int) int {
	if k > 0 {
		return img.Use(i.P) // want `i may be collected while Use runs with i.P: .* \(and the same at line 19\); add defer runtime.KeepAlive\(i\) before the first of them`
	}
	n := img.Use(i.P)
	return n * 2
}

// Cases: calls in two cases of a switch; the defer goes before the switch.
func Cases(i *img.Image, k int) int {
	switch k {
	case 0:
		return img.Use(i.P) // want `i may be collected while Use runs with i.P: .* \(and the same at line 29\)`
	default:
		return img.Use(i.P) + 1
	}
}

// EarlyOK is Early with the fix.
func EarlyOK(i *img.Image, k int) int {
	defer runtime.KeepAlive(i)
	if k > 0 {
		return img.Use(i.P)
	}
	n := img.Use(i.P)
	return n * 2
}

// CondDefer: the defer runs only when k > 0; on the other path nothing
// keeps i alive during the call.
func CondDefer(i *img.Image, k int) int {
	if k > 0 {
		defer runtime.KeepAlive(i)
	}
	n := img.Use(i.P) // want `i may be collected while Use runs with i.P`
	return n
}

// CondDeferOK: the defer runs on every path to the call.
func CondDeferOK(i *img.Image, k int) int {
	defer runtime.KeepAlive(i)
	if k > 0 {
		k--
	}
	n := img.Use(i.P)
	return n + k
}

// Nested: the call in the nested if comes first in the source, though
// not in the blocks' order; the defer goes before the outer if.
func Nested(i *img.Image, k int) int {
	if k > 0 {
		if k > 5 {
			return img.Use(i.P)
		}
	}
	n := img.Use(i.P) // want `i may be collected while Use runs with i.P: .* \(and the same at line 68\); add defer runtime.KeepAlive\(i\) before the first of them`
	return n
}

// Loop: the earlier call is in a loop; the defer goes before the loop,
// which holds no call after it.
func Loop(i *img.Image, k int) int {
	s := 0
	for j := 0; j < k; j++ {
		if j == 3 {
			return img.Use(i.P)
		}
		s++
	}
	n := img.Use(i.P) // want `i may be collected while Use runs with i.P: .* \(and the same at line 81\); add defer runtime.KeepAlive\(i\) before the first of them`
	return n + s
}

// Labeled: the earlier call is in a labeled range loop; the defer goes
// before the label, which a continue names.
func Labeled(i *img.Image, xs []int) int {
outer:
	for _, x := range xs {
		for j := 0; j < x; j++ {
			if j == 2 {
				continue outer
			}
			if j == 5 {
				return img.Use(i.P)
			}
		}
	}
	n := img.Use(i.P) // want `i may be collected while Use runs with i.P: .* \(and the same at line 99\); add defer runtime.KeepAlive\(i\) before the first of them`
	return n
}

// InLoop: both calls are in the body of a loop and leave the function:
// a defer there would pile up, one per iteration, so the advice (a defer,
// since a KeepAlive after the last call would not run) has no fix.
func InLoop(i *img.Image, xs []int) int {
	for _, x := range xs {
		if x > 0 {
			return img.Use(i.P) // want `i may be collected while Use runs with i.P: .* \(and the same at line 116\); add defer runtime.KeepAlive\(i\) before the first of them`
		}
		if x < -3 {
			return img.Use(i.P) + 1
		}
	}
	return 0
}

// BreakOut: every branch of the switch leaves the loop (a return, a break
// of its label): a KeepAlive after the switch would be dead code, so the
// defer goes before it.
func BreakOut(i *img.Image, n int) int {
L:
	for j := 0; j < n; j++ {
		switch img.Use(i.P) { // want `i may be collected while Use runs with i.P: .*; add defer runtime.KeepAlive\(i\) before the call`
		case 1:
			return 1
		default:
			break L
		}
	}
	return 0
}

// IfBreak: both branches of the if break out of the loop.
func IfBreak(i *img.Image) (r int) {
	for {
		if img.Use(i.P) > 0 { // want `i may be collected while Use runs with i.P: .*; add defer runtime.KeepAlive\(i\) before the call`
			r = 1
			break
		} else {
			break
		}
	}
	return r
}

// Continues: a branch takes the loop around again, which would run a
// defer before the switch once per trip: the advice has no fix.
func Continues(i *img.Image, xs []int) int {
	p := i.P
	for _, x := range xs {
		switch img.Use(p) + x { // want `i may be collected while Use runs with i.P: .*; add defer runtime.KeepAlive\(i\) before the call`
		case 0:
			continue
		default:
			return x
		}
	}
	return 0
}

// BreakOutOK is BreakOut with the fix.
func BreakOutOK(i *img.Image, n int) int {
L:
	for j := 0; j < n; j++ {
		defer runtime.KeepAlive(i)
		switch img.Use(i.P) {
		case 1:
			return 1
		default:
			break L
		}
	}
	return 0
}

type session struct{ in *img.Image }

// Changes: s.in gets another value between the calls: a defer before the
// first would keep the old one alive, not the later call's. No fix.
func (s *session) Changes(next *img.Image, k int) int {
	if k > 0 {
		return img.Use(s.in.P) // want `s.in may be collected while Use runs with s.in.P: .* \(and the same at line \d+\); keep each object alive past its call \(runtime.KeepAlive\): s.in changes between them`
	}
	s.in = next
	return img.Use(s.in.P)
}

func (s *session) set(v *img.Image) { s.in = v }

// ChangesViaMethod: a method gives s.in another value between the calls.
// No fix.
func (s *session) ChangesViaMethod(next *img.Image, k int) int {
	if k > 0 {
		return img.Use(s.in.P) // want `s.in may be collected while Use runs with s.in.P: .* \(and the same at line \d+\); keep each object alive past its call \(runtime.KeepAlive\): s.in changes between them`
	}
	s.set(next)
	return img.Use(s.in.P)
}

// ChangesViaAlias: a pointer to s.in, written between the calls. No fix.
func (s *session) ChangesViaAlias(next *img.Image, k int) int {
	p := &s.in
	if k > 0 {
		return img.Use(s.in.P) // want `s.in may be collected while Use runs with s.in.P: .* \(and the same at line \d+\); keep each object alive past its call \(runtime.KeepAlive\): s.in changes between them`
	}
	*p = next
	return img.Use(s.in.P)
}

// ChangesViaClosure: a literal that assigns im, called between, captured
// im, which keeps the object alive: no finding.
func ChangesViaClosure(im, next *img.Image, k int) int {
	swap := func() { im = next }
	if k > 0 {
		return img.Use(im.P)
	}
	swap()
	return img.Use(im.P)
}

func note(int) {}

// CallBetween: a Go call between the calls cannot change a variable no
// literal assigns: the deferred fix stands.
func CallBetween(im *img.Image, k int) int {
	if k > 0 {
		return img.Use(im.P) // want `im may be collected while Use runs with im.P: .* \(and the same at line \d+\); add defer runtime.KeepAlive\(im\) before the first of them`
	}
	note(k)
	return img.Use(im.P)
}
