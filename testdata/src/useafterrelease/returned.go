package useafterrelease

/*
#include <stdlib.h>
typedef struct { int live; } buf;
static buf* buf_new(void) { return calloc(1, sizeof(buf)); }
static void buf_free(buf* b) { free(b); }
static int buf_len(buf* b) { return b->live; }
*/
import "C"

import (
	"errors"
	"unsafe"
)

// A pointer returned after its release, or with a deferred release that
// runs as the function returns: the caller gets freed memory.
func newFreed() *C.buf {
	b := C.buf_new()
	C.buf_free(b)
	return b // want `b is returned after C.buf_free released it at line 21: the caller gets freed memory`
}

func cString(s string) *C.char {
	p := C.CString(s)
	defer C.free(unsafe.Pointer(p))
	return p // want `p is returned, and the deferred C.free at line 27 releases it as the function returns`
}

type Owner struct{ b *C.buf }

func (o *Owner) Take() unsafe.Pointer {
	defer C.buf_free(o.b)
	return unsafe.Pointer(o.b) // want `o.b is returned, and the deferred C.buf_free`
}

// Corrected, and what is no such return: a value computed before the
// deferred release, the caller's to free, nil after the release, the
// freed pointer with an error (the caller does not use it), and its
// address as an integer key.
func bufLen() int {
	b := C.buf_new()
	defer C.buf_free(b)
	return int(C.buf_len(b))
}

func cStringOwned(s string) *C.char {
	return C.CString(s) // the caller frees it
}

func freedNil() *C.buf {
	b := C.buf_new()
	C.buf_free(b)
	b = nil
	return b
}

func openBuf(fail bool) (*C.buf, error) {
	b := C.buf_new()
	if fail {
		C.buf_free(b)
		return b, errors.New("open failed")
	}
	return b, nil
}

func freedKey() uintptr {
	b := C.buf_new()
	C.buf_free(b)
	return uintptr(unsafe.Pointer(b))
}

// A constructor that cleans up on its error paths: the deferred closure
// releases only when the flag says the function failed. Silent.
func newChecked(fail bool) *C.buf {
	b := C.buf_new()
	ok := false
	defer func() {
		if !ok {
			C.buf_free(b)
		}
	}()
	if fail {
		return nil
	}
	ok = true
	return b
}

func newCheckedErr(steps []func() error) (*C.buf, error) {
	b := C.buf_new()
	var err error
	defer func() {
		if err != nil {
			C.buf_free(b)
		}
	}()
	for _, step := range steps {
		if err = step(); err != nil {
			return nil, err
		}
	}
	return b, nil
}
