package releaseorder

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/diag"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// wrappers reports a child wrapper type whose finalizer releases a child
// handle acquired with a parent handle that another wrapper type's
// finalizer destroys, when the child type keeps no reference to the
// parent type: the collector may finalize the parent first.
func wrappers(pass *analysis.Pass, rep *diag.Reporter, calls *cgocall.Result, lt *lifetime.Result, mres *model.Result) {
	for _, fn := range calls.Funcs {
		for _, cc := range calls.Calls(fn) {
			if cc.Mode != cgocall.Direct {
				continue
			}
			for _, e := range mres.Model.Acquires(cc.Name) {
				if e.Role != model.Acquire || e.Parent < 0 || e.Parent >= len(cc.Args) {
					continue
				}
				ptype, pops, ok := owner(cc.Args[e.Parent], true)
				if !ok || !finalized(lt, ptype, pops) {
					continue
				}
				ctype, cops, ok := childOwner(cc, e)
				if !ok || ctype == ptype || !finalized(lt, ctype, cops) {
					continue
				}
				if refersTo(ctype.Type(), ptype, 3) {
					continue
				}
				rep.Reportf(cc.Pos, "%s keeps no reference to the %s whose finalizer destroys the parent of the handle C.%s creates here: the collector may finalize the %s first, and %s's finalizer then releases a child of a destroyed parent; keep a *%s field in %s",
					ctype.Name(), ptype.Name(), cc.Name, ptype.Name(), ctype.Name(), ptype.Name(), ctype.Name())
			}
		}
	}
}

// owner names the struct type and field path a value was loaded from (load
// true) or an address points into (load false).
func owner(r access.Ref, load bool) (*types.TypeName, []access.Op, bool) {
	if !r.Valid() {
		return nil, nil, false
	}
	e := lifetime.Expand(r.Root).With(r.Ops...)
	if a, ok := e.Root.(*ssa.Alloc); ok && len(e.Ops) > 0 && e.Ops[0].Kind == access.Load {
		if v := lifetime.SingleStore(a); v != nil {
			e = lifetime.Expand(v).With(e.Ops[1:]...)
		}
	}
	ops := e.Ops
	if load {
		if len(ops) == 0 || ops[len(ops)-1].Kind != access.Load {
			return nil, nil, false
		}
		ops = ops[:len(ops)-1]
	}
	// the object: the pointer before the trailing field addresses
	i := len(ops)
	for i > 0 && ops[i-1].Kind == access.FieldAddr {
		i--
	}
	if i == len(ops) {
		return nil, nil, false
	}
	t := access.TypeAfter(e.Root.Type(), ops[:i])
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return nil, nil, false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok {
		return nil, nil, false
	}
	return n.Origin().Obj(), append(slices.Clone(ops[i:]), access.Op{Kind: access.Load}), true
}

// childOwner names the struct type and field the acquired handle goes to:
// the out-parameter's address, or the field the result is stored in.
func childOwner(cc *cgocall.Call, e *model.Entry) (*types.TypeName, []access.Op, bool) {
	if e.Out >= 0 && e.Out < len(cc.Args) {
		return owner(cc.Args[e.Out], false)
	}
	if e.Out == model.Returned && cc.Value != nil && cc.Value.Referrers() != nil {
		for _, r := range *cc.Value.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Val == cc.Value {
				return owner(access.Ref{Root: st.Addr}, false)
			}
		}
	}
	return nil, nil, false
}

// finalized reports whether a finalizer or cleanup of t releases the field
// ops reach from *t.
func finalized(lt *lifetime.Result, t *types.TypeName, ops []access.Op) bool {
	for _, f := range lt.FinalizersOf(t) {
		for _, r := range f.Releases {
			// a counted parent is not destroyed by a drop while its
			// children hold references (OpenCL objects retain their context)
			if slices.Equal(r.Ops, ops) && !r.Counted {
				return true
			}
		}
	}
	return false
}

// refersTo reports whether values of type t hold a *p (or a p), directly or
// in nested structs, up to depth levels.
func refersTo(t types.Type, p *types.TypeName, depth int) bool {
	if depth < 0 || t == nil {
		return false
	}
	if ptr, ok := types.Unalias(t).(*types.Pointer); ok {
		t = ptr.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Origin().Obj() == p {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := range u.NumFields() {
			if refersTo(u.Field(i).Type(), p, depth-1) {
				return true
			}
		}
	case *types.Interface:
		return true // could hold anything
	case *types.Slice:
		return refersTo(u.Elem(), p, depth-1)
	case *types.Map:
		return refersTo(u.Elem(), p, depth-1)
	}
	return false
}
