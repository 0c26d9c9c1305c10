package cinclude

/*
#include <stdlib.h>
#include <pool.h>
static void *mk2(void) { return calloc(1, 8); }
static void pl_done(void *p) { pool_put(p); }
*/
import "C"

// pool.h, found in the -I directory, includes pool_impl.h beside it,
// whose pool_put frees.
func PoolTwice() {
	p := C.mk2()
	C.pl_done(p)
	C.pl_done(p) // want `p is released twice: by C.pl_done at line 15 and again here`
}

func PoolOnce() {
	p := C.mk2()
	C.pl_done(p)
}
