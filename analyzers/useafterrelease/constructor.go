package useafterrelease

import (
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/cfg"
	"github.com/lifetimevet/lifetimevet/internal/diag"
	"github.com/lifetimevet/lifetimevet/internal/srcname"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// An unchecked release: a method of typ that passes the handle in field
// index of its receiver to the C function cfunc with no test of the handle
// or of the object's state first.
type uncheckedRelease struct {
	method *ssa.Function
	cfunc  string
}

// uncheckedReleases returns, per struct type of the package and field
// index, the release methods that hand the field to C unchecked. A C
// function that accepts NULL (by the model, or free: C11 7.22.3.3) is no
// danger.
func uncheckedReleases(calls *cgocall.Result, lt *lifetime.Result, mres *model.Result) map[*types.TypeName]map[int]uncheckedRelease {
	out := map[*types.TypeName]map[int]uncheckedRelease{}
	for _, fn := range calls.Funcs {
		recv := fn.Signature.Recv()
		if recv == nil || len(fn.Params) == 0 || fn.Object() == nil {
			continue
		}
		tn := named(recv.Type())
		sum := lt.Summaries[fn]
		if tn == nil || sum == nil {
			continue
		}
		for _, r := range sum.Releases {
			ops := r.Path.Ops
			if r.Path.Root != 0 || r.Guarded || r.Declared || r.CFunc == "" || r.CFunc == "free" || mres.Model.ChecksNull(r.CFunc) {
				continue
			}
			// the field itself: &recv.f, loaded (a pointer receiver), or
			// recv.f (a value receiver)
			var index int
			switch {
			case len(ops) == 2 && ops[0].Kind == access.FieldAddr && ops[1].Kind == access.Load:
				index = ops[0].Index
			case len(ops) == 1 && ops[0].Kind == access.Field:
				index = ops[0].Index
			default:
				continue
			}
			if out[tn] == nil {
				out[tn] = map[int]uncheckedRelease{}
			}
			if _, ok := out[tn][index]; !ok {
				out[tn][index] = uncheckedRelease{fn, r.CFunc}
			}
		}
	}
	return out
}

// constructors reports functions that return a new object together with a
// non-nil error on a path where the object's handle field was never set,
// when a method of its type releases that field without checking it: a
// caller that defers the release before testing the error (or releases
// whatever it got back) passes C an unset handle.
func constructors(pass *analysis.Pass, rep *diag.Reporter, calls *cgocall.Result, lt *lifetime.Result, mres *model.Result) {
	unchecked := uncheckedReleases(calls, lt, mres)
	if len(unchecked) == 0 {
		return
	}
	errType := types.Universe.Lookup("error").Type()
	for _, fn := range calls.Funcs {
		res := fn.Signature.Results()
		if res.Len() < 2 || !types.Identical(res.At(res.Len()-1).Type(), errType) {
			continue
		}
		reported := map[*ssa.Alloc]bool{}
		for _, b := range fn.Blocks {
			ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok || len(ret.Results) != res.Len() || mayBeNil(ret.Results[res.Len()-1]) {
				continue
			}
			for _, v := range ret.Results[:res.Len()-1] {
				alloc, cell := newObject(v)
				if alloc == nil || reported[alloc] {
					continue
				}
				tn := named(alloc.Type())
				for _, index := range slices.Sorted(maps.Keys(unchecked[tn])) {
					rel := unchecked[tn][index]
					if fieldMaySet(alloc, cell, index, ret) {
						continue
					}
					reported[alloc] = true
					st := tn.Type().Underlying().(*types.Struct)
					fname := st.Field(index).Name()
					mname := "(" + types.TypeString(rel.method.Signature.Recv().Type(), types.RelativeTo(pass.Pkg)) + ")." + rel.method.Name()
					rep.Reportf(ret.Pos(), "%s returns a non-nil *%s together with an error, but its %s field is never set on this path: a caller that releases what it got back (a defer before the error check) makes %s pass an unset handle to C.%s; return nil with the error, or make %s check %s",
						srcname.Func(fn), tn.Name(), fname, mname, rel.cfunc, rel.method.Name(), fname)
					break
				}
			}
		}
	}
}

// mayBeNil reports whether an error value can be nil: a nil constant, or a
// phi with a nil edge.
func mayBeNil(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Const:
		return v.IsNil()
	case *ssa.Phi:
		for _, e := range v.Edges {
			if k, ok := e.(*ssa.Const); ok && k.IsNil() {
				return true
			}
		}
	}
	return false
}

// newObject returns the object a returned value is, when the function
// allocated it: the allocation, and the variable that holds it when a
// closure captures the variable (cgo's wrappers do, for &obj.field).
func newObject(v ssa.Value) (alloc, cell *ssa.Alloc) {
	v = access.StripConv(v)
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		c, ok := u.X.(*ssa.Alloc)
		if !ok {
			return nil, nil
		}
		v, cell = lifetime.SingleStore(c), c
	}
	alloc, ok := v.(*ssa.Alloc)
	if !ok || !alloc.Heap || named(alloc.Type()) == nil {
		return nil, nil
	}
	return alloc, cell
}

// fieldMaySet reports whether, before ret, anything can have set field
// index of the object alloc (held in the variable cell, if not nil): a
// store or an address taken of the field on a path to ret, or the object
// or its variable handed to any other instruction that might set it (a
// call, a closure, a store elsewhere).
func fieldMaySet(alloc, cell *ssa.Alloc, index int, ret *ssa.Return) bool {
	before := func(instr ssa.Instruction) bool { return cfg.Reaches(instr, ret) }
	refs := append([]ssa.Instruction(nil), *alloc.Referrers()...)
	if cell != nil {
		for _, ref := range *cell.Referrers() {
			switch ref := ref.(type) {
			case *ssa.UnOp:
				if ref.Op == token.MUL {
					refs = append(refs, *ref.Referrers()...)
					continue
				}
			case *ssa.Store:
				if ref.Addr == cell && ref.Val == alloc {
					continue
				}
			case *ssa.DebugRef:
				continue
			}
			if before(ref) {
				return true // the variable captured or reassigned
			}
		}
	}
	for _, ref := range refs {
		switch ref := ref.(type) {
		case *ssa.Store:
			if cell != nil && ref.Addr == cell && ref.Val == alloc {
				continue
			}
			if before(ref) {
				return true
			}
		case *ssa.FieldAddr:
			if ref.Field != index {
				continue // another field: reading or setting it sets nothing here
			}
			for _, u := range *ref.Referrers() {
				if _, ok := u.(*ssa.UnOp); ok {
					continue // a load
				}
				if _, ok := u.(*ssa.DebugRef); ok {
					continue
				}
				if before(u) {
					return true
				}
			}
		case *ssa.Return, *ssa.DebugRef:
		case *ssa.ChangeType, *ssa.Convert, *ssa.MakeInterface:
			if before(ref) {
				return true // followed no further: treat as set
			}
		default:
			if before(ref) {
				return true // a call or store: it may set the field
			}
		}
	}
	return false
}
