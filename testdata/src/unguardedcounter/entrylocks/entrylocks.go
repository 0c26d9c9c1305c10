// Package entrylocks: a count updated or read in a helper that every
// caller calls with the type's lock held is guarded by that lock.
package entrylocks

/*
#include <stdlib.h>
typedef struct { int live; } ctx;
static int ctx_run(ctx* c, int n) { return n; }
*/
import "C"

import "sync"

// Pool's functions take its mutex; its helpers run under it.
type Pool struct {
	mu    sync.Mutex
	users int
	c     *C.ctx
}

func (p *Pool) Get() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.acquire()
	C.ctx_run(p.c, 1)
}

func (p *Pool) Put() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.users--
	C.ctx_run(p.c, 0)
}

// acquire's only caller holds p.mu: silent.
func (p *Pool) acquire() { p.users++ }

// busy's callers hold p.mu, one through a deferred closure that runs
// before the deferred unlock: silent.
func (p *Pool) busy() bool { return p.users > 0 }

func (p *Pool) Busy() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.busy()
}

func (p *Pool) Drain() (idle bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	defer func() { idle = !p.busy() }()
	C.ctx_run(p.c, 2)
	return
}

// idle is also called by a goroutine, which holds nothing: reported.
func (p *Pool) idle() bool {
	return p.users == 0 // want `idle reads the counter p.users without p.mu, which Put holds when it updates it`
}

func (p *Pool) Idle() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.idle()
}

func (p *Pool) Watch(ch chan bool) {
	go func() { ch <- p.idle() }()
}

// leave is called under the lock, and also started on a goroutine of its
// own, which holds nothing: reported.
type Gate struct {
	mu     sync.Mutex
	inside int
	c      *C.ctx
}

func (g *Gate) Enter() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.inside++
	C.ctx_run(g.c, 1)
}

func (g *Gate) leave() {
	g.inside-- // want `leave decrements g.inside without atomics or a lock`
}

func (g *Gate) Leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.leave()
}

func (g *Gate) LeaveLater() { go g.leave() }

// A method value stored for later: whoever calls it may hold nothing.
type Cache struct {
	mu      sync.Mutex
	hits    int
	c       *C.ctx
	onEvict []func()
}

func (c *Cache) Get() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hits++
	c.hit()
	C.ctx_run(c.c, 1)
}

func (c *Cache) hit() {
	c.hits++ // want `hit increments c.hits without atomics or a lock`
}

func (c *Cache) Watch() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.onEvict = append(c.onEvict, c.hit)
}

// Exported, so callers outside the package may hold nothing: reported
// although the package's own call holds the lock.
func (p *Pool) InUse() bool {
	return p.users > 0 // want `InUse reads the counter p.users without p.mu, which Put holds when it updates it`
}

func (p *Pool) Report() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.InUse()
}
