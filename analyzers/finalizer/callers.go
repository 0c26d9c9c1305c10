package finalizer

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/cfg"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
)

// This file decides, for a function only the package can call, whether its
// callers keep an object alive across the call: then a C call inside it
// with the object's handle needs no runtime.KeepAlive of its own.
//
// The principle: the finalizer can run during the C call only if the object
// is unreachable then. A function nothing outside the package can call (an
// unexported function or method whose value never escapes: no method value,
// no interface call, no go statement, no //export) runs only at its call
// sites in the package, and the object stays reachable for the whole call
// when, at every one of them, the caller uses it after the call returns
// (a later use, a deferred use, a store), or no finalizer is armed on it
// yet (an object the caller allocated and has not registered nor handed
// to code that could), or the caller is itself such a function whose
// callers keep it alive, or the caller claims the object before the call
// (see claimedBefore), or the caller is a function literal that only
// (*sync.Once).Do runs, on a Once inside the object it captured (Do's frame
// holds the Once, and so the object, until the literal returns), or the
// call runs inside a Do on a Once the finalizer's release runs under too
// (see sameOnce). When any
// call site is unknown or does neither, the finding stands.

const maxCallerDepth = 3

// callersKeep reports whether obj, a path from a parameter of fn, stays
// reachable across every call of fn, as above.
func (c *checker) callersKeep(fn *ssa.Function, obj access.Ref, m *managed) bool {
	return c.callersKeepDepth(fn, obj, m, 0, map[*ssa.Function]bool{})
}

// callersKeepDepth is callersKeep; m, if not nil, is the finding's
// managed handle, whose object obj is in fn's frame.
func (c *checker) callersKeepDepth(fn *ssa.Function, obj access.Ref, m *managed, depth int, seen map[*ssa.Function]bool) bool {
	if depth > maxCallerDepth || seen[fn] {
		return false
	}
	if fv, ok := obj.Root.(*ssa.FreeVar); ok {
		// a literal called where it is made (f := func() { … }; f()):
		// each call is a site of its enclosing function, on the object
		// it bound
		i := slices.Index(fn.FreeVars, fv)
		sites := calledInPlace(fn)
		if i < 0 || len(sites) == 0 || m == nil {
			return false
		}
		seen[fn] = true
		defer delete(seen, fn)
		for _, s := range sites {
			mc := s.Call.Value.(*ssa.MakeClosure)
			if i >= len(mc.Bindings) {
				return false
			}
			at := lifetime.NormRef(access.Ref{Root: mc.Bindings[i], Ops: obj.Ops})
			if !at.Valid() || !c.siteKeeps(s.Parent(), s, at, m, depth, seen) {
				return false
			}
		}
		return true
	}
	p, ok := obj.Root.(*ssa.Parameter)
	if !ok {
		return false
	}
	idx := slices.Index(fn.Params, p)
	if idx < 0 || !c.internal(fn) {
		return false
	}
	sites, ok := c.callSites(fn)
	deferred, onces := c.sites[fn].deferred, c.sites[fn].onces
	if ok && len(sites) == 0 && len(deferred) == 0 && len(onces) == 0 && (c.sites[fn].onceBound > 0 && idx == 0 || c.sites[fn].onceBound == 0) {
		// only d.once.Do(d.free), where Do keeps the receiver; or
		// nothing calls it: it never runs
		return true
	}
	if !ok || len(sites) == 0 && len(deferred) == 0 && len(onces) == 0 || idx > 0 && (c.sites[fn].onceBound > 0 || len(onces) > 0) {
		return false
	}
	seen[fn] = true
	defer delete(seen, fn)
	for _, s := range sites {
		if idx >= len(s.Call.Args) {
			return false
		}
		g := s.Parent()
		at := lifetime.NormRef(access.Ref{Root: s.Call.Args[idx], Ops: obj.Ops})
		if !at.Valid() {
			return false
		}
		if fv, ok := at.Root.(*ssa.FreeVar); ok && onceOfObject(g, fv, at.Ops) {
			// once.Do(func() { d.free() }): Do keeps &d.once, and so
			// d, reachable until the literal returns
			continue
		}
		if fv, ok := at.Root.(*ssa.FreeVar); ok && m != nil {
			// defer func() { d.free() }(): the literal is the deferred
			// call of its enclosing function, on the object it bound
			if d, mc := deferredLiteral(g); d != nil {
				if i := slices.Index(g.FreeVars, fv); i >= 0 && i < len(mc.Bindings) {
					up := lifetime.NormRef(access.Ref{Root: mc.Bindings[i], Ops: at.Ops})
					mm := *m
					mm.obj = up
					if up.Valid() && c.deferKeeps(d, up, mm, depth, seen) {
						continue
					}
				}
			}
		}
		if !c.siteKeeps(g, s, at, m, depth, seen) {
			return false
		}
	}
	// A deferred call (if !d.closed.CompareAndSwap(false, true) {
	// return }; defer d.free()) runs at the caller's exit, after its
	// last use of the object: a claim or a disarm made before the defer
	// statement, or callers that keep the object across the caller's
	// call, keep the finalizer out (deferKeeps).
	for _, d := range deferred {
		if idx >= len(d.Call.Args) || m == nil {
			return false
		}
		at := lifetime.NormRef(access.Ref{Root: d.Call.Args[idx], Ops: obj.Ops})
		if !at.Valid() {
			return false
		}
		mm := *m
		mm.obj = at
		if !c.deferKeeps(d, at, mm, depth, seen) {
			return false
		}
	}
	// A method value that a Once outside the object runs (libOnce.Do(
	// l.free), once.Do(d.free) with once a parameter): the object is kept
	// when the finalizer releases the handle under that same Once, whose
	// Do waits for this one and then runs nothing, or when the function
	// making the method value is called only where its callers keep the
	// object.
	for _, mc := range onces {
		g := mc.Parent()
		at := lifetime.NormRef(access.Ref{Root: mc.Bindings[0], Ops: obj.Ops})
		if !at.Valid() || m == nil || !c.releasesAt(fn, m.rel.Posn) {
			return false
		}
		mm := *m
		mm.obj = at
		mm.inDo = true
		if !c.sameOnce(g, mm) && !c.callersKeepDepth(g, at, &mm, depth+1, seen) {
			return false
		}
	}
	return true
}

