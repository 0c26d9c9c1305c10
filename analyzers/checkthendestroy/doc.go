// Package checkthendestroy defines an Analyzer that reports unguarded
// check-then-act on shared state that guards a release.
//
// # Analyzer checkthendestroy
//
// checkthendestroy: report check-then-release and other once-only
// transitions two goroutines can both pass
//
// A Close written as if c.h != nil { release(c.h); c.h = nil } is safe on
// one goroutine and a double release on two: both pass the check before
// either clears the handle. The analyzer reports such check-then-act
// sequences on lifetime state (handles, closed flags, reference counts)
// when the code can run on two goroutines at once and no lock held across
// both steps, sync.Once or atomic claim guards them; lifetime state
// released or cleared under a lock in one place and read or passed to C
// without it in another; and other once-only transitions (state machines,
// pop-one-of-pending) on fields guarded by a lock elsewhere.
package checkthendestroy

import "honnef.co/go/tools/analysis/lint"

// Doc is the analyzer's documentation, in staticcheck's structure.
var Doc = &lint.RawDocumentation{
	Title: "Check-then-release on shared state without a guard",
	Text: `A Close written as if c.h != nil { release(c.h); c.h = nil } is correct
on one goroutine and a double release on two: both pass the check before
either clears the handle. The window is a few instructions wide and
'go test -race' rarely sees it (every cgo call is a synchronization point
for the race detector).

The analyzer reports:

- a check of lifetime state (a handle, a closed or released flag, a
reference count) followed by the act it guards (releasing the handle,
setting the flag, clearing the field), in code that two goroutines can run
at once, with no lock held across both, no sync.Once and no atomic claim;
- lifetime state released or cleared under a lock in one place and read,
tested or passed to C without that lock in another (a closed flag read
before taking the lock);
- other once-only transitions (a check of a field followed by a write of
it, such as popping one of the pending errors) on fields a lock guards
elsewhere, in types that own a handle and, in a package that calls C, in
any type (the lock elsewhere is the evidence);
- a release made without the lock under which the same function then
clears the handle (free(c.h); lock; c.h = nil);
- one handle released, with no test deciding it, by two functions that
goroutines of the package's own can run at once.

Lifetime state is a field that holds a handle some function releases, or
a field a releasing function writes (a closed flag) in a type that owns a
handle (a field of a C type, directly or through its fields, or methods
that release one). Types that own no handle are ordinary Go state, out of
scope: the race detector sees those races.

Concurrency comes from the type (//lifetime:threadsafe, a doc comment that
says it is safe for concurrent use, a mutex that guards the state
elsewhere and that at least half of the functions that change the type's
state or pass it to C hold: its contract, inferred from the majority as
checklocks infers guards), from go statements that hand the goroutine a value of
the type (as an argument, receiver or captured variable), finalizers and
cleanups, and //export functions that reach the code (for values they
reach through package-level variables). A goroutine its spawner waits for
on every path (a receive from a channel the goroutine closes, including
in a select, or WaitGroup.Wait) does not overlap the spawner's callers.
Types that implement database/sql/driver.Conn, Stmt, Rows or Tx get no
evidence from their mutex: database/sql never uses one from two goroutines
at once. A goroutine that a test starts counts only for findings in
_test.go files, and only against code of the same test function (go test
runs test functions one at a time; those that call t.Parallel together):
how a test uses the package is no evidence of how its callers do. Locks a
function's callers hold count as held: found through the package's calls
when those are all of its calls (an unexported function or method whose
address does not escape; a go statement's call holds nothing, a deferred
call what is still held at the return; an exported function may be
called by anyone without a lock), declared with checklocks
(// +checklocks:c.mu), or said by Go's conventions (a name ending in
Locked, a doc comment in a documented form that names a mutex: "c.mu
must be held", "must be called with mu held", "the caller must hold the
lock"; a sentence that only mentions holding something is no contract).
A mutex that only a few of those functions take (Init, Close)
is a lock of the lifecycle: it is evidence only for the functions that
take it (Close against Close, against Init or the finalizer), and the
message says so. //lifetime:confined, or a doc comment that says the
type is not safe for concurrent use, turns these findings off for the
type, as does a package that pins its work to one OS thread
(runtime.LockOSThread on its callers' goroutine, in its Init). The fix is to claim the handle atomically (atomic.Pointer.Swap(nil),
CompareAndSwap) or to hold the lock across the check and the act. A
claim decides only through its result: a CompareAndSwap whose result is
ignored, or that leads to the release only where it failed, and a Swap
whose result is ignored, claim nothing (every goroutine goes on to the
release).

Known limits: locks are told apart by type and field, not by instance;
state reached through interfaces, maps and slices is not followed.`,
	Before: `func (v *Verifier) Close() {
	if v.inner != nil {
		C.free_verifier(v.inner)
		v.inner = nil
	}
}`,
	After: `func (v *Verifier) Close() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.inner != nil {
		C.free_verifier(v.inner)
		v.inner = nil
	}
}`,
	Since: "v0.1.0",
}
