package doublerelease

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/cfg"
	"github.com/lifetimevet/lifetimevet/internal/srcname"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
)

// A wrapping: a function that copies a handle it is given (a path of one
// of its parameters) into a new object, arms a finalizer on that object
// that releases the copy, and returns the object. The finalizer then owns
// the handle: a caller that also releases it releases it twice.
type wrapping struct {
	param int
	ops   []access.Op // the handle, from the parameter (canonical)
	fin   *lifetime.Finalizer
	typ   *types.TypeName
}

// wrappings returns the package's functions that wrap a copy of a caller's
// handle in an object with a releasing finalizer.
func (c *checker) wrappings() map[*ssa.Function][]wrapping {
	out := map[*ssa.Function][]wrapping{}
	for _, fn := range c.calls.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				callee := call.Call.StaticCallee()
				if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "runtime" || callee.Name() != "SetFinalizer" || len(call.Call.Args) != 2 {
					continue
				}
				obj := call.Call.Args[0]
				if mi, ok := obj.(*ssa.MakeInterface); ok {
					obj = mi.X
				}
				tn := access.PointeeName(obj.Type())
				if tn == nil || !returns(fn, obj) {
					continue
				}
				o := lifetime.Expand(obj)
				if _, fresh := o.Root.(*ssa.Alloc); !fresh || len(o.Ops) > 0 {
					continue // a new object of this function
				}
				for _, fin := range c.lt.FinalizersOf(tn) {
					if fin.Pos() != call.Pos() {
						continue
					}
					for _, fr := range fin.Releases {
						if p, ops, ok := copiedFrom(fn, o, canon(fr.Ops)); ok {
							out[fn] = append(out[fn], wrapping{param: p, ops: ops, fin: fin, typ: tn})
						}
					}
				}
			}
		}
	}
	return out
}

// returns reports whether fn returns v on some path.
func returns(fn *ssa.Function, v ssa.Value) bool {
	for _, b := range fn.Blocks {
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && slices.Contains(r.Results, v) {
			return true
		}
	}
	return false
}

// copiedFrom finds the store that puts the handle at obj+ops (a field of
// the new object, read by a final load) and names what it stored as a path
// of one of fn's parameters: the handle itself (h: p.h), or a struct value
// holding it (inner: *p, whose field the finalizer releases).
func copiedFrom(fn *ssa.Function, obj access.Ref, ops []access.Op) (int, []access.Op, bool) {
	if len(ops) < 2 || ops[len(ops)-1].Kind != access.Load {
		return 0, nil, false
	}
	loc := ops[:len(ops)-1]
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			a := lifetime.Expand(st.Addr)
			if a.Root != obj.Root || len(a.Ops) > len(loc) || !slices.Equal(a.Ops, loc[:len(a.Ops)]) {
				continue
			}
			p, ok := lifetime.ParamPath(fn, st.Val)
			if !ok || p.Root < 0 {
				continue
			}
			// the rest of the location, read in the stored value
			rest := append(slices.Clone(loc[len(a.Ops):]), access.Op{Kind: access.Load})
			if len(rest) > 1 && !isPtrOrStruct(st.Val.Type()) {
				continue
			}
			return p.Root, canon(append(slices.Clone(p.Ops), valueOps(rest)...)), true
		}
	}
	return 0, nil, false
}

func isPtrOrStruct(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Struct, *types.Pointer:
		return true
	}
	return false
}

// valueOps turns the part of a location path below a stored struct value
// (field addresses, then the final load) into selections of the value.
func valueOps(rest []access.Op) []access.Op {
	var out []access.Op
	for _, o := range rest {
		switch o.Kind {
		case access.FieldAddr:
			out = append(out, access.Op{Kind: access.Field, Index: o.Index})
		case access.Load:
		default:
			out = append(out, o)
		}
	}
	return out
}

// canon writes a path with loads of whole structs followed by a field
// selection as the field's address and a load, so that x.f reads the same
// whether x was loaded first or not.
func canon(ops []access.Op) []access.Op {
	out := slices.Clone(ops)
	for changed := true; changed; {
		changed = false
		for i := 0; i+1 < len(out); i++ {
			if out[i].Kind == access.Load && out[i+1].Kind == access.Field {
				out[i] = access.Op{Kind: access.FieldAddr, Index: out[i+1].Index}
				out[i+1] = access.Op{Kind: access.Load}
				changed = true
			}
		}
	}
	return out
}

