// Package misfit is analysed with misfit.model, whose entry for zap names
// an argument zap does not have: the entry is reported where the package
// first calls zap and left out, so what zap's body does still counts.
package misfit

/*
#include <stdlib.h>
typedef struct { int live; } res;
static res* res_open(void) { return calloc(1, sizeof(res)); }
static void zap(res* r) { free(r); }
static void drop(res* r) { free(r); }
*/
import "C"

func Twice() {
	p := C.res_open()
	C.zap(p) // want `the model entry "release zap arg=5" at .*misfit.model:3 does not fit C.zap: arg=5, but C.zap takes 1 argument \(indices count from 0\); the entry is not applied`
	C.zap(p)
}

// drop's entry fits: applied, nothing to say about it.
func Drop() {
	p := C.res_open()
	C.drop(p)
}