// siteKeeps reports whether the call s in g, where g names the object as
// at, keeps it across the call: g claims it first or runs the call under
// the finalizer's Once, uses it after the call, has not armed the
// finalizer yet or disarmed it, or is called only where its own callers
// keep it. m, if not nil, is the finding's managed handle.
func (c *checker) siteKeeps(g *ssa.Function, s *ssa.Call, at access.Ref, m *managed, depth int, seen map[*ssa.Function]bool) bool {
	var here *managed
	if m != nil {
		// the finding's handle, as the caller names its object
		mm := *m
		mm.obj = at
		here = &mm
		if c.claimedBefore(g, s, mm) || c.sameOnce(g, mm) {
			return true // the caller claims the object first
		}
	}
	return c.keptAliveAt(g, s, at) || c.notArmed(g, s, at) || c.disarmedBefore(g, s, at) || c.callersKeepDepth(g, at, here, depth+1, seen)
}

// calledInPlace returns, for a function literal whose enclosing function
// only calls the closures it makes of it (f := func() { … }; f(), or
// func() { … }()), those calls; nil otherwise.
func calledInPlace(fn *ssa.Function) []*ssa.Call {
	var out []*ssa.Call
	for _, mc := range closuresOf(fn) {
		for _, ref := range *mc.Referrers() {
			switch ref := ref.(type) {
			case *ssa.Call:
				if ref.Call.Value != ssa.Value(mc) || slices.Contains(ref.Call.Args, ssa.Value(mc)) {
					return nil
				}
				out = append(out, ref)
			case *ssa.DebugRef:
			default:
				return nil
			}
		}
	}
	return out
}

