package lifetime

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/model"
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
		case "Slice", "String":
			if t := a.tokOf(s, v.Call.Args[0]); !t.location() && t.kind != tZero {
				a.backers[t] = true
				return t
			}
		case "SliceData", "StringData":
			if t := a.tokOf(s, v.Call.Args[0]); a.backers[t] {
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
			a.backers[t] = true
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
	return a.backers[t] && t != a.ts.rootOf(v) && !t.location()
}

// nestedAcquires handles the acquisitions made while cgo's wrapper
// evaluates the arguments of c (C.cuModuleLoad(&m, C.CString(name))): the
// acquired handle is the argument it feeds, and from there it is what the
// call makes of it: released (C.free(C.malloc(n))), handed on, or held.
func (a *fnAnalysis) nestedAcquires(s *state, instr ssa.CallInstruction, c *cgocall.Call, args []*tok) {
	for _, n := range c.Nested {
		if n.Feeds < 0 || n.Feeds >= len(args) || n.Result == nil || args[n.Feeds] != nil {
			continue
		}
		for _, e := range a.pa.model.Model.Acquires(n.Name) {
			if e.Role != model.Acquire || e.Global || e.Out != model.Returned || e.Key >= 0 {
				continue
			}
			t := a.ts.rootOf(n.Result)
			site := a.site(instr, nil, n.Name, "acquire", -100-n.Feeds, false, nil)
			site.Pos = n.Pos
			s.acquired[t] = &acq{site: site, status: t}
			args[n.Feeds] = t
			break
		}
	}
}
