// Package places holds directives written where they are not read: after
// code on a line of C (in the preamble, in a .h file), inside a Go /* */
// comment that is not a preamble, and on Go nodes that take none. Each is
// reported, with what the directive is attached to; prose is left alone.
package places

// #include "lib.h"
// static void plc_free(plc *p) { free(p); } //lifetime:release plc_free arg=0 // want `//lifetime:release after code on the same line is not read`
// static void plc_keep(plc *p) { (void)p; } // lifetime: p outlives the call (prose)
//
// //lifetime:acquire plc_open
import "C"

// want +2 `//lifetime:release is in a /. ./ comment that is not a cgo preamble, where it is not read; write it as a // line comment, or move it into the preamble`
/*
//lifetime:release plc_close arg=0
*/

/*
// Lifetime: the handle lives until Close (prose in a block comment)
the lifetime: of a plc
*/

// Use calls what the preamble declares.
func Use() {
	p := C.plc_open()
	C.plc_keep(p)
	C.plc_free(p)
	C.plc_close(p)
}
