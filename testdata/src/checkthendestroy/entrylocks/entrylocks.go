// Package entrylocks: a lock that every caller of a function holds at the
// call guards the function's body, when the package's calls are all its
// calls (an unexported function whose address does not escape).
package entrylocks

/*
#include <stdlib.h>
typedef struct { int live; } dev;
static void dev_release(dev* d) { free(d); }
static int dev_query(dev* d) { return 0; }
*/
import "C"

import "sync"

// (a) An unexported close helper whose only callers hold the lock: silent.
type Device struct {
	mu sync.Mutex
	d  *C.dev
	n  int
}

func (v *Device) release() {
	if v.d != nil {
		C.dev_release(v.d)
		v.d = nil
	}
}

func (v *Device) Close() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.release()
}

func (v *Device) Reset() {
	v.mu.Lock()
	v.release()
	v.n = 0
	v.mu.Unlock()
}

func (v *Device) Query() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return int(C.dev_query(v.d))
}

// (b) The same helper with one caller that does not hold the lock:
// reported.
type Board struct {
	mu sync.Mutex
	d  *C.dev
}

func (b *Board) release() {
	if b.d != nil { // want `release checks b.d and then releases it \(line \d+\) without a guard`
		C.dev_release(b.d)
		b.d = nil
	}
}

func (b *Board) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.release()
}

func (b *Board) Abort() { b.release() }

func (b *Board) Query() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return int(C.dev_query(b.d))
}

// (c) A lock on a field of the caller's object, two helpers deep: the
// context's lock guards the handle of the stream it owns.
type stream struct{ d *C.dev }

func (s *stream) destroy() {
	if s.d != nil {
		C.dev_release(s.d)
		s.d = nil
	}
}

func (s *stream) teardown() { s.destroy() }

type Context struct {
	mu sync.Mutex
	s  *stream
}

func (c *Context) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.shutdown()
}

func (c *Context) shutdown() { c.s.teardown() }

func (c *Context) Sync() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return int(C.dev_query(c.s.d))
}

// (c') The same chain with a caller two levels up that drops the lock
// first: reported.
type lane struct{ d *C.dev }

func (l *lane) destroy() {
	if l.d != nil { // want `destroy checks l.d and then releases it \(line \d+\) without a guard`
		C.dev_release(l.d)
		l.d = nil
	}
}

func (l *lane) teardown() { l.destroy() }

type Queue struct {
	mu sync.Mutex
	l  *lane
}

func (q *Queue) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.shutdown()
}

func (q *Queue) shutdown() { q.l.teardown() }

func (q *Queue) Drain() {
	q.mu.Lock()
	q.mu.Unlock()
	q.shutdown()
	go q.Close()
}

func (q *Queue) Sync() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return int(C.dev_query(q.l.d))
}

// (e) Exported, so code outside the package may call it without the lock:
// that the package's own call holds it says nothing about those calls.
type Port struct {
	mu sync.Mutex
	d  *C.dev
}

func (p *Port) Release() {
	if p.d != nil { // want `Release checks p.d and then releases it \(line \d+\) without a guard`
		C.dev_release(p.d)
		p.d = nil
	}
}

func (p *Port) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.Release()
}

func (p *Port) Query() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return int(C.dev_query(p.d))
}

// (f) Deferred closures inherit the locks held when they run: one deferred
// after the deferred unlock runs before it, with the lock held (silent);
// one deferred before an explicit unlock runs after it (reported).
type Reader struct {
	mu sync.Mutex
	d  *C.dev
	e  *C.dev
}

func (r *Reader) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer func() {
		if r.d != nil {
			C.dev_release(r.d)
			r.d = nil
		}
	}()
}

func (r *Reader) Stop() {
	r.mu.Lock()
	defer func() {
		if r.e != nil { // want `the function literal in Stop checks r.e and then releases it \(line \d+\) without a guard`
			C.dev_release(r.e)
			r.e = nil
		}
	}()
	r.mu.Unlock()
}

func (r *Reader) Query() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return int(C.dev_query(r.d)) + int(C.dev_query(r.e))
}

// Callers the package does not call directly: the helper's address
// escapes, or it runs where no lock is held.

// (g) Also run by a go statement: the new goroutine holds no lock.
type Fence struct {
	mu sync.Mutex
	d  *C.dev
}

func (f *Fence) release() {
	if f.d != nil { // want `release checks f.d and then releases it \(line \d+\) without a guard`
		C.dev_release(f.d)
		f.d = nil
	}
}

func (f *Fence) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.release()
}

func (f *Fence) CloseLater() { go f.release() }

func (f *Fence) Query() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return int(C.dev_query(f.d))
}

// (h) Also stored as a method value, called later by anyone.
type Timer struct {
	mu      sync.Mutex
	d       *C.dev
	onClose []func()
}

func (t *Timer) release() {
	if t.d != nil { // want `release checks t.d and then releases it \(line \d+\) without a guard`
		C.dev_release(t.d)
		t.d = nil
	}
}

func (t *Timer) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.release()
}

func (t *Timer) Watch() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.onClose = append(t.onClose, t.release)
}

func (t *Timer) Query() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return int(C.dev_query(t.d))
}

// (h') A method value called where it is made holds the caller's locks.
type Clock struct {
	mu sync.Mutex
	d  *C.dev
}

func (c *Clock) release() {
	if c.d != nil {
		C.dev_release(c.d)
		c.d = nil
	}
}

func (c *Clock) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	done := c.release
	done()
}

