// Package doublerelease defines an Analyzer that reports native handles
// released twice.
//
// # Analyzer doublerelease
//
// doublerelease: report a once-only handle released twice
//
// A C handle (device memory, a stream, a context, a C string, a libc
// FILE) must be released exactly once; a second release corrupts the
// allocator or destroys an object that a later allocation received. So
// must a runtime/cgo Handle: Delete invalidates it and panics when given
// one it has deleted already. The analyzer reports:
//
//   - a handle released twice on one path: an explicit release plus a
//     deferred one (the defer captured the handle when it was registered),
//     a release in a loop without a new acquisition that runs on every
//     trip (one under a condition tested in the loop, a count reaching
//     zero or a flag the release sets, may run once), a releasing helper
//     followed by a direct release;
//   - a Close-like method that releases a handle while a finalizer or
//     cleanup that releases the same handle stays armed, so that the
//     handle is released again once the object is collected;
//   - a function that arms a finalizer or cleanup and then, on some path
//     (a constructor's error return), releases the handle it releases and
//     returns with it still armed and the handle in place;
//   - a release method with a value receiver that clears the handle field
//     (a dead store: the caller's copy keeps the released handle), and a
//     release called on a copy of a value whose original keeps the handle;
//   - a release method that is not idempotent, when the package calls it
//     twice on one value, or when its type is //lifetime:handle.
//
// A release method that is not idempotent is not reported by itself:
// io.Closer leaves a second Close undefined.
package doublerelease

import "honnef.co/go/tools/analysis/lint"

// Doc is the analyzer's documentation, in staticcheck's structure.
var Doc = &lint.RawDocumentation{
	Title: "Once-only native handles released twice",
	Text: `A C handle (device memory, a stream, a context, a C string, a libc
FILE) must be released exactly once. A second release corrupts the C
allocator's state or destroys an object that a later allocation received:
a crash far from the bug, or silent corruption. \'go test -race\' does not
see it (C memory is invisible to the race detector).

The analyzer reports a handle released twice on some path: an explicit
release plus a deferred one (the defer statement evaluated the handle when
it ran), a release in a loop without a new acquisition that runs on every
trip going on to the next (under a condition tested in the loop, such as
a count reaching zero or a flag the release sets, it may run once: not
reported), a releasing helper followed by a direct release, a release method called twice on one value;
a Close method that releases a handle while a finalizer or cleanup that
releases it again stays armed (not when both release under one sync.Once
of the object, and a helper that releases is judged where it is called:
once.Do(func() { d.free() }) or once.Do(d.free) in a Close the finalizer
calls is one release; a Once is the Do call's receiver as its callers see
it, so closeWith(tag, d) running d.once.Do and Release running d.once.Do
share one, and under(d.peer, d) running its first argument's Once does not
share d's; a helper released after a caller's claim, a location of the
object tested and changed first such as closed.CompareAndSwap, is safe
where that caller disarms the finalizer, or the finalizer of the handle's
owner claims the same location or releases through that caller; a claim
of another flag, or a finalizer that frees without a test, keeps nothing
out; a release past a test of the object, such as if o.h != nil or a
take-out with o.h.Swap(nil), keeps out a finalizer, which reads the
object when it runs, but not a cleanup added with runtime.AddCleanup,
which runs with the copy of the handle it took when it was added: only
Stop, or a write through that copy when it points to shared state, does);
a function that sets a finalizer (runtime.SetFinalizer, or a helper
of the package that does) or adds a cleanup, then releases on some path
the handle it releases and returns with it still armed (the finalizer
not disarmed, the handle not cleared; for a cleanup, not stopped: it
releases the copy it took): the error path of a constructor that frees
what it has just wrapped (only a finalizer release that runs whatever
the object's state is counts: not one after a closed flag, nor one under
sync.Once; a call that is given the object or a runtime.Cleanup and is
not known may disarm it, and keeps the path out);
a release method with a value receiver
that clears its copy of the handle; a release called on a copy of a
struct whose original still holds the handle; a caller's release of a
handle after a function of the package copied it into a new object whose
finalizer releases it (CtxFromCUContext(d, cuctx) and then
cuctx.Destroy()): the finalizer releases it again once the wrapper is
collected; and a release of a handle the library lent (a model's
borrowed-from=N: a commit's author, a column's text), which the handle it
came from frees; and a release of an object C lends to an //export
callback (a typed pointer argument: the repository libgit2 passes in), or
wrapping it in a Go object whose finalizer releases it (a constructor such
as newRepositoryFromC that arms a releasing finalizer, directly or through
helpers): the library frees it itself. A void* argument is the Go side's
own data; a parameter named by //lifetime:release on the callback, or a
callback named as its argument's destructor (credentialFree(cred), the
free hook the library calls), is given the object to release.

What releases what comes from the built-in library models (CUDA, libc,
...), model files, //lifetime:release directives, and summaries of the
package's functions and its dependencies. A release that happens only after
a test of the handle or its owner (a nil check, a closed flag, a reference
count, a compare-and-swap) counts as idempotent when the function changes
what the test reads: it clears the handle, sets the flag, updates the count
or makes the claim, itself or through a callee. A function that writes no
memory its caller sees passes its own test again (if b.h != nil {
C.free(b.h) } with no b.h = nil, a closed flag tested and never set), and
releases again when it is called twice or run again by the finalizer; it
is reported. The test still counts when it reads what a call computes from
state a summary does not show (a C call, a dynamic call: the release may
change the answer), or a flag that some function of the package sets once
the object is built (a weak or borrowed mode, which may keep the release
from running at all).

Known limits: releases through interfaces, through a type parameter's
methods (t.Close() in func closeTwice[T io.Closer](t T): as for an
interface, the method an instantiation calls is not resolved), function
values and goroutines are not followed; a finalizer whose release is conditional (a weak flag the
callback sets) is taken as not releasing a callback's argument, so a
callback that forgets to set the flag is not found; a path that a correlated condition makes infeasible can
still be reported; a handle kept in a slice or map element is not tracked.`,
	Before: `func upload(n int) error {
	var p C.CUdeviceptr
	if C.cuMemAlloc(&p, C.size_t(n)) != 0 {
		return errors.New("alloc failed")
	}
	defer C.cuMemFree(p)
	if C.cuMemsetD8(p, 0, C.size_t(n)) != 0 {
		C.cuMemFree(p) // released again by the defer
		return errors.New("memset failed")
	}
	return nil
}`,
	After: `func upload(n int) error {
	var p C.CUdeviceptr
	if C.cuMemAlloc(&p, C.size_t(n)) != 0 {
		return errors.New("alloc failed")
	}
	defer C.cuMemFree(p)
	if C.cuMemsetD8(p, 0, C.size_t(n)) != 0 {
		return errors.New("memset failed")
	}
	return nil
}`,
	Since: "v0.1.0",
}
