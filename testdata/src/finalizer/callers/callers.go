// Package callers: a missing KeepAlive inside a function only the package
// calls is decided at its call sites. Every caller that keeps the object
// reachable past the call (a later use, a deferred use, or no finalizer
// armed yet) makes the finding false; one caller that drops the object, or
// a call the analysis cannot see (a method value, a go statement, an
// interface call), keeps it.
package callers

/*
#include <stdlib.h>
typedef struct { int n; } codec_t;
static codec_t* codec_open(void) { return calloc(1, sizeof(codec_t)); }
static void codec_close(codec_t* c) { free(c); }
static int codec_feed(codec_t* c, int v) { return c->n += v; }
static int codec_flush(codec_t* c) { return c->n; }

typedef struct { int pos; } tape_t;
static tape_t* tape_load(void) { return calloc(1, sizeof(tape_t)); }
static void tape_release(tape_t* t) { free(t); }
static int tape_rewind(tape_t* t) { t->pos = 0; return 0; }
*/
import "C"

import (
	"errors"
	"runtime"
	"sync"
	"time"
)

var errBad = errors.New("bad codec")

type Codec struct {
	mu sync.Mutex
	h  *C.codec_t
	n  int
}

func (c *Codec) free() { C.codec_close(c.h) }

func Open() *Codec {
	c := &Codec{h: C.codec_open()}
	runtime.SetFinalizer(c, (*Codec).free)
	return c
}

// Its only caller uses c after the call.
func (c *Codec) feed(v int) int {
	return int(C.codec_feed(c.h, C.int(v)))
}

func (c *Codec) Feed(v int) int {
	n := c.feed(v)
	c.n += n
	return n
}

// A helper function whose only caller holds c in a deferred call.
func drain(c *Codec) int {
	return int(C.codec_flush(c.h))
}

func (c *Codec) Drain() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return drain(c)
}

// Called before the finalizer is set, on an object the caller allocated
// and has handed to nobody: nothing can release it during the call.
func (c *Codec) prime() error {
	if C.codec_feed(c.h, 0) != 0 {
		return errBad
	}
	return nil
}

func OpenPrimed() (*Codec, error) {
	c := &Codec{h: C.codec_open()}
	c.n = 1
	if err := c.prime(); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(c, (*Codec).free)
	return c, nil
}

func Probe() error {
	c := &Codec{h: C.codec_open()}
	return c.prime()
}

// Called after the finalizer is set, with nothing after: the finding
// stands.
func (c *Codec) last(v int) int {
	return int(C.codec_feed(c.h, C.int(v))) // want `c may be collected while C.codec_feed runs with c.h`
}

func (c *Codec) Last(v int) int {
	return c.last(v)
}

// One caller keeps c, the other drops it.
func (c *Codec) step() int {
	return int(C.codec_flush(c.h)) // want `c may be collected while C.codec_flush runs with c.h`
}

func (c *Codec) Step() int {
	n := c.step()
	c.n = n
	return n
}

func StepOne() int {
	return Open().step()
}

// A loop over a slice of objects: the slice, live for the next
// iteration, holds each one.
func (c *Codec) count() int {
	return int(C.codec_flush(c.h))
}

func CountAll(cs []*Codec) int {
	t := 0
	for _, c := range cs {
		t += c.count()
	}
	return t
}

// A chain of unexported helpers: the outer one's caller keeps c.
func (c *Codec) inner() int {
	return int(C.codec_flush(c.h))
}

func (c *Codec) outer() int { return c.inner() + 1 }

func (c *Codec) Outer() int {
	defer runtime.KeepAlive(c)
	return c.outer()
}

// The same chain whose outer caller drops c.
func (c *Codec) inner2() int {
	return int(C.codec_flush(c.h)) // want `c may be collected while C.codec_flush runs with c.h`
}

func (c *Codec) outer2() int { return c.inner2() + 1 }

func (c *Codec) Outer2() int { return c.outer2() }

// A method value escapes: its calls are not all known.
func (c *Codec) tick() int {
	return int(C.codec_flush(c.h)) // want `c may be collected while C.codec_flush runs with c.h`
}

func (c *Codec) Ticker() func() int {
	c.n++
	f := c.tick
	c.n++
	return f
}

func (c *Codec) Tick() int {
	n := c.tick()
	c.n = n
	return n
}

// A go statement runs it while the caller goes on.
func (c *Codec) background() {
	C.codec_flush(c.h) // want `c may be collected while C.codec_flush runs with c.h`
}

func (c *Codec) Background() {
	go c.background()
	c.n++
}

// An interface of the package names the method: an interface call may
// reach it from a caller the analysis cannot see.
type flusher interface{ flushNow() int }

func (c *Codec) flushNow() int {
	return int(C.codec_flush(c.h)) // want `c may be collected while C.codec_flush runs with c.h`
}

func FlushAll(fs []flusher) int {
	t := 0
	for _, f := range fs {
		t += f.flushNow()
	}
	return t
}

