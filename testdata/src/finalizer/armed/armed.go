// Package armed: a finalizer armed before construction has succeeded, so
// that the error return hands it a handle that was never created.
package armed

/*
#include <stdlib.h>
typedef struct { int n; } tensor;
static int tensor_new(tensor** out) { *out = calloc(1, sizeof(tensor)); return 0; }
static void tensor_free(tensor* t) { free(t); }

typedef struct { int n; } blas_ctx;
static int blasCreate(blas_ctx** out) { *out = calloc(1, sizeof(blas_ctx)); return 0; }
static void blasDestroy(blas_ctx* h) { free(h); }
*/
import "C"

import (
	"errors"
	"runtime"
)

func status(rc C.int) error {
	if rc != 0 {
		return errors.New("failed")
	}
	return nil
}

type Tensor struct{ c *C.tensor }

func (t *Tensor) free() { C.tensor_free(t.c) }

// The acquisition happens in a helper method.
func (t *Tensor) init() error { return status(C.tensor_new(&t.c)) }

func NewTensor() (*Tensor, error) {
	t := &Tensor{}
	runtime.SetFinalizer(t, (*Tensor).free) // want `the finalizer is armed before t.c is acquired \(at line 39\): when that fails, the return at line 40 drops t`
	if err := t.init(); err != nil {
		return nil, err
	}
	return t, nil
}

// The handle comes back in an out-parameter and is copied into the field
// once the status says it exists.
func NewTensorOut() (*Tensor, error) {
	t := new(Tensor)
	runtime.SetFinalizer(t, (*Tensor).free) // want `the finalizer is armed before t.c is acquired`
	var h *C.tensor
	if err := status(C.tensor_new(&h)); err != nil {
		return nil, err
	}
	t.c = h
	return t, nil
}

// Corrected: armed once the handle exists.
func NewTensorOK() (*Tensor, error) {
	t := &Tensor{}
	if err := t.init(); err != nil {
		return nil, err
	}
	runtime.SetFinalizer(t, (*Tensor).free)
	return t, nil
}

// Another library's names, the status tested through a helper, the
// finalizer a literal.
type Handle struct{ h *C.blas_ctx }

func Create() (*Handle, error) {
	h := &Handle{}
	runtime.SetFinalizer(h, func(h *Handle) { C.blasDestroy(h.h) }) // want `the finalizer is armed before h.h is acquired`
	if err := status(C.blasCreate(&h.h)); err != nil {
		return nil, err
	}
	return h, nil
}

// A finalizer that tests the handle skips one never created.
func CreateChecked() (*Handle, error) {
	h := &Handle{}
	runtime.SetFinalizer(h, func(h *Handle) {
		if h.h != nil {
			C.blasDestroy(h.h)
		}
	})
	if err := status(C.blasCreate(&h.h)); err != nil {
		return nil, err
	}
	return h, nil
}
