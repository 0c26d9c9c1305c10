// Package shortprefix: a library prefix of two letters is still the
// object part of a prefix-and-verb destructor whose one argument's type
// starts with that prefix as a word (gp_release(gp_ctx *)); with more
// arguments (gp_close(gp_ctx *, int)) it acts on what they name.
package shortprefix

/*
#include <stdlib.h>
typedef struct { int n; } gp_ctx;
static gp_ctx* gp_new(void) { return calloc(1, sizeof(gp_ctx)); }
static void gp_release(gp_ctx* c) { free(c); }
static void gp_close(gp_ctx* c, int fd) {}

typedef struct hx_state_s { int n; } hx_state;
static hx_state* hx_open(void) { return calloc(1, sizeof(hx_state)); }
static void hx_free(hx_state* s) { free(s); }
*/
import "C"

func twice() {
	c := C.gp_new()
	C.gp_release(c)
	C.gp_release(c) // want `c is released twice: by C.gp_release at line 22 and again here`
}

func closeFds() {
	c := C.gp_new()
	C.gp_close(c, 1)
	C.gp_close(c, 2) // gp_close acts on the descriptor: no release of c
	C.gp_release(c)
}

type state struct{ s *C.hx_state }

func (st *state) reset() {
	C.hx_free(st.s)
	C.hx_free(st.s) // want `st.s is released twice: by C.hx_free at line 36 and again here`
}

func (st *state) resetOK() {
	C.hx_free(st.s)
	st.s = C.hx_open()
	C.hx_free(st.s)
}
