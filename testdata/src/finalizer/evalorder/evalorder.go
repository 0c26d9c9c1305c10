// Package evalorder holds reads of the object in the expression that makes
// the C call: gc evaluates the calls of an expression first and its other
// operands after them, so such a read keeps the object alive across the
// call. A read in an earlier statement, or on the left of && (which runs
// first), does not.
package evalorder

/*
#include <stdlib.h>
typedef struct { int n; } session;
static session* session_new(void) { return calloc(1, sizeof(session)); }
static void session_free(session* s) { free(s); }
static int session_run(session* s) { return s->n; }
*/
import "C"

import "runtime"

type Session struct {
	s     *C.session
	base  int
	cache map[int]int
	tab   []int
}

func New() *Session {
	x := &Session{s: C.session_new(), cache: map[int]int{}, tab: make([]int, 4)}
	runtime.SetFinalizer(x, func(x *Session) { C.session_free(x.s) })
	return x
}

func (x *Session) Sum() int { return x.base + int(C.session_run(x.s)) }

func (x *Session) Cached() int { return x.cache[int(C.session_run(x.s))] }

func (x *Session) Slot() int { return x.tab[int(C.session_run(x.s))&3] }

func (x *Session) Pair() int {
	b, n := x.base, int(C.session_run(x.s))
	return b + n
}

func (x *Session) Args() int { return add(x.base, int(C.session_run(x.s))) }

func add(a, b int) int { return a + b }

// Before reads the field in an earlier statement.
func (x *Session) Before() int {
	b := x.base
	return b + int(C.session_run(x.s)) // want `x may be collected while C.session_run runs with x.s`
}

// Guarded reads the field on the left of &&, which runs first.
func (x *Session) Guarded() bool {
	return x.base > 0 && C.session_run(x.s) > 0 // want `x may be collected while C.session_run runs with x.s`
}

func peek(*C.session) int { return 0 }

// Earlier reads the field as an argument of a call made before the C
// call: calls run in lexical order.
func (x *Session) Earlier() int {
	return peek(x.s) + int(C.session_run(x.s)) // want `x may be collected while C.session_run runs with x.s`
}

// Converted reads the field in a conversion, which is no call.
func (x *Session) Converted() int64 { return int64(x.base) + int64(C.session_run(x.s)) }
