// Package finalizer defines an Analyzer that reports finalizers and
// cleanups that can run while a C call still uses the handle they release,
// and lifetimes they do not match.
//
// # Analyzer finalizer
//
// finalizer: report finalizers and cleanups that fire during C calls or
// never at all
//
// Go keeps an object alive only until its last use. When a method loads
// o.h and passes it to C, o may be collected during the call, and a
// finalizer or runtime.AddCleanup that releases o.h then runs on the
// finalizer goroutine while C still uses the handle. The analyzer reports
// that, and the related mistakes: runtime.KeepAlive of a struct copy,
// finalizers set on a local that is then copied out, cleanups and
// finalizers that keep their own object reachable (so they never run), and
// finalizers armed before construction has succeeded.
package finalizer

import "honnef.co/go/tools/analysis/lint"

// Doc is the analyzer's documentation, in staticcheck's structure.
var Doc = &lint.RawDocumentation{
	Title: "Finalizers and cleanups that can fire during a C call, or never",
	Text: `Go keeps an object alive only until its last use, and a method's
receiver is no exception. When a method loads o.h and passes it to C, o may
be collected while the C call runs; a finalizer or runtime.AddCleanup that
releases o.h then runs on the finalizer goroutine while C still uses the
handle: a use after free that no test reproduces reliably. TensorFlow's
session run, govips, git2go, gpgme, v8go, gotk3 and imagick all shipped
this bug and its fix, runtime.KeepAlive(o) after the call.

The analyzer reports a call into C (or into a Go function that passes its
argument to C) with a handle loaded from an object whose finalizer or
cleanup releases that handle, when nothing keeps the object reachable
until the call returns: no later use of the object, no runtime.KeepAlive,
no deferred use. Passing &o.field to C keeps o alive and is never reported.
A handle copied into a C struct that reaches C (a parameter block: var
p C.params; p.m = o.m; C.run(&p), a literal C.params{m: o.m} passed by
address or by value, a struct C.malloc returned, a struct a method of
the package builds and returns, p := o.params(), or fills in through its
address, o.fill(&p), or any element of a Go array or slice of C structs
or of handles whose first element's address C gets, C.run_batch(&items[0],
n) or unsafe.SliceData(items), filled element by element, by a slice or array
literal or by appends) is the object's handle in that call: cgo keeps the
struct or the array alive, not o.
A read of the object by another operand of the expression that makes the
call (o.base + C.f(o.h), o.cache[C.f(o.h)], b, n := o.b, C.f(o.h)) is a
use after it: gc evaluates an expression's calls first and its other
operands after them (not the left of && or ||, nor the arguments of a
call that comes first, which run before).
A call is at risk only where the finalizer can release its handle: not
on a constructor's path before the finalizer is armed (arming is per
path: an error branch that releases the handle before runtime.SetFinalizer
runs is fine), not when the handle was taken out of the field the
finalizer releases and the field overwritten before the call (h := o.h;
o.h = nil; C.release(h)), and not when every object the variable can hold
is reachable from one used after the call (d := p.primary, or p.fallback,
with p used later). A handle kept in an atomic cell (an
atomic.Pointer[T] or atomic.Uintptr field, an unsafe.Pointer that
atomic.LoadPointer reads) is the field's handle: o.h.Load() reads o.h,
and o.h.Swap(nil), or a CompareAndSwap of the loaded handle where it
succeeded, takes it out as h := o.h; o.h = nil does. An object read out of a table that keeps it while
the entry stays is held as a global is: a package-level map or sync.Map
(Load), and cgo's handle table (cgo.Handle(h).Value() in a callback);
runtime.KeepAlive of the map counts for m["a"].h; a function that takes
the entry out before the call (delete, a deferred delete in take(id), a
helper some calls deep) holds nothing, while a write that cannot drop a
pointer (a hit counter, lastUsed[id]++) removes no entry. A Close that
claims the object before releasing (a compare-and-swap, a closed flag, a
helper that sets one: a location of the object tested and changed before
the release) is safe when the finalizer claims the same location on its
way to its release (it calls the same Close, or a Release claiming the
same flag): collected during the release, the object's finalizer finds it
claimed. The same holds for any C call made under such a claim (a Drain
that claims the finalizer's flag and then uses the handle), unless the
claim is given back before the call (closed.Store(false)). A claim of
another flag than the finalizer's keeps nothing out. A call made while
holding a lock (for reading or writing) that the finalizer holds
exclusively at its release (a package-level library lock, mu.Lock(); defer
mu.Unlock() in both) is safe too: the finalizer waits for the call to
return. Locks are told apart as the guards pass does, by variable or by
type and field.
An atomic value is one location, whether a helper's CompareAndSwap or the
caller's changes it, and a release counts as claimed only on the side of
the test where the claim succeeded: true for CompareAndSwap, false for
Swap, and for a helper what its returns say (return
!d.closed.CompareAndSwap(false, true) claims on false); x == false
negates x.
A helper whose callers disarm the finalizer before calling it
(runtime.SetFinalizer(d, nil), Stop) is safe, as is one nothing calls
(an unexported function neither called nor named anywhere, variable
initializers included, never runs). A
handle in a struct value inside the object (o.in.h, an embedded struct's
field) is the object's handle like any other.
Handles copied out of a slice of such objects into a Go array or slice
that reaches C (&in[0], directly or through a helper) count too; then the
slice must be kept alive. A finalizer that drops a counted reference
(clRelease*, g_object_unref) releases like any other; a handle read
through an accessor method (o.inner()) is the field it returns, and a use
of the accessor's result (w := h.get(); ...; runtime.KeepAlive(w)) is a
use of the object, which the message and the fix name by the variable
holding the result, never by a field of another package; a
finalizer registered by a helper of the package (generic, or taking
interface values, with the finalizer passed in or its own) counts at the
helper's call, and so does one registered by a helper of another package
of the module that is passed the finalizer (own.Arm(x, (*T).free), known
through the helper's fact), and one set on an interface value (var c io.Closer = o)
is armed on the dynamic type, releasing what the methods it calls on its
argument release (when the dynamic type is unknown, nothing is said).
Handles gathered into a slice by a helper of the package
(ins := handlesOf(images)) count as if gathered by the caller.

Inside a function only the package calls (unexported, never taken as a
value, called by no go statement nor interface call, not //export; an
unexported method of a generic type counts, its instances' calls being
its call sites), the finding is made only when some call site does not
keep the object alive: a caller that uses the object after the call,
holds it in a deferred call, has not yet armed a finalizer on an object
it allocated, or is itself such a function whose callers keep it, or is
a function literal that captured the object (its enclosing function
holds it: once.Do(func() { d.free() }); not a literal run by a go
statement, nor one its enclosing function only returns, which runs
after that function has returned), makes the call safe. A C call in such
a literal itself (go func() { … d.h … }(), return func() { … d.h … })
is kept alive by nothing but the literal's own later uses; one its
enclosing function only calls where it makes it (f := func() { … }; f(),
or func() { … }()) is kept by what keeps the object at those calls, as
for a helper's call sites: the closure's own context is not kept while
it runs. A defer statement that calls the
function (or a literal that calls it: defer func() { d.free() }()) is a
call site that keeps the object only when the caller claims it or
disarms the finalizer before the statement (if
!d.closed.CompareAndSwap(false, true) { return }; defer d.free()), or
the caller's own callers keep it (the deferred call runs before the
caller returns). A
method value run by (*sync.Once).Do on a Once outside the object
(libOnce.Do(l.free), or once.Do(h.free) in a helper given &h.once) keeps
it when the finalizer releases under the same Once: its Do waits for the
running one and then releases nothing. The
finalizer's own function, and helpers only it calls, are never asked for
a KeepAlive.

The suggested fix inserts runtime.KeepAlive(o) after the statement that
makes the call; when that statement is a return, or later calls with a
handle copied out of o are at risk too, it inserts defer
runtime.KeepAlive(o) just before the statement instead, and in a loop with
several calls at risk it offers none, nor when the object may change
between the calls (an assignment to it, or, for an object read from
memory such as s.in, any Go call or write through a pointer). The message says which ("add
runtime.KeepAlive(o) after the call", "add defer runtime.KeepAlive(o)
before the call").

It also reports runtime.KeepAlive(t) where t is a struct value whose
pointer carries the finalizer (it keeps a copy alive, not the object); a
finalizer set on &local when local is then returned or stored by value (the
copy outlives the finalized variable), deferred or not, as c-for-go
generates it; a cleanup whose argument or function
keeps its object reachable, and a finalizer function that captures its own
object, so that neither ever runs (staticcheck's SA5005 reports the
SetFinalizer form too); and a finalizer armed before construction has
succeeded, so that an error return hands a half-built handle to it (the
handle acquired in a helper or through an out-parameter too; a finalizer
that tests the handle first is fine).

Known limits: objects reached through function values are not followed;
an exported method, or one whose callers are not all known, cannot rely
on its callers, and gets the report even when every caller in sight keeps
the object alive.`,
	Before: `func (r *ImageRef) HasAlpha() bool {
	return C.vips_image_hasalpha(r.image) == 1
}`,
	After: `func (r *ImageRef) HasAlpha() bool {
	defer runtime.KeepAlive(r)
	return C.vips_image_hasalpha(r.image) == 1
}`,
	Since: "v0.1.0",
}
