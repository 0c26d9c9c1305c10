// Package lifetimedirective holds the analysistest cases of the
// lifetimedirective analyzer: every malformed or misplaced directive is
// reported at its position; well-formed ones are silent.
package lifetimedirective

// #include <stdlib.h>
// typedef struct { int live; } ctx;
// static ctx* ctx_open(void) { return malloc(sizeof(ctx)); }
// static void ctx_shut(ctx* c) { free(c); }
//
// //lifetime:acquire ctx_open
// //lifetime:release ctx_shut arg=0
// //lifetime:relase ctx_shut // want `unknown directive //lifetime:relase`
// //lifetime:release ctx_shut arg=x // want `//lifetime:release: arg="x": want an argument index from 0`
// //lifetime:release ctx_nothere // want `the package calls no C function ctx_nothere`
// //lifetime:acquire ctx_open out=1 result // want `result and out= exclude each other`
// //lifetime:handle ctx_open // want `//lifetime:handle does not apply in a cgo preamble; it goes on a type declaration`
// static void ctx_pair(ctx* a, ctx** b) { *b = a; }
// static void ctx_drop(ctx* c) { free(c); }
// //lifetime:acquire ctx_pair out=2 // want `//lifetime:acquire ctx_pair: out=2, but C.ctx_pair takes 2 arguments \(indices count from 0\)`
// //lifetime:acquire ctx_pair out=1 parent=0
// //lifetime:release ctx_drop arg=1 // want `//lifetime:release ctx_drop: arg=1, but C.ctx_drop takes 1 argument`
import "C"

// Ctx is well annotated.
//
//lifetime:handle
//lifetime:threadsafe
type Ctx struct{ c *C.ctx }

// Bad is both threadsafe and confined.
//
//lifetime:threadsafe
//lifetime:confined // want `type Bad cannot be both //lifetime:threadsafe and //lifetime:confined`
type Bad struct{}

// Args gives arguments to a type directive.
//
//lifetime:handle yes // want `//lifetime:handle takes no arguments`
type Args struct{}

// Open returns a fresh handle.
//
//lifetime:acquire
func Open() *Ctx { return &Ctx{c: C.ctx_open()} }

// Close releases the receiver.
//
//lifetime:release
func (c *Ctx) Close() { C.ctx_shut(c.c) }

// Pair and Drop call the C functions whose directives name out-of-range
// arguments.
func Pair(c *Ctx) *C.ctx {
	var b *C.ctx
	C.ctx_pair(c.c, &b)
	C.ctx_drop(b)
	return nil
}

// Give releases its parameter.
//
//lifetime:release p
func Give(p *Ctx) {}

// Bad names a parameter that does not exist.
//
//lifetime:release q // want `//lifetime:release q: Take has no parameter q`
func Take(p *Ctx) {}

// NoRecv has no receiver to release.
//
//lifetime:release // want `//lifetime:release without a parameter releases the receiver, but NoRecv has none`
func NoRecv() {}

// Nothing returns nothing to acquire.
//
//lifetime:acquire // want `//lifetime:acquire: Nothing returns nothing`
func Nothing() {}

// Handle on a function.
//
//lifetime:handle // want `//lifetime:handle does not apply to a function; it goes on a type declaration`
func Misplaced() {}

func ignores(c *Ctx) {
	//lifetime:ignore doublerelease the second Close is a no-op in this build
	c.Close()
	c.Close() //lifetime:ignore doublerelease,finalizer reviewed
	//lifetime:ignore doublerelease // want `//lifetime:ignore doublerelease needs a reason after the analyzer name: //lifetime:ignore doublerelease reason`
	c.Close()
	//lifetime:ignore // want `//lifetime:ignore needs an analyzer name and a reason`
	c.Close()
	//lifetime:ignore doublereleas typo // want `//lifetime:ignore doublereleas: unknown analyzer "doublereleas"`
	c.Close()
	// lifetime:ignore doublerelease with a space // want `malformed directive`
	c.Close()
	//lifetime:bogus // want `unknown directive //lifetime:bogus`
	c.Close()
}

var _ = ignores
