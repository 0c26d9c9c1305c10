package lent

/*
#include <stdlib.h>
typedef struct { int n; } lib_t;
//lifetime:acquire lib_open
static lib_t* lib_open(const char* path) { return calloc(1, sizeof(lib_t)); }
*/
import "C"

// A handle given to a Go helper that keeps it (in a map, a global, a
// channel, an interface it stores) is handed on, whether or not the helper
// calls C; a helper that only looks at it is not.
var (
	libs    = map[string]*C.lib_t{}
	lastLib *C.lib_t
	libCh   = make(chan *C.lib_t, 1)
	anyLib  any
)

func keepNamed(name string, l *C.lib_t) { libs[name] = l }
func keepLast(l *C.lib_t)               { lastLib = l }
func keepSent(l *C.lib_t)               { libCh <- l }
func keepBoxed(l *C.lib_t)              { anyLib = l }
func keepVia(l *C.lib_t)                { keepLast(l) }
func isOpen(l *C.lib_t) bool            { return l != nil }

func openNamed(name string) { keepNamed(name, C.lib_open(nil)) }
func openLast()             { keepLast(C.lib_open(nil)) }
func openSent()             { keepSent(C.lib_open(nil)) }
func openBoxed()            { keepBoxed(C.lib_open(nil)) }
func openVia()              { keepVia(C.lib_open(nil)) }

func openChecked() bool {
	l := C.lib_open(nil) // want `the handle C.lib_open returns is not released on every path`
	return isOpen(l)
}