// deferKeeps reports whether the deferred call d, whose object is at obj
// in d's function, runs while the finalizer is kept out: the function
// claims the object or disarms the finalizer before the defer statement,
// or its callers keep the object across the call of it (the deferred call
// runs before it returns).
func (c *checker) deferKeeps(d *ssa.Defer, obj access.Ref, m managed, depth int, seen map[*ssa.Function]bool) bool {
	g := d.Parent()
	return c.claimedBefore(g, d, m) || c.disarmedBefore(g, d, obj) || c.callersKeepDepth(g, obj, &m, depth+1, seen)
}

// deferredLiteral returns, for a function literal its enclosing function
// makes once and uses only as the function of one defer statement (defer
// func() { d.free() }()), that statement and the closure.
func deferredLiteral(lit *ssa.Function) (*ssa.Defer, *ssa.MakeClosure) {
	parent := lit.Parent()
	if parent == nil {
		return nil, nil
	}
	var mc *ssa.MakeClosure
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			if x, ok := instr.(*ssa.MakeClosure); ok && x.Fn == lit {
				if mc != nil {
					return nil, nil
				}
				mc = x
			}
		}
	}
	if mc == nil || mc.Referrers() == nil || len(*mc.Referrers()) != 1 {
		return nil, nil
	}
	d, ok := (*mc.Referrers())[0].(*ssa.Defer)
	if !ok || d.Call.Value != ssa.Value(mc) || slices.Contains(d.Call.Args, ssa.Value(mc)) {
		return nil, nil
	}
	return d, mc
}

// sameOnce reports whether fn releases m's handle, of the object at m.obj
// in fn's frame, only under the (*sync.Once).Do whose Once the finalizer's
// release runs under too (the summary's Release.OnceOf and the finalizer's
// FinalizerRelease.OnceIn, as paths of one object or one global): the
// finalizer's Do then waits for fn's and releases nothing. Only for m.inDo:
// the finding's call runs inside the Do that releases.
func (c *checker) sameOnce(fn *ssa.Function, m managed) bool {
	if !m.inDo || m.rel.OnceIn.Key() == "" {
		return false
	}
	sum := c.lt.SummaryOf(fn)
	if sum == nil {
		return false
	}
	// the object as a path of fn's parameters and bindings
	base, ok := lifetime.ParamPath(fn, m.obj.Root)
	if !ok {
		return false
	}
	obj := access.Path{Root: base.Root, Ops: slices.Concat(base.Ops, m.obj.Ops)}
	want := m.rel.OnceIn.Rebase(obj).Key()
	handle := access.Canon(slices.Concat(obj.Ops, m.rel.Ops))
	for _, r := range sum.Releases {
		if r.Path.Root == obj.Root && slices.Equal(access.Canon(r.Path.Ops), handle) && r.Posn == m.rel.Posn {
			return r.Once && r.OnceOf.Key() == want
		}
	}
	return false
}

// releasesAt reports whether fn's summary has a release at posn.
func (c *checker) releasesAt(fn *ssa.Function, posn string) bool {
	sum := c.lt.SummaryOf(fn)
	return sum != nil && slices.ContainsFunc(sum.Releases, func(r *lifetime.Release) bool { return r.Posn == posn })
}

// boundForDo reports whether mc is fn bound to its receiver (d.free as a
// value) used only as the function of (*sync.Once).Do calls.
func boundForDo(mc *ssa.MakeClosure, fn *ssa.Function) bool {
	h, ok := mc.Fn.(*ssa.Function)
	if !ok || !strings.HasPrefix(h.Synthetic, "bound method wrapper") || len(mc.Bindings) != 1 || !calls(h, fn) {
		return false
	}
	return doCalls(mc) != nil
}

