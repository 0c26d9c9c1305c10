// Package ptrcopy holds the doublerelease cases of a release through a
// copy of a pointer to the owning object: the copy shares the object, so
// the callee's clear of the handle field is the original's clear too. Only
// a copy of the struct value hides the clear from the original.
package ptrcopy

/*
#include <stdlib.h>
typedef struct sess { int n; } sess;
typedef struct eng { int n; } eng;
static sess *sess_open(void) { return malloc(sizeof(sess)); }
static void sess_close(sess *s) { free(s); }
static eng *eng_new(void) { return malloc(sizeof(eng)); }
static void eng_destroy(eng *e) { free(e); }
*/
import "C"

// Session takes its handle out of the field, clears it, then releases it.
type Session struct{ h *C.sess }

func (s *Session) Close() {
	h := s.h
	if h == nil {
		return
	}
	s.h = nil
	C.sess_close(h)
}

// Client holds a pointer to a Session it may own.
type Client struct {
	sess  *Session
	owned bool
}

// shutdown is a plain function: it copies the pointer, clears the field,
// and closes through the copy, which is the same Session.
func shutdown(c *Client) {
	s := c.sess
	c.sess = nil
	if s != nil && c.owned {
		s.Close()
	}
}

// Retry closes on the error path and again at the end: no double release.
func (c *Client) Retry(n int) {
	if n < 0 {
		shutdown(c)
	}
	shutdown(c)
}

// Pool reaches the Session two pointers down.
type Pool struct{ cl *Client }

func (p *Pool) Drain() {
	cl := p.cl
	s := cl.sess
	cl.sess = nil
	s.Close()
}

// Stop drains in a deferred closure and on an early return.
func (p *Pool) Stop(early bool) {
	defer func() { p.Drain() }()
	if early {
		p.Drain()
		return
	}
}

// Engine releases with another library's names; its holder copies the
// pointer without clearing the field first.
type Engine struct{ e *C.eng }

func (g *Engine) Destroy() {
	if g.e != nil {
		C.eng_destroy(g.e)
		g.e = nil
	}
}

type Runtime struct{ eng *Engine }

func (r *Runtime) release() {
	g := r.eng
	g.Destroy()
}

func (r *Runtime) Reload(fail bool) {
	if fail {
		r.release()
	}
	r.release()
}

// A copy of the struct value: Destroy clears the copy's field, and the
// Engine in the holder keeps the released handle.
type Host struct{ eng Engine }

func (h *Host) release() {
	g := h.eng
	g.Destroy() // want `\(\*Engine\).Destroy releases g.e through a copy and clears only the copy: h.eng.e still holds the released handle`
}

func (h *Host) Reload(fail bool) {
	if fail {
		h.release()
	}
	h.release()
}

// The corrected value holder releases through the original.
type FixedHost struct{ eng Engine }

func (h *FixedHost) release() { h.eng.Destroy() }

func (h *FixedHost) Reload(fail bool) {
	if fail {
		h.release()
	}
	h.release()
}
