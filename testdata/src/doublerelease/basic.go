// Package doublerelease holds the analysistest cases of the doublerelease
// analyzer: each bug beside its corrected version, which must stay silent.
package doublerelease

/*
#include <stdlib.h>
#include <string.h>
typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st { int live; } *CUcontext;
typedef unsigned long long CUdeviceptr;
static CUresult cuMemAlloc(CUdeviceptr *p, size_t n) { *p = (CUdeviceptr)malloc(n); return 0; }
static CUresult cuMemFree(CUdeviceptr p) { free((void*)p); return 0; }
static CUresult cuMemsetD8(CUdeviceptr p, unsigned char v, size_t n) { return 0; }
static CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) { static struct CUctx_st p; *c = &p; return 0; }
static CUresult cuDevicePrimaryCtxRelease(CUdevice d) { return 0; }
static void use(char* s) {}
typedef struct { int live; } obj;
static obj* obj_new(void) { return malloc(sizeof(obj)); }
static void obj_free(obj* o) { free(o); }
struct ArrowSchema { void (*release)(struct ArrowSchema*); };
static void ArrowSchemaRelease(struct ArrowSchema* s) { if (s->release) s->release(s); }
*/
import "C"

import (
	"errors"
	"unsafe"
)

// An explicit release plus a deferred one: the defer captured the handle.
func deferPlusExplicit(short bool) {
	p := C.CString("x")
	defer C.free(unsafe.Pointer(p))
	if short {
		C.free(unsafe.Pointer(p)) // want `p is released here and again by the deferred C.free at line 34 when deferPlusExplicit returns`
		return
	}
	C.use(p)
}

// Corrected: the deferred closure reads the variable when it runs, and the
// early path clears it.
func deferClosureOK(short bool) {
	p := C.CString("x")
	defer func() { C.free(unsafe.Pointer(p)) }()
	if short {
		C.free(unsafe.Pointer(p))
		p = nil
		return
	}
	C.use(p)
}

// Device memory from the CUDA model: cuMemAlloc writes the handle through
// its out-parameter.
func upload(n int) error {
	var p C.CUdeviceptr
	if C.cuMemAlloc(&p, C.size_t(n)) != 0 {
		return errors.New("alloc failed")
	}
	defer C.cuMemFree(p)
	if C.cuMemsetD8(p, 0, C.size_t(n)) != 0 {
		C.cuMemFree(p) // want `p is released here and again by the deferred C.cuMemFree`
		return errors.New("memset failed")
	}
	return nil
}

func uploadOK(n int) error {
	var p C.CUdeviceptr
	if C.cuMemAlloc(&p, C.size_t(n)) != 0 {
		return errors.New("alloc failed")
	}
	defer C.cuMemFree(p)
	if C.cuMemsetD8(p, 0, C.size_t(n)) != 0 {
		return errors.New("memset failed")
	}
	return nil
}

// A panic runs the deferred calls too.
func panicPath(bad bool) {
	p := C.CString("x")
	defer C.free(unsafe.Pointer(p))
	if bad {
		C.free(unsafe.Pointer(p)) // want `p is released here and again by the deferred C.free`
		panic("bad")
	}
}

// Two explicit releases on one path.
func twice() {
	o := C.obj_new()
	C.obj_free(o)
	C.obj_free(o) // want `o is released twice: by C.obj_free at line 95 and again here`
}

// Released on one branch only, then released on the other: fine.
func eitherBranch(b bool) {
	o := C.obj_new()
	if b {
		C.obj_free(o)
		return
	}
	C.obj_free(o)
}

// Releasing nil is a no-op.
func freeNil() {
	C.free(nil)
	C.free(nil)
}

// A release in a loop of a handle acquired once before it.
func loop(n int) {
	o := C.obj_new()
	for i := 0; i < n; i++ {
		C.obj_free(o) // want `o is released again on the next iteration of the loop`
	}
}

// Corrected: a new handle per iteration.
func loopOK(n int) {
	for i := 0; i < n; i++ {
		o := C.obj_new()
		C.obj_free(o)
	}
}

// A deferred release registered on each iteration releases the same handle
// every time.
func deferInLoop(n int) {
	o := C.obj_new()
	for i := 0; i < n; i++ {
		defer C.obj_free(o) // want `o is released by a deferred C.obj_free registered on each iteration of a loop`
	}
}

func deferInLoopOK(names []string) {
	for _, n := range names {
		p := C.CString(n)
		defer C.free(unsafe.Pointer(p))
	}
}

// Through a phi: q is p on the path where b is false.
func phi(b bool) {
	p := C.CString("p")
	q := p
	if b {
		q = C.CString("q")
	}
	C.free(unsafe.Pointer(p))
	C.free(unsafe.Pointer(q)) // want `q is released twice: by C.free at line 154 and again here`
}