// doCalls returns the (*sync.Once).Do calls that run the closure mc, nil
// unless mc is used only as the function of such calls.
func doCalls(mc *ssa.MakeClosure) []*ssa.Call {
	refs := mc.Referrers()
	if refs == nil {
		return nil
	}
	var out []*ssa.Call
	for _, r := range *refs {
		call, ok := r.(*ssa.Call)
		if !ok || len(call.Call.Args) != 2 || call.Call.Args[1] != ssa.Value(mc) || !isOnceDo(call.Call.StaticCallee()) {
			return nil
		}
		out = append(out, call)
	}
	return out
}

// internal reports whether only the package's own code calls fn, by name:
// an unexported function or method of the package, not //export, not main
// or init. A generic one counts (func (b *Box[T]) free()): other packages
// can instantiate it only through the package's exported code, whose
// bodies are the package's, and every instance runs fn's body.
func (c *checker) internal(fn *ssa.Function) bool {
	if fn.Parent() != nil || fn.Synthetic != "" || fn.Pkg == nil || fn.Pkg.Pkg != c.pass.Pkg ||
		fn.Origin() != nil || len(fn.Blocks) == 0 {
		return false
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Exported() || c.calls.ExportedToC(obj) {
		return false
	}
	if recv := obj.Signature().Recv(); recv == nil && (obj.Name() == "main" || obj.Name() == "init") {
		return false
	}
	return true
}

// callSites returns the calls of fn in the package, and false when fn may
// be called otherwise: its value is taken (a method value or expression, a
// function value), a go or defer statement calls it, or an interface call
// of the package names the method.
func (c *checker) callSites(fn *ssa.Function) ([]*ssa.Call, bool) {
	if s, ok := c.sites[fn]; ok {
		return s.calls, s.ok
	}
	var out []*ssa.Call
	var deferred []*ssa.Defer
	var onces []*ssa.MakeClosure
	ok := true
	bound := 0
	isMethod := fn.Signature.Recv() != nil
	var ops []*ssa.Value
	visit := func(g *ssa.Function) {
		for _, b := range g.Blocks {
			for _, instr := range b.Instrs {
				if ci, isCall := instr.(ssa.CallInstruction); isCall {
					com := ci.Common()
					if isMethod && com.IsInvoke() && com.Method.Name() == fn.Name() {
						ok = false
					}
					if isFunc(com.Value, fn) {
						switch call := instr.(type) {
						case *ssa.Call:
							out = append(out, call)
						case *ssa.Defer:
							deferred = append(deferred, call)
						default:
							ok = false // go
						}
					}
				}
				ops = instr.Operands(ops[:0])
				for k, o := range ops {
					if o == nil || *o == nil {
						continue
					}
					if ci, isCall := instr.(ssa.CallInstruction); isCall && k == 0 && isFunc(ci.Common().Value, fn) {
						continue // the callee operand, seen above
					}
					h, isFn := (*o).(*ssa.Function)
					switch {
					case !isFn:
					case isFunc(h, fn):
						ok = false // a function value
					case h.Synthetic != "" && calls(h, fn):
						if mc, isMC := instr.(*ssa.MakeClosure); isMC && onceBound(mc, fn) {
							bound++ // d.once.Do(d.free): see onceBound
							break
						}
						if mc, isMC := instr.(*ssa.MakeClosure); isMC && boundForDo(mc, fn) {
							onces = append(onces, mc) // libOnce.Do(l.free)
							break
						}
						ok = false // a method value's wrapper or thunk
					}
					if mc, isMC := (*o).(*ssa.MakeClosure); isMC {
						if h, isFn := mc.Fn.(*ssa.Function); isFn && h.Synthetic != "" && calls(h, fn) && !onceBound(mc, fn) && !boundForDo(mc, fn) {
							ok = false
						}
					}
				}
			}
		}
	}
	for _, g := range c.calls.Funcs {
		visit(g)
	}
	if init := fn.Pkg.Func("init"); init != nil && !slices.Contains(c.calls.Funcs, init) {
		// the package's initializer runs its variables' initializers
		// (var hooks = map[string]func(*T) int{"use": (*T).use}), code
		// no declared function holds
		visit(init)
	}
	if c.sites == nil {
		c.sites = map[*ssa.Function]callSites{}
	}
	c.sites[fn] = callSites{out, deferred, onces, ok, bound}
	return out, ok
}

type callSites struct {
	calls []*ssa.Call
	// deferred are the defer statements that call fn
	deferred []*ssa.Defer
	// onces are fn bound to its receiver and run only by
	// (*sync.Once).Do calls on a Once outside the receiver (a global's,
	// a parameter's): see sameOnce
	onces []*ssa.MakeClosure
	ok    bool
	// onceBound counts the method values of fn that only a Once inside
	// the receiver runs (onceBound): they keep the receiver
	onceBound int
}

// onceBound reports whether mc is fn bound to its receiver (d.free as a
// value) that only (*sync.Once).Do runs, on a Once inside the receiver:
// Do keeps the Once, and so the receiver, until fn returns, as for
// onceOfObject's literals. Such a method value is no call site that could
// drop the object.
func onceBound(mc *ssa.MakeClosure, fn *ssa.Function) bool {
	h, ok := mc.Fn.(*ssa.Function)
	return ok && strings.HasPrefix(h.Synthetic, "bound method wrapper") && len(mc.Bindings) == 1 && calls(h, fn) && onceDoOnly(mc, 0, nil)
}

// calls reports whether the synthetic function h calls fn.
func calls(h, fn *ssa.Function) bool {
	for _, b := range h.Blocks {
		for _, instr := range b.Instrs {
			if ci, ok := instr.(ssa.CallInstruction); ok && isFunc(ci.Common().Value, fn) {
				return true
			}
		}
	}
	return false
}

// isFunc reports whether v is fn or an instance of it (b.free() in a
// method of Box[T] calls the instance (*Box[T]).free, whose body is fn's).
func isFunc(v ssa.Value, fn *ssa.Function) bool {
	h, ok := v.(*ssa.Function)
	return ok && (h == fn || h.Origin() == fn)
}

// keptAliveAt reports whether the caller g keeps obj reachable after its
// call s of a Go function returns: a later or deferred use, a store.
func (c *checker) keptAliveAt(g *ssa.Function, s *ssa.Call, obj access.Ref) bool {
	return c.keptAliveDepth(g, s, obj, s, 0, false)
}

// notArmed reports whether no finalizer or cleanup can be armed on obj
// when g calls s: obj is an object g allocated, and before s, g neither
// registers it (runtime.SetFinalizer, runtime.AddCleanup) nor stores it
// anywhere nor hands it to code that registers finalizers.
func (c *checker) notArmed(g *ssa.Function, s *ssa.Call, obj access.Ref) bool {
	a, ok := obj.Root.(*ssa.Alloc)
	if !ok || len(obj.Ops) != 0 {
		return false
	}
	fresh := true
	for _, b := range g.Blocks {
		for _, instr := range b.Instrs {
			if !fresh {
				return false
			}
			if instr == s || !c.usesObj(instr, obj) || !cfg.Reaches(instr, s) {
				continue
			}
			fresh = c.harmlessUse(instr, a, obj)
		}
	}
	return fresh
}

// harmlessUse reports whether instr, a use of the fresh object obj (whose
// allocation is a), can neither arm a finalizer on it nor let other code
// reach it.
func (c *checker) harmlessUse(instr ssa.Instruction, a *ssa.Alloc, obj access.Ref) bool {
	if c.calls.Plumbing(instr) || c.calls.Lookup(instr) != nil {
		return true // cgo's wrappers; C registers no Go finalizer
	}
	switch instr := instr.(type) {
	case *ssa.FieldAddr, *ssa.Field, *ssa.IndexAddr, *ssa.DebugRef:
		return true
	case *ssa.UnOp:
		return instr.Op == token.MUL // a load of the variable that holds it, or of a field
	case *ssa.Store:
		if sameRef(norm(instr.Val), obj) {
			// the variable that holds it (x := &T{}), nothing else
			v, isAlloc := instr.Addr.(*ssa.Alloc)
			return isAlloc && v != a && lifetime.SingleStore(v) == instr.Val
		}
		return true // a store into the object
	case *ssa.Call:
		if instr.Call.IsInvoke() {
			return false
		}
		callee := instr.Call.StaticCallee()
		return callee != nil && c.registersNone(callee, map[*ssa.Function]bool{})
	case *ssa.MakeClosure:
		fn, ok := instr.Fn.(*ssa.Function)
		return ok && c.registersNone(fn, map[*ssa.Function]bool{})
	}
	return false
}

// registersNone reports whether fn, a function of the package, and the
// functions of the package it calls or makes closures of never register a
// finalizer or cleanup, nor call what the analysis cannot see.
func (c *checker) registersNone(fn *ssa.Function, seen map[*ssa.Function]bool) bool {
	if fn.Pkg != nil && fn.Pkg.Pkg.Path() == "runtime" {
		return fn.Name() != "SetFinalizer" && fn.Name() != "AddCleanup"
	}
	if fn.Pkg == nil || fn.Pkg.Pkg != c.pass.Pkg {
		// another package's code sets no finalizer on a type of this
		// one (a registering helper is the package's own)
		return fn.Pkg != nil
	}
	if seen[fn] {
		return true
	}
	if len(seen) > 16 || len(fn.Blocks) == 0 {
		return false
	}
	seen[fn] = true
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var callee *ssa.Function
			switch instr := instr.(type) {
			case ssa.CallInstruction:
				if c.calls.Lookup(instr) != nil {
					continue
				}
				if instr.Common().IsInvoke() {
					return false
				}
				callee = instr.Common().StaticCallee()
				if callee == nil {
					if _, builtin := instr.Common().Value.(*ssa.Builtin); builtin {
						continue
					}
					return false
				}
			case *ssa.MakeClosure:
				callee, _ = instr.Fn.(*ssa.Function)
				if callee == nil {
					return false
				}
			default:
				continue
			}
			if c.calls.IsWrapper(callee) {
				continue
			}
			if o := callee.Origin(); o != nil {
				callee = o
			}
			if !c.registersNone(callee, seen) {
				return false
			}
		}
	}
	return true
}

