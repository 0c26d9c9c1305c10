package refs

import (
	"sync"
	"sync/atomic"
)

// A field accessed atomically in one place and plainly in another.
type Counter struct {
	hits int64
}

func (c *Counter) Hit() { atomic.AddInt64(&c.hits, 1) }

func (c *Counter) Hits() int64 { return c.hits } // want `Hits reads c.hits plainly, but Hit accesses it with atomic Add \(line 13\)`

func (c *Counter) Reset() { c.hits = 0 } // want `Reset writes c.hits plainly, but Hit accesses it with atomic Add`

// Fixed: every access atomic.
type AtomicCounter struct {
	hits int64
}

func (c *AtomicCounter) Hit() { atomic.AddInt64(&c.hits, 1) }

func (c *AtomicCounter) Hits() int64 { return atomic.LoadInt64(&c.hits) }

// Fixed: atomic writes under a lock; a plain read under the same lock.
type Gauge struct {
	mu  sync.Mutex
	val int64
}

func (g *Gauge) Set(v int64) {
	g.mu.Lock()
	atomic.StoreInt64(&g.val, v)
	g.mu.Unlock()
}

func (g *Gauge) Fast() int64 { return atomic.LoadInt64(&g.val) }

func (g *Gauge) Slow() int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.val
}

// A global accessed both ways.
var requests int32

func Request() { atomic.AddInt32(&requests, 1) }

func Requests() int32 { return requests } // want `Requests reads requests plainly, but Request accesses it with atomic Add`

// Fixed: a constructor filling in a new object.
func NewCounter() *Counter {
	c := &Counter{}
	c.hits = 1
	return c
}

// Fixed: a local variable built and returned by address is as new as a
// literal: nothing else reaches it before the return.
func NewCounterVar() *Counter {
	var c Counter
	c.hits = 1
	return &c
}

func NewCounterValue(n int64) *Counter {
	c := Counter{}
	c.hits = n
	return &c
}

var kept *Counter

func keep(c *Counter) { kept = c }

// A variable whose address the function gives away before the write is
// no longer its own.
func KeptCounter() *Counter {
	var c Counter
	keep(&c)
	c.hits = 1 // want `KeptCounter writes c.hits plainly, but Hit accesses it with atomic Add`
	return &c
}

var registry struct {
	sync.Mutex
	m map[int]*Counter
}

// Fixed: registered under a lock once built.
func NewRegistered(id int) *Counter {
	var c Counter
	c.hits = 1
	registry.Lock()
	registry.m[id] = &c
	registry.Unlock()
	return &c
}

// Registered first, then written: others may already hold it.
func RegisteredFirst(id int) *Counter {
	var c Counter
	registry.Lock()
	registry.m[id] = &c
	registry.Unlock()
	c.hits = 1 // want `RegisteredFirst writes c.hits plainly, but Hit accesses it with atomic Add`
	return &c
}
