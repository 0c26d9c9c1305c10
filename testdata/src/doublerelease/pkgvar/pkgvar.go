// Package pkgvar holds releases in the function literals of package-level
// variables' initializers (a callback variable, a table of handlers, a
// literal nested in another), which belong to no declared function: each
// bug beside its corrected version.
package pkgvar

/*
#include <stdlib.h>
typedef struct { int live; } sess;
static sess* sess_open(void) { return malloc(sizeof(sess)); }
static void sess_close(sess* s) { free(s); }
*/
import "C"

import "unsafe"

var OnDone = func(p unsafe.Pointer) {
	C.free(p)
	C.free(p) // want `p is released twice`
}

var OnDoneOK = func(p unsafe.Pointer) {
	C.free(p)
}

type handler func()

var handlers = map[string]handler{
	"close": func() {
		s := C.sess_open()
		C.sess_close(s)
		C.sess_close(s) // want `s is released twice`
	},
	"closeOK": func() {
		s := C.sess_open()
		C.sess_close(s)
	},
}

var nested = func() func(*C.sess) {
	return func(s *C.sess) {
		C.sess_close(s)
		C.sess_close(s) // want `s is released twice`
	}
}()

var nestedOK = func() func(*C.sess) {
	return func(s *C.sess) {
		C.sess_close(s)
	}
}()

var _, _, _ = handlers, nested, nestedOK
