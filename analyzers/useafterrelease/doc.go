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
passed to C or to a Go function that passes it to C, dereferenced through a
released C pointer, used as a map key. For types whose release method
clears the handle field (or //lifetime:handle types), it reports exported
methods that pass the field to C without any check on the path: after
Close they hand C a NULL handle, and the C side's own checks are often
assertions compiled out of release builds. The fix is a clean error such as
ErrClosed.

Known limits: releases and uses through interfaces and function values are
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
