package finalizer

/*
#include <stdlib.h>
typedef struct { int live; } res;
static res* res_new(void) { return malloc(sizeof(res)); }
static void res_free(res* r) { free(r); }
static int res_open(res** r) { *r = malloc(sizeof(res)); return 0; }
*/
import "C"

import (
	"errors"
	"runtime"
)

type Res struct{ r *C.res }

func newRes() *Res {
	x := &Res{r: C.res_new()}
	runtime.SetFinalizer(x, func(x *Res) { C.res_free(x.r) })
	return x
}

// KeepAlive of a copy keeps nothing alive.
func keepCopy(x *Res) {
	v := *x
	C.res_free(nil)
	runtime.KeepAlive(v) // want `runtime.KeepAlive keeps a copy of a Res value alive, not the \*Res the finalizer set at line 21 is attached to; pass the pointer`
	runtime.KeepAlive(x)
}

// A finalizer set on a local that is then returned by value.
func byValue() Res {
	var v Res
	v.r = C.res_new()
	runtime.SetFinalizer(&v, func(v *Res) { C.res_free(v.r) }) // want `the finalizer is set on &v, but v is returned by value at line 38`
	return v
}

func byPointer() *Res {
	v := &Res{r: C.res_new()}
	runtime.SetFinalizer(v, func(v *Res) { C.res_free(v.r) })
	return v
}

// A finalizer function that captures its own object never runs.
func captures() *Res {
	x := &Res{r: C.res_new()}
	runtime.SetFinalizer(x, func(_ *Res) { C.res_free(x.r) }) // want `the finalizer's function literal captures the object it is attached to`
	return x
}

// A cleanup whose argument is the object panics; one that captures it
// never runs.
func cleanupArg() *Res {
	x := &Res{r: C.res_new()}
	runtime.AddCleanup(x, func(x *Res) { C.res_free(x.r) }, x) // want `the cleanup's argument is the object itself`
	return x
}

func cleanupCaptures() *Res {
	x := &Res{r: C.res_new()}
	runtime.AddCleanup(x, func(int) { C.res_free(x.r) }, 0) // want `the cleanup's function literal captures the object`
	return x
}

func cleanupOK() *Res {
	x := &Res{r: C.res_new()}
	runtime.AddCleanup(x, func(r *C.res) { C.res_free(r) }, x.r)
	return x
}

// A method value of the object as its own finalizer never runs (no KeepAlive in it).
func (x *Res) free(_ *Res) { C.res_free(x.r) }

func methodValue() *Res {
	x := &Res{r: C.res_new()}
	runtime.SetFinalizer(x, x.free) // want `the finalizer's method value captures the object`
	return x
}

// The finalizer is armed before the handle is acquired: the error return
// drops x and the finalizer frees a handle never acquired.
func openEarly() (*Res, error) {
	x := &Res{}
	runtime.SetFinalizer(x, func(x *Res) { C.res_free(x.r) }) // want `the finalizer is armed before x.r is acquired \(at line 88\): when that fails, the return at line 89 drops x`
	if C.res_open(&x.r) != 0 {
		return nil, errors.New("open failed")
	}
	return x, nil
}

func openLate() (*Res, error) {
	x := &Res{}
	if C.res_open(&x.r) != 0 {
		return nil, errors.New("open failed")
	}
	runtime.SetFinalizer(x, func(x *Res) { C.res_free(x.r) })
	return x, nil
}

// A finalizer that releases nothing (a Go value, as in runtime's own
// tests) on a local returned by value: the copy holds no released handle.
type plain struct{ n int }

func byValueNoHandle() plain {
	var v plain
	runtime.SetFinalizer(&v, func(v *plain) { println(v.n) })
	return v
}

// A composite literal is already where &T{} puts it.
func complitCopy() (*Res, Res) {
	v := &Res{r: C.res_new()}
	runtime.SetFinalizer(v, func(v *Res) { C.res_free(v.r) })
	old := *v
	return v, old
}