func phiOK(b bool) {
	p := C.CString("p")
	var q *C.char
	if b {
		q = C.CString("q")
	}
	C.free(unsafe.Pointer(p))
	C.free(unsafe.Pointer(q))
}

// The primary context is counted: each retain allows one release.
func primaryCtx(dev C.CUdevice) {
	var ctx C.CUcontext
	C.cuDevicePrimaryCtxRetain(&ctx, dev)
	C.cuDevicePrimaryCtxRelease(dev)
	C.cuDevicePrimaryCtxRelease(dev) // want `dev is released twice`
}

func primaryCtxOK(dev C.CUdevice) {
	var a, b C.CUcontext
	C.cuDevicePrimaryCtxRetain(&a, dev)
	C.cuDevicePrimaryCtxRetain(&b, dev)
	C.cuDevicePrimaryCtxRelease(dev)
	C.cuDevicePrimaryCtxRelease(dev)
}

// realloc frees its argument only when it succeeds.
func reallocOK(n int) unsafe.Pointer {
	p := C.malloc(16)
	q := C.realloc(p, C.size_t(n))
	if q == nil {
		C.free(p)
		return nil
	}
	return q
}

// Where realloc succeeded it freed p: freeing p there as well is a double
// release (its result is the release's status: where it is nil, p is
// still held).
func reallocTwice(n int) unsafe.Pointer {
	p := C.malloc(16)
	q := C.realloc(p, C.size_t(n))
	if q == nil {
		return nil
	}
	C.free(p) // want `p is released twice: by C.realloc at line 200 and again here`
	return q
}

// The pointer replaced by realloc's result.
func reallocInPlace(n int) unsafe.Pointer {
	p := C.malloc(16)
	p = C.realloc(p, C.size_t(n))
	return p
}

// A goroutine's release is concurrent: not followed here (known limit).
func goroutineNotFollowed() {
	o := C.obj_new()
	go C.obj_free(o)
	C.obj_free(o)
}

// A release through a type parameter's method, as through an interface,
// is not resolved: not followed here (known limit, doc.go).
type objFreer interface{ release() }

type objBox struct{ o *C.obj }

func (b *objBox) release() { C.obj_free(b.o) }

func releaseTwice[T objFreer](t T) {
	t.release()
	t.release()
}

func typeParamNotFollowed() {
	releaseTwice(&objBox{C.obj_new()})
}

// A release of a struct's contents (the Arrow C data interface's
// ArrowSchemaRelease) and a free of its memory are two different releases.
func contentsThenMemory() {
	schema := C.calloc(1, 64)
	C.ArrowSchemaRelease((*C.struct_ArrowSchema)(schema))
	C.free(schema)
}

// A reviewed finding, silenced on its line.
func ignored() {
	o := C.obj_new()
	C.obj_free(o)
	//lifetime:ignore doublerelease obj_free tolerates a second call in this stub
	C.obj_free(o)
}

// The same, with the directive at the end of the line.
func ignoredTrailing() {
	o := C.obj_new()
	C.obj_free(o)
	C.obj_free(o) //lifetime:ignore doublerelease reviewed
}

// An ignore for another analyzer does not silence this one.
func ignoredOther() {
	o := C.obj_new()
	C.obj_free(o)
	C.obj_free(o) //lifetime:ignore finalizer reviewed // want `o is released twice`
}

// A stale ignore: the second release it was written for is gone, and the
// directive would hide the next finding on its line.
func ignoredStale() {
	o := C.obj_new()
	//lifetime:ignore doublerelease the second free was removed // want `//lifetime:ignore doublerelease matches no doublerelease finding on line \d+: remove it`
	C.obj_free(o)
}

// A release in a deferred function literal and one in a function literal
// called at once: the message names the handle and the literal as written.
func closureTwice() {
	o := C.obj_new()
	defer func() { C.obj_free(o) }()
	func() { C.obj_free(o) }() // want `o is released here and again by the deferred function literal in closureTwice at line \d+ when closureTwice returns; drop this release, or clear o here`
}

// The corrected version releases it once, in the deferred literal.
func closureOnce() {
	o := C.obj_new()
	defer func() { C.obj_free(o) }()
	C.use(nil)
}

// A method that releases without clearing, called twice: the finding is in
// the method. An ignore at the caller's second call silences it for that
// caller (it is used, not stale); another caller without one still gets it.
type Twice struct{ o *C.obj }

func (t *Twice) Free() { C.obj_free(t.o) } // want `t.o is released twice when \(\*Twice\).Free is called twice on the same value, as twiceUnignored does`

func twiceUnignored() {
	t := &Twice{C.obj_new()}
	t.Free()
	t.Free()
}

func twiceIgnored() {
	t := &Twice{C.obj_new()}
	t.Free()
	t.Free() //lifetime:ignore doublerelease Free tolerates it in this stub
}
