package cheader

/*
#include <stdlib.h>
static void *mk3(void) { return calloc(1, 8); }
static void real_free(void *p) { free(p); }
#define free(x) real_free(x)
#include "impl2.h"
*/
import "C"

func RealTwice() {
	p := C.mk3()
	C.im2_done(p)
	C.im2_done(p) // want `p is released twice: by C.im2_done at line 14 and again here`
}
