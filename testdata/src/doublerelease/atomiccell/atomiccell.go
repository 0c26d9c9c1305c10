// Package atomiccell holds the doublerelease cases of handles kept in
// atomic cells: the cell is the handle's field, its Swap(nil) takes the
// handle out, as h := x.h; x.h = nil does.
package atomiccell

/*
#include <stdlib.h>
typedef struct { int live; } res;
static res* res_open(void) { return calloc(1, sizeof(res)); }
static void res_close(res* r) { free(r); }
*/
import "C"

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

type Conn struct {
	h atomic.Pointer[C.res]
}

func Open() *Conn {
	c := &Conn{}
	c.h.Store(C.res_open())
	return c
}

// Close takes the handle out: a second Close finds nil.
func (c *Conn) Close() {
	if p := c.h.Swap(nil); p != nil {
		C.res_close(p)
	}
}

// Drop closes the handle and leaves it in the cell.
func (c *Conn) Drop() {
	C.res_close(c.h.Load()) // want `c.h is released twice when \(\*Conn\).Drop is called twice`
}

func Twice() {
	c := Open()
	c.Close()
	c.Close()
}

func DropTwiceVia() {
	c := Open()
	c.Drop()
	c.Drop()
}

func DropTwice() {
	c := Open()
	C.res_close(c.h.Load())
	C.res_close(c.h.Load()) // want `c.h.Load\(\) is released twice`
}

func StoreNil() {
	c := Open()
	C.res_close(c.h.Load())
	c.h.Store(nil)
	c.Close()
}

// Owned has a finalizer that closes through the cell.
type Owned struct {
	p unsafe.Pointer
}

func NewOwned() *Owned {
	o := &Owned{p: unsafe.Pointer(C.res_open())}
	runtime.SetFinalizer(o, (*Owned).Close)
	return o
}

func (o *Owned) Close() {
	if p := atomic.SwapPointer(&o.p, nil); p != nil {
		C.res_close((*C.res)(p))
	}
}

// Free closes the handle the finalizer will close again.
func (o *Owned) Free() {
	C.res_close((*C.res)(atomic.LoadPointer(&o.p))) // want `released here and again by the finalizer`
}

// FreeTaken takes it out first: the finalizer finds nil.
func (o *Owned) FreeTaken() {
	p := atomic.SwapPointer(&o.p, nil)
	C.res_close((*C.res)(p))
}
