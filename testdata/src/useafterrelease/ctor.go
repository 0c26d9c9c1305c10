package useafterrelease

/*
#include <stdlib.h>
typedef struct { int n; } sess;
static int sess_create(sess** out, int fail) { if (fail) return 1; *out = calloc(1, sizeof(sess)); return 0; }
static void sess_destroy(sess* s) { s->n = 0; free(s); }
static int sess_prepare(int fail) { return fail; }
*/
import "C"

import "errors"

type Session struct {
	s    *C.sess
	name string
}

// Destroy releases s.s without looking at it.
func (s *Session) Destroy() { C.sess_destroy(s.s) }

// NewSession returns the half-built session with the error: a caller that
// writes defer s.Destroy() before the error check destroys NULL.
func NewSession(name string, fail int) (*Session, error) {
	s := &Session{name: name}
	if C.sess_prepare(C.int(fail)) != 0 {
		return s, errors.New("prepare failed") // want `NewSession returns a non-nil \*Session together with an error, but its s field is never set on this path: a caller that releases what it got back \(a defer before the error check\) makes \(\*Session\).Destroy pass an unset handle to C.sess_destroy; return nil with the error, or make Destroy check s`
	}
	if C.sess_create(&s.s, C.int(fail)) != 0 {
		return s, errors.New("create failed") // the handle was passed to C: it may be set
	}
	return s, nil
}

// Corrected: nil with the error.
func NewSessionOK(name string, fail int) (*Session, error) {
	s := &Session{name: name}
	if C.sess_prepare(C.int(fail)) != 0 {
		return nil, errors.New("prepare failed")
	}
	if C.sess_create(&s.s, C.int(fail)) != 0 {
		return nil, errors.New("create failed")
	}
	return s, nil
}

type Checked struct{ s *C.sess }

// Destroy checks the handle: an unset one is harmless.
func (c *Checked) Destroy() {
	if c.s != nil {
		C.sess_destroy(c.s)
		c.s = nil
	}
}

func NewChecked(fail int) (*Checked, error) {
	c := &Checked{}
	if C.sess_prepare(C.int(fail)) != 0 {
		return c, errors.New("prepare failed")
	}
	C.sess_create(&c.s, 0)
	return c, nil
}

// A helper that may set the handle: not followed, so silent.
func fill(s *Session) { C.sess_create(&s.s, 0) }

func NewFilled(fail int) (*Session, error) {
	s := &Session{}
	fill(s)
	if C.sess_prepare(C.int(fail)) != 0 {
		return s, errors.New("prepare failed")
	}
	return s, nil
}
