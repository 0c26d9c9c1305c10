package lifetime

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// This file follows what a library lends to a callback. When C calls an
// //export function, the objects it passes (a repository, a remote, a
// string: typed pointers) are the library's, lent for the call: releasing
// one, or wrapping it in a Go object whose finalizer releases it, frees it
// twice. A void* argument is the Go side's own data passed through C, not a
// library object; a parameter named by //lifetime:release on the function,
// or whose type the function's name reads as the destructor of
// (credentialFree(cred *C.credential): the free hook the library calls),
// is one the callback receives to release.

// An Arm is a parameter path whose handle a function stores into an object
// on which it (or a function it calls) arms a finalizer that releases it:
// newWrapperFromC(ptr) with runtime.SetFinalizer(w, (*Wrapper).Free).
type Arm struct {
	Path  access.Path
	Fin   string // the finalizer's function, for messages
	Posn  string // file:line of the registration
	CFunc string // the C function the finalizer releases with
}

// callbackParams marks the typed pointer parameters of an //export
// function as lent by C for the call.
func (a *fnAnalysis) callbackParams() {
	for i, p := range a.callbackLent() {
		site := &Site{Pos: p.Pos(), Class: CallbackClass, Handle: p.Name(), id: len(a.sites)}
		a.sites[siteKey{cfunc: CallbackClass, arg: i}] = site
		a.lent[a.ts.rootOf(p)] = site
	}
}

// CallbackClass is the Class of the Site that stands for C lending a
// parameter to an //export function.
const CallbackClass = "callback"

// callbackLent returns the parameters of fn that C lends it, by index: fn
// is //export, the parameter is a typed pointer, and no //lifetime:release
// on fn names it.
func (a *fnAnalysis) callbackLent() map[int]*ssa.Parameter {
	fn := a.fn
	obj, ok := fn.Object().(*types.Func)
	if !ok || fn.Parent() != nil || !a.pa.calls.ExportedToC(obj) {
		return nil
	}
	var owned []int
	if fd := a.pa.model.Funcs[obj]; fd != nil {
		owned = fd.Release
	}
	// a callback named as the destructor of its argument's type is the
	// hook the library calls to free it (credentialFree(cred))
	if i := model.CallbackDestructorArg(fn.Name(), fn.Signature); i >= 0 {
		owned = append(slices.Clip(owned), i)
	}
	out := map[int]*ssa.Parameter{}
	for i, p := range fn.Params {
		if _, ptr := p.Type().Underlying().(*types.Pointer); ptr && !slices.Contains(owned, i) {
			out[i] = p
		}
	}
	return out
}

// armsAt is one arm found in a function: the call that arms it.
type armsAt struct {
	instr ssa.CallInstruction
	arm   Arm
}

// arms returns the arms of fn: registrations of a finalizer, in fn, on an
// object into a field of which fn stores a parameter that the finalizer
// releases (not only after a test), and calls of functions whose summary
// arms a parameter path, given one of fn's parameters.
func (pa *pkgAnalysis) arms(fn *ssa.Function) []armsAt {
	var out []armsAt
	// cgo's wrapper closures of fn's calls into C evaluate their
	// arguments (C.f(newWrapper(p).h)): their free variables are fn's
	// values bound to them
	bound := map[*ssa.FreeVar]ssa.Value{}
	bodies := []*ssa.Function{fn}
	for k := 0; k < len(bodies) && k < 64; k++ {
		for _, b := range bodies[k].Blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					if w, ok := mc.Fn.(*ssa.Function); ok && pa.calls.IsWrapper(w) && !slices.Contains(bodies, w) {
						for i, fv := range w.FreeVars {
							if i < len(mc.Bindings) {
								bound[fv] = mc.Bindings[i]
							}
						}
						bodies = append(bodies, w)
					}
				}
			}
		}
	}
	var param func(v ssa.Value, depth int) (access.Path, bool)
	param = func(v ssa.Value, depth int) (access.Path, bool) {
		r := Expand(v)
		if fv, ok := r.Root.(*ssa.FreeVar); ok && bound[fv] != nil && depth < 8 {
			b := bound[fv]
			if stored := SingleStore(b); stored != nil && len(r.Ops) > 0 && r.Ops[0].Kind == access.Load {
				// a variable captured by reference, assigned once
				b, r.Ops = stored, r.Ops[1:]
			}
			p, ok := param(b, depth+1)
			if !ok {
				return p, false
			}
			r.Ops = append(slices.Clip(p.Ops), r.Ops...)
			if hasLoadOp(r.Ops) {
				return access.Path{}, false
			}
			return access.Path{Root: p.Root, Ops: r.Ops}, true
		}
		prm, ok := r.Root.(*ssa.Parameter)
		if !ok || hasLoadOp(r.Ops) {
			return access.Path{}, false
		}
		i := slices.Index(fn.Params, prm)
		return access.Path{Root: i, Ops: r.Ops}, i >= 0
	}
	for _, body := range bodies {
		out = append(out, pa.armsIn(fn, body, func(v ssa.Value) (access.Path, bool) { return param(v, 0) })...)
	}
	return out
}