// wrappedThenReleased reports a release of a handle a wrapping function
// was given, by its caller: the wrapper's finalizer releases it again once
// the wrapper is collected.
func (c *checker) wrappedThenReleased() {
	wraps := c.wrappings()
	if len(wraps) == 0 {
		return
	}
	for _, fn := range c.calls.Funcs {
		type wrapped struct {
			ref  access.Ref
			w    wrapping
			call *ssa.Call
		}
		var ws []wrapped
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				callee := call.Call.StaticCallee()
				if callee == nil {
					continue
				}
				for _, w := range wraps[callee] {
					if w.param < len(call.Call.Args) {
						r := lifetime.Expand(call.Call.Args[w.param])
						ws = append(ws, wrapped{access.Ref{Root: r.Root, Ops: canon(append(slices.Clone(r.Ops), w.ops...))}, w, call})
					}
				}
			}
		}
		if len(ws) == 0 {
			continue
		}
		// releases on a path after the wrapping call (before it, on a path
		// that never wraps, the caller releases what it still owns)
		for _, w := range ws {
			if c.disarmsResult(fn, w.call) {
				continue // the caller disarms the wrapper's finalizer
			}
			reported := false
			cfg.After(w.call, func(instr ssa.Instruction) bool {
				call, ok := instr.(*ssa.Call)
				if !ok || reported {
					return !reported
				}
				for _, rel := range c.releasedBy(call) {
					{
						if w.call == call || rel.Root != w.ref.Root || !slices.Equal(rel.Ops, w.ref.Ops) {
							continue
						}
						reported = true
						callee := w.call.Call.StaticCallee()
						at := w.w.fin.Posn
						if w.w.fin.Pos().IsValid() {
							at = c.where(w.w.fin.Pos(), call.Pos())
						}
						pos := call.Pos()
						if cc := c.calls.Lookup(call); cc != nil {
							pos = cc.Pos
						}
						c.rep.Reportf(pos, "this releases the handle that %s at %s copied into a %s, whose finalizer set at %s (%s) releases it again once the %s is collected; release it only through the %s, or make the %s borrow the handle without a releasing finalizer",
							srcname.Func(callee), c.where(w.call.Pos(), pos), w.w.typ.Name(), at, w.w.fin.Name, w.w.typ.Name(), w.w.typ.Name(), w.w.typ.Name())
						break
					}
				}
				return !reported
			})
		}
	}
}

// releasedBy returns the handles call releases, as canonical access paths
// of the caller's frame: an argument of a C release, or a path a Go
// callee's summary releases.
func (c *checker) releasedBy(call *ssa.Call) []access.Ref {
	var out []access.Ref
	if cc := c.calls.Lookup(call); cc != nil {
		for _, e := range c.model.Model.Releases(cc.Name, cc.Sig) {
			if e.Global || e.Indirect || e.Arg < 0 || e.Arg >= len(cc.Args) || !cc.Args[e.Arg].Valid() {
				continue
			}
			r := lifetime.Expand(cc.Args[e.Arg].Root).With(cc.Args[e.Arg].Ops...)
			out = append(out, access.Ref{Root: r.Root, Ops: canon(r.Ops)})
		}
		return out
	}
	callee := call.Call.StaticCallee()
	if callee == nil || call.Call.IsInvoke() {
		return nil
	}
	sum := c.lt.SummaryOf(callee)
	if sum == nil {
		return nil
	}
	for _, r := range sum.Releases {
		if r.Path.Root < 0 || r.Path.Root >= len(call.Call.Args) {
			continue
		}
		a := lifetime.Expand(call.Call.Args[r.Path.Root])
		out = append(out, access.Ref{Root: a.Root, Ops: canon(append(slices.Clone(a.Ops), r.Path.Ops...))})
	}
	return out
}

// disarmsResult reports whether fn disarms the finalizer of the object call
// returns: runtime.SetFinalizer(obj, nil), or a function whose summary
// disarms the argument it is given.
func (c *checker) disarmsResult(fn *ssa.Function, call *ssa.Call) bool {
	isResult := func(v ssa.Value) bool {
		if mi, ok := v.(*ssa.MakeInterface); ok {
			v = mi.X
		}
		r := lifetime.Expand(v)
		return r.Root == call && len(r.Ops) == 0
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			callee := d.Common().StaticCallee()
			if callee == nil {
				continue
			}
			args := d.Common().Args
			if callee.Pkg != nil && callee.Pkg.Pkg.Path() == "runtime" && callee.Name() == "SetFinalizer" && len(args) == 2 && isResult(args[0]) {
				if k, ok := args[1].(*ssa.Const); ok && k.IsNil() {
					return true
				}
				continue
			}
			if sum := c.lt.SummaryOf(callee); sum != nil {
				for i, a := range args {
					if isResult(a) && sum.DisarmsPath(access.Path{Root: i}) {
						return true
					}
				}
			}
		}
	}
	return false
}
