// Package condarms holds directives inside C conditionals: a directive is
// read as the code around it is, so one in an arm the build does not
// certainly compile (#if 0, another platform's arm, an arm whose
// condition the scanner cannot decide) is not read, and the arms of one
// conditional never contradict each other; one in a compiled arm is
// checked as any other. One the build may compile, in an arm whose
// condition the scanner cannot decide, is reported as not read.
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
// //lifetime:release cd_c arg=0 // want `//lifetime:release cd_c is not read: it is inside an arm of .#ifdef CD_POOLED. \(line 28\), a C condition the checker cannot decide; move it outside the conditional`
// #else
// //lifetime:borrow cd_c arg=0 // want `//lifetime:borrow cd_c is not read: it is inside an arm of .#ifdef CD_POOLED. \(line 28\)`
// #endif
// static void cd_c(void *p) { if (cd_sink) cd_sink(p); }
//
// #if 1
// //lifetime:release cd_d arg=0
// #  if 0
// //lifetime:acquire cd_d out=0
// #  endif
// #endif
// //lifetime:borrow cd_d arg=0 // want `//lifetime:borrow cd_d arg=0 contradicts "release cd_d arg=0" at .*condarms.go:36:\d+: one C function with two roles for argument 0`
// static void cd_d(void *p) { if (cd_sink) cd_sink(p); }
//
// #if 0
// #else
// //liftime:borrow cd_e arg=0 // want `did you mean //lifetime:`
// #endif
// static void cd_e(void *p) { if (cd_sink) cd_sink(p); }
//
// #if defined(__has_include)
// #if __has_include(<stdlib.h>)
// //lifetime:release cd_f arg=0 // want `//lifetime:release cd_f is not read: it is inside an arm of .#if __has_include\(<stdlib.h>\). \(line 51\)`
// #endif
// #endif
// static void cd_f(void *p) { if (cd_sink) cd_sink(p); }
//
// #if __STDC_VERSION__ >= 199901L && __SIZEOF_POINTER__ >= 4 && __GNUC__ >= 4
// //lifetime:release cd_i arg=0
// #endif
// //lifetime:borrow cd_i arg=0 // want `//lifetime:borrow cd_i arg=0 contradicts "release cd_i arg=0"`
// static void cd_i(void *p) { if (cd_sink) cd_sink(p); }
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
	C.cd_f(p)
	C.cd_i(p)
	C.cd_g(p)
	C.cd_h(p)
	C.free(p)
}
