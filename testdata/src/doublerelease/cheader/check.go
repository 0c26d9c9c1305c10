package cheader

/*
#include <stdlib.h>
#include "check.h"
static void *live[16];
static void *mk4(void) { void *p = calloc(1, 8); live[0] = p; return p; }
static int forget(void *p) {
	for (int i = 0; i < 16; i++)
		if (live[i] == p) { live[i] = 0; return 1; }
	return 0;
}
// idempotent: the second call returns before the free
static void ck_done(void *p) { return_unless(forget(p)); free(p); }
static void ck_noted(void *p) { note(p); free(p); }
*/
import "C"

// Silent: return_unless, from check.h, may return before the free.
func CheckTwice() {
	p := C.mk4()
	C.ck_done(p)
	C.ck_done(p)
}

func NotedTwice() {
	p := C.mk4()
	C.ck_noted(p)
	C.ck_noted(p) // want `p is released twice: by C.ck_noted at line 28 and again here`
}
