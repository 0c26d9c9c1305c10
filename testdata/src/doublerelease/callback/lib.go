// Package callback: what a library passes to an //export callback is lent
// for the call. Releasing it, directly, through a helper, or through a
// finalizer armed on a Go object that wraps it, frees it twice: the library
// frees it itself. A void* payload is the Go side's own data, and a
// callback declared //lifetime:release PARAM is given PARAM to release.
package callback

/*
#include <stdlib.h>
typedef struct repo { int refs; } repo_t;
typedef struct cursor { int at; } cursor_t;
repo_t* repo_open(void) { return calloc(1, sizeof(repo_t)); }
void repo_free(repo_t* r) { free(r); }
int repo_count(repo_t* r) { return r->refs; }
void cursor_close(cursor_t* c) { free(c); }
int cursor_next(cursor_t* c) { return ++c->at; }
*/
import "C"

import "runtime"

// Repo wraps a repository; the finalizer releases it.
type Repo struct{ ptr *C.repo_t }

func (r *Repo) free() { C.repo_free(r.ptr) }

func newRepoFromC(p *C.repo_t) *Repo {
	r := &Repo{ptr: p}
	runtime.SetFinalizer(r, (*Repo).free)
	return r
}

// A wrapper over a handle it does not own: no finalizer.
func borrowRepo(p *C.repo_t) *Repo { return &Repo{ptr: p} }

// One more level: a helper that calls the constructor.
func wrapRepo(p *C.repo_t) *Repo { return newRepoFromC(p) }

func (r *Repo) Count() int {
	defer runtime.KeepAlive(r)
	return int(C.repo_count(r.ptr))
}

func closeRepo(p *C.repo_t) { C.repo_free(p) }

// Cursor, with another library's names and a cleanup-style finalizer
// written as a literal.
type Cursor struct{ c *C.cursor_t }

func newCursor(c *C.cursor_t) *Cursor {
	cur := &Cursor{c: c}
	runtime.SetFinalizer(cur, func(cur *Cursor) { C.cursor_close(cur.c) })
	return cur
}

// Opened by Go: owned, and the constructor's finalizer is right.
func OpenRepo() *Repo { return newRepoFromC(C.repo_open()) }
