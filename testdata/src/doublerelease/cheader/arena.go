// Package cheader holds releases read in C bodies whose macros come from
// the package's own headers, in include order: a header's #define
// reaches the text after its #include, and a define before an #include
// reaches the header's bodies.
package cheader

/*
#include "arena.h"
#include <stdlib.h>
static void *mk(void) { return calloc(1, 8); }
static void ar_done(void *p) { free(p); }
*/
import "C"

// Silent: arena.h makes free keep the block.
func ArenaTwice() {
	p := C.mk()
	C.ar_done(p)
	C.ar_done(p)
}