// armsIn returns the arms of the calls in body, fn or one of cgo's
// wrappers in it; param names a value as a path from fn's parameters.
func (pa *pkgAnalysis) armsIn(fn, body *ssa.Function, param func(ssa.Value) (access.Path, bool)) []armsAt {
	var out []armsAt
	for _, b := range body.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if _, isGo := instr.(*ssa.Go); !ok || isGo || call.Common().IsInvoke() {
				continue
			}
			callee := call.Common().StaticCallee()
			if callee == nil {
				continue
			}
			if o := callee.Origin(); o != nil {
				callee = o
			}
			args := call.Common().Args
			var objV, finV ssa.Value
			switch {
			case callee.Pkg != nil && callee.Pkg.Pkg.Path() == "runtime" && callee.Name() == "SetFinalizer" && len(args) == 2:
				objV, finV = args[0], args[1]
			case callee.Pkg != nil && callee.Pkg.Pkg == pa.pass.Pkg:
				if reg, ok := pa.registrar(callee, map[*ssa.Function]bool{}); ok {
					objV, finV = reg.at(args)
				}
			}
			if objV != nil && finV != nil {
				obj := unwrapIface(objV)
				f := funcValue(unwrapIface(finV))
				if f == nil || f == fn {
					continue
				}
				fsum := pa.summaryOf(f)
				if fsum == nil {
					continue
				}
				for _, r := range fsum.Releases {
					if r.Path.Root != 0 || r.Guarded || len(r.Path.Ops) == 0 {
						continue
					}
					loc := r.Path.Ops[:len(r.Path.Ops)-1]
					if r.Path.Ops[len(r.Path.Ops)-1].Kind != access.Load {
						continue
					}
					for _, v := range storedAt(body, Expand(obj).With(loc...)) {
						if p, ok := param(v); ok {
							out = append(out, armsAt{call, Arm{Path: p, Fin: finalizerName(f), Posn: posn(pa.pass.Fset, call.Pos()), CFunc: r.CFunc}})
						}
					}
				}
				continue
			}
			sum := pa.summaryOf(callee)
			if sum == nil {
				continue
			}
			for _, arm := range sum.Arms {
				if arm.Path.Root < 0 || arm.Path.Root >= len(args) {
					continue
				}
				if p, ok := param(args[arm.Path.Root]); ok {
					arm.Path = access.Path{Root: p.Root, Ops: append(slices.Clip(p.Ops), arm.Path.Ops...)}
					out = append(out, armsAt{call, arm})
				}
			}
		}
	}
	return out
}

// storedAt returns the values fn stores at the location loc (an address
// path in fn's frame).
func storedAt(fn *ssa.Function, loc access.Ref) []ssa.Value {
	var out []ssa.Value
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			if r := Expand(st.Addr); r.Root == loc.Root && slices.Equal(r.Ops, loc.Ops) {
				out = append(out, st.Val)
			}
		}
	}
	return out
}

func hasLoadOp(ops []access.Op) bool {
	return slices.ContainsFunc(ops, func(o access.Op) bool { return o.Kind == access.Load })
}

// callbackArms adds to trace, for an //export function, the arms of the
// parameters C lends it: a finalizer armed to release what the library
// still owns (reported as a double release of a lent handle).
func (a *fnAnalysis) callbackArms(arms []armsAt) {
	lent := a.callbackLent()
	for _, at := range arms {
		p, ok := lent[at.arm.Path.Root]
		if !ok || len(at.arm.Path.Ops) > 0 {
			continue
		}
		first := a.lent[a.ts.rootOf(p)]
		if first == nil {
			continue
		}
		arm := at.arm
		second := a.site(at.instr, nil, arm.CFunc, "arm", at.arm.Path.Root, false, func() string { return p.Name() })
		a.event(&Event{Kind: DoubleRelease, First: first, Second: second, Handle: p.Name(), Lent: true, Armed: &arm},
			"arm"+p.Name()+arm.Posn)
	}
}
