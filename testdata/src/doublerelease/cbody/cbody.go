// Package cbody holds releases read in the bodies of the package's own C
// functions, and bodies that only look like releases: what may leave the
// function before the free (a macro with a return, longjmp) ends the
// reading; a function-pointer parameter named free is the caller's.
package cbody

/*
#include <stdlib.h>
#include <setjmp.h>
#include <stdio.h>

typedef void *vh;
static vh vh_new(void) { return calloc(1, 8); }

// do { S } while (0) runs S once
static void vh_finish(vh o) { do { free(o); } while (0); }

// a break of the do after the free: the free runs on every path; one
// before it: not
static void vh_report(vh o, int verbose) {
	do {
		free(o);
		if (!verbose)
			break;
		fputs("closed\n", stderr);
	} while (0);
}
static void vh_maybe(vh o, int busy) {
	do {
		if (busy)
			break;
		free(o);
	} while (0);
}

// a reference count: the free runs for the last reference only (a name
// that says nothing, so only the body could tell)
#define DROP_OR_RETURN(p) do { if (--*(int *)(p) > 0) return; } while (0)
static void vh_tick(vh o) { DROP_OR_RETURN(o); free(o); }

// a macro from a header, which may return
static void vh_settle(vh o) { CHECK_OR_BAIL(o); free(o); }

// the caller's function, named free
static void vh_with(vh o, void (*free)(void *)) { free(o); }
static void keep(void *p) { }

// a macro the scanner does not expand: the name decides
void lib_release(void *p);
#define RELEASE(x) lib_release(x)
static void buf_free(void *p) { RELEASE(p); }
*/
import "C"

import "unsafe"

func FinishTwice() {
	h := C.vh_new()
	C.vh_finish(h)
	C.vh_finish(h) // want `h is released twice: by C.vh_finish at line 59 and again here`
}

// Silent: each call drops one reference.
func TickTwice() {
	h := C.vh_new()
	C.vh_tick(h)
	C.vh_tick(h)
}

// Silent: CHECK_OR_BAIL may return before the free.
func SettleTwice() {
	h := C.vh_new()
	C.vh_settle(h)
	C.vh_settle(h)
}

// Silent: keep releases nothing.
func WithTwice() {
	h := C.vh_new()
	C.vh_with(h, (*[0]byte)(C.keep))
	C.vh_with(h, (*[0]byte)(C.keep))
}

func BufferTwice() {
	p := C.malloc(8)
	C.buf_free(unsafe.Pointer(p))
	C.buf_free(unsafe.Pointer(p)) // want `p is released twice: by C.buf_free at line 86 and again here`
}

func ReportTwice() {
	h := C.vh_new()
	C.vh_report(h, 0)
	C.vh_report(h, 1) // want `h is released twice: by C.vh_report at line 92 and again here`
}

// Silent: busy may keep the object.
func MaybeTwice() {
	h := C.vh_new()
	C.vh_maybe(h, 1)
	C.vh_maybe(h, 1)
}
