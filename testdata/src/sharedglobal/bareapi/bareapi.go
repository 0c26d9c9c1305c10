// Package bareapi uses cgo and exports functions that update package-level
// state, but nothing says its callers call them at once: no go statement,
// no guard on any of its package-level state, no documentation. Being
// exported from a package that uses cgo is no evidence on its own.
package bareapi

/*
#include <stdlib.h>
*/
import "C"

import "unsafe"

var allocated int64

func Alloc(n int) unsafe.Pointer {
	allocated += int64(n)
	return C.malloc(C.size_t(n))
}

var names []string

func Register(name string) { names = append(names, name) }

var handle unsafe.Pointer

func Handle() unsafe.Pointer {
	if handle == nil {
		handle = C.malloc(16)
	}
	return handle
}

var registry = map[int]string{}

func Put(k int, v string) { registry[k] = v }

func Drop(k int) { delete(registry, k) }

// Counter's methods are library API too; the same holds.
type Counter struct{ n int }

var global Counter

func (c *Counter) Bump() { global.n++ }
