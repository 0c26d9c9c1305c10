// Package golit holds the finalizer cases of function literals that a go
// statement starts: once started, the goroutine's own uses are all that
// keep a captured object alive (the function that started it may have
// returned), so a C call with a handle read out of it needs a KeepAlive
// in the literal. A literal run where it is made, or a goroutine whose
// starter keeps the object alive until it is done, needs none.
package golit

/*
#include <stdlib.h>
typedef struct { int live; } lctx;
static lctx* lctx_new(void) { return calloc(1, sizeof(lctx)); }
static void lctx_free(lctx* c) { free(c); }
static int lctx_decode(lctx* c, int n) { return c->live + n; }
*/
import "C"

import (
	"runtime"
	"sync"
)

type Context struct{ ctx *C.lctx }

func New() *Context {
	c := &Context{C.lctx_new()}
	runtime.SetFinalizer(c, func(c *Context) { C.lctx_free(c.ctx) })
	return c
}

func (c *Context) DecodeAsync(n int) <-chan int {
	done := make(chan int, 1)
	go func() {
		done <- int(C.lctx_decode(c.ctx, C.int(n))) // want `c may be collected while C.lctx_decode runs with c.ctx: nothing uses c after the call`
	}()
	return done
}

// The corrected literal keeps c alive itself.
func (c *Context) DecodeAsyncFixed(n int) <-chan int {
	done := make(chan int, 1)
	go func() {
		done <- int(C.lctx_decode(c.ctx, C.int(n)))
		runtime.KeepAlive(c)
	}()
	return done
}

// The starter waits for the goroutine and keeps c alive until then.
func (c *Context) DecodeWait(n int) int {
	var wg sync.WaitGroup
	var r int
	wg.Add(1)
	go func() {
		defer wg.Done()
		r = int(C.lctx_decode(c.ctx, C.int(n)))
	}()
	wg.Wait()
	runtime.KeepAlive(c)
	return r
}

// A literal run where it is made: its enclosing method's frame holds c.
func (c *Context) DecodeNow(n int) int {
	f := func() int { return int(C.lctx_decode(c.ctx, C.int(n))) }
	r := f()
	runtime.KeepAlive(c)
	return r
}

// A literal its method returns runs whenever the caller calls the result,
// after the method has returned: as a goroutine's, only its own uses keep
// c alive (f := New().Decoder(); f(1)).
func (c *Context) Decoder() func(n int) int {
	return func(n int) int {
		return int(C.lctx_decode(c.ctx, C.int(n))) // want `c may be collected while C.lctx_decode runs with c.ctx: nothing uses c after the call`
	}
}

// The corrected literal keeps c alive itself.
func (c *Context) DecoderFixed() func(n int) int {
	return func(n int) int {
		defer runtime.KeepAlive(c)
		return int(C.lctx_decode(c.ctx, C.int(n)))
	}
}

// A literal returned with an error, from a plain function.
func decoderOf(c *Context) (func() int, error) {
	return func() int {
		return int(C.lctx_decode(c.ctx, 0)) // want `c may be collected while C.lctx_decode runs with c.ctx`
	}, nil
}

var _, _ = decoderOf(nil)

// A literal returned on one path and called in place on another: its
// enclosing function may hold c, and nothing is said.
func (c *Context) DecoderOr(now bool) (func() int, int) {
	f := func() int { return int(C.lctx_decode(c.ctx, 0)) }
	if now {
		return nil, f()
	}
	return f, 0
}

// A literal called in place, with nothing using c after the call: the
// closure's context is not kept while it runs, and c may be collected.
func (c *Context) DecodeNowDead(n int) int {
	f := func() int {
		return int(C.lctx_decode(c.ctx, C.int(n))) // want `c may be collected while C.lctx_decode runs with c.ctx`
	}
	return f()
}

// Invoked where it is written, then c used after.
func (c *Context) DecodeInvoked(n int) int {
	r := func() int { return int(C.lctx_decode(c.ctx, C.int(n))) }()
	runtime.KeepAlive(c)
	return r
}

// Invoked where it is written, in an unexported helper whose only caller
// keeps c after the call.
func (c *Context) decodeInvokedDead(n int) int {
	return func() int { return int(C.lctx_decode(c.ctx, C.int(n))) }()
}

func (c *Context) DecodeTwice(n int) int {
	r := c.decodeInvokedDead(n) + c.decodeInvokedDead(n)
	runtime.KeepAlive(c)
	return r
}
