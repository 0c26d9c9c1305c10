// Package retry holds the doublerelease cases of a release retried while
// it reports failure: a release that failed released nothing, so calling
// it again on that branch is no double release. Retrying after a success
// is one. The status is the first result of the errno-returning form
// (rc, err := C.f(x)), as retry loops on EINTR write it.
package retry

/*
#include <errno.h>
#include <stdlib.h>
typedef struct dev { int n; } dev;
typedef struct conn { int n; } conn;
//lifetime:release dev_release
//lifetime:release conn_shutdown
// dev_release frees d and returns 0, or returns EBUSY and keeps d.
static int dev_release(dev *d) { free(d); return 0; }
static int conn_shutdown(conn *c) { free(c); return 0; }
*/
import "C"

import (
	"errors"
	"syscall"
)

var errBusy = errors.New("busy")

// check maps a status to an error: nil exactly when it is 0.
func check(rc C.int) error {
	if rc != 0 {
		return errBusy
	}
	return nil
}

// A bounded retry that returns on success.
func Release(d *C.dev) error {
	for i := 0; i < 3; i++ {
		if rc, _ := C.dev_release(d); rc == 0 {
			return nil
		}
	}
	return errBusy
}

// A retry while the status is a given error code, in a method on a field.
type Device struct{ d *C.dev }

func (x *Device) Close() {
	for {
		rc, err := C.dev_release(x.d)
		if rc != -1 || err != syscall.EINTR {
			break
		}
	}
	x.d = nil
}

// The status through a helper that maps it to an error (silent before
// this rule too: kept as a known negative).
func Shutdown(c *C.conn) {
	for {
		rc, _ := C.conn_shutdown(c)
		if err := check(rc); err == nil {
			break
		}
	}
}

// Retrying after a success releases twice.
func ReleaseTwice(d *C.dev) {
	for i := 0; i < 2; i++ {
		if rc, _ := C.dev_release(d); rc != 0 { // want `d is released again on the next iteration of the loop`
			break
		}
	}
}

// The status read but not tested: every iteration releases.
func ReleaseEach(d *C.dev) {
	for i := 0; i < 2; i++ {
		_, err := C.dev_release(d) // want `d is released again on the next iteration of the loop`
		if err != nil {
			continue
		}
	}
}
