package condflags

/*
#cgo windows CFLAGS: -DCF_WIN_POOL
#include <stdlib.h>
#include "cf_config.h"
static void *cf_hq[16];
static int cf_hn;
static void *cf_hmk(void) { return calloc(1, 8); }

// decided by the header the preamble includes before it
#ifdef CF_HAVE_QUEUE
//lifetime:release cf_hdr arg=0
#endif
static void cf_hdr(void *p) { cf_hq[cf_hn++ & 15] = p; }

// a per-platform pair keyed on a macro only another platform's #cgo
// flags define: decided for this build, no notice
#ifdef CF_WIN_POOL
//lifetime:borrow cf_plat arg=0
#else
//lifetime:release cf_plat arg=0
#endif
static void cf_plat(void *p) { cf_hq[cf_hn++ & 15] = p; }
*/
import "C"

func HeaderTwice() {
	p := C.cf_hmk()
	C.cf_hdr(p)
	C.cf_hdr(p) // want `p is released twice`
}

func PlatformTwice() {
	p := C.cf_hmk()
	C.cf_plat(p)
	C.cf_plat(p) // want `p is released twice`
}
