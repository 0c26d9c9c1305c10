// Package copyout: a handle copied out of a field under the lock and
// passed to C after the unlock is still the field's: Close, under the
// same lock, can release it in between. Taken (copied and cleared) under
// the lock, it is the function's own.
package copyout

/*
#include <stdlib.h>
typedef struct { int n; } dev_t2;
static void dev_close(dev_t2* d) { free(d); }
static int dev_write(dev_t2* d, int x) { return d->n + x; }
*/
import "C"

import (
	"errors"
	"sync"
)

// Dev is safe for concurrent use by multiple goroutines.
type Dev struct {
	lock sync.Mutex
	d    *C.dev_t2
}

func (v *Dev) Close() {
	v.lock.Lock()
	defer v.lock.Unlock()
	if v.d != nil {
		C.dev_close(v.d)
		v.d = nil
	}
}

func (v *Dev) Write(x int) (int, error) {
	v.lock.Lock()
	d := v.d
	v.lock.Unlock()
	if d == nil {
		return 0, errors.New("closed")
	}
	return int(C.dev_write(d, C.int(x))), nil // want `Write passes C.dev_write the handle in v.d without v.lock, which Close holds when it changes it`
}

// WriteLocked holds the lock across the call.
func (v *Dev) WriteLocked(x int) (int, error) {
	v.lock.Lock()
	defer v.lock.Unlock()
	if v.d == nil {
		return 0, errors.New("closed")
	}
	return int(C.dev_write(v.d, C.int(x))), nil
}

// Detach takes the handle under the lock: after the unlock it is its own.
func (v *Dev) Detach() {
	v.lock.Lock()
	d := v.d
	v.d = nil
	v.lock.Unlock()
	if d != nil {
		C.dev_close(d)
	}
}
