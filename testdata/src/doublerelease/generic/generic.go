// Package generic holds the doublerelease cases of generic owners: a
// finalizer's call of x.Close() on a Box[T] runs an instance of Close,
// whose summary and claims are the generic method's.
package generic

/*
#include <stdlib.h>
typedef struct { int live; } buf;
static buf* buf_new(void) { return calloc(1, sizeof(buf)); }
static void buf_free(buf* b) { free(b); }
*/
import "C"

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Box claims closed in Close, and its finalizer calls Close: of the two
// claims one succeeds, and free runs once.
type Box[T any] struct {
	b      *C.buf
	closed atomic.Bool
	v      T
}

func NewBox[T any](v T) *Box[T] {
	x := &Box[T]{b: C.buf_new(), v: v}
	runtime.SetFinalizer(x, func(x *Box[T]) { x.Close() })
	return x
}

func (x *Box[T]) free() { C.buf_free(x.b) }

func (x *Box[T]) Close() {
	if x.closed.CompareAndSwap(false, true) {
		x.free()
	}
}

// Split claims released in Release, which the finalizer's Close does not
// test: Release and then the finalizer both free.
type Split[T any] struct {
	b                *C.buf
	closed, released atomic.Bool
	v                T
}

func NewSplit[T any](v T) *Split[T] {
	x := &Split[T]{b: C.buf_new(), v: v}
	runtime.SetFinalizer(x, func(x *Split[T]) { x.Close() })
	return x
}

func (x *Split[T]) free() { C.buf_free(x.b) } // want `x.b is released here and again by the finalizer`

func (x *Split[T]) Close() {
	if x.closed.CompareAndSwap(false, true) {
		x.free()
	}
}

func (x *Split[T]) Release() {
	if x.released.CompareAndSwap(false, true) {
		x.free()
	}
}

// Map's Close runs its release under the Once the finalizer's Close runs
// too, through a generic helper function of its own type parameters.
type Map[K comparable, V any] struct {
	b    *C.buf
	once sync.Once
	m    map[K]V
}

func NewMap[K comparable, V any]() *Map[K, V] {
	m := &Map[K, V]{b: C.buf_new(), m: map[K]V{}}
	runtime.SetFinalizer(m, (*Map[K, V]).Close)
	return m
}

func drop[K comparable, V any](m *Map[K, V]) { C.buf_free(m.b) }

func (m *Map[K, V]) Close() { m.once.Do(func() { drop(m) }) }

func Use() {
	NewBox(1).Close()
	NewSplit("x").Release()
	NewMap[string, int]().Close()
}
