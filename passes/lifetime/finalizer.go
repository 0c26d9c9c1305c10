package lifetime

import (
	"go/types"
	"strings"

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
					if reg, ok := pa.registrar(callee, map[*ssa.Function]bool{}); ok {
						if obj, f := reg.at(call.Common().Args); obj != nil {
							pa.register(call, obj, f)
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

// unwrapIface returns the value an interface value was made of, through
// conversions between interface types (var c io.Closer = obj, passed as
// any): obj, whose dynamic type is then known.
func unwrapIface(v ssa.Value) ssa.Value {
	for range 8 {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			return x.X
		case *ssa.ChangeInterface:
			v = x.X
			continue
		}
		break
	}
	return v
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

// A registration is how a helper of the package registers a finalizer:
// its parameter obj is the object, and the finalizer is its parameter fin,
// or, when fin is negative, the function fixed that the helper passes
// itself (func track(c io.Closer) { runtime.SetFinalizer(c, closeIt) }).
type registration struct {
	obj, fin int
	fixed    ssa.Value
}

// at returns the object and the finalizer of a call of the helper with args.
func (r registration) at(args []ssa.Value) (obj, fin ssa.Value) {
	if r.obj >= len(args) || r.fin >= len(args) {
		return nil, nil
	}
	if r.fin < 0 {
		return args[r.obj], r.fixed
	}
	return args[r.obj], args[r.fin]
}

// registrar reports whether fn, a function of the package, passes its
// parameter obj straight to runtime.SetFinalizer as the object, with its
// parameter fin or a function of its own as the finalizer (directly or
// through another such helper).
func (pa *pkgAnalysis) registrar(fn *ssa.Function, seen map[*ssa.Function]bool) (registration, bool) {
	if fn.Pkg != nil && fn.Pkg.Pkg != pa.pass.Pkg {
		// another package's: its RegistrarFact
		var f RegistrarFact
		if obj, ok := fn.Object().(*types.Func); ok && pa.pass.ImportObjectFact(obj, &f) {
			return registration{obj: f.Obj, fin: f.Fin}, true
		}
		return registration{}, false
	}
	if fn.Pkg == nil || len(fn.Blocks) == 0 || seen[fn] || len(seen) > 3 {
		return registration{}, false
	}
	seen[fn] = true
	param := func(v ssa.Value) int {
		v = unwrapIface(v)
		for k, p := range fn.Params {
			if p == v {
				return k
			}
		}
		return -1
	}
	// a function of the helper's own as the finalizer: a declared
	// function or a literal that captures nothing
	fixed := func(v ssa.Value) bool {
		_, ok := unwrapIface(v).(*ssa.Function)
		return ok
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
			var objV, finV ssa.Value
			switch {
			case callee.Pkg != nil && callee.Pkg.Pkg.Path() == "runtime" && callee.Name() == "SetFinalizer" && len(call.Call.Args) == 2:
				objV, finV = call.Call.Args[0], call.Call.Args[1]
			default:
				if reg, ok := pa.registrar(callee, seen); ok {
					objV, finV = reg.at(call.Call.Args)
				}
			}
			if objV == nil || finV == nil {
				continue
			}
			oi := param(objV)
			switch fi := param(finV); {
			case oi < 0:
			case fi >= 0:
				return registration{obj: oi, fin: fi}, true
			case fixed(finV):
				return registration{obj: oi, fin: -1, fixed: unwrapIface(finV)}, true
			}
		}
	}
	return registration{}, false
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
	t := access.PointeeName(obj.Type())
	f := funcValue(unwrapIface(fV))
	if t == nil || f == nil {
		return
	}
	fin := &Finalizer{Type: t, Func: f, pos: call.Pos(), FinalizerInfo: FinalizerInfo{Posn: posn(pa.pass.Fset, call.Pos()), Name: finalizerName(f)}}
	// a finalizer that takes an interface (func(c io.Closer) { c.Close() })
	// calls the methods of the object's dynamic type
	fin.Releases = append(fin.Releases, pa.dynamicReleases(f, obj.Type())...)
	if sum := pa.summaryOf(f); sum != nil {
		for _, r := range sum.Releases {
			if r.Path.Root == 0 {
				fin.Releases = append(fin.Releases, FinalizerRelease{Ops: r.Path.Ops, Text: r.Text, CFunc: r.CFunc, Class: r.Class, Guarded: r.Guarded, OnceIn: onceIn(r), Posn: r.Posn})
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

// onceIn is FinalizerRelease.OnceIn of release r.
func onceIn(r *Release) OnceRef {
	if r.Once {
		return r.OnceOf
	}
	return OnceRef{}
}

func (pa *pkgAnalysis) addCleanup(fn *ssa.Function, call ssa.CallInstruction) {
	args := call.Common().Args
	if len(args) != 3 {
		return
	}
	t := access.PointeeName(args[0].Type())
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
				fin.Releases = append(fin.Releases, FinalizerRelease{Ops: ops, Text: r.Text, CFunc: r.CFunc, Class: r.Class, Guarded: r.Guarded, Copied: len(rel), Posn: r.Posn})
			}
		}
		for _, r := range sum.Drops {
			if r.Path.Root == 0 && len(f.Params) > 0 && pointerHandle(access.TypeAfter(f.Params[0].Type(), r.Path.Ops)) {
				ops := append(append([]access.Op{}, rel...), r.Path.Ops...)
				fin.Releases = append(fin.Releases, FinalizerRelease{Ops: ops, Text: r.Text, CFunc: r.CFunc, Class: r.Class, Counted: true, Copied: len(rel)})
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
	if m, ok := f.Object().(*types.Func); ok && strings.HasPrefix(f.Synthetic, "thunk") && len(f.Params) > 0 {
		// a method expression, named as written: (*Commit).Free for
		// the Free that Commit's embedded Object promotes
		t := types.Unalias(f.Params[0].Type())
		if p, ok := t.(*types.Pointer); ok {
			if n, ok := types.Unalias(p.Elem()).(*types.Named); ok {
				return "(*" + n.Obj().Name() + ")." + m.Name()
			}
		}
		if n, ok := t.(*types.Named); ok {
			return n.Obj().Name() + "." + m.Name()
		}
	}
	return funcName(f)
}

// relativeTo returns the path from ptr to arg, both values of fn read at one
// call: arg is a field path of ptr, or was stored into one (by a store, or
// an atomic cell's Store or Swap: o.h.Store(p)).
func relativeTo(fn *ssa.Function, ptr, arg ssa.Value) ([]access.Op, bool) {
	p := Expand(ptr)
	if ops, ok := suffix(p, Expand(arg)); ok {
		return ops, true
	}
	target := access.StripConv(arg)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var addr, val ssa.Value
			switch instr := instr.(type) {
			case *ssa.Store:
				addr, val = instr.Addr, instr.Val
			case *ssa.Call:
				if op, ok := AtomicCellOp(&instr.Call); ok && (op.Kind == CellStore || op.Kind == CellSwap) {
					addr, val = op.Addr, op.Val
				}
			}
			if addr == nil || access.StripConv(val) != target {
				continue
			}
			if ops, ok := suffix(p, Expand(addr)); ok {
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

// dynamicReleases returns what a finalizer f whose parameter is an
// interface (or a type parameter) releases when it is called with an
// object of type dyn: the releases of dyn's methods it calls on its
// parameter.
func (pa *pkgAnalysis) dynamicReleases(f *ssa.Function, dyn types.Type) []FinalizerRelease {
	if len(f.Params) == 0 || !types.IsInterface(f.Params[0].Type()) {
		return nil
	}
	var out []FinalizerRelease
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || !call.Common().IsInvoke() {
				continue
			}
			recv := call.Common().Value
			if ci, ok := recv.(*ssa.ChangeInterface); ok {
				recv = ci.X
			}
			if recv != f.Params[0] {
				continue
			}
			m := call.Common().Method
			sel := f.Prog.MethodSets.MethodSet(dyn).Lookup(m.Pkg(), m.Name())
			if sel == nil {
				continue
			}
			callee := f.Prog.MethodValue(sel)
			if callee == nil {
				continue
			}
			sum := pa.summaryOf(callee)
			if sum == nil {
				continue
			}
			for _, r := range sum.Releases {
				if r.Path.Root == 0 {
					out = append(out, FinalizerRelease{Ops: r.Path.Ops, Text: r.Text, CFunc: r.CFunc, Class: r.Class, Guarded: r.Guarded, OnceIn: onceIn(r), Posn: r.Posn})
				}
			}
			for _, r := range sum.Drops {
				if r.Path.Root == 0 && pointerHandle(access.TypeAfter(dyn, r.Path.Ops)) {
					out = append(out, FinalizerRelease{Ops: r.Path.Ops, Text: r.Text, CFunc: r.CFunc, Class: r.Class, Counted: true})
				}
			}
		}
	}
	return out
}