func (c *Clock) Query() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return int(C.dev_query(c.d))
}

// (i) Also called through an interface, from a caller without the lock.
type disposer interface{ dispose() }

type Probe struct {
	mu sync.Mutex
	d  *C.dev
}

func (p *Probe) dispose() {
	if p.d != nil { // want `dispose checks p.d and then releases it \(line \d+\) without a guard`
		C.dev_release(p.d)
		p.d = nil
	}
}

func (p *Probe) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dispose()
}

func disposeAll(rs []disposer) {
	for _, r := range rs {
		r.dispose()
	}
}

func (p *Probe) Abandon() { disposeAll([]disposer{p}) }

func (p *Probe) Query() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return int(C.dev_query(p.d))
}

// (j) A deferred call of the helper, deferred before an explicit unlock:
// it runs after the unlock.
type Sensor struct {
	mu sync.Mutex
	d  *C.dev
}

func (s *Sensor) release() {
	if s.d != nil { // want `release checks s.d and then releases it \(line \d+\) without a guard`
		C.dev_release(s.d)
		s.d = nil
	}
}

func (s *Sensor) Close() {
	s.mu.Lock()
	defer s.release()
	s.mu.Unlock()
}

func (s *Sensor) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.release()
}

func (s *Sensor) Query() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int(C.dev_query(s.d))
}

// (j') Deferred after the deferred unlock, it runs first, with the lock.
type Meter struct {
	mu sync.Mutex
	d  *C.dev
}

func (m *Meter) release() {
	if m.d != nil {
		C.dev_release(m.d)
		m.d = nil
	}
}

func (m *Meter) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	defer m.release()
}

func (m *Meter) Query() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return int(C.dev_query(m.d))
}

// Declared entry locks: functions reached through hooks the analysis
// cannot follow say in their doc comment that their callers hold the
// lock, in a documented form (silent); a sentence that only mentions
// holding something states no contract (reported).
type Dock struct {
	mu    sync.Mutex
	d     *C.dev
	hooks []func()
}

func (k *Dock) Register() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.hooks = append(k.hooks, k.drop1, k.drop2, k.drop3, k.drop4, k.drop5, k.prose1, k.prose2, k.prose3, k.prose4)
}

func (k *Dock) Query() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return int(C.dev_query(k.d))
}

// drop1 frees the device. k.mu must be held.
func (k *Dock) drop1() {
	if k.d != nil {
		C.dev_release(k.d)
		k.d = nil
	}
}

// drop2 must be called with mu held.
func (k *Dock) drop2() {
	if k.d != nil {
		C.dev_release(k.d)
		k.d = nil
	}
}

// drop3 frees the device; the caller must hold the lock.
func (k *Dock) drop3() {
	if k.d != nil {
		C.dev_release(k.d)
		k.d = nil
	}
}

// drop4 frees the device. It is called while holding k.mu.
func (k *Dock) drop4() {
	if k.d != nil {
		C.dev_release(k.d)
		k.d = nil
	}
}

// drop5 frees the device. Callers hold
// k.mu.
func (k *Dock) drop5() {
	if k.d != nil {
		C.dev_release(k.d)
		k.d = nil
	}
}

// prose1 frees the device while holding nothing else, so that callers
// need not wait.
func (k *Dock) prose1() {
	if k.d != nil { // want `prose1 checks k.d and then releases it \(line \d+\) without a guard`
		C.dev_release(k.d)
		k.d = nil
	}
}

// prose2 frees the device. The caller must hold a reference to the dock
// until it returns.
func (k *Dock) prose2() {
	if k.d != nil { // want `prose2 checks k.d and then releases it \(line \d+\) without a guard`
		C.dev_release(k.d)
		k.d = nil
	}
}

// prose3 frees the device if it is held; the handle is held until Close.
func (k *Dock) prose3() {
	if k.d != nil { // want `prose3 checks k.d and then releases it \(line \d+\) without a guard`
		C.dev_release(k.d)
		k.d = nil
	}
}

// prose4 frees the device with k.d locked in place by the driver; the
// mutex must be released by Close.
func (k *Dock) prose4() {
	if k.d != nil { // want `prose4 checks k.d and then releases it \(line \d+\) without a guard`
		C.dev_release(k.d)
		k.d = nil
	}
}

// A generic type's helper, called under the lock from its methods:
// silent; and its twin also started on a goroutine: reported.
type Box[T any] struct {
	mu  sync.Mutex
	d   *C.dev
	e   *C.dev
	val T
}

func (b *Box[T]) release() {
	if b.d != nil {
		C.dev_release(b.d)
		b.d = nil
	}
}

func (b *Box[T]) releaseE() {
	if b.e != nil { // want `releaseE checks b.e and then releases it \(line \d+\) without a guard`
		C.dev_release(b.e)
		b.e = nil
	}
}

func (b *Box[T]) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.release()
	b.releaseE()
}

func (b *Box[T]) CloseLater() { go b.releaseE() }

func (b *Box[T]) Query() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return int(C.dev_query(b.d)) + int(C.dev_query(b.e))
}

// A function literal called where it is made, under the lock: silent.
type Slot struct {
	mu sync.Mutex
	d  *C.dev
}

func (s *Slot) Close() {
	s.mu.Lock()
	func() {
		if s.d != nil {
			C.dev_release(s.d)
			s.d = nil
		}
	}()
	s.mu.Unlock()
}

func (s *Slot) Query() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int(C.dev_query(s.d))
}
