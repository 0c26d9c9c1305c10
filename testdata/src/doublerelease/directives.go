package doublerelease

/*
#include <stdlib.h>
typedef struct { int live; } pool;
//lifetime:acquire pool_take
//lifetime:release pool_give arg=1
static pool* pool_take(void) { return malloc(sizeof(pool)); }
static void pool_give(int flags, pool* p) { free(p); }
static void pool_note(pool* p) {}
*/
import "C"

// pool_give is not named like a destructor: the preamble directive says it
// releases its second argument.
func giveTwice() {
	p := C.pool_take()
	C.pool_give(0, p)
	C.pool_give(0, p) // want `p is released twice: by C.pool_give at line 18 and again here`
}

// pool_note is neither named nor declared as a release.
func noteTwice() {
	p := C.pool_take()
	C.pool_note(p)
	C.pool_note(p)
	C.pool_give(0, p)
}

// A Go function declared as releasing its parameter.
//
//lifetime:release p
func recycle(p *C.pool) { C.pool_note(p) }

func recycleTwice() {
	p := C.pool_take()
	recycle(p)
	recycle(p) // want `p is released twice: by recycle at line 37 and again here`
}

// A generic wrapper that releases.
type handle interface{ ~*C.pool }

func giveBack[P handle](p P) { C.pool_give(0, (*C.pool)(p)) }

func genericTwice() {
	p := C.pool_take()
	giveBack(p)
	giveBack(p) // want `p is released twice`
}
