// Package useafterrelease defines an Analyzer that reports handles used
// after their release, and methods that can pass a cleared handle to C.
//
// # Analyzer useafterrelease
//
// useafterrelease: report a handle used after it was released
package useafterrelease

import "honnef.co/go/tools/analysis/lint"

// Doc is the analyzer's documentation, in staticcheck's structure.
var Doc = &lint.RawDocumentation{
	Title: "Handles used after their release",
	Text: `Once released, a handle is a dangling pointer: passing it to C reads
freed memory, and even using it as a registry key is wrong, because the next
allocation can return the same address.

The analyzer reports a handle used, on some path, after it was released:
passed to C or to a Go function that passes it to C, a field of it read or
written from Go after a release that frees its memory (it = it.next after
C.free(it); free, sqlite3_free, g_free or a wrapper whose C body frees it,
not a close or unref, which may leave the struct readable), used as a map
key; and a handle the library lends
(a model's borrowed-from=N: the function of a module, the queue of a device)
passed to C after the release of the handle that lent it. For types whose release method
clears the handle field (or //lifetime:handle types), it reports exported
methods that pass the field to C without any check on the path: after
Close they hand C a NULL handle, and the C side's own checks are often
assertions compiled out of release builds. The fix is a clean error such as
ErrClosed. The contract is inferred from the type's own methods, as
checklocks infers guards: only when at least four of the exported methods
that pass the field to C test it first (the handle, the receiver's state,
or a validating helper such as validate() whose verdict is tested, or that
panics; a helper that validates each of several objects, checkAll(m, o),
and errors.Join(m.check(), o.check()) or cmp.Or of the checks, nil
only when every check is, count for each), and at most one (or a tenth)
does not, are the exceptions reported; otherwise the type keeps no closed-handle convention and nothing
is said. A C function the model marks null-safe (or its library
checks-null), or one of the package's own C whose body compares the
argument with NULL, handles a closed handle itself.

It also reports a constructor that returns a new object together with a
non-nil error on a path where the object's handle field was never set, when
a method of the type passes that field to C without a check: a caller that
writes defer obj.Close() before testing the error (or releases whatever it
got back) hands C an unset handle. The fix is to return nil with the error,
or to make the release method check the handle. A C function that accepts
NULL (free, or a library the model marks checks-null) is no danger. A
field that anything may set before the return (its address passed to C, the
object handed to a call or captured by a closure) is taken as set.

Known limits: releases and uses through interfaces, through a type
parameter's methods (t.Close() in a generic function: as for an interface,
the method an instantiation calls is not resolved) and function values are
not followed; a handle kept in a slice or map element is not tracked.`,
	Before: `func (m *Mat) Close() {
	C.mat_close(m.p)
	unregister(m.p) // the address may already be reused
	m.p = nil
}`,
	After: `func (m *Mat) Close() {
	unregister(m.p)
	C.mat_close(m.p)
	m.p = nil
}`,
	Since: "v0.1.0",
}