func (c *Codec) FlushNow() int {
	n := c.flushNow()
	c.n = n
	return n
}

// The object reached through a field of the caller's value, with another
// library's names: the caller uses the holder after the call.
type Tape struct{ t *C.tape_t }

func LoadTape() *Tape {
	t := &Tape{t: C.tape_load()}
	runtime.SetFinalizer(t, func(t *Tape) { C.tape_release(t.t) })
	return t
}

type Deck struct {
	tape *Tape
	pos  int
}

func (d *Deck) rewind() error {
	if C.tape_rewind(d.tape.t) != 0 {
		return errBad
	}
	return nil
}

func (d *Deck) Rewind() error {
	err := d.rewind()
	d.pos = 0
	return err
}

// A caller that allocates the object but arms the finalizer first.
func (t *Tape) rewind() int {
	return int(C.tape_rewind(t.t)) // want `t may be collected while C.tape_rewind runs with t.t`
}

func Fresh() int {
	t := &Tape{t: C.tape_load()}
	runtime.SetFinalizer(t, func(t *Tape) { C.tape_release(t.t) })
	return t.rewind()
}

// A caller that hands the object to a helper that arms it before the call.
func arm(t *Tape) { runtime.SetFinalizer(t, func(t *Tape) { C.tape_release(t.t) }) }

func (t *Tape) rewind2() int {
	return int(C.tape_rewind(t.t)) // want `t may be collected while C.tape_rewind runs with t.t`
}

func Fresh2() int {
	t := &Tape{t: C.tape_load()}
	arm(t)
	return t.rewind2()
}

// Closed runs a helper inside once.Do: the literal captured c, which its
// enclosing Close holds (Do keeps &c.once until the literal returns).
type Closed struct {
	once sync.Once
	h    *C.codec_t
}

func OpenClosed() *Closed {
	c := &Closed{h: C.codec_open()}
	runtime.SetFinalizer(c, func(c *Closed) { c.Close() })
	return c
}

func (c *Closed) Close() { c.once.Do(func() { c.shut() }) }

func (c *Closed) shut() { C.codec_close(c.h) }

// The literal runs on a goroutine of its own: nothing holds c for it.
func (c *Closed) flush() int {
	return int(C.codec_flush(c.h)) // want `c may be collected while C.codec_flush runs with c.h`
}

func (c *Closed) FlushLater() {
	go func() { c.flush() }()
}

// Later runs the helper from a literal that time.AfterFunc runs: nothing
// holds c for it.
func (c *Closed) wipe() {
	C.codec_close(c.h) // want `c may be collected while C.codec_close runs with c.h`
}

func (c *Closed) Later() {
	time.AfterFunc(time.Second, func() { c.wipe() })
}

var global sync.Once

// Shared runs the helper under a package-level Once, which holds nothing
// of c.
func (c *Closed) drop() {
	C.codec_close(c.h) // want `c may be collected while C.codec_close runs with c.h`
}

func (c *Closed) Shared() { global.Do(func() { c.drop() }) }

// Now calls the literal in place: the literal's frame need not keep c.
func (c *Closed) poke() int {
	return int(C.codec_flush(c.h)) // want `c may be collected while C.codec_flush runs with c.h`
}

func (c *Closed) Now() int {
	f := func() int { return c.poke() }
	return f()
}

// Bound hands the helper to its own Once as a method value.
type Bound struct {
	once sync.Once
	h    *C.codec_t
}

func OpenBound() *Bound {
	b := &Bound{h: C.codec_open()}
	runtime.SetFinalizer(b, func(b *Bound) { b.Close() })
	return b
}

func (b *Bound) Close() { b.once.Do(b.shut) }

func (b *Bound) shut() { C.codec_close(b.h) }

// SharedBound hands it to a package-level Once, which holds nothing of b.
func (b *Bound) shutShared() {
	C.codec_close(b.h) // want `b may be collected while C.codec_close runs with b.h`
}

func (b *Bound) CloseShared() { global.Do(b.shutShared) }

// unused is called by nothing in the package, and nothing outside can
// call it: it never runs.
func (c *Codec) unused() int {
	return int(C.codec_flush(c.h))
}

// hooked is named only by a package-level variable's initializer, which
// runs in the package's init: Hook calls it through the table, and drops
// c during the call.
func (c *Codec) hooked() int {
	return int(C.codec_flush(c.h)) // want `c may be collected while C.codec_flush runs with c.h`
}

var hooks = map[string]func(*Codec) int{"flush": (*Codec).hooked}

func Hook(c *Codec, name string) int { return hooks[name](c) }

// flushed is called directly by a function a package-level variable
// holds: a call site the variable's initializer hides.
func flushed(c *Codec) int {
	return int(C.codec_flush(c.h)) // want `c may be collected while C.codec_flush runs with c.h`
}

func viaVar(c *Codec) int { return flushed(c) }

var flushFn = viaVar

func FlushVar(c *Codec) int { return flushFn(c) }
