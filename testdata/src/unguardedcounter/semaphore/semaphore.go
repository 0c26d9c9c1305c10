// Package semaphore holds counters updated while a one-slot channel is
// held: a send on a channel of capacity 1 waits until the previous sender
// has received, so the channel is a lock. A channel of more slots, or of a
// capacity the package does not make, excludes nothing.
package semaphore

/*
#include <stdlib.h>
typedef struct { int n; } dev;
static dev* dev_open(void) { return calloc(1, sizeof(dev)); }
static void dev_close(dev* d) { free(d); }
*/
import "C"

// Device is safe for concurrent use.
type Device struct {
	sem   chan struct{}
	calls int
	refs  int
	d     *C.dev
}

func Open() *Device { return &Device{sem: make(chan struct{}, 1), refs: 1, d: C.dev_open()} }

func (x *Device) Call() {
	x.sem <- struct{}{}
	x.calls++
	<-x.sem
}

func (x *Device) Retain() {
	x.sem <- struct{}{}
	defer func() { <-x.sem }()
	x.refs++
}

func (x *Device) Release() {
	x.sem <- struct{}{}
	defer func() { <-x.sem }()
	x.refs--
	if x.refs == 0 {
		C.dev_close(x.d)
		x.d = nil
	}
}

// Reset updates the count after giving the slot back.
func (x *Device) Reset() {
	x.sem <- struct{}{}
	<-x.sem
	x.calls++ // want `Reset increments x.calls without atomics or a lock`
}

// Pool's channel has two slots: two holders at once.
type Pool struct {
	slots chan struct{}
	busy  int
}

func NewPool() *Pool { return &Pool{slots: make(chan struct{}, 2)} }

func (p *Pool) Use() {
	p.slots <- struct{}{}
	p.busy++ // want `Use increments p.busy without atomics or a lock`
	<-p.slots
}

func (p *Pool) Spawn() {
	for range 4 {
		go p.Use()
	}
}

// Gate's channel comes from the caller: its capacity is not known.
type Gate struct {
	ch chan struct{}
	n  int
}

func NewGate(ch chan struct{}) *Gate { return &Gate{ch: ch} }

func (g *Gate) Pass() {
	g.ch <- struct{}{}
	g.n++ // want `Pass increments g.n without atomics or a lock`
	<-g.ch
}

func (g *Gate) Spawn() {
	for range 4 {
		go g.Pass()
	}
}

// Serial takes its slot through helpers.
type Serial struct {
	sem chan struct{}
	n   int
}

func NewSerial() *Serial { return &Serial{sem: make(chan struct{}, 1)} }

func (s *Serial) lock()   { s.sem <- struct{}{} }
func (s *Serial) unlock() { <-s.sem }

func (s *Serial) Bump() {
	s.lock()
	defer s.unlock()
	s.n++
}

func (s *Serial) Spawn() {
	for range 4 {
		go s.Bump()
	}
}
