// Package conflicts holds preamble directives that contradict each other
// or a built-in model: each is an error naming both places.
package conflicts

// #include <stdlib.h>
// typedef struct { int n; } res;
// static res* res_open(void) { return malloc(sizeof(res)); }
// static void res_close(res* r) { free(r); }
// static void res_use(res* r) { }
// static void res_give(res* r) { }
// static int res_reopen(res** out) { *out = malloc(sizeof(res)); return 0; }
// //lifetime:acquire res_open
// //lifetime:release res_close
// //lifetime:release res_close // want `//lifetime:release res_close arg=0 repeats the entry at conflicts.go:13:\d+`
// //lifetime:borrow res_use arg=0
// //lifetime:transfer res_use arg=0 // want `//lifetime:transfer res_use arg=0 contradicts "borrow res_use arg=0" at conflicts.go:15:\d+: one C function with two roles for argument 0`
// //lifetime:borrow free result // want `//lifetime:borrow free result redefines C.free, which builtin:libc.model:\d+ already describes \(release free arg=0 kind=c-heap\); write //lifetime:override borrow free result to replace that`
// //lifetime:acquire res_reopen out=0
// //lifetime:release res_reopen arg=0 // want `//lifetime:release res_reopen arg=0 contradicts "acquire res_reopen out=0" at .*conflicts.go:\d+:\d+: one C function with two roles for argument 0`
// //lifetime:override transfer res_give arg=0 // want `//lifetime:override transfer res_give arg=0: no model describes C.res_give; write //lifetime:transfer res_give arg=0`
import "C"

import "unsafe"

func use() {
	r := C.res_open()
	C.res_use(r)
	C.res_give(r)
	C.res_close(r)
	var o *C.res
	C.res_reopen(&o)
	C.res_close(o)
	C.free(unsafe.Pointer(C.malloc(1)))
}
