// Package cinclude holds releases read in C bodies whose meaning comes
// from headers of the module that are not the package's files: one in a
// subdirectory, one found through the -I directory of the package's
// flags, and one a header there includes beside itself.
package cinclude

/*
#cgo CFLAGS: -I${SRCDIR}/inc
#include <stdlib.h>
#include "inc/arena.h"
static void *mk(void) { return calloc(1, 8); }
static void ar_done(void *p) { free(p); }
*/
import "C"

// Silent: inc/arena.h makes free keep the block.
func ArenaTwice() {
	p := C.mk()
	C.ar_done(p)
	C.ar_done(p)
}
