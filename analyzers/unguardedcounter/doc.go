// Package unguardedcounter defines an Analyzer that reports counters and
// reference counts of shared objects updated without atomics or a lock.
//
// # Analyzer unguardedcounter
//
// unguardedcounter: report counters and reference counts updated without
// atomics or a lock, mixed atomic and plain access, and atomic
// decrement-then-reload
//
// A reference count decides who releases a native handle. Updated with
// x.refs-- on two goroutines it loses a decrement (a leak) or lets two
// callers see zero (a double release). The analyzer reports counters in
// shared types updated plainly, fields accessed atomically in one place
// and plainly in another, an atomic decrement followed by a separate
// atomic load of the count, and check-then-act on an atomic that guards a
// once-only action.
package unguardedcounter

import "honnef.co/go/tools/analysis/lint"

// Doc is the analyzer's documentation, in staticcheck's structure.
var Doc = &lint.RawDocumentation{
	Title: "Counters and reference counts updated without atomics or a lock",
	Text: `A reference count decides who releases a native handle: the caller that
brings it to zero. x.refs-- is a load and a store; on two goroutines at
once one decrement is lost (the handle leaks) or both callers see zero
(it is released twice, and C corrupts its heap). The race detector sees
the Go side only when the test happens to interleave.

Scope: counters, mixed atomic and plain accesses, and atomic
check-then-store are reported in packages that call C (every cgo call is
a synchronization point for the race detector, which then misses these
races) and on state that holds a C handle or counts references to one, in
any package; pure-Go state of pure-Go packages is the race detector's.
Decrement-then-reload is reported everywhere.

The analyzer reports:

- a counter field (updated with ++, --, += or -=) of a shared type updated
without atomics and without a lock: the type is documented or declared
thread-safe, has a mutex that guards the counter (held by at least 9 in
10 of the counter's uses outside constructors and init, as checklocks
infers a guard; below that the type keeps no lock contract for the
counter) or atomic fields, or its methods run on several goroutines (go
statements, finalizers, //export functions); a counter
whose zero test guards a release is a reference count, and shared by
definition (its holders are), unless one goroutine of the package owns
it: every access is made by a function only one go statement runs, once
per object, on the object its constructor has just built (w :=
&Worker{jobs: ch}; go w.loop(), an actor or a locked-OS-thread loop that other
goroutines reach through a channel);
- a counter read without the lock that all its updates hold (a reference
count tested outside the lock acts on a value another goroutine is
changing);
- a field or package-level variable accessed with sync/atomic in one
place and plainly in another (across packages too: the atomic use is
recorded as a fact on the field or variable);
- decrement-then-reload: atomic.AddInt32(&n, -1) followed by a separate
atomic.LoadInt32(&n) == 0: both callers can see zero, and both release;
only when the Load is of the Add's own variable (not another object's
counter, not after the variable was assigned again) and not a wait loop
(for atomic.LoadInt32(&n) > 0 { ... }); the suggested fix tests the value
Add returned, offered only when the Load follows the Add in straight-line
code with no call, store, other read of the counter or operation that can
panic (an index, a dereference, a type assertion, a division) in between:
a fix must not change what the program does, a recovered panic included;
- check-then-act on an atomic: if a.Load() == 0 { ...; a.Store(1) }
guarding a once-only action, which two goroutines can both pass; use
CompareAndSwap or sync.Once; a bound tested and then passed
(if n.Load() < max { n.Add(1) }), or a value tested and then stored
(if v > peak.Load() { peak.Store(v) }): use a CompareAndSwap loop. A
hint raised (or lowered) to a value grown from its own earlier value
(n := hint.Load(); double n until it fits; if hint.Load() < n {
hint.Store(n) }) is not reported: each caller recomputes from what it
reads, so a lost update is redone, not lost.

Accesses with a lock held (including in a deferred function literal that
runs before the deferred Unlock, and in an unexported function whose
callers in the package all hold it, see the guards pass), in a sync.Once
body, to an object the
function has just allocated and not yet published (a constructor: until
its address is stored where others read it, sent, or handed to a
goroutine) or that every caller of an
unexported init helper has (o := new(Obj); o.init(); return o), and in test
files (the flag
-unguardedcounter.tests includes them) are not reported. //export
functions alone do not make an object's counter shared: C libraries call
back on the thread that uses the object the callback belongs to.
//lifetime:confined, or a doc comment that says the type is not safe for
concurrent use, turns the findings off for the type (the sentences that
name the type decide over those about what it wraps: "Conn is safe for
concurrent use. The underlying handle is not thread-safe, so every call
holds mu" documents a safe Conn).

A lock is a sync.Mutex or sync.RWMutex, any type with sync.Locker's
methods, or a channel of capacity 1 used as one: empty while free, a send
takes it and a receive gives it back; filled with one token where it is
made, a receive takes the token and a send gives it back. Methods of a
channel type and helpers that take the channel as a parameter lock what
their callers pass them. A semaphore of more slots excludes nothing, and
neither does a channel that no function both sends on and receives from
(a result channel: each worker sends, the spawner receives). A lock the
spawner holds at a go statement whose goroutine gives it back (one
background compaction at a time: take the slot, go func() { defer
release(); ... }()) is held by the goroutine, and no longer by the
spawner.

Known limits: locks are told apart by type and field, not by instance
(nor, in an array of locks such as one per device, by index);
counters reached through maps and slices are not followed.`,
	Before: `func (p *Pkt) Release() {
	atomic.AddInt32(&p.refs, -1)
	if atomic.LoadInt32(&p.refs) == 0 {
		C.pkt_free(p.buf)
	}
}`,
	After: `func (p *Pkt) Release() {
	if atomic.AddInt32(&p.refs, -1) == 0 {
		C.pkt_free(p.buf)
	}
}`,
	Since: "v0.1.0",
}
