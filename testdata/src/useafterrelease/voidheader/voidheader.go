// Package voidheader holds a useafterrelease case of a handle typed void *
// released by a wrapper that the package's own header defines.
package voidheader

/*
#include "wrap.h"
*/
import "C"

type Store struct{ s C.store_handle }

func Open() *Store { return &Store{C.store_open()} }

func (s *Store) CloseThenCount() int {
	C.store_shutdown(s.s)
	return int(C.store_count(s.s)) // want `s.s is passed to C.store_count after C.store_shutdown released it at line 15`
}

func (s *Store) CountThenClose() int {
	n := int(C.store_count(s.s))
	C.store_shutdown(s.s)
	s.s = nil
	return n
}
