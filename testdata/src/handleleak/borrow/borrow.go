// Package borrow holds the handleleak cases of borrowing C functions: a
// call that uses a handle without keeping it does not hand it on, so the
// leak after it is found.
package borrow

/*
#include <stdlib.h>
typedef struct { int cs; } engine;
typedef struct { int n; } pipe_t;
//lifetime:acquire engine_create
//lifetime:release engine_destroy
//lifetime:borrow engine_configure arg=0
//lifetime:borrow engine_bind arg=0
//lifetime:acquire pipe_open
//lifetime:release pipe_close
//lifetime:acquire arena_new
//lifetime:release arena_free
//lifetime:acquire arena_node out=1 parent=0 freed-with-parent
//lifetime:acquire arena_blob out=1 parent=0
//lifetime:release blob_free
static engine* engine_create(void) { return calloc(1, sizeof(engine)); }
static int engine_configure(engine* e, int cs) { e->cs = cs; return cs < 0; }
static void engine_destroy(engine* e) { free(e); }
static int engine_adopt(engine* e, pipe_t* p) { return 0; }
static int engine_bind(engine* e, pipe_t* p) { return 0; }
static pipe_t* pipe_open(void) { return calloc(1, sizeof(pipe_t)); }
static void pipe_close(pipe_t* p) { free(p); }
static int pipe_write(pipe_t* p, int v) { return v; }
static pipe_t* shared_pipe;
static int pipe_share(pipe_t* p, int v) { shared_pipe = p; return v < 0; }
typedef struct { int used; } arena;
typedef struct { int v; } node;
static arena* arena_new(void) { return calloc(1, sizeof(arena)); }
static void arena_free(arena* a) { free(a); }
static int arena_node(arena* a, node** n) { static node x; *n = &x; return 0; }
static int arena_blob(arena* a, node** n) { *n = malloc(sizeof(node)); return 0; }
static void blob_free(node* n) { free(n); }
*/
import "C"

import "errors"

var errConfig = errors.New("bad configuration")

// engine_configure only uses the engine: the error return leaks it.
func newEngine(cs int) (*C.engine, error) {
	h := C.engine_create() // want `the handle C.engine_create returns is not released on every path`
	if C.engine_configure(h, C.int(cs)) != 0 {
		return nil, errConfig
	}
	return h, nil
}

func newEngineOK(cs int) (*C.engine, error) {
	h := C.engine_create()
	if C.engine_configure(h, C.int(cs)) != 0 {
		C.engine_destroy(h)
		return nil, errConfig
	}
	return h, nil
}

// A function of the package's own C that no directive mentions may keep
// what it is given: handed on, no finding.
func adopt(e *C.engine) error {
	p := C.pipe_open()
	if C.engine_adopt(e, p) != 0 {
		return errConfig
	}
	return nil
}

// A borrow of argument 0 says nothing of argument 1: the package's own C
// may keep the pipe.
func bind(e *C.engine) error {
	p := C.pipe_open()
	if C.engine_bind(e, p) != 0 {
		return errConfig
	}
	return nil
}

// A Go function marked as borrowing its parameter: calling it does not
// hand the handle on, even though it calls C code that might keep it.
//
//lifetime:borrow p
func send(p *C.pipe_t, v int) int { return int(C.pipe_write(p, C.int(v))) }

func sendOnce(v int) error {
	p := C.pipe_open() // want `the handle C.pipe_open returns is not released on every path`
	if send(p, v) != v {
		return errConfig
	}
	C.pipe_close(p)
	return nil
}

func sendOnceOK(v int) error {
	p := C.pipe_open()
	defer C.pipe_close(p)
	if send(p, v) != v {
		return errConfig
	}
	return nil
}

// Without the directive, the Go function is read through: pipe_write is
// a method of the pipe (its name names its first argument's type) whose
// body uses the pipe only during the call, so the pipe is still the
// caller's, and the error return leaks it.
func push(p *C.pipe_t, v int) int { return int(C.pipe_write(p, C.int(v))) }

func pushOnce(v int) error {
	p := C.pipe_open() // want `the handle C.pipe_open returns is not released on every path \(the return at line 116 leaks it\)`
	if push(p, v) != v {
		return errConfig
	}
	C.pipe_close(p)
	return nil
}

// A method of the pipe whose body keeps it (stores it in a variable of the
// package's C) takes it: handed on, no finding.
func shareOnce(v int) error {
	p := C.pipe_open()
	if C.pipe_share(p, C.int(v)) != 0 {
		return errConfig
	}
	return nil
}

// A node is freed with its arena (freed-with-parent): keeping it unreleased
// is no leak.
func nodes(a *C.arena, k int) error {
	var n *C.node
	if C.arena_node(a, &n) != 0 {
		return errConfig
	}
	if k < 0 {
		return errConfig
	}
	return nil
}

// A blob belongs to its arena but is not freed with it: it leaks.
func blobs(a *C.arena, k int) error {
	var n *C.node
	C.arena_blob(a, &n) // want `the handle C.arena_blob acquires into n is not released on every path`
	if k < 0 {
		return errConfig
	}
	C.blob_free(n)
	return nil
}
