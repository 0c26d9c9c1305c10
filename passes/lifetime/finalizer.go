package lifetime

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
)

// finalizers collects the finalizers and cleanups the package registers.
func (pa *pkgAnalysis) finalizers() {
	for _, fn := range pa.calls.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				// a call, or a deferred one: defer runtime.SetFinalizer(&x, f)
				// registers when the function returns
				call, ok := instr.(ssa.CallInstruction)
				if _, isGo := instr.(*ssa.Go); !ok || isGo {
					continue
				}
				callee := call.Common().StaticCallee()
				if callee == nil {
					continue
				}
				if callee.Origin() != nil {
					callee = callee.Origin()
				}
				if callee.Pkg == nil {
					continue
				}
				if callee.Pkg.Pkg.Path() != "runtime" {
					// a helper of the package that registers its argument's
					// finalizer: func track[T any](p *T, f func(*T)), or
					// one taking interface values
					if i, j, ok := pa.registrar(callee, map[*ssa.Function]bool{}); ok {
						args := call.Common().Args
						if i < len(args) && j < len(args) {
							pa.register(call, args[i], args[j])
						}
					}
					continue
				}
				switch callee.Name() {
				case "SetFinalizer":
					pa.setFinalizer(fn, call)
				case "AddCleanup":
					pa.addCleanup(fn, call)
				}
			}
		}
	}
}

func unwrapIface(v ssa.Value) ssa.Value {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		return mi.X
	}
	return v
}

// objectType returns the named type whose pointer v is.
func objectType(v ssa.Value) *types.TypeName {
	p, ok := v.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok {
		return nil
	}
	return n.Origin().Obj()
}

// funcValue returns the function a func-typed value calls.
func funcValue(v ssa.Value) *ssa.Function {
	switch v := v.(type) {
	case *ssa.Function:
		return v
	case *ssa.MakeClosure:
		fn, _ := v.Fn.(*ssa.Function)
		return fn
	}
	return nil
}

// registrar reports whether fn, a function of the package, passes its
// parameters i and j straight to runtime.SetFinalizer as object and
// finalizer (directly or through another such helper).
func (pa *pkgAnalysis) registrar(fn *ssa.Function, seen map[*ssa.Function]bool) (int, int, bool) {
	if fn.Pkg == nil || fn.Pkg.Pkg != pa.pass.Pkg || len(fn.Blocks) == 0 || seen[fn] || len(seen) > 3 {
		return 0, 0, false
	}
	seen[fn] = true
	param := func(v ssa.Value) int {
		v = unwrapIface(v)
		if ci, ok := v.(*ssa.ChangeInterface); ok {
			v = ci.X
		}
		for k, p := range fn.Params {
			if p == v {
				return k
			}
		}
		return -1
	}
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
			if o := callee.Origin(); o != nil {
				callee = o
			}
			args := call.Call.Args
			oi, fi := -1, -1
			switch {
			case callee.Pkg != nil && callee.Pkg.Pkg.Path() == "runtime" && callee.Name() == "SetFinalizer" && len(args) == 2:
				oi, fi = param(args[0]), param(args[1])
			default:
				if i, j, ok := pa.registrar(callee, seen); ok && i < len(args) && j < len(args) {
					oi, fi = param(args[i]), param(args[j])
				}
			}
			if oi >= 0 && fi >= 0 {
				return oi, fi, true
			}
		}
	}
	return 0, 0, false
}

func (pa *pkgAnalysis) setFinalizer(fn *ssa.Function, call ssa.CallInstruction) {
	args := call.Common().Args
	if len(args) != 2 {
		return
	}
	pa.register(call, args[0], args[1])
}

