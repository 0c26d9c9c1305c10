// Package handleleak defines an Analyzer that reports handles acquired and
// then neither released nor handed on along some path.
//
// # Analyzer handleleak
//
// handleleak: report a handle that can reach a return without a release
package handleleak

import "honnef.co/go/tools/analysis/lint"

// Doc is the analyzer's documentation, in staticcheck's structure.
var Doc = &lint.RawDocumentation{
	Title: "Handles acquired and not released on some path",
	Text: `A handle acquired from C (device memory, a stream, a C string, a
statement) must be released, returned, stored or handed to code that takes
ownership on every path. The usual leak is an error return between the
acquisition and the release.

The analyzer reports each leak once, at the acquisition, naming the
returns that can be reached with the handle still held (in SARIF and JSON,
they are the finding's related locations). Acquisitions that failed are not leaks: on the branch where the
acquiring call's status is non-zero, its error non-nil or the handle nil,
nothing is held. The status is followed through Go helpers
that map it to an error or a boolean (in any package), through errcode_ret
out-parameters, and where it cannot be followed the branch is silent. What
a package initializer, main or TestMain acquires lives for the process and
is never reported. Passing a handle to a function the analyzer cannot see
counts as handing it on (precision first). Model entries say which calls
acquire something that needs a release at all: a primary context retain
does, cuCtxGetCurrent (a borrow) does not; a handle lent by another
(borrowed-from=N) or freed with its parent (freed-with-parent) needs no
release of its own, and the handle that lends it is not leaked while the
borrow outlives the function (returned, stored in a global or a field,
handed on): the lender must stay alive as long as the borrow (a module
whose function is cached in a global stays loaded). Go wrappers that
return a lent handle (func (m Module) Function(name) Function) lend it to
their callers too. A handle given to a Go helper that keeps it (stores it
in memory, a map, a channel, an interface) is handed on. A function of the package's own C counts as keeping
what it is given unless a model or directive says it only uses that
argument (borrow NAME arg=N, //lifetime:borrow PARAM on a Go function),
or the argument is its subject (the first, whose type its name's leading
words name: enc_set_level(enc_t *e, int l)) and its body only uses it
(reads or writes through it, compares it, passes it to nothing that may
keep it): then the leak after the call is reported.

What acquires comes from the models, the directives, and the
constructor-name rule: a C function no model names whose name holds a
constructor verb (create, new, alloc, open, init, dup, clone, copy, load,
make) and that returns a T *, or writes one through its only T **
parameter and returns an integer status, acquires when the package calls
a release of T * (widget_create and widget_destroy, ZSTD_createCCtx and
ZSTD_freeCCtx). The handles of types the package releases given to such a
constructor are handed on (it may adopt them: rd_kafka_new takes its
configuration); strings and buffers are not.

A C string or buffer made inline as an argument (C.f(C.CString(s))) is
acquired like one kept in a variable; a const pointer parameter of the
package's own C does not take ownership unless its body names a freeing
function. Memory handed out as a slice's or string's backing array
(unsafe.Slice, unsafe.String, (*[N]T)(p)[:n]) is returned with it. A handle
in a named result, or a retained context returned to the caller, moves to
the caller; a reference keyed by a device the caller passes in is the
caller's unless the function releases or hands it on on another path. A
method that acquires into a field without testing or releasing what is
there (an Init) called while the field holds a live handle leaks that
handle: reported at the first acquisition.

Known limits: handles stored in local composite values and then dropped are
not followed; a handle passed to a method called through an interface or a
type parameter (r.Release(p) in func f[T Releaser](r T, p *C.char)) is
taken as handed on, as the method called is not resolved, so a leak after
it is not found.`,
	Before: `p := C.CString(name)
if err := check(name); err != nil {
	return err // p leaks
}
defer C.free(unsafe.Pointer(p))`,
	After: `p := C.CString(name)
defer C.free(unsafe.Pointer(p))
if err := check(name); err != nil {
	return err
}`,
	Since: "v0.1.0",
}
