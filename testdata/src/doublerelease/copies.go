package doublerelease

/*
#include <stdlib.h>
typedef struct { int live; } mat;
static mat* mat_new(void) { return malloc(sizeof(mat)); }
static void mat_close(mat* m) { free(m); }
typedef struct { int live; } dev;
static dev* dev_open(void) { return malloc(sizeof(dev)); }
static int dev_dispose(dev* d) { free(d); return 0; }
*/
import "C"

// Mat is a value type whose Close clears the copy it is called on.
type Mat struct{ p *C.mat }

func NewMat() Mat { return Mat{p: C.mat_new()} }

func (m *Mat) Close() {
	C.mat_close(m.p)
	m.p = nil
}

type Pipeline struct{ cached Mat }

// Close on a copy clears the copy; the cached Mat keeps the handle.
func (pl *Pipeline) Recompute(again bool) {
	old := pl.cached
	old.Close() // want `\(\*Mat\).Close releases old.p through a copy and clears only the copy: pl.cached.p still holds the released handle`
	if again {
		pl.cached = NewMat()
	}
}

// Corrected: close the field itself.
func (pl *Pipeline) RecomputeOK(again bool) {
	pl.cached.Close()
	if again {
		pl.cached = NewMat()
	}
}

// A copy closed and the original replaced on every path: fine.
func (pl *Pipeline) Replace() {
	old := pl.cached
	pl.cached = NewMat()
	old.Close()
}

// A release method with a value receiver clears only its own copy.
type Buf struct{ p *C.mat }

func (b Buf) Free() {
	C.mat_close(b.p)
	b.p = nil // want `this clears b.p in a copy: Free has a value receiver, so the caller's Buf keeps the released handle`
}

// Corrected: a pointer receiver.
type PtrBuf struct{ p *C.mat }

func (b *PtrBuf) Free() {
	C.mat_close(b.p)
	b.p = nil
}

// A //lifetime:handle type promises one release per value; a Close that a
// second call would repeat breaks it.
//
//lifetime:handle
type Device struct{ d *C.dev }

func (d *Device) Close() error {
	C.dev_dispose(d.d) // want `Close releases d.d without clearing or checking it, but Device is a //lifetime:handle`
	return nil
}

//lifetime:handle
type SafeDevice struct{ d *C.dev }

func (d *SafeDevice) Close() error {
	if d.d == nil {
		return nil
	}
	C.dev_dispose(d.d)
	d.d = nil
	return nil
}

// An idempotent release (checked and cleared) defeated by a copy.
type Stream struct{ m *C.mat }

func (s *Stream) Destroy() {
	if s.m != nil {
		C.mat_close(s.m)
		s.m = nil
	}
}

type Runner struct{ stream Stream }

func (r *Runner) Reset() {
	old := r.stream
	old.Destroy() // want `\(\*Stream\).Destroy releases old.m through a copy and clears only the copy: r.stream.m still holds the released handle, so a later release of it \(the next call of Reset\)`
}

func (r *Runner) ResetOK() {
	r.stream.Destroy()
}

// A helper that frees a field through a pointer to the struct holding it
// (git2go's freeFetchOptions(&copts.fetch_opts)) and does not clear it: no
// copy is involved.
type Opts struct{ url *C.mat }
type Outer struct{ opts Opts }

func freeOpts(o *Opts) {
	if o == nil {
		return
	}
	C.mat_close(o.url)
}

func freeOuter(o *Outer) {
	freeOpts(&o.opts)
}

// A buffer that grows by freeing and reallocating in place
// (go-sqlite3's statement-owned argument buffer): a caller that grows it
// again and again, through a pointer a closure captured, releases each
// buffer once; the callee replaces what it frees.
type Scratch struct {
	buf *C.mat
	n   int
}

func (s *Scratch) grow(n int) bool {
	if n > s.n {
		if s.buf != nil {
			C.mat_close(s.buf)
		}
		s.buf = C.mat_new()
		s.n = n
	}
	return s.buf != nil
}

func runGrowing(s *Scratch, n int) {
	each := func() {
		for i := range n {
			if !s.grow(i) { // no finding: the pointer reaches the buffer grow replaces
				return
			}
		}
	}
	each()
}

// The same release on a copy, in a loop: the copy's buffer is replaced,
// the original keeps the one released.
func runGrowingCopy(s *Scratch, n int) {
	for i := range n {
		c := *s
		c.grow(i) // want `\(\*Scratch\).grow releases c.buf through a copy and clears only the copy: s.buf still holds the released handle`
	}
}

func runGrowingParam(s *Scratch, n int) {
	for i := range n {
		if !s.grow(i) { // no finding: as above, through a parameter
			return
		}
	}
}