// register records the finalizer f set on obj at call.
func (pa *pkgAnalysis) register(call ssa.CallInstruction, objV, fV ssa.Value) {
	obj := unwrapIface(objV)
	t := objectType(obj)
	f := funcValue(unwrapIface(fV))
	if t == nil || f == nil {
		return
	}
	fin := &Finalizer{Type: t, Func: f, pos: call.Pos(), FinalizerInfo: FinalizerInfo{Posn: posn(pa.pass.Fset, call.Pos()), Name: finalizerName(f)}}
	if sum := pa.summaryOf(f); sum != nil {
		for _, r := range sum.Releases {
			if r.Path.Root == 0 {
				fin.Releases = append(fin.Releases, FinalizerRelease{Ops: r.Path.Ops, Text: r.Text, CFunc: r.CFunc, Class: r.Class, Guarded: r.Guarded})
			}
		}
		for _, r := range sum.Drops {
			if r.Path.Root == 0 && len(f.Params) > 0 && pointerHandle(access.TypeAfter(f.Params[0].Type(), r.Path.Ops)) {
				fin.Releases = append(fin.Releases, FinalizerRelease{Ops: r.Path.Ops, Text: r.Text, CFunc: r.CFunc, Class: r.Class, Counted: true})
			}
		}
	}
	pa.res.Finalizers = append(pa.res.Finalizers, fin)
}

func (pa *pkgAnalysis) addCleanup(fn *ssa.Function, call ssa.CallInstruction) {
	args := call.Common().Args
	if len(args) != 3 {
		return
	}
	t := objectType(args[0])
	f := funcValue(args[1])
	if t == nil || f == nil {
		return
	}
	fin := &Finalizer{Type: t, Func: f, pos: call.Pos(), FinalizerInfo: FinalizerInfo{Cleanup: true, Posn: posn(pa.pass.Fset, call.Pos()), Name: finalizerName(f)}}
	rel, ok := relativeTo(fn, args[0], args[2])
	if sum := pa.summaryOf(f); sum != nil && ok {
		for _, r := range sum.Releases {
			if r.Path.Root == 0 {
				ops := append(append([]access.Op{}, rel...), r.Path.Ops...)
				fin.Releases = append(fin.Releases, FinalizerRelease{Ops: ops, Text: r.Text, CFunc: r.CFunc, Class: r.Class, Guarded: r.Guarded})
			}
		}
		for _, r := range sum.Drops {
			if r.Path.Root == 0 && len(f.Params) > 0 && pointerHandle(access.TypeAfter(f.Params[0].Type(), r.Path.Ops)) {
				ops := append(append([]access.Op{}, rel...), r.Path.Ops...)
				fin.Releases = append(fin.Releases, FinalizerRelease{Ops: ops, Text: r.Text, CFunc: r.CFunc, Class: r.Class, Counted: true})
			}
		}
	}
	pa.res.Finalizers = append(pa.res.Finalizers, fin)
}

// pointerHandle reports whether a dropped reference's key can point to the
// object: a reference keyed by an integer identifier (a device ordinal)
// leaves the identifier valid after the drop.
func pointerHandle(t types.Type) bool {
	if t == nil {
		return false
	}
	if b, ok := t.Underlying().(*types.Basic); ok {
		return b.Kind() == types.UnsafePointer || b.Kind() == types.Uintptr
	}
	return true
}

func finalizerName(f *ssa.Function) string {
	if f.Parent() != nil {
		return "func literal"
	}
	return funcName(f)
}

// relativeTo returns the path from ptr to arg, both values of fn read at one
// call: arg is a field path of ptr, or was stored into one.
func relativeTo(fn *ssa.Function, ptr, arg ssa.Value) ([]access.Op, bool) {
	p := Expand(ptr)
	if ops, ok := suffix(p, Expand(arg)); ok {
		return ops, true
	}
	target := access.StripConv(arg)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || access.StripConv(st.Val) != target {
				continue
			}
			if ops, ok := suffix(p, Expand(st.Addr)); ok {
				return append(ops, access.Op{Kind: access.Load}), true
			}
		}
	}
	return nil, false
}

func suffix(prefix, r access.Ref) ([]access.Op, bool) {
	if prefix.Root != r.Root || len(prefix.Ops) > len(r.Ops) {
		return nil, false
	}
	for i, o := range prefix.Ops {
		if r.Ops[i] != o {
			return nil, false
		}
	}
	return append([]access.Op{}, r.Ops[len(prefix.Ops):]...), true
}
