// Package generic holds the finalizer cases of generic owners: the methods
// of Box[T] that a finalizer or a caller runs are instances of the
// generic methods, whose bodies, summaries and claims are the origin's.
package generic

/*
#include <stdlib.h>
typedef struct { int live; } buf;
static buf* buf_new(void) { return calloc(1, sizeof(buf)); }
static void buf_free(buf* b) { free(b); }
static int buf_len(buf* b) { return b->live; }
*/
import "C"

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Box claims closed in Close, and its finalizer calls Close: a finalizer
// that runs during free found the claim taken and frees nothing.
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

// Split claims another flag in Release than the finalizer's Close does:
// the finalizer can free during Release's free.
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

func (x *Split[T]) free() { C.buf_free(x.b) } // want `x may be collected while C.buf_free runs with x.b`

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

// Pair's unexported length is called by Len, which keeps the pair alive
// after the call; its finalizer is a method expression of the instance.
type Pair[K comparable, V any] struct {
	b    *C.buf
	once sync.Once
	m    map[K]V
}

func NewPair[K comparable, V any]() *Pair[K, V] {
	p := &Pair[K, V]{b: C.buf_new(), m: map[K]V{}}
	runtime.SetFinalizer(p, (*Pair[K, V]).Close)
	return p
}

func (p *Pair[K, V]) Close() { p.once.Do(func() { C.buf_free(p.b) }) }

func (p *Pair[K, V]) length() int { return int(C.buf_len(p.b)) }

func (p *Pair[K, V]) Len() int {
	n := p.length()
	runtime.KeepAlive(p)
	return n
}

type Kept[T any] struct {
	b *C.buf
	v T
}

func NewKept[T any](v T) *Kept[T] {
	k := &Kept[T]{b: C.buf_new(), v: v}
	runtime.SetFinalizer(k, func(k *Kept[T]) { C.buf_free(k.b) })
	return k
}

// size is called only by Size, which uses k after it: no finding in size.
func (k *Kept[T]) size() int { return int(C.buf_len(k.b)) }

func (k *Kept[T]) Size() int {
	n := k.size()
	runtime.KeepAlive(k)
	return n
}

type Dropped[T any] struct {
	b *C.buf
	v T
}

func NewDropped[T any](v T) *Dropped[T] {
	d := &Dropped[T]{b: C.buf_new(), v: v}
	runtime.SetFinalizer(d, func(d *Dropped[T]) { C.buf_free(d.b) })
	return d
}

// size's caller Size uses d no more after the call.
func (d *Dropped[T]) size() int { return int(C.buf_len(d.b)) } // want `d may be collected while C.buf_len runs with d.b`

func (d *Dropped[T]) Size() int { return d.size() }

// A generic helper function of its own type parameter: its only caller
// keeps the object alive.
func lenOf[T any](k *Kept[T]) int { return int(C.buf_len(k.b)) }

func (k *Kept[T]) Len() int {
	n := lenOf(k)
	runtime.KeepAlive(k)
	return n
}

func Use() {
	NewBox(1).Close()
	NewSplit("x").Release()
	_ = NewPair[string, int]().Len()
	_ = NewKept(1.5).Size()
	_ = NewKept(2).Len()
	_ = NewDropped(byte(1)).Size()
}
