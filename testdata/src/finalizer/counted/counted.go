// Package counted: finalizers that release through a call that drops a
// counted reference (OpenCL's clRelease*, GLib's g_object_unref, a counted
// release a directive declares). Whoever holds the last reference releases
// the object, so such a finalizer releases all the same.
package counted

/*
#include <stdlib.h>
typedef struct _cl_kernel* cl_kernel;
static int clReleaseKernel(cl_kernel k) { return 0; }
static int clRetainKernel(cl_kernel k) { return 0; }
static int clGetKernelInfo(cl_kernel k, int what, void* out) { return 0; }

typedef struct { int w; } GdkPixbuf;
static void g_object_unref(void* o) {}
static int gdk_pixbuf_get_width(GdkPixbuf* p) { return p->w; }

typedef struct { int n; } blob;
//lifetime:release blob_unref key=0
static void blob_unref(blob* b) {}
static int blob_len(blob* b) { return b->n; }

typedef int nvmlReturn_t;
static nvmlReturn_t nvmlShutdown(void) { return 0; }
//lifetime:acquire dev_retain key=0
//lifetime:release dev_release key=0
static int dev_retain(int ord) { return 0; }
static int dev_release(int ord) { return 0; }
static int dev_name(int ord) { return 0; }
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// OpenCL: a named finalizer that checks and clears the handle.
type Kernel struct{ k C.cl_kernel }

func releaseKernel(k *Kernel) {
	if k.k != nil {
		C.clReleaseKernel(k.k)
		k.k = nil
	}
}

func newKernel(h C.cl_kernel) *Kernel {
	k := &Kernel{k: h}
	runtime.SetFinalizer(k, releaseKernel)
	return k
}

func (k *Kernel) NumArgs() int {
	var n C.int
	C.clGetKernelInfo(k.k, 1, unsafe.Pointer(&n)) // want `k may be collected while C.clGetKernelInfo runs with k.k: nothing uses k after the call, so the finalizer set at line 50 \(releaseKernel\) can release k.k during it; add runtime.KeepAlive\(k\) after the call`
	return int(n)
}

func (k *Kernel) NumArgsOK() int {
	var n C.int
	C.clGetKernelInfo(k.k, 1, unsafe.Pointer(&n))
	runtime.KeepAlive(k)
	return int(n)
}

// A finalizer that only takes a reference releases nothing.
type Probe struct{ k C.cl_kernel }

func newProbe(h C.cl_kernel) *Probe {
	p := &Probe{k: h}
	runtime.SetFinalizer(p, func(p *Probe) {
		C.clRetainKernel(p.k)
	})
	return p
}

func (p *Probe) NumArgs() int {
	var n C.int
	C.clGetKernelInfo(p.k, 1, unsafe.Pointer(&n))
	return int(n)
}

// GLib: the finalizer is a method expression that drops the reference
// through a helper.
type Pixbuf struct{ p *C.GdkPixbuf }

func (p *Pixbuf) unref() { C.g_object_unref(unsafe.Pointer(p.p)) }

func wrapPixbuf(h *C.GdkPixbuf) *Pixbuf {
	p := &Pixbuf{p: h}
	runtime.SetFinalizer(p, (*Pixbuf).unref)
	return p
}

func (p *Pixbuf) Width() int {
	return int(C.gdk_pixbuf_get_width(p.p)) // want `p may be collected while C.gdk_pixbuf_get_width runs with p.p: nothing uses p after the call, so the finalizer set at line 92 \(\(\*Pixbuf\).unref\) can release p.p during it; add defer runtime.KeepAlive\(p\) before the call`
}

func (p *Pixbuf) WidthOK() int {
	defer runtime.KeepAlive(p)
	return int(C.gdk_pixbuf_get_width(p.p))
}

// A counted release declared in the preamble, reached from a closure
// through a method.
type Blob struct{ b *C.blob }

func (b *Blob) drop() {
	C.blob_unref(b.b)
}

func NewBlob(h *C.blob) *Blob {
	b := &Blob{b: h}
	runtime.SetFinalizer(b, func(b *Blob) { b.drop() })
	return b
}

func (b *Blob) Len() int {
	n := C.blob_len(b.b) // want `b may be collected while C.blob_len runs with b.b: nothing uses b after the call, so the finalizer set at line 115 \(func literal\) can release b.b during it; add runtime.KeepAlive\(b\) after the call`
	return int(n)
}

// A later use of the object keeps it alive.
func (b *Blob) LenOK() (int, *Blob) {
	n := C.blob_len(b.b)
	return int(n), b
}

// A counted release of the library's own state has no argument (regression:
// dropping it with the count unknown must not panic).
type Lib struct{ n int }

func (l *Lib) Shutdown() { C.nvmlShutdown() }

func newLib() *Lib {
	l := &Lib{}
	runtime.SetFinalizer(l, func(*Lib) { C.nvmlShutdown() })
	return l
}

// A reference keyed by an integer identifier: the device ordinal stays
// valid when the finalizer drops the primary context's reference.
type Device struct{ ord C.int }

func newDevice(ord C.int) *Device {
	d := &Device{ord: ord}
	C.dev_retain(ord)
	runtime.SetFinalizer(d, func(d *Device) { C.dev_release(d.ord) })
	return d
}

func (d *Device) Name() int { return int(C.dev_name(d.ord)) }
