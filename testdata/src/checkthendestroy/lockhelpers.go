package checkthendestroy

/*
#include <stdlib.h>
typedef struct { int live; } sess;
static void sess_close(sess* s) { free(s); }
*/
import "C"

import "sync"

// Session's Close takes its mutex through lock() and unlock() helpers,
// through a helper that returns the Unlock, or runs under with(f): the
// check and the release are under the lock, silent. TouchClose's helper
// unlocks before it returns: reported.
type Session struct {
	mu sync.Mutex
	s  *C.sess
}

func (s *Session) lock()          { s.mu.Lock() }
func (s *Session) unlock()        { s.mu.Unlock() }
func (s *Session) locked() func() { s.mu.Lock(); return s.mu.Unlock }
func (s *Session) touch()         { s.mu.Lock(); s.mu.Unlock() }

func (s *Session) with(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f()
}

func (s *Session) Close() {
	s.lock()
	defer s.unlock()
	if s.s != nil {
		C.sess_close(s.s)
		s.s = nil
	}
}

func (s *Session) Shutdown() {
	defer s.locked()()
	if s.s != nil {
		C.sess_close(s.s)
		s.s = nil
	}
}

func (s *Session) Finish() {
	s.with(func() {
		if s.s != nil {
			C.sess_close(s.s)
			s.s = nil
		}
	})
}

func (s *Session) TouchClose() {
	s.touch()
	if s.s != nil { // want `TouchClose checks s.s and then releases it \(line 61\) without a guard`
		C.sess_close(s.s)
		s.s = nil
	}
}

func closeSessions(s *Session) {
	for i := 0; i < 2; i++ {
		go func() { s.Close(); s.Shutdown(); s.Finish(); s.TouchClose() }()
	}
}
