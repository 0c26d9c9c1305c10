package xlock

/*
#include <stdlib.h>
typedef struct { int live; } sess;
static void sess_close(sess* s) { free(s); }
*/
import "C"

import (
	"sync"

	"checkthendestroy/lockutil"
)

// Session takes its mutex through the helpers of another package: what
// they do to the caller's locks comes from their facts. The check and the
// release under the helper's lock are silent; after Touch, which takes
// and drops it, reported.
type Session struct {
	mu sync.Mutex
	s  *C.sess
}

func (s *Session) Close() {
	lockutil.Lock(&s.mu)
	defer lockutil.Unlock(&s.mu)
	if s.s != nil {
		C.sess_close(s.s)
		s.s = nil
	}
}

func (s *Session) Finish() {
	lockutil.With(&s.mu, func() {
		if s.s != nil {
			C.sess_close(s.s)
			s.s = nil
		}
	})
}

func (s *Session) TryClose() bool {
	if !lockutil.TryLock(&s.mu) {
		return false
	}
	defer s.mu.Unlock()
	if s.s != nil {
		C.sess_close(s.s)
		s.s = nil
	}
	return true
}

func (s *Session) TouchClose() {
	lockutil.Touch(&s.mu)
	if s.s != nil { // want `TouchClose checks s.s and then releases it \(line 58\) without a guard`
		C.sess_close(s.s)
		s.s = nil
	}
}

// A try-lock helper of the package itself holds the lock on its true
// branch only: the release after it returned false is unguarded.
func (s *Session) tryLock() bool { return s.mu.TryLock() }

func (s *Session) TryLockClose() bool {
	if !s.tryLock() {
		return false
	}
	defer s.mu.Unlock()
	if s.s != nil {
		C.sess_close(s.s)
		s.s = nil
	}
	return true
}

func (s *Session) TryLockThenClose() {
	if s.tryLock() {
		s.mu.Unlock()
	}
	if s.s != nil { // want `TryLockThenClose checks s.s and then releases it \(line 84\) without a guard`
		C.sess_close(s.s)
		s.s = nil
	}
}

func closeSessions(s *Session) {
	for i := 0; i < 2; i++ {
		go func() {
			s.Close()
			s.Finish()
			s.TryClose()
			s.TouchClose()
			s.TryLockClose()
			s.TryLockThenClose()
		}()
	}
}

// Pool's lock is a type of another package with sync.Locker's methods:
// held through its Lock and Unlock as a sync.Mutex is.
type Pool struct {
	mu lockutil.Mutex
	s  *C.sess
}

func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.s != nil {
		C.sess_close(p.s)
		p.s = nil
	}
}

func (p *Pool) Drop() {
	if p.s != nil { // want `Drop checks p.s and then releases it \(line 120\) without a guard`
		C.sess_close(p.s)
		p.s = nil
	}
}

func closePools(p *Pool) {
	for i := 0; i < 2; i++ {
		go func() { p.Close(); p.Drop() }()
	}
}

// Gate's "lock" takes an argument: it is no lock, and guards nothing.
type Gate struct {
	mu sync.Mutex
	l  lockutil.NotALock
	s  *C.sess
}

func (g *Gate) Close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.s != nil {
		C.sess_close(g.s)
		g.s = nil
	}
}

func (g *Gate) Shut() {
	g.l.Lock(1)
	defer g.l.Unlock()
	if g.s != nil { // want `Shut checks g.s and then releases it \(line 151\) without a guard`
		C.sess_close(g.s)
		g.s = nil
	}
}

func closeGates(g *Gate) {
	for i := 0; i < 2; i++ {
		go func() { g.Close(); g.Shut() }()
	}
}
