// Package repeats holds releases made after a test of state that nothing
// on the release path changes: a second call passes the test again and
// releases the handle again. Each has its corrected version beside it.
package repeats

/*
#include <stdlib.h>
typedef struct { int n; } stream;
static stream* stream_begin(void) { return calloc(1, sizeof(stream)); }
static void stream_end(stream* s) { free(s); }
static int stream_live(stream* s) { return s->n; }
*/
import "C"

import (
	"runtime"

	"doublerelease/repeats/flag"
)

// Stream's Close tests the handle but never clears it; the finalizer runs
// Close again.
type Stream struct{ s *C.stream }

func NewStream() *Stream {
	x := &Stream{s: C.stream_begin()}
	runtime.SetFinalizer(x, (*Stream).Close)
	return x
}

func (x *Stream) Close() {
	if x.s != nil {
		C.stream_end(x.s) // want `x.s is released here and again by the finalizer set at line 27`
	}
}

// Cleared clears what it tests.
type Cleared struct{ s *C.stream }

func NewCleared() *Cleared {
	x := &Cleared{s: C.stream_begin()}
	runtime.SetFinalizer(x, (*Cleared).Close)
	return x
}

func (x *Cleared) Close() {
	if x.s != nil {
		C.stream_end(x.s)
		x.s = nil
	}
}

// Twice's end tests a flag it never sets, and Run calls it twice (a
// deferred call and an early one).
type Twice struct {
	done bool
	s    *C.stream
}

func (t *Twice) end() {
	if t.done {
		return
	}
	C.stream_end(t.s) // want `t.s is released twice when \(\*Twice\).end is called twice on the same value, as Run does \(line 72 and line 69\): \(\*Twice\).end checks it but changes nothing the check reads`
}

func Run() int {
	t := &Twice{s: C.stream_begin()}
	defer t.end()
	n := int(C.stream_live(t.s))
	if n < 0 {
		t.end()
		return n
	}
	return n
}

// TwiceSet sets the flag it tests.
type TwiceSet struct {
	done bool
	s    *C.stream
}

func (t *TwiceSet) end() {
	if t.done {
		return
	}
	t.done = true
	C.stream_end(t.s)
}

func RunSet() int {
	t := &TwiceSet{s: C.stream_begin()}
	defer t.end()
	n := int(C.stream_live(t.s))
	if n < 0 {
		t.end()
		return n
	}
	return n
}

// Tested's Close asks a helper of another package, which tests a flag and
// sets nothing.
type Tested struct {
	flag.Closed
	s *C.stream
}

func NewTested() *Tested {
	x := &Tested{s: C.stream_begin()}
	runtime.SetFinalizer(x, func(x *Tested) { x.Close() })
	return x
}

func (x *Tested) Close() {
	if !x.Open() {
		return
	}
	C.stream_end(x.s) // want `x.s is released here and again by the finalizer set at line 112`
}

// Claimed's helper sets the flag as it tests it.
type Claimed struct {
	flag.Closed
	s *C.stream
}

func NewClaimed() *Claimed {
	x := &Claimed{s: C.stream_begin()}
	runtime.SetFinalizer(x, func(x *Claimed) { x.Close() })
	return x
}

func (x *Claimed) Close() {
	if !x.Claim() {
		return
	}
	C.stream_end(x.s)
}

// Live asks C whether the stream is still live: the release may change
// what C answers, so the test may keep a second call out.
type Live struct{ s *C.stream }

func NewLive() *Live {
	x := &Live{s: C.stream_begin()}
	runtime.SetFinalizer(x, (*Live).Close)
	return x
}

func (x *Live) Close() {
	if C.stream_live(x.s) != 0 {
		C.stream_end(x.s)
	}
}

// Weak's release is skipped for a wrapper the caller marks weak: one call
// of the guarded release is no double release.
type Weak struct {
	weak bool
	s    *C.stream
}

func (w *Weak) Free() {
	if w.weak {
		return
	}
	C.stream_end(w.s)
}

func Borrow(s *C.stream) int {
	w := &Weak{s: s, weak: true}
	defer w.Free()
	return int(C.stream_live(w.s))
}

// Owned's release runs only for a wrapper that owns its stream, a mode
// that Disown sets after construction: the test may be what keeps a
// second release from running at all, so nothing is said.
type Owned struct {
	borrowed bool
	s        *C.stream
}

func NewOwned() *Owned {
	o := &Owned{s: C.stream_begin()}
	runtime.SetFinalizer(o, (*Owned).Close)
	return o
}

func (o *Owned) Disown() { o.borrowed = true }

func (o *Owned) Close() {
	if o.borrowed {
		return
	}
	C.stream_end(o.s)
}
