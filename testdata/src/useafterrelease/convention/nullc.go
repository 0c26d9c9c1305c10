package convention

/*
#include <stddef.h>
typedef struct { int n; } gp_ctx;
static void gp_release(gp_ctx* c) {}
static int gp_op_a(gp_ctx* c) { return 0; }
static int gp_op_b(gp_ctx* c) { return 0; }
static int gp_op_c(gp_ctx* c) { return 0; }
static int gp_op_d(gp_ctx* c) { return 0; }
// the package's own C rejects NULL cleanly
static int gp_set_mode(gp_ctx* c, int m) { if (!c) return -1; c->n = m; return 0; }
static int gp_get_mode(gp_ctx* c) { if (c == NULL) return -1; return c->n; }
static int gp_get_flags(gp_ctx* c) { return c->n; }
*/
import "C"

// Gp checks its handle in four methods; the exceptions that call C
// functions which test for NULL themselves are fine.
type Gp struct{ c *C.gp_ctx }

func (g *Gp) Release() {
	if g.c != nil {
		C.gp_release(g.c)
		g.c = nil
	}
}

func (g *Gp) A() error {
	if g.c == nil {
		return ErrClosed
	}
	C.gp_op_a(g.c)
	return nil
}

func (g *Gp) B() error {
	if g.c == nil {
		return ErrClosed
	}
	C.gp_op_b(g.c)
	return nil
}

func (g *Gp) C() error {
	if g.c == nil {
		return ErrClosed
	}
	C.gp_op_c(g.c)
	return nil
}

func (g *Gp) D() error {
	if g.c == nil {
		return ErrClosed
	}
	C.gp_op_d(g.c)
	return nil
}

func (g *Gp) SetMode(m int) int { return int(C.gp_set_mode(g.c, C.int(m))) }

func (g *Gp) Mode() int { return int(C.gp_get_mode(g.c)) }

func (g *Gp) Flags() int {
	return int(C.gp_get_flags(g.c)) // want `Flags passes g.c to C.gp_get_flags without checking it, but Release checks it, releases it and sets it to nil, and 6 of the 7 methods of Gp`
}