// onceOfObject reports whether the function literal lit, whose free
// variable fv at ops is the object, runs only as the function of
// (*sync.Once).Do calls whose Once is part of that object (d.once.Do(func()
// { d.free() })): Do's receiver points into the object's allocation, and
// Do keeps it until the literal returns (its deferred unlock and store
// use it).
func onceOfObject(lit *ssa.Function, fv *ssa.FreeVar, ops []access.Op) bool {
	i := slices.Index(lit.FreeVars, fv)
	parent := lit.Parent()
	if i < 0 || parent == nil {
		return false
	}
	made := 0
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || mc.Fn != lit {
				continue
			}
			made++
			if !onceDoOnly(mc, i, ops) {
				return false
			}
		}
	}
	return made > 0
}

// onceDoOnly reports whether the closure mc is used only as the function
// of (*sync.Once).Do calls whose Once is part of the object its binding i
// at ops is (d.once.Do(func() { d.free() }), d.once.Do(d.free)).
func onceDoOnly(mc *ssa.MakeClosure, i int, ops []access.Op) bool {
	if i >= len(mc.Bindings) {
		return false
	}
	obj := lifetime.NormRef(access.Ref{Root: mc.Bindings[i], Ops: ops})
	dos := doCalls(mc)
	if dos == nil {
		return false
	}
	for _, call := range dos {
		recv := lifetime.NormRef(access.Ref{Root: call.Call.Args[0]})
		if recv.Root != obj.Root || !hasPrefix(recv.Ops, obj.Ops) || hasLoad(recv.Ops[len(obj.Ops):]) {
			return false
		}
	}
	return true
}

// isOnceDo reports whether fn is (*sync.Once).Do.
func isOnceDo(fn *ssa.Function) bool {
	if fn == nil {
		return false
	}
	obj, ok := fn.Object().(*types.Func)
	return ok && obj.FullName() == "(*sync.Once).Do"
}
