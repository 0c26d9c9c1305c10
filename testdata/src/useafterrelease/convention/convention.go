// Package convention: a method that passes C a handle its release method
// clears is reported only when checking is the type's convention, inferred
// from its own methods as checklocks infers guards.
package convention

/*
#include <stdlib.h>
typedef struct { int n; } rbd_image;
static void rbd_close(rbd_image* i) {}
static int rbd_size(rbd_image* i, int* out) { return 0; }
static int rbd_flatten(rbd_image* i) { return 0; }
static int rbd_resize(rbd_image* i, int n) { return 0; }
static int rbd_stat(rbd_image* i, int* out) { return 0; }
static int rbd_lock(rbd_image* i) { return 0; }
static int rbd_unlock(rbd_image* i) { return 0; }

typedef struct { int n; } ctx_t;
static void ctx_release(ctx_t* c) {}
static int ctx_set_armor(ctx_t* c, int on) { return 0; }
static int ctx_set_textmode(ctx_t* c, int on) { return 0; }
static int ctx_op_encrypt(ctx_t* c) { return 0; }
static int ctx_op_decrypt(ctx_t* c) { return 0; }
static int ctx_op_sign(ctx_t* c) { return 0; }
*/
import "C"

import "errors"

var ErrClosed = errors.New("closed")

// Image checks through a validating helper in all but one method.
type Image struct{ image *C.rbd_image }

func (i *Image) validate() error {
	if i.image == nil {
		return ErrClosed
	}
	return nil
}

func (i *Image) Close() error {
	if err := i.validate(); err != nil {
		return err
	}
	C.rbd_close(i.image)
	i.image = nil
	return nil
}

func (i *Image) Size() (int, error) {
	if err := i.validate(); err != nil {
		return 0, err
	}
	var n C.int
	C.rbd_size(i.image, &n)
	return int(n), nil
}

func (i *Image) Flatten() error {
	if err := i.validate(); err != nil {
		return err
	}
	return status(C.rbd_flatten(i.image))
}

func (i *Image) Resize(n int) error {
	if err := i.validate(); err != nil {
		return err
	}
	return status(C.rbd_resize(i.image, C.int(n)))
}

func (i *Image) Stat() (int, error) {
	if err := i.validate(); err != nil {
		return 0, err
	}
	var n C.int
	return int(n), status(C.rbd_stat(i.image, &n))
}

// The exception.
func (i *Image) Lock() error {
	return status(C.rbd_lock(i.image)) // want `Lock passes i.image to C.rbd_lock without checking it, but Close checks it, releases it and sets it to nil, and 4 of the 5 methods of Image that pass it to C check it first`
}

func status(rc C.int) error {
	if rc != 0 {
		return errors.New("rbd error")
	}
	return nil
}

// Conn checks through a helper that panics.
type Conn struct{ c *C.ctx_t }

func (c *Conn) mustOpen() {
	if c.c == nil {
		panic("use of closed Conn")
	}
}

func (c *Conn) Close() {
	if c.c != nil {
		C.ctx_release(c.c)
		c.c = nil
	}
}

func (c *Conn) Armor(on bool) {
	c.mustOpen()
	C.ctx_set_armor(c.c, b(on))
}

func (c *Conn) TextMode(on bool) {
	c.mustOpen()
	C.ctx_set_textmode(c.c, b(on))
}

func (c *Conn) Encrypt() int {
	c.mustOpen()
	return int(C.ctx_op_encrypt(c.c))
}

func (c *Conn) Decrypt() int {
	c.mustOpen()
	return int(C.ctx_op_decrypt(c.c))
}

func (c *Conn) Sign() int {
	return int(C.ctx_op_sign(c.c)) // want `Sign passes c.c to C.ctx_op_sign without checking it, but Close checks it, releases it and sets it to nil, and 4 of the 5 methods of Conn`
}

func b(on bool) C.int {
	if on {
		return 1
	}
	return 0
}

// Context's methods do not check: no convention, nothing reported (a
// binding whose Close clears the handle only to make Close idempotent).
type Context struct{ c *C.ctx_t }

func (c *Context) Release() {
	if c.c != nil {
		C.ctx_release(c.c)
		c.c = nil
	}
}

func (c *Context) Armor(on bool)    { C.ctx_set_armor(c.c, b(on)) }
func (c *Context) TextMode(on bool) { C.ctx_set_textmode(c.c, b(on)) }
func (c *Context) Encrypt() int     { return int(C.ctx_op_encrypt(c.c)) }
func (c *Context) Decrypt() int     { return int(C.ctx_op_decrypt(c.c)) }

func (c *Context) Sign() (int, error) {
	if c.c == nil {
		return 0, ErrClosed
	}
	return int(C.ctx_op_sign(c.c)), nil
}

// Volume: a closed flag tested by four methods, a fifth that does not,
// and methods that reach C through a Go helper without a test, which
// count against the convention: silent.
type Volume struct {
	img    *C.rbd_image
	closed bool
}

func (v *Volume) Close() {
	if !v.closed {
		C.rbd_close(v.img)
		v.img = nil
		v.closed = true
	}
}

func flatten(img *C.rbd_image) error { return status(C.rbd_flatten(img)) }

func (v *Volume) Flatten() error  { return flatten(v.img) }
func (v *Volume) Flatten2() error { return flatten(v.img) }
func (v *Volume) Flatten3() error { return flatten(v.img) }

func (v *Volume) Lock() error {
	if v.closed {
		return ErrClosed
	}
	return status(C.rbd_lock(v.img))
}

func (v *Volume) Unlock() error {
	if v.closed {
		return ErrClosed
	}
	return status(C.rbd_unlock(v.img))
}

func (v *Volume) Resize(n int) error {
	if v.closed {
		return ErrClosed
	}
	return status(C.rbd_resize(v.img, C.int(n)))
}

func (v *Volume) Stat() error {
	if v.closed {
		return ErrClosed
	}
	var n C.int
	return status(C.rbd_stat(v.img, &n))
}

func (v *Volume) Size() int {
	var n C.int
	C.rbd_size(v.img, &n)
	return int(n)
}
