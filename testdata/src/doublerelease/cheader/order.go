package cheader

/*
#include <stdlib.h>
#define free(x) ((void)(x))
#include "impl.h"
static void *mk2(void) { return calloc(1, 8); }
*/
import "C"

// Silent: impl.h's free is the no-op defined before its #include.
func OrderTwice() {
	p := C.mk2()
	C.im_done(p)
	C.im_done(p)
}
