// Package condflags: a //lifetime: directive in a C conditional arm that
// the build compiles is read: the compiler's own macros (__GNUC__, which
// gcc and clang define; NDEBUG, which only the build's flags define) and
// the package's #cgo CFLAGS -D decide the arm. An arm a -U or the
// absence of the flag rules out makes no release.
package condflags

/*
#cgo CFLAGS: -DCF_QUEUED -UCF_DROPPED
#include <stdlib.h>
static void *cf_mk(void) { return calloc(1, 8); }
static void *cf_q[16];
static int cf_n;

#if defined(__GNUC__) || defined(__clang__)
//lifetime:release cf_gnuc arg=0
#endif
static void cf_gnuc(void *p) { cf_q[cf_n++ & 15] = p; }

#ifndef NDEBUG
//lifetime:release cf_debug arg=0
#endif
static void cf_debug(void *p) { cf_q[cf_n++ & 15] = p; }

#ifdef CF_QUEUED
//lifetime:release cf_queued arg=0
#endif
static void cf_queued(void *p) { cf_q[cf_n++ & 15] = p; }

#ifdef CF_DROPPED
//lifetime:release cf_dropped arg=0
#endif
static void cf_dropped(void *p) { cf_q[cf_n++ & 15] = p; }
*/
import "C"

func GnucTwice() {
	p := C.cf_mk()
	C.cf_gnuc(p)
	C.cf_gnuc(p) // want `p is released twice`
}

func DebugTwice() {
	p := C.cf_mk()
	C.cf_debug(p)
	C.cf_debug(p) // want `p is released twice`
}

func QueuedTwice() {
	p := C.cf_mk()
	C.cf_queued(p)
	C.cf_queued(p) // want `p is released twice`
}

// Silent: -U rules the arm out; the function keeps nothing.
func DroppedTwice() {
	p := C.cf_mk()
	C.cf_dropped(p)
	C.cf_dropped(p)
	C.free(p)
}
