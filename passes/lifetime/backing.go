package lifetime

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// backing returns the token of the memory a slice or string value is built
// over, when v hands out a handle's memory as its backing array:
// unsafe.Slice((*T)(p), n), unsafe.String, (*[N]T)(p)[:n], and back again
// (unsafe.SliceData, &s[0] of such a slice). The value then stands for the
// handle: returning it returns the handle, freeing &s[0] frees it. Nil when
// v is no such value.
func (a *fnAnalysis) backing(s *state, v ssa.Value) *tok {
	switch v := v.(type) {
	case *ssa.Call:
		b, ok := v.Call.Value.(*ssa.Builtin)
		if !ok || len(v.Call.Args) == 0 {
			return nil
		}
		switch b.Name() {
		case "Slice", "String", "SliceData", "StringData":
			if t := a.tokOf(s, v.Call.Args[0]); !t.location() && t.kind != tZero {
				return t
			}
		}
	case *ssa.Slice:
		ptr, ok := v.X.Type().Underlying().(*types.Pointer)
		if !ok {
			return nil
		}
		if _, ok := ptr.Elem().Underlying().(*types.Array); !ok {
			return nil
		}
		if t := a.tokOf(s, v.X); !t.location() && t.kind != tZero {
			return t
		}
	case *ssa.IndexAddr:
		if _, ok := v.X.Type().Underlying().(*types.Slice); !ok {
			return nil
		}
		if k, ok := v.Index.(*ssa.Const); !ok || !isZero(k) {
			return nil
		}
		if t := a.tokOf(s, v.X); a.backed(v.X, t) {
			return t // &s[0] of a slice built over a handle
		}
	}
	return nil
}

// backed reports whether t, the token of the slice v, is the handle the
// slice was built over (see backing) rather than the slice itself.
func (a *fnAnalysis) backed(v ssa.Value, t *tok) bool {
	if _, ok := v.Type().Underlying().(*types.Slice); !ok {
		return false
	}
	return t != a.ts.rootOf(v) && !t.location()
}
