// Package inline holds the handleleak cases of C strings and buffers made
// inline, as an argument of the call that uses them.
package inline

/*
#include <stdlib.h>
#include <string.h>
typedef int CUresult;
typedef struct CUmod_st { int n; } *CUmodule;
static CUresult cuModuleLoad(CUmodule *m, const char *fname) { return 0; }
static CUresult cuModuleUnload(CUmodule m) { return 0; }
static void log_msg(const char *msg) { }
static void set_opt(const char *key, const char *val) { }
static int checksum(const void *p, int n) { return 0; }
static int open_db(const char *path, int flags, void **db) { return 0; }
static void keep_name(char *name) { }
static void take_buf(void *p, int n) { }
static void lib_result(void *ctx, const char *s, int n, void (*d)(void *)) { }
static void result_text(void *ctx, const char *s, int n) { lib_result(ctx, s, n, &free); }
*/
import "C"

import (
	"errors"
	"unsafe"
)

// The C string passed straight to the call is never freed.
func Load(name string) (C.CUmodule, error) {
	var m C.CUmodule
	if C.cuModuleLoad(&m, C.CString(name)) != 0 { // want `the handle C.CString returns is not released on every path`
		return nil, errors.New("load failed")
	}
	return m, nil
}

func LoadOK(name string) (C.CUmodule, error) {
	var m C.CUmodule
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	if C.cuModuleLoad(&m, cs) != 0 {
		return nil, errors.New("load failed")
	}
	return m, nil
}

// A const char * parameter of the package's own C reads its argument: it
// does not take ownership.
func Log(msg string) {
	C.log_msg(C.CString(msg)) // want `the handle C.CString returns is not released on every path`
}

// Two C strings made on one line are two leaks, each reported at its own
// column (one finding per line hid the second).
func SetOpt(key, val string) {
	C.set_opt(C.CString(key), C.CString(val)) // want `the handle C.CString returns is not released on every path` `the handle C.CString returns is not released on every path`
}

func SetOptOK(key, val string) {
	ck, cv := C.CString(key), C.CString(val)
	C.set_opt(ck, cv)
	C.free(unsafe.Pointer(ck))
	C.free(unsafe.Pointer(cv))
}

// Two C strings made on one line, one freed and one not.
func SetHalfOpt(key, val string) {
	ck, cv := C.CString(key), C.CString(val) // want `the handle C.CString returns is not released on every path`
	C.set_opt(ck, cv)
	C.free(unsafe.Pointer(ck))
}

func LogVar(msg string) {
	cs := C.CString(msg) // want `the handle C.CString returns is not released on every path`
	C.log_msg(cs)
}

func LogOK(msg string) {
	cs := C.CString(msg)
	C.log_msg(cs)
	C.free(unsafe.Pointer(cs))
}

func Sum(b []byte) int {
	return int(C.checksum(C.CBytes(b), C.int(len(b)))) // want `the handle C.CBytes returns is not released on every path`
}

type DB struct{ p unsafe.Pointer }

func (d *DB) Open(path string) error {
	if C.open_db(C.CString(path), 0, &d.p) != 0 { // want `the handle C.CString returns is not released on every path`
		return errors.New("open failed")
	}
	return nil
}

// A non-const parameter of the package's own C may keep what it is given.
func Keep(name string) {
	C.keep_name(C.CString(name))
}

func Take(b []byte) {
	C.take_buf(C.CBytes(b), C.int(len(b)))
}

// Released in the same expression.
func Free(name string) {
	C.free(unsafe.Pointer(C.CString(name)))
}

// A const parameter of the package's own C that hands the string on with
// free as its destructor takes ownership.
func Result(ctx unsafe.Pointer, s string) {
	cs := C.CString(s)
	C.result_text(ctx, cs, C.int(len(s)))
}

func ResultInline(ctx unsafe.Pointer, s string) {
	C.result_text(ctx, C.CString(s), C.int(len(s)))
}
