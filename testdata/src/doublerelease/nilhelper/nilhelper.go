// Package nilhelper holds the doublerelease cases of nil-safe release
// helpers: a helper whose only test is its parameter against nil keeps a
// cleared handle out, but the caller's handle is cleared only by the
// caller, so the helper and a direct release of the same handle free it
// twice.
package nilhelper

/*
#include <stdlib.h>
typedef struct { int live; } md_ctx;
static md_ctx* md_ctx_new(void) { return malloc(sizeof(md_ctx)); }
static void md_ctx_free(md_ctx* c) { free(c); }
static int md_init(md_ctx* c) { return c->live; }
*/
import "C"

import "errors"

func freeCtx(c *C.md_ctx) {
	if c != nil {
		C.md_ctx_free(c)
	}
}

// The error path frees the context, and the deferred helper frees it again.
func Sum() error {
	ctx := C.md_ctx_new()
	if ctx == nil {
		return errors.New("out of memory")
	}
	defer freeCtx(ctx)
	if C.md_init(ctx) != 1 {
		C.md_ctx_free(ctx) // want `ctx is released here and again by the deferred freeCtx at line 31 when Sum returns`
		return errors.New("init failed")
	}
	return nil
}

// The corrected version: the helper alone releases it.
func SumFixed() error {
	ctx := C.md_ctx_new()
	if ctx == nil {
		return errors.New("out of memory")
	}
	defer freeCtx(ctx)
	if C.md_init(ctx) != 1 {
		return errors.New("init failed")
	}
	return nil
}

// Through a method of a holder, called twice with the same handle.
type pool struct{ n int }

func (p *pool) put(c *C.md_ctx) {
	if c == nil {
		return
	}
	p.n++
	C.md_ctx_free(c)
}

func Twice(p *pool) {
	ctx := C.md_ctx_new()
	p.put(ctx)
	p.put(ctx) // want `ctx is released twice`
}

// The caller clears its variable between the calls: the helper's test
// keeps the cleared handle out.
func Cleared() {
	ctx := C.md_ctx_new()
	freeCtx(ctx)
	ctx = nil
	freeCtx(ctx)
}

// A helper guarded by the owner's state, not by its parameter alone, is
// idempotent for the callers.
type box struct {
	closed bool
	c      *C.md_ctx
}

func (b *box) close() {
	if b.closed {
		return
	}
	b.closed = true
	C.md_ctx_free(b.c)
}

func CloseTwice(b *box) {
	b.close()
	b.close()
}
