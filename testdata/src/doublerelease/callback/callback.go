package callback

/*
#include <stdlib.h>
typedef struct repo repo_t;
typedef struct cursor cursor_t;
extern void repo_free(repo_t* r);
extern int repo_count(repo_t* r);
extern void cursor_close(cursor_t* c);
extern int cursor_next(cursor_t* c);
*/
import "C"

import (
	"runtime"
	"unsafe"
)

//export goOnRepo
func goOnRepo(r *C.repo_t, payload unsafe.Pointer) C.int {
	n := C.repo_count(r)
	C.repo_free(r) // want `r is released here, but C lent it to the //export function goOnRepo for the call`
	return n
}

//export goOnRepoOK
func goOnRepoOK(r *C.repo_t, payload unsafe.Pointer) C.int {
	return C.repo_count(r)
}

// Wrapped by a constructor that arms a releasing finalizer.
//
//export goWalk
func goWalk(p *C.repo_t) C.int {
	repo := newRepoFromC(p) // want `p is lent by C to the //export function goWalk for the call, and newRepoFromC wraps it in an object whose finalizer \(\(\*Repo\).free, set at lib.go:29\) releases it`
	return C.int(repo.Count())
}

//export goWalkOK
func goWalkOK(p *C.repo_t) C.int {
	repo := borrowRepo(p)
	return C.int(repo.Count())
}

// Through a helper of the constructor.
//
//export goWalk2
func goWalk2(p *C.repo_t) C.int {
	return C.int(wrapRepo(p).Count()) // want `p is lent by C to the //export function goWalk2 for the call, and wrapRepo wraps it`
}

// The finalizer armed in the callback itself.
//
//export goAdopt
func goAdopt(p *C.cursor_t) C.int {
	cur := &Cursor{c: p}
	runtime.SetFinalizer(cur, func(cur *Cursor) { C.cursor_close(cur.c) }) // want `p is lent by C to the //export function goAdopt for the call, and runtime.SetFinalizer wraps it`
	return C.cursor_next(cur.c)
}

//export goCursor
func goCursor(p *C.cursor_t) C.int {
	return C.cursor_next(newCursor(p).c) // want `p is lent by C to the //export function goCursor for the call, and newCursor wraps it`
}

// Released through a Go helper, and in a deferred closure.
//
//export goDone
func goDone(p *C.repo_t) {
	closeRepo(p) // want `p is released here, but C lent it to the //export function goDone`
}

//export goDeferred
func goDeferred(p *C.cursor_t) C.int {
	defer func() { C.cursor_close(p) }() // want `p is released here, but C lent it to the //export function goDeferred`
	return C.cursor_next(p)
}

// A callback the library hands the object to release, declared so.
//
//lifetime:release p
//export goReleaseRepo
func goReleaseRepo(p *C.repo_t) {
	C.repo_free(p)
}

// The Go side's own payload, passed through C as void*, is the Go side's.
//
//export goFreePayload
func goFreePayload(data unsafe.Pointer) {
	C.free(data)
}

// A string the library lends.
//
//export goOnName
func goOnName(name *C.char) C.int {
	n := C.int(len(C.GoString(name)))
	C.free(unsafe.Pointer(name)) // want `name is released here, but C lent it to the //export function goOnName`
	return n
}

// A function that is not //export owns what its caller gives it.
func adopt(p *C.repo_t) *Repo { return newRepoFromC(p) }

// A wrapper whose release (and finalizer) does nothing for a weak
// reference, marked weak in the callback: the finalizer's release is only
// after a test, so nothing is said (a callback that forgot to mark it weak
// is not found either: the analysis does not follow the flag's value).
type WeakRepo struct {
	ptr  *C.repo_t
	weak bool
}

func (r *WeakRepo) Free() {
	if r.weak {
		return
	}
	C.repo_free(r.ptr)
}

func newWeakRepo(p *C.repo_t) *WeakRepo {
	r := &WeakRepo{ptr: p}
	runtime.SetFinalizer(r, (*WeakRepo).Free)
	return r
}

//export goWeak
func goWeak(p *C.repo_t) C.int {
	r := newWeakRepo(p)
	r.weak = true
	defer r.Free()
	return C.repo_count(r.ptr)
}

// A callback named as the destructor of its argument's type is the hook
// the library calls to free it: given it to release.
//
//export goRepoFree
func goRepoFree(r *C.repo_t) {
	if r != nil {
		C.repo_free(r)
	}
}

//export goCursorCloseCallback
func goCursorCloseCallback(c *C.cursor_t) { C.cursor_close(c) }

// Named as a destructor of something else: the repository is still lent.
//
//export goCursorFreeCb
func goCursorFreeCb(r *C.repo_t) {
	C.repo_free(r) // want `r is released here, but C lent it to the //export function goCursorFreeCb`
}
