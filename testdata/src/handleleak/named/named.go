// Package named holds the handleleak cases of handles returned in named
// results, retains keyed by a device, and functions that return only
// scalars.
package named

/*
#include <stdlib.h>
typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st { int live; } *CUcontext;
typedef int CUdevice;
typedef struct Mat_ { int rows; } *Mat;
static CUresult cuMemAlloc(CUdeviceptr *p, size_t n) { return 0; }
static CUresult cuMemFree(CUdeviceptr p) { return 0; }
static CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) { return 0; }
static CUresult cuDevicePrimaryCtxRelease(CUdevice d) { return 0; }
static void Mat_MinMaxIdx(Mat m, double *lo, double *hi, int *loIdx, int *hiIdx) { }
static int Mat_Rows(Mat m) { return m->rows; }
*/
import "C"

import (
	"errors"
	"unsafe"
)

type CUContext uintptr

func result(x C.CUresult) error {
	if x != 0 {
		return errors.New("cuda error")
	}
	return nil
}

// The context moves to the caller through the named result; the retain,
// keyed by the device, is owed by whoever holds the device.
func RetainPrimaryCtx(d C.CUdevice) (primary CUContext, err error) {
	var ctx C.CUcontext
	if err = result(C.cuDevicePrimaryCtxRetain(&ctx, d)); err != nil {
		return
	}
	primary = CUContext(uintptr(unsafe.Pointer(ctx)))
	return
}

// The same with the context written straight into the named result.
func RetainInto(d C.CUdevice) (ctx C.CUcontext, err error) {
	if C.cuDevicePrimaryCtxRetain(&ctx, d) != 0 {
		err = errors.New("retain failed")
	}
	return
}

// A method, the device kept in the value returned.
type Device struct{ id C.CUdevice }

type Primary struct {
	dev C.CUdevice
}

func (d Device) Primary() (p *Primary, err error) {
	var ctx C.CUcontext
	if C.cuDevicePrimaryCtxRetain(&ctx, d.id) != 0 {
		return nil, errors.New("retain failed")
	}
	p = &Primary{dev: d.id}
	return
}

// Dropped: neither the context nor the device leaves the function.
func (d Device) Probe(fail bool) (ok bool) {
	var ctx C.CUcontext
	if C.cuDevicePrimaryCtxRetain(&ctx, d.id) != 0 { // want `the handle C.cuDevicePrimaryCtxRetain acquires into ctx is not released on every path \(the return at line 78 leaks it\)`
		return false
	}
	if fail {
		return false
	}
	C.cuDevicePrimaryCtxRelease(d.id)
	return true
}

// Device memory in a named result, and a caller that drops it.
func alloc(n int) (p C.CUdeviceptr, err error) {
	if C.cuMemAlloc(&p, C.size_t(n)) != 0 {
		err = errors.New("out of memory")
	}
	return
}

func scratch(n int) error {
	p, err := alloc(n) // want `the handle alloc returns is not released on every path`
	if err != nil {
		return err
	}
	if n > 4096 {
		return errors.New("too large")
	}
	C.cuMemFree(p)
	return nil
}

// Only scalars come back: no handle.
func MinMaxIdx(m C.Mat) (minVal, maxVal float32, minIdx, maxIdx int) {
	var lo, hi C.double
	var loIdx, hiIdx C.int
	C.Mat_MinMaxIdx(m, &lo, &hi, &loIdx, &hiIdx)
	return float32(lo), float32(hi), int(minIdx), int(maxIdx)
}

func Rows(m C.Mat) (n int) {
	if m == nil {
		return
	}
	n = int(C.Mat_Rows(m))
	return
}

func Span(m C.Mat) (int, error) {
	_, _, lo, hi := MinMaxIdx(m)
	if Rows(m) == 0 {
		return 0, errors.New("no rows")
	}
	return hi - lo, nil
}

// The context written into a field of the named result.
type Context struct{ ctx C.CUcontext }

func (d Device) Retain() (pc Context, err error) {
	if err = result(C.cuDevicePrimaryCtxRetain(&pc.ctx, d.id)); err != nil {
		return
	}
	return pc, nil
}

// No branch: the status goes back with the handle.
func MemAlloc(n int64) (p C.CUdeviceptr, err error) {
	var raw C.CUdeviceptr
	err = result(C.cuMemAlloc(&raw, C.size_t(n)))
	p = raw
	return
}

func Upload(n int64, fail func() bool) error {
	p, err := MemAlloc(n) // want `the handle MemAlloc returns is not released on every path \(the return at line 152 leaks it\)`
	if err != nil {
		return err
	}
	if fail() {
		return errors.New("upload failed")
	}
	C.cuMemFree(p)
	return nil
}

func UploadOK(n int64, fail func() bool) error {
	p, err := MemAlloc(n)
	if err != nil {
		return err
	}
	defer C.cuMemFree(p)
	if fail() {
		return errors.New("upload failed")
	}
	return nil
}

// A retain method: the reference is the device holder's, released by
// another method.
func (d Device) RetainRef() error {
	var ctx C.CUcontext
	return result(C.cuDevicePrimaryCtxRetain(&ctx, d.id))
}

func (d Device) ReleaseRef() error {
	return result(C.cuDevicePrimaryCtxRelease(d.id))
}

type Holder struct{ dev C.CUdevice }

func (h *Holder) Hold() error {
	var ctx C.CUcontext
	if C.cuDevicePrimaryCtxRetain(&ctx, h.dev) != 0 {
		return errors.New("retain failed")
	}
	return nil
}
