// Package wrap is pure Go: it wraps the binding.
package wrap

import "example.com/sample/gpu"

// W wraps a gpu.Obj.
type W struct{ o *gpu.Obj }

// New returns a new W.
func New() *W { return &W{o: gpu.New()} }

// Close releases the wrapped object.
func (w *W) Close() { w.o.Close() }

// CloseTwice closes a gpu.Obj twice.
func CloseTwice() {
	o := gpu.New()
	o.Close()
	o.Close()
}
