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
				if callee.Pkg == nil || callee.Pkg.Pkg.Path() != "runtime" {
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

func (pa *pkgAnalysis) setFinalizer(fn *ssa.Function, call ssa.CallInstruction) {
	args := call.Common().Args
	if len(args) != 2 {
		return
	}
	obj := unwrapIface(args[0])
	t := objectType(obj)
	f := funcValue(unwrapIface(args[1]))
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
			if r.Path.Root == 0 {
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
			if r.Path.Root == 0 && ok {
				ops := append(append([]access.Op{}, rel...), r.Path.Ops...)
				fin.Releases = append(fin.Releases, FinalizerRelease{Ops: ops, Text: r.Text, CFunc: r.CFunc, Class: r.Class, Counted: true})
			}
		}
	}
	pa.res.Finalizers = append(pa.res.Finalizers, fin)
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
