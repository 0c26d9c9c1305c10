// Package plugin wraps a library whose symbols are lent by the library
// that holds them, in Go types passed by value (as a GPU binding's module
// and function handles are): the wrappers return what they borrow.
package plugin

/*
#include <stdlib.h>
typedef struct { int n; } dl_lib;
typedef struct { int id; } dl_sym;
//lifetime:acquire dl_load out=0
//lifetime:release dl_unload
//lifetime:acquire dl_lookup out=0 borrowed-from=1
static int dl_load(dl_lib** l, const char* path) { *l = calloc(1, sizeof(dl_lib)); return 0; }
static int dl_unload(dl_lib* l) { free(l); return 0; }
static int dl_lookup(dl_sym** s, dl_lib* l, const char* name) { static dl_sym x; *s = &x; return 0; }
*/
import "C"

import "unsafe"

type Library uintptr

type Symbol uintptr

func Load(path string) Library {
	var l *C.dl_lib
	if C.dl_load(&l, nil) != 0 {
		panic("load")
	}
	return Library(uintptr(unsafe.Pointer(l)))
}

func (l Library) Unload() { C.dl_unload((*C.dl_lib)(unsafe.Pointer(uintptr(l)))) }

func Lookup(l Library, name string) Symbol {
	var s *C.dl_sym
	if C.dl_lookup(&s, (*C.dl_lib)(unsafe.Pointer(uintptr(l))), nil) != 0 {
		panic("lookup")
	}
	return Symbol(uintptr(unsafe.Pointer(s)))
}

// A method that forwards to Lookup: the symbol is still the library's.
func (l Library) Symbol(name string) Symbol { return Lookup(l, name) }
