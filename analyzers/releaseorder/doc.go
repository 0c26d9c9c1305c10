// Package releaseorder defines an Analyzer that reports child handles
// released after the parent they belong to.
//
// # Analyzer releaseorder
//
// releaseorder: report a child handle released after its parent was destroyed
package releaseorder

import "honnef.co/go/tools/analysis/lint"

// Doc is the analyzer's documentation, in staticcheck's structure.
var Doc = &lint.RawDocumentation{
	Title: "Child handles released after their parent",
	Text: `Streams, events, device memory and modules belong to a CUDA context;
cuDNN and cuBLAS descriptors to their handle; SQLite statements to their
connection; ONNX Runtime sessions to their environment. Releasing a child
after its parent is destroyed fails (CUDA_ERROR_CONTEXT_IS_DESTROYED) or
crashes.

The analyzer reports, along a path, a child released after its parent was
released, including through the reverse order in which deferred calls run,
and a release that goes through an owner that was already released. Across
types, it reports a child wrapper whose finalizer releases the child but
which holds no reference to the parent wrapper whose finalizer destroys the
parent: the collector may finalize the parent first. Parent relations come
from the models (parent=N on an acquisition) and from //lifetime:acquire
directives in cgo preambles.`,
	Before: `ctx := C.ctx_create()
s := C.stream_create(ctx)
defer C.stream_destroy(s) // runs after ctx_destroy below
C.ctx_destroy(ctx)`,
	After: `ctx := C.ctx_create()
defer C.ctx_destroy(ctx) // deferred first, runs last
s := C.stream_create(ctx)
defer C.stream_destroy(s)`,
	Since: "v0.1.0",
}
