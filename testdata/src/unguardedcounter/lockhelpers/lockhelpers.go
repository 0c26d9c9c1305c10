// Package lockhelpers: a lock taken or dropped through a helper of the
// package (lock()/unlock() methods, a package-level pair, a helper that
// returns the Unlock, a with(f) that runs f under the lock, a sync.Locker
// field) guards what its caller does between them, as a Lock written out
// does. A helper that does not return holding the lock guards nothing.
package lockhelpers

/*
#include <stdlib.h>
typedef struct { int live; } ctx;
static int ctx_run(ctx* c, int n) { return n; }
*/
import "C"

import "sync"

// Pool's methods lock through lock() and unlock(): silent.
type Pool struct {
	mu    sync.Mutex
	users int
	c     *C.ctx
}

func (p *Pool) lock()   { p.mu.Lock() }
func (p *Pool) unlock() { p.mu.Unlock() }

func (p *Pool) Get() {
	p.lock()
	defer p.unlock()
	p.users++
	C.ctx_run(p.c, 1)
}

func (p *Pool) Put() {
	p.lock()
	p.users--
	p.unlock()
	C.ctx_run(p.c, 0)
}

// Past the unlock helper the lock is no longer held: reported.
func (p *Pool) Leave() {
	p.lock()
	p.unlock()
	p.users-- // want `Leave decrements p.users without atomics or a lock`
}

// Queue's helper returns the Unlock: defer q.locked()() holds the lock to
// the end; with runs its function under the lock: silent.
type Queue struct {
	mu  sync.Mutex
	n   int
	ctx *C.ctx
}

func (q *Queue) locked() func() { q.mu.Lock(); return q.mu.Unlock }

func (q *Queue) with(f func()) {
	q.mu.Lock()
	defer q.mu.Unlock()
	f()
}

func (q *Queue) Push() {
	defer q.locked()()
	q.n++
	C.ctx_run(q.ctx, C.int(q.n))
}

func (q *Queue) Pop() {
	q.with(func() { q.n-- })
	C.ctx_run(q.ctx, 0)
}

// The returned Unlock called at once (the defer forgotten): the lock is
// dropped before the update, which is reported.
type Gauge struct {
	mu  sync.Mutex
	n   int
	ctx *C.ctx
}

func (g *Gauge) locked() func() { g.mu.Lock(); return g.mu.Unlock }

func (g *Gauge) Up() {
	defer g.locked()()
	g.n++
}

func (g *Gauge) Down() {
	defer g.locked()()
	g.n--
}

func (g *Gauge) Drop() {
	g.locked()()
	g.n-- // want `Drop decrements g.n without atomics or a lock`
	C.ctx_run(g.ctx, 0)
}

// A helper that unlocks before it returns takes nothing: reported.
type Leaky struct {
	mu  sync.Mutex
	n   int
	ctx *C.ctx
}

func (l *Leaky) touch() { l.mu.Lock(); l.mu.Unlock() }

func (l *Leaky) Add() {
	l.touch()
	l.n++ // want `Add increments l.n without atomics or a lock`
	C.ctx_run(l.ctx, C.int(l.n))
}

func (l *Leaky) Sub() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n--
	C.ctx_run(l.ctx, C.int(l.n))
}

// Helpers that take the mutex as an argument (a *sync.Mutex, a
// sync.Locker) lock the argument's: silent; one that drops what it takes
// guards nothing, reported.
type Meter struct {
	mu  sync.Mutex
	n   int
	ctx *C.ctx
}

func lockMu(m *sync.Mutex)   { m.Lock() }
func unlockMu(m *sync.Mutex) { m.Unlock() }
func touchMu(m *sync.Mutex)  { m.Lock(); m.Unlock() }

func withLocker(l sync.Locker, f func()) {
	l.Lock()
	defer l.Unlock()
	f()
}

func (m *Meter) Inc() {
	lockMu(&m.mu)
	defer unlockMu(&m.mu)
	m.n++
}

func (m *Meter) Dec() {
	withLocker(&m.mu, func() { m.n-- })
}

func (m *Meter) Bump() {
	touchMu(&m.mu)
	m.n++ // want `Bump increments m.n without atomics or a lock`
	C.ctx_run(m.ctx, 0)
}

// A sync.Locker field holding the mutex: silent.
type Guarded struct {
	l   sync.Locker
	n   int
	ctx *C.ctx
}

func (g *Guarded) Inc() {
	g.l.Lock()
	defer g.l.Unlock()
	g.n++
	C.ctx_run(g.ctx, C.int(g.n))
}

func (g *Guarded) Dec() {
	g.l.Lock()
	g.n--
	g.l.Unlock()
	C.ctx_run(g.ctx, 0)
}

func run() {
	p := &Pool{}
	q := &Queue{}
	l := &Leaky{}
	g := &Guarded{l: &sync.Mutex{}}
	ga := &Gauge{}
	me := &Meter{}
	for i := 0; i < 2; i++ {
		go func() {
			p.Get()
			p.Put()
			p.Leave()
			q.Push()
			q.Pop()
			l.Add()
			l.Sub()
			g.Inc()
			g.Dec()
			ga.Up()
			ga.Down()
			ga.Drop()
			me.Inc()
			me.Dec()
			me.Bump()
		}()
	}
}
