// Package cflags holds releases read in C bodies that the package's own
// #cgo CFLAGS decide: a -D is a macro the compiler sees before the first
// line, so an #ifndef of it is false and the configurable allocator is
// the one the flag names; a -D for another GOOS is not this build's.
package cflags

/*
#cgo CFLAGS: -DMY_FREE=pool_keep -DUSE_POOL -DOWN_FREE=own_free
#cgo windows CFLAGS: -DMY_FREE=free
#include <stdlib.h>

static void *mk(void) { return calloc(1, 8); }
static void pool_keep(void *p) { (void)p; } // a pool that keeps the block
static void own_free(void *p) { free(p); }

// the configurable allocator (stb's STBI_FREE): the flag picks pool_keep
// over the default free
#ifndef MY_FREE
#define MY_FREE(p) free(p)
#endif
static void cf_done(void *p) { MY_FREE(p); }

// the flag picks own_free, which frees, over a default that keeps
#ifndef OWN_FREE
#define OWN_FREE(p) pool_keep(p)
#endif
static void cf_hand(void *p) { OWN_FREE(p); }

// a choice, not an include guard: the flag compiles the #else
#ifndef USE_POOL
#define USE_POOL 1
static void pool_done(void *p) { free(p); }
#else
static void pool_done(void *p) { (void)p; }
#endif
#if USE_POOL
static void pool_hand(void *p) { own_free(p); }
#else
static void pool_hand(void *p) { (void)p; }
#endif
*/
import "C"

// Silent: MY_FREE is pool_keep in this build.
func DoneTwice() {
	p := C.mk()
	C.cf_done(p)
	C.cf_done(p)
}

func HandTwice() {
	p := C.mk()
	C.cf_hand(p)
	C.cf_hand(p) // want `p is released twice: by C.cf_hand at line 53 and again here`
}

// Silent: USE_POOL is defined, so pool_done keeps the block.
func PoolDoneTwice() {
	p := C.mk()
	C.pool_done(p)
	C.pool_done(p)
}

func PoolHandTwice() {
	p := C.mk()
	C.pool_hand(p)
	C.pool_hand(p) // want `p is released twice: by C.pool_hand at line 66 and again here`
}
