// Package condarms: a //lifetime: directive in a C conditional arm is
// read as the code around it is. One in an arm the build does not compile
// (#if 0, another platform's) or may not (an undecided condition) makes
// no release; one in the compiled arm does.
package condarms

/*
#include <stdlib.h>
static void *ca_mk(void) { return calloc(1, 8); }
static void (*ca_sink)(void *);

#if 0
//lifetime:release ca_dead arg=0
#endif
static void ca_dead(void *p) { if (ca_sink) ca_sink(p); }

#if defined(_WIN32) && defined(__linux__)
//lifetime:release ca_never arg=0
#else
//lifetime:borrow ca_never arg=0
#endif
static void ca_never(void *p) { if (ca_sink) ca_sink(p); }

#ifdef CA_POOLED
//lifetime:release ca_maybe arg=0
#endif
static void ca_maybe(void *p) { if (ca_sink) ca_sink(p); }

#if 0
//lifetime:borrow ca_live arg=0
#else
//lifetime:release ca_live arg=0
#endif
static void ca_live(void *p) { if (ca_sink) ca_sink(p); }
*/
import "C"

import "unsafe"

func deadTwice() {
	p := C.ca_mk()
	C.ca_dead(p)
	C.ca_dead(p)
	C.free(p)
}

func neverTwice() {
	p := C.ca_mk()
	C.ca_never(p)
	C.ca_never(p)
	C.free(p)
}

func maybeTwice() {
	p := C.ca_mk()
	C.ca_maybe(p)
	C.ca_maybe(p)
	C.free(p)
}

func liveTwice() {
	p := C.ca_mk()
	C.ca_live(p)
	C.ca_live(p) // want `p is released twice`
}

// a method and a helper reach the compiled directive as well
type box struct{ p unsafe.Pointer }

func (b *box) done() { C.ca_live(b.p) } // want `b.p is released twice when \(\*box\).done is called twice`

func boxTwice() {
	b := &box{C.ca_mk()}
	b.done()
	b.done()
}
