// Package status holds the handleleak cases where an acquisition's status
// reaches the branch that tests it through a Go helper, an errcode_ret
// out-parameter or a result code: a failed acquisition acquires nothing.
package status

/*
#include <stdlib.h>
typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st { int live; } *CUcontext;
typedef int CUdevice;
typedef struct cublasContext *cublasHandle_t;
typedef int cublasStatus_t;
typedef struct _cl_context *cl_context;
typedef struct _cl_device_id *cl_device_id;
typedef struct _cl_command_queue *cl_command_queue;
typedef int cl_int;
static CUresult cuMemAlloc(CUdeviceptr *p, size_t n) { return 0; }
static CUresult cuMemFree(CUdeviceptr p) { return 0; }
static CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) { return 0; }
static CUresult cuDevicePrimaryCtxRelease(CUdevice d) { return 0; }
static cublasStatus_t cublasCreate(cublasHandle_t *h) { return 0; }
static cublasStatus_t cublasDestroy(cublasHandle_t h) { return 0; }
static cl_command_queue clCreateCommandQueue(cl_context c, cl_device_id d, long props, cl_int *err) { *err = 0; return 0; }
static cl_int clReleaseCommandQueue(cl_command_queue q) { return 0; }
typedef struct _cl_program *cl_program;
typedef struct _cl_kernel *cl_kernel;
typedef struct _cl_event *cl_event;
typedef long cl_context_properties;
static cl_kernel clCreateKernel(cl_program p, const char *name, cl_int *err) { *err = 0; return 0; }
static cl_int clReleaseKernel(cl_kernel k) { return 0; }
static cl_context clCreateContext(const cl_context_properties *props, int n, const cl_device_id *devs, void *notify, void *user, cl_int *err) { *err = 0; return 0; }
static cl_int clReleaseContext(cl_context c) { return 0; }
static void *clEnqueueMapBuffer(cl_command_queue q, void *buf, int blocking, long flags, size_t off, size_t n, int nwait, const cl_event *wait, cl_event *ev, cl_int *err) { *err = 0; return 0; }
static cl_int clReleaseEvent(cl_event e) { return 0; }
//lifetime:acquire kv_open
//lifetime:release kv_close arg=0
typedef struct kv_store { int fd; } kv_store;
static kv_store *kv_open(const char *path, int create, char **errptr) { return 0; }
static void kv_close(kv_store *s) { }
static void kv_free(void *p) { free(p); }
typedef struct sqlite3 sqlite3;
static int sqlite3_open_v2(const char *f, sqlite3 **db, int flags, const char *vfs) { return 0; }
static int sqlite3_close_v2(sqlite3 *db) { return 0; }

//lifetime:acquire qq_open out=0
//lifetime:release qq_close arg=0
typedef struct qq_db { int fd; } qq_db;
static int qq_open(qq_db **db, int flags) { return 0; }
static int qq_close(qq_db *db) { return 0; }
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"handleleak/statuslib"
)

type cuError int

func (e cuError) Error() string { return fmt.Sprintf("cuda error %d", int(e)) }

// result maps a CUDA status to an error: nil exactly on success.
func result(x C.CUresult) error {
	err := cuError(x)
	if err == 0 {
		return nil
	}
	return err
}

type Ctx struct {
	ctx C.CUcontext
	dev C.CUdevice
}

// The failed retain holds nothing; the success path stores the context.
func (c *Ctx) Retain(d C.CUdevice) error {
	if err := result(C.cuDevicePrimaryCtxRetain(&c.ctx, d)); err != nil {
		return err
	}
	c.dev = d
	return nil
}

// A later failure, after the retain succeeded, leaks it.
func (c *Ctx) RetainLeak(d C.CUdevice, fail bool) error {
	var ctx C.CUcontext
	if err := result(C.cuDevicePrimaryCtxRetain(&ctx, d)); err != nil { // want `the handle C.cuDevicePrimaryCtxRetain acquires into ctx is not released on every path \(the return at line 96 leaks it\)`
		return err
	}
	if fail {
		return errors.New("later failure")
	}
	c.ctx, c.dev = ctx, d
	return nil
}

// The status kept in a variable, checked by a helper of another package.
func Alloc(n int) (C.CUdeviceptr, error) {
	var p C.CUdeviceptr
	st := C.cuMemAlloc(&p, C.size_t(n))
	if err := statuslib.Check(int(st)); err != nil {
		return 0, err
	}
	return p, nil
}

// The same, with a later failure.
func AllocLeak(n int) (C.CUdeviceptr, error) {
	var p C.CUdeviceptr
	st := C.cuMemAlloc(&p, C.size_t(n)) // want `the handle C.cuMemAlloc acquires into p is not released on every path \(the return at line 120 leaks it\)`
	if err := statuslib.Wrap(int(st), "alloc"); err != nil {
		return 0, err
	}
	if n > 1<<20 {
		return 0, errors.New("too large")
	}
	return p, nil
}

// A method helper, in a switch.
type Handle struct{ h C.cublasHandle_t }

func (h *Handle) status(s C.cublasStatus_t) error {
	switch s {
	case 0:
		return nil
	case 1:
		return errors.New("not initialized")
	case 3:
		return errors.New("alloc failed")
	}
	return fmt.Errorf("cublas status %d", int(s))
}

func NewHandle() (*Handle, error) {
	h := &Handle{}
	var raw C.cublasHandle_t
	if err := h.status(C.cublasCreate(&raw)); err != nil {
		return nil, err
	}
	h.h = raw
	return h, nil
}

func UseHandle(fail func() bool) error {
	h := &Handle{}
	var raw C.cublasHandle_t
	if err := h.status(C.cublasCreate(&raw)); err != nil { // want `the handle C.cublasCreate acquires into raw is not released on every path`
		return err
	}
	if fail() {
		return errors.New("failed")
	}
	C.cublasDestroy(raw)
	return nil
}

// errcode_ret: the status comes back through an out-parameter.
func Queue(ctx C.cl_context, dev C.cl_device_id) (C.cl_command_queue, error) {
	var errc C.cl_int
	q := C.clCreateCommandQueue(ctx, dev, 0, &errc)
	if errc != 0 {
		return nil, fmt.Errorf("opencl error %d", int(errc))
	}
	return q, nil
}

func clError(e C.cl_int) error {
	if e == 0 {
		return nil
	}
	return fmt.Errorf("opencl error %d", int(e))
}

func QueueHelper(ctx C.cl_context, dev C.cl_device_id) (C.cl_command_queue, error) {
	var errc C.cl_int
	q := C.clCreateCommandQueue(ctx, dev, 0, &errc)
	if err := clError(errc); err != nil {
		return nil, err
	}
	return q, nil
}

func QueueLeak(ctx C.cl_context, dev C.cl_device_id, fail bool) (C.cl_command_queue, error) {
	var errc C.cl_int
	q := C.clCreateCommandQueue(ctx, dev, 0, &errc) // want `the handle C.clCreateCommandQueue returns is not released on every path`
	if err := clError(errc); err != nil {
		return nil, err
	}
	if fail {
		return nil, errors.New("later failure")
	}
	return q, nil
}

// A boolean helper, both ways round, and a closure.
func ok(rc C.int) bool { return rc == 0 }

func Open(flags int) (*C.qq_db, error) {
	var db *C.qq_db
	if !ok(C.qq_open(&db, C.int(flags))) {
		return nil, errors.New("open failed")
	}
	return db, nil
}

func OpenFailed(flags int) (*C.qq_db, error) {
	var db *C.qq_db
	if statuslib.Failed(int(C.qq_open(&db, C.int(flags)))) {
		return nil, errors.New("open failed")
	}
	return db, nil
}

func OpenClosure(flags int) (*C.qq_db, error) {
	check := func(rc C.int) error {
		if rc != 0 {
			return fmt.Errorf("qq: %d", int(rc))
		}
		return nil
	}
	var db *C.qq_db
	if err := check(C.qq_open(&db, C.int(flags))); err != nil {
		return nil, err
	}
	return db, nil
}

func OpenLeak(flags int, fail bool) error {
	var db *C.qq_db
	if !ok(C.qq_open(&db, C.int(flags))) { // want `the handle C.qq_open acquires into db is not released on every path`
		return errors.New("open failed")
	}
	if fail {
		return errors.New("later failure")
	}
	C.qq_close(db)
	return nil
}

// A status the analysis cannot follow (a helper through a function value,
// a helper that does not map success to nil): silent on that branch.
var checker = func(rc C.int) error { return nil }

func OpenUnknown(flags int) (*C.qq_db, error) {
	var db *C.qq_db
	if err := checker(C.qq_open(&db, C.int(flags))); err != nil {
		return nil, err
	}
	return db, nil
}

func OpenDescribe(flags int) (*C.qq_db, error) {
	var db *C.qq_db
	if err := statuslib.Describe(int(C.qq_open(&db, C.int(flags)))); err != nil {
		return nil, err
	}
	return db, nil
}

// errcode_ret beside other pointer arguments: a C string, properties left
// nil, an array of devices, an event out-parameter.
func Kernel(p C.cl_program, name string) (C.cl_kernel, error) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var errc C.cl_int
	k := C.clCreateKernel(p, cs, &errc)
	if errc != 0 {
		return nil, clError(errc)
	}
	return k, nil
}

func Context(devs []C.cl_device_id) (C.cl_context, error) {
	var errc C.cl_int
	c := C.clCreateContext(nil, C.int(len(devs)), &devs[0], nil, nil, &errc)
	if errc != 0 {
		return nil, clError(errc)
	}
	return c, nil
}

func Map(q C.cl_command_queue, buf unsafe.Pointer, n int) (unsafe.Pointer, C.cl_event, error) {
	var ev C.cl_event
	var errc C.cl_int
	ptr := C.clEnqueueMapBuffer(q, buf, 1, 0, 0, C.size_t(n), 0, nil, &ev, &errc)
	if errc != 0 {
		return nil, nil, clError(errc)
	}
	return ptr, ev, nil
}

func MapLeak(q C.cl_command_queue, buf unsafe.Pointer, n int) (unsafe.Pointer, error) {
	var ev C.cl_event
	var errc C.cl_int
	ptr := C.clEnqueueMapBuffer(q, buf, 1, 0, 0, C.size_t(n), 0, nil, &ev, &errc) // want `the handle C.clEnqueueMapBuffer acquires into ev is not released on every path`
	if errc != 0 {
		return nil, clError(errc)
	}
	return ptr, nil
}

// A library whose success is 1: a helper that compares with 1 says nothing
// about zero, and its branch stays silent.
func succeeded(rc C.int) bool { return rc == 1 }

func OpenOne(flags int) (*C.qq_db, error) {
	var db *C.qq_db
	if !succeeded(C.qq_open(&db, C.int(flags))) {
		return nil, errors.New("open failed")
	}
	return db, nil
}

// A helper's error compared with a sentinel: the branch is not read, and
// stays silent.
var errBusy = errors.New("busy")

func qqErr(rc C.int) error {
	switch rc {
	case 0:
		return nil
	case 5:
		return errBusy
	}
	return fmt.Errorf("qq: %d", int(rc))
}

func OpenBusy(flags int) (*C.qq_db, error) {
	var db *C.qq_db
	if err := qqErr(C.qq_open(&db, C.int(flags))); err == errBusy {
		return nil, err
	} else if err != nil {
		return nil, err
	}
	return db, nil
}

// SQLite, the status checked by a helper of another package.
func OpenSQLite(path string, fail bool) (*C.sqlite3, error) {
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	var db *C.sqlite3
	if err := statuslib.Check(int(C.sqlite3_open_v2(cs, &db, 6, nil))); err != nil { // want `the handle C.sqlite3_open_v2 acquires into db is not released on every path`
		return nil, err
	}
	if fail {
		return nil, errors.New("later failure")
	}
	return db, nil
}

// The error comes back as a C string through an errptr out-parameter:
// non-nil on failure.
type Store struct{ s *C.kv_store }

func OpenStore(path string) (*Store, error) {
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	var cerr *C.char
	s := C.kv_open(cs, 1, &cerr)
	if cerr != nil {
		defer C.kv_free(unsafe.Pointer(cerr))
		return nil, errors.New(C.GoString(cerr))
	}
	return &Store{s: s}, nil
}

func OpenStoreLeak(path string, readonly bool) (*Store, error) {
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	var cerr *C.char
	s := C.kv_open(cs, 1, &cerr) // want `the handle C.kv_open returns is not released on every path`
	if cerr != nil {
		defer C.kv_free(unsafe.Pointer(cerr))
		return nil, errors.New(C.GoString(cerr))
	}
	if readonly {
		return nil, errors.New("read-only")
	}
	return &Store{s: s}, nil
}

func (s *Store) Close() { C.kv_close(s.s) }

// The error message handed to a helper that makes it an error.
func fromErr(cerr *C.char) (err error) {
	if cerr != nil {
		err = errors.New(C.GoString(cerr))
		C.kv_free(unsafe.Pointer(cerr))
	}
	return
}

func OpenStoreHelper(path string) (s *Store, err error) {
	cs := C.CString(path)
	var cerr *C.char
	raw := C.kv_open(cs, 1, &cerr)
	if err = fromErr(cerr); err == nil {
		s = &Store{s: raw}
	}
	C.free(unsafe.Pointer(cs))
	return
}

// A handle passed to a function is not a test of its status: the leak
// after the check stays found.
func count(s *C.kv_store) int { return 0 }

func Probe(path string) error {
	cs := C.CString(path)
	defer C.free(unsafe.Pointer(cs))
	s := C.kv_open(cs, 0, nil) // want `the handle C.kv_open returns is not released on every path`
	if s == nil {
		return errors.New("open failed")
	}
	if count(s) == 0 {
		return errors.New("empty")
	}
	C.kv_close(s)
	return nil
}
