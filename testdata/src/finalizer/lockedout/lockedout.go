// Package lockedout holds the finalizer cases of a release made under a
// lock that the C call holds too: a finalizer that runs during the call
// waits for the lock, and releases only after the call returned.
package lockedout

/*
#include <stdlib.h>
typedef struct { int live; } res;
static res* res_open(void) { return calloc(1, sizeof(res)); }
static void res_close(res* r) { free(r); }
static int res_read(res* r) { return r->live; }
typedef struct { int n; } ctx;
static ctx* ctx_create(void) { return calloc(1, sizeof(ctx)); }
static void ctx_destroy(ctx* c) { free(c); }
static int ctx_query(ctx* c) { return c->n; }
*/
import "C"

import (
	"runtime"
	"sync"
)

// libMu serialises every call into the library, which is not
// thread-safe.
var libMu sync.Mutex

type Global struct{ h *C.res }

func NewGlobal() *Global {
	g := &Global{h: C.res_open()}
	runtime.SetFinalizer(g, (*Global).Close)
	return g
}

func (g *Global) Close() {
	libMu.Lock()
	defer libMu.Unlock()
	if g.h != nil {
		C.res_close(g.h)
		g.h = nil
	}
}

func (g *Global) Read() int {
	libMu.Lock()
	defer libMu.Unlock()
	if g.h == nil {
		return 0
	}
	return int(C.res_read(g.h))
}

// ReadUnlocked reads without the lock: the finalizer can release during
// the call.
func (g *Global) ReadUnlocked() int {
	return int(C.res_read(g.h)) // want `g may be collected while C.res_read runs with g.h`
}

// ReadEarly releases the lock before its call.
func (g *Global) ReadEarly() int {
	libMu.Lock()
	h := g.h
	libMu.Unlock()
	return int(C.res_read(h)) // want `g may be collected while C.res_read runs with g.h`
}

// Own serialises on its own mutex.
type Own struct {
	mu sync.Mutex
	h  *C.res
}

func NewOwn() *Own {
	o := &Own{h: C.res_open()}
	runtime.SetFinalizer(o, func(o *Own) { o.Close() })
	return o
}

func (o *Own) Close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.h != nil {
		C.res_close(o.h)
		o.h = nil
	}
}

func (o *Own) Read() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return int(C.res_read(o.h))
}

// Shared reads under the read lock of the mutex its Close locks.
type Shared struct {
	mu sync.RWMutex
	h  *C.res
}

func NewShared() *Shared {
	s := &Shared{h: C.res_open()}
	runtime.SetFinalizer(s, (*Shared).Close)
	return s
}

func (s *Shared) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.h != nil {
		C.res_close(s.h)
		s.h = nil
	}
}

// Read holds the read lock: the finalizer's Lock waits for readers too.
func (s *Shared) Read() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return int(C.res_read(s.h))
}

// Unrelated's finalizer releases without a lock; Read's deferred Unlock
// of u.mu uses u after the call, which keeps it alive.
type Unrelated struct {
	mu sync.Mutex
	h  *C.res
}

func NewUnrelated() *Unrelated {
	u := &Unrelated{h: C.res_open()}
	runtime.SetFinalizer(u, func(u *Unrelated) { C.res_close(u.h) })
	return u
}

func (u *Unrelated) Read() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return int(C.res_read(u.h))
}

// ReadLocked holds libMu, which the finalizer does not take.
func (u *Unrelated) ReadLocked() int {
	libMu.Lock()
	defer libMu.Unlock()
	return int(C.res_read(u.h)) // want `u may be collected while C.res_read runs with u.h`
}

// A lock in a struct reached through a pointer field is named by the
// struct's type and field: v.box.mu is the b.mu the cleanup's release
// holds.
type box struct {
	mu sync.Mutex
	h  *C.res
}

func (b *box) release() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.h != nil {
		C.res_close(b.h)
		b.h = nil
	}
}

type Boxed struct{ box *box }

func NewBoxed() *Boxed {
	v := &Boxed{box: &box{h: C.res_open()}}
	runtime.AddCleanup(v, func(b *box) { b.release() }, v.box)
	return v
}

func (v *Boxed) Read() int {
	v.box.mu.Lock()
	defer v.box.mu.Unlock()
	return int(C.res_read(v.box.h))
}

// BareBoxed's cleanup releases without the box's lock: Read's lock does
// not keep it out.
type BareBoxed struct{ box *box }

func NewBareBoxed() *BareBoxed {
	v := &BareBoxed{box: &box{h: C.res_open()}}
	runtime.AddCleanup(v, func(b *box) { C.res_close(b.h) }, v.box)
	return v
}

func (v *BareBoxed) Read() int {
	v.box.mu.Lock()
	defer v.box.mu.Unlock()
	return int(C.res_read(v.box.h)) // want `v may be collected while C.res_read runs with v.box.h`
}

// Ctx's locks are in state and stats, two structs reached through
// pointers (one embedded): a lock of one is not the other's.
type state struct {
	mu sync.Mutex
	rw sync.RWMutex
}

type stats struct{ mu sync.Mutex }

type Ctx struct {
	*state
	st *stats
	c  *C.ctx
}

func NewCtx() *Ctx {
	x := &Ctx{state: &state{}, st: &stats{}, c: C.ctx_create()}
	runtime.SetFinalizer(x, (*Ctx).Destroy)
	return x
}

func (x *Ctx) Destroy() {
	x.mu.Lock() // the embedded state's
	defer x.mu.Unlock()
	if x.c != nil {
		C.ctx_destroy(x.c)
		x.c = nil
	}
}

// Query holds the lock Destroy takes, through the embedded pointer.
func (x *Ctx) Query() int {
	x.state.mu.Lock()
	defer x.state.mu.Unlock()
	return int(C.ctx_query(x.c))
}

// Count holds stats' lock, which Destroy does not take.
func (x *Ctx) Count() int {
	x.st.mu.Lock()
	defer x.st.mu.Unlock()
	return int(C.ctx_query(x.c)) // want `x may be collected while C.ctx_query runs with x.c`
}

// Shared2 reads under the read lock of a RWMutex its Close locks, both
// reached through a pointer field.
type Shared2 struct {
	cfg *state
	c   *C.ctx
}

func NewShared2() *Shared2 {
	s := &Shared2{cfg: &state{}, c: C.ctx_create()}
	runtime.SetFinalizer(s, func(s *Shared2) { s.close() })
	return s
}

func (s *Shared2) close() {
	s.cfg.rw.Lock()
	defer s.cfg.rw.Unlock()
	if s.c != nil {
		C.ctx_destroy(s.c)
		s.c = nil
	}
}

func (s *Shared2) Query() int {
	s.cfg.rw.RLock()
	defer s.cfg.rw.RUnlock()
	return int(C.ctx_query(s.c))
}
