// Package stickyerr: methods that test a sticky error field before calling
// C keep no closed-handle convention (Close does not touch the error), so
// the one method without that test is not singled out about the handle.
// Methods that test a closed flag Close sets do keep one.
package stickyerr

/*
#include <stdlib.h>
typedef struct { int n; } eng_t;
static void eng_destroy(eng_t* e) { free(e); }
static int eng_a(eng_t* e) { return 0; }
static int eng_b(eng_t* e) { return 0; }
static int eng_c(eng_t* e) { return 0; }
static int eng_d(eng_t* e) { return 0; }
static int eng_e(eng_t* e) { return 0; }
*/
import "C"

import "errors"

type Engine struct {
	h   *C.eng_t
	err error // the first error of a chain of calls
}

func (g *Engine) Close() {
	if g.h != nil {
		C.eng_destroy(g.h)
		g.h = nil
	}
}

func (g *Engine) A() {
	if g.err != nil {
		return
	}
	g.err = code(C.eng_a(g.h))
}

func (g *Engine) B() {
	if g.err != nil {
		return
	}
	g.err = code(C.eng_b(g.h))
}

func (g *Engine) C() {
	if g.err != nil {
		return
	}
	g.err = code(C.eng_c(g.h))
}

func (g *Engine) D() {
	if g.err != nil {
		return
	}
	g.err = code(C.eng_d(g.h))
}

// E lacks the sticky-error test: not a handle finding.
func (g *Engine) E() { g.err = code(C.eng_e(g.h)) }

func code(c C.int) error {
	if c != 0 {
		return errors.New("engine error")
	}
	return nil
}

// Pipe's methods test the closed flag Close sets: the one that does not is
// a finding.
type Pipe struct {
	h      *C.eng_t
	closed bool
}

func (p *Pipe) Close() {
	if p.h != nil {
		C.eng_destroy(p.h)
		p.h = nil
		p.closed = true
	}
}

func (p *Pipe) A() error {
	if p.closed {
		return errors.New("closed")
	}
	return code(C.eng_a(p.h))
}

func (p *Pipe) B() error {
	if p.closed {
		return errors.New("closed")
	}
	return code(C.eng_b(p.h))
}

func (p *Pipe) C() error {
	if p.closed {
		return errors.New("closed")
	}
	return code(C.eng_c(p.h))
}

func (p *Pipe) D() error {
	if p.closed {
		return errors.New("closed")
	}
	return code(C.eng_d(p.h))
}

func (p *Pipe) E() error {
	return code(C.eng_e(p.h)) // want `E passes p.h to C.eng_e without checking it, but Close checks it, releases it and sets it to nil, and 4 of the 5 methods of Pipe`
}
