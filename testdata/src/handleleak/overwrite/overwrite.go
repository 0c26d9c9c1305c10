// Package overwrite holds the handleleak cases of a method that acquires
// into a field (an Init) called while the field holds a live handle.
package overwrite

/*
#include <stdlib.h>
typedef struct cublasContext *cublasHandle_t;
typedef int cublasStatus_t;
typedef struct CUstream_st *CUstream;
static cublasStatus_t cublasCreate(cublasHandle_t *h) { return 0; }
static cublasStatus_t cublasDestroy(cublasHandle_t h) { return 0; }
static int cuStreamCreate(CUstream *s, unsigned flags) { return 0; }
static int cuStreamDestroy(CUstream s) { return 0; }

//lifetime:acquire zz_ctx_new
//lifetime:release zz_ctx_free arg=0
typedef struct zz_ctx { int n; } zz_ctx;
static zz_ctx *zz_ctx_new(void) { return 0; }
static void zz_ctx_free(zz_ctx *c) { }
*/
import "C"

import "errors"

type Handle struct{ h C.cublasHandle_t }

// Init acquires into h.h without looking at what is there.
func (h *Handle) Init() error {
	if C.cublasCreate(&h.h) != 0 {
		return errors.New("cublas: create failed")
	}
	return nil
}

func (h *Handle) Close() {
	C.cublasDestroy(h.h)
	h.h = nil
}

// Called twice on the same value: the first handle leaks.
func Twice() (*Handle, error) {
	h := &Handle{}
	if err := h.Init(); err != nil { // want `the handle \(\*Handle\).Init acquires into h.h is overwritten by \(\*Handle\).Init at line 46 while still held, and leaks`
		return nil, err
	}
	if err := h.Init(); err != nil {
		return nil, err
	}
	return h, nil
}

// Closed in between, or a failed first Init: nothing is live.
func Reinit(h *Handle) error {
	if err := h.Init(); err != nil {
		return err
	}
	h.Close()
	return h.Init()
}

func Retry(h *Handle) error {
	if err := h.Init(); err == nil {
		return nil
	}
	return h.Init()
}

// Two values: no overwrite.
type Pair struct{ a, b Handle }

func NewPair() (*Pair, error) {
	p := &Pair{}
	if err := p.a.Init(); err != nil {
		return nil, err
	}
	if err := p.b.Init(); err != nil {
		return nil, err
	}
	return p, nil
}

// A copy-paste slip: a initialised twice.
func NewPairSlip() (*Pair, error) {
	p := &Pair{}
	if err := p.a.Init(); err != nil { // want `the handle \(\*Handle\).Init acquires into p.a.h is overwritten`
		return nil, err
	}
	if err := p.a.Init(); err != nil {
		return nil, err
	}
	return p, nil
}

// An Init that releases what is there first, and one that checks.
type Stream struct{ s C.CUstream }

func (st *Stream) Init() error {
	if st.s != nil {
		C.cuStreamDestroy(st.s)
	}
	if C.cuStreamCreate(&st.s, 0) != 0 {
		return errors.New("stream: create failed")
	}
	return nil
}

type Ctx struct{ c *C.zz_ctx }

func (c *Ctx) Init() error {
	if c.c != nil {
		return errors.New("already initialised")
	}
	c.c = C.zz_ctx_new()
	if c.c == nil {
		return errors.New("out of memory")
	}
	return nil
}

func Restart(st *Stream, c *Ctx) error {
	if err := st.Init(); err != nil {
		return err
	}
	if err := st.Init(); err != nil {
		return err
	}
	if err := c.Init(); err != nil {
		return err
	}
	return c.Init()
}

// A direct acquisition, then the Init on the same field.
func Direct() (*Handle, error) {
	h := &Handle{}
	if C.cublasCreate(&h.h) != 0 { // want `the handle C.cublasCreate acquires into h.h is overwritten by \(\*Handle\).Init at line 139`
		return nil, errors.New("create failed")
	}
	if err := h.Init(); err != nil {
		return nil, err
	}
	return h, nil
}

// An Init through a helper, acquiring into a local first, in a loop.
type Lib struct{ c *C.zz_ctx }

func (l *Lib) Open() error {
	c := C.zz_ctx_new()
	if c == nil {
		return errors.New("out of memory")
	}
	l.c = c
	return nil
}

func OpenAll(libs []*Lib, again bool) error {
	l := &Lib{}
	if err := l.Open(); err != nil { // want `the handle \(\*Lib\).Open acquires into l.c is overwritten`
		return err
	}
	if again {
		if err := l.Open(); err != nil {
			return err
		}
	}
	libs[0] = l
	return nil
}

func (c *Ctx) Close() {
	C.zz_ctx_free(c.c)
	c.c = nil
}
