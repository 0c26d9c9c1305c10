// Package condarms holds directives inside C conditionals: a directive is
// read as the code around it is, so one in an arm the build does not
// certainly compile (#if 0, another platform's arm, an arm whose
// condition the scanner cannot decide) is not read, and the arms of one
// conditional never contradict each other; one in a compiled arm is
// checked as any other.
package condarms

// #include <stdlib.h>
// #include "condarms.h"
// static void *cd_mk(void) { return calloc(1, 8); }
// static void (*cd_sink)(void *);
// #if 0
// //lifetime:release cd_a arg=0
// //liftime:release cd_a arg=0
// #endif
// //lifetime:borrow cd_a arg=0
// static void cd_a(void *p) { if (cd_sink) cd_sink(p); }
//
// #ifdef _WIN32
// //lifetime:release cd_b arg=0
// #else
// //lifetime:borrow cd_b arg=0
// #endif
// static void cd_b(void *p) { if (cd_sink) cd_sink(p); }
//
// #ifdef CD_POOLED
// //lifetime:release cd_c arg=0
// #else
// //lifetime:borrow cd_c arg=0
// #endif
// static void cd_c(void *p) { if (cd_sink) cd_sink(p); }
//
// #if 1
// //lifetime:release cd_d arg=0
// #  if 0
// //lifetime:acquire cd_d out=0
// #  endif
// #endif
// //lifetime:borrow cd_d arg=0 // want `//lifetime:borrow cd_d arg=0 contradicts "release cd_d arg=0" at .*condarms.go:35:\d+: one C function with two roles for argument 0`
// static void cd_d(void *p) { if (cd_sink) cd_sink(p); }
//
// #if 0
// #else
// //liftime:borrow cd_e arg=0 // want `did you mean //lifetime:`
// #endif
// static void cd_e(void *p) { if (cd_sink) cd_sink(p); }
// void cd_g(void *p);
// void cd_h(void *p);
import "C"

func use() {
	p := C.cd_mk()
	C.cd_a(p)
	C.cd_b(p)
	C.cd_c(p)
	C.cd_d(p)
	C.cd_e(p)
	C.cd_g(p)
	C.cd_h(p)
	C.free(p)
}
