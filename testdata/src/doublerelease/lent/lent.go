// Package lent holds the doublerelease cases of lent handles: a handle
// that belongs to the handle it came from (borrowed-from=N) is freed by
// it, so releasing it as well frees it twice.
package lent

/*
#include <stdlib.h>
typedef struct { char* who; } sig;
typedef struct { sig author; } rev;
//lifetime:acquire rev_lookup out=0
//lifetime:release rev_free
//lifetime:borrow rev_author result borrowed-from=0
//lifetime:acquire sig_dup out=0
//lifetime:release sig_free
static int rev_lookup(rev** r) { *r = calloc(1, sizeof(rev)); return 0; }
static void rev_free(rev* r) { free(r); }
static const sig* rev_author(const rev* r) { return &r->author; }
static int sig_dup(sig** out, const sig* s) { *out = calloc(1, sizeof(sig)); return 0; }
static void sig_free(sig* s) { free(s); }
static int sig_len(const sig* s) { return 0; }
*/
import "C"

func authorFreed() int {
	var r *C.rev
	C.rev_lookup(&r)
	defer C.rev_free(r)
	a := C.rev_author(r)
	n := int(C.sig_len(a))
	C.sig_free((*C.sig)(a)) // want `a is released here, but C.rev_author lent it at line 28: it belongs to the handle it came from, which frees it, so it is freed twice; do not release it`
	return n
}

// A copy of the lent signature is the caller's to free.
func authorCopied() int {
	var r *C.rev
	C.rev_lookup(&r)
	defer C.rev_free(r)
	var own *C.sig
	C.sig_dup(&own, C.rev_author(r))
	n := int(C.sig_len(own))
	C.sig_free(own)
	return n
}
