package condarms

// A preamble written as line comments reads its conditionals as C does.

// #include <stdlib.h>
// static void (*cd_fsink)(void *);
// #if 0
// //lifetime:release cd_f arg=0
// lifetime:release cd_f arg=0
//   //liftime:release cd_f arg=0
// #endif
// //lifetime:borrow cd_f arg=0
// static void cd_f(void *p) { if (cd_fsink) cd_fsink(p); }
import "C"

func useF() {
	p := C.malloc(8)
	C.cd_f(p)
	C.free(p)
}
