// Package voidhandle holds doublerelease cases of handles whose C type
// names nothing the destructor-name rule could read: void *, a typedef of
// void *, an integer handle. The package's own C defines the functions
// that release them, and their bodies pass the parameter to a known
// release on every path (or every path where it is not NULL): that makes
// them releases, whatever the parameter's type and the function's name.
package voidhandle

/*
#include <stdlib.h>
#include <stdint.h>

typedef void *vh;
typedef uintptr_t ih;

// a pool's release, declared by a directive
void pool_give_back(int pool, void *p);
//lifetime:release pool_give_back arg=1

static vh vh_new(void) { return calloc(1, 8); }
static void vh_finish(vh o) { free(o); }

static ih ih_new(void) { return (ih)calloc(1, 8); }
static int ih_drop(ih h) {
	if (h == 0)
		return -1;
	free((void *)h);
	return 0;
}

static void *raw_new(void) { return calloc(1, 8); }
// through another function of the package's C
static void raw_release(void *p) { if (p) free(p); }
static void raw_done(void *p) { raw_release(p); }
static void pooled_done(void *p) { pool_give_back(3, p); }

// not releases: on some paths only, or of something else
static void vh_maybe(vh o, int keep) { if (!keep) free(o); }
static void vh_reset(vh o) { free(*(void **)o); }
static void vh_next(vh o) { o = *(vh *)o; free(o); }
static void on_event(void *user_data) { (void)user_data; }

// named a prefix and a verb, one untyped parameter: a library's free of
// untyped memory reads so (curl_free); a body of the package's own decides
static int n_closed;
static void on_close(void *user_data) { n_closed++; }
void lib_notify(void *p);
static void on_release(void *user_data) { lib_notify(user_data); }
void lib_free(void *p);
static void my_free(void *p) { lib_free(p); }

// the body frees the scratch buffer; the name tells that the context goes
// too, through a library function no model describes
typedef struct lctx lctx;
void lib_ctx_free(lctx *c);
static void ctx_free(lctx *c, void *scratch) { free(scratch); lib_ctx_free(c); }
*/
import "C"

import "unsafe"

func TypedefTwice() {
	h := C.vh_new()
	C.vh_finish(h)
	C.vh_finish(h) // want `h is released twice: by C.vh_finish at line 64 and again here`
}

func TypedefOnce() {
	h := C.vh_new()
	C.vh_finish(h)
}

// an integer handle, kept in a Go integer between the calls
func IntegerTwice() {
	id := uintptr(C.ih_new())
	C.ih_drop(C.ih(id))
	C.ih_drop(C.ih(id)) // want `id is released twice: by C.ih_drop at line 76 and again here`
}

func IntegerOnce() {
	id := uintptr(C.ih_new())
	C.ih_drop(C.ih(id))
}

func RawTwice() {
	p := C.raw_new()
	C.raw_done(p)
	C.free(p) // want `p is released twice: by C.raw_done at line 87 and again here`
}

func RawOnce() {
	p := C.raw_new()
	C.raw_done(p)
}

func PooledTwice() {
	p := C.raw_new()
	C.pooled_done(p)
	C.pooled_done(p) // want `p is released twice: by C.pooled_done at line 98 and again here`
}

// GiveBack returns p to the pool directly.
func GiveBack(p unsafe.Pointer) { C.pool_give_back(3, p) }

// Known negatives: what the bodies do not release on every path, and a
// callback's user data, are not releases.
func Maybe() {
	h := C.vh_new()
	C.vh_maybe(h, 1)
	C.vh_maybe(h, 0)
}

func Reset() {
	h := C.vh_new()
	C.vh_reset(h)
	C.vh_reset(h)
	C.vh_next(h)
	C.vh_next(h)
	C.vh_finish(h)
}

func Event() {
	p := C.raw_new()
	C.on_event(p)
	C.on_event(p)
	C.free(p)
}

// an event callback's user data, passed and used: no release
func Callbacks() {
	p := C.raw_new()
	C.on_close(p)
	C.on_close(p)
	C.on_release(p)
	C.on_release(p)
	C.free(p)
}

// a wrapper of a library's free of untyped memory is one itself
func WrappedTwice() {
	p := C.raw_new()
	C.my_free(p)
	C.my_free(p) // want `p is released twice: by C.my_free at line 142 and again here`
}

// both readings hold: the body's (the scratch buffer) and the name's (the
// context)
func ContextTwice(c *C.lctx) {
	C.ctx_free(c, C.raw_new())
	C.ctx_free(c, C.raw_new()) // want `c is released twice: by C.ctx_free at line 149 and again here`
}
