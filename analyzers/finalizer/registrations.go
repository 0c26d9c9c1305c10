package finalizer

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/cfg"
	"github.com/lifetimevet/lifetimevet/internal/diag"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
)

// registrations checks the finalizers and cleanups fn registers, and its
// runtime.KeepAlive calls.
func (c *checker) registrations(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok {
				c.deferredRegistration(fn, d)
				continue
			}
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
			if callee.Pkg == nil || callee.Pkg.Pkg.Path() != "runtime" {
				continue
			}
			args := call.Call.Args
			switch callee.Name() {
			case "KeepAlive":
				if len(args) == 1 {
					c.keepAliveCopy(fn, call, unwrap(args[0]))
				}
			case "SetFinalizer":
				if len(args) == 2 {
					obj, f := unwrap(args[0]), unwrap(args[1])
					if k, ok := f.(*ssa.Const); ok && k.Value == nil {
						continue // disarming
					}
					c.finalizerOnCopy(fn, call, obj, f)
					c.neverRuns(fn, call, obj, f, nil, false)
					c.armedEarly(fn, call, obj, f)
				}
			case "AddCleanup":
				if len(args) == 3 {
					c.neverRuns(fn, call, args[0], args[1], args[2], true)
					c.armedEarly(fn, call, args[0], args[1])
				}
			}
		}
	}
}

func unwrap(v ssa.Value) ssa.Value {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		return mi.X
	}
	return v
}

// keepAliveCopy reports runtime.KeepAlive(v) where v is a struct value
// whose pointer carries a finalizer: it keeps a copy alive, not the object.
func (c *checker) keepAliveCopy(fn *ssa.Function, call *ssa.Call, v ssa.Value) {
	n, ok := types.Unalias(v.Type()).(*types.Named)
	if !ok {
		return
	}
	if _, isStruct := n.Underlying().(*types.Struct); !isStruct {
		return
	}
	fins := c.lt.FinalizersOf(n.Origin().Obj())
	if len(fins) == 0 {
		return
	}
	what := "finalizer set"
	if fins[0].Cleanup {
		what = "cleanup added"
	}
	c.rep.Reportf(call.Pos(), "runtime.KeepAlive keeps a copy of a %s value alive, not the *%s the %s at %s is attached to; pass the pointer",
		n.Obj().Name(), n.Obj().Name(), what, c.where(fins[0], call))
}

func (c *checker) where(f *lifetime.Finalizer, at ssa.Instruction) string {
	if f.Pos().IsValid() {
		return diag.Where(c.pass.Fset, f.Pos(), at.Pos())
	}
	return f.Posn
}

// deferredRegistration checks defer runtime.SetFinalizer(&x, f), which
// registers as the function returns (c-for-go generates it).
func (c *checker) deferredRegistration(fn *ssa.Function, d *ssa.Defer) {
	callee := d.Call.StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "runtime" || callee.Name() != "SetFinalizer" || len(d.Call.Args) != 2 {
		return
	}
	obj, f := unwrap(d.Call.Args[0]), unwrap(d.Call.Args[1])
	if k, ok := f.(*ssa.Const); ok && k.Value == nil {
		return // disarming
	}
	c.finalizerOnCopy(fn, d, obj, f)
}

// mayRelease reports whether the finalizer function f releases something,
// itself or through what it calls (also on a new goroutine, or a handle
// kept in a map): a release the summary cannot place on the object counts.
func (c *checker) mayRelease(f ssa.Value, depth int) bool {
	var fn *ssa.Function
	switch f := f.(type) {
	case *ssa.Function:
		fn = f
	case *ssa.MakeClosure:
		fn, _ = f.Fn.(*ssa.Function)
	}
	if fn == nil || depth > 3 {
		return false
	}
	if sum := c.lt.SummaryOf(fn); sum != nil && (len(sum.Releases) > 0 || len(sum.Drops) > 0) {
		return true
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ci, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if cc := c.calls.Lookup(ci); cc != nil {
				if len(c.model.Model.Releases(cc.Name, cc.Sig)) > 0 {
					return true
				}
				continue
			}
			if callee := ci.Common().StaticCallee(); callee != nil && c.mayRelease(callee, depth+1) {
				return true
			}
		}
	}
	return false
}

// finalizerOnCopy reports runtime.SetFinalizer(&local, f) when local is then
// returned or stored by value: the copy outlives the variable, which the
// collector finalizes once the function is done with it.
func (c *checker) finalizerOnCopy(fn *ssa.Function, call ssa.CallInstruction, obj, f ssa.Value) {
	// &local or &local.field: an Alloc of the function, possibly a field of it.
	var alloc *ssa.Alloc
	switch o := obj.(type) {
	case *ssa.Alloc:
		alloc = o
	case *ssa.FieldAddr:
		alloc, _ = o.X.(*ssa.Alloc)
	}
	// a variable of the source (not &T{} or new(T), where the rule's
	// advice already holds)
	if alloc == nil || alloc.Parent() != fn || alloc.Comment == "complit" || alloc.Comment == "new" {
		return
	}
	if _, isPtr := alloc.Type().Underlying().(*types.Pointer); !isPtr {
		return
	}
	// only a finalizer that releases something leaves the copy holding a
	// released handle
	if c.releaseAt(access.PointeeName(obj.Type()), call) == nil && !c.mayRelease(f, 0) {
		return
	}
	for _, ref := range *alloc.Referrers() {
		load, ok := ref.(*ssa.UnOp)
		if !ok || load.Referrers() == nil {
			continue
		}
		for _, use := range *load.Referrers() {
			how := ""
			switch use := use.(type) {
			case *ssa.Return:
				how = "returned"
			case *ssa.Store:
				if use.Val == load {
					how = "stored"
					if resultSlot(fn, use.Addr) {
						how = "returned" // through the result, past the defers
					}
				}
			case *ssa.MapUpdate:
				if use.Value == load {
					how = "stored"
				}
			case *ssa.Send:
				how = "sent"
			}
			if how == "" {
				continue
			}
			name := alloc.Comment
			if name == "" {
				name = "the variable"
			}
			verb := map[string]string{"returned": "return", "stored": "store", "sent": "send"}[how]
			c.rep.Reportf(call.Pos(), "the finalizer is set on &%s, but %s is %s by value at %s: the copy outlives %s, whose finalizer runs (releasing what the copy still holds) once the function is done with it; allocate %s with new or &T{} and %s the pointer",
				name, name, how, diag.Where(c.pass.Fset, use.Pos(), call.Pos()), name, name, verb)
			return
		}
	}
}

// resultSlot reports whether addr is a variable of fn that only carries a
// result to a return (go/ssa's slot for results of a function with defers).
func resultSlot(fn *ssa.Function, addr ssa.Value) bool {
	a, ok := addr.(*ssa.Alloc)
	if !ok || a.Parent() != fn || a.Referrers() == nil {
		return false
	}
	returned := false
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
		case *ssa.UnOp:
			for _, u := range *r.Referrers() {
				if _, ok := u.(*ssa.Return); !ok {
					return false
				}
				returned = true
			}
		default:
			return false
		}
	}
	return returned
}

// neverRuns reports finalizers and cleanups that keep their own object
// reachable, so that they never run: a cleanup whose argument is the object
// or points into it, and a finalizer or cleanup function that captures the
// object.
func (c *checker) neverRuns(fn *ssa.Function, call *ssa.Call, obj, f, arg ssa.Value, cleanup bool) {
	o := norm(obj)
	kind := "finalizer"
	if cleanup {
		kind = "cleanup"
	}
	if arg != nil {
		a := norm(arg)
		if sameRef(a, o) {
			c.rep.Reportf(call.Pos(), "the cleanup's argument is the object itself: runtime.AddCleanup panics (and a cleanup that kept its object reachable would never run); pass the handle to release, such as a field of it")
			return
		}
		if a.Root == o.Root && hasPrefix(a.Ops, o.Ops) && !hasLoad(a.Ops[len(o.Ops):]) {
			c.rep.Reportf(call.Pos(), "the cleanup's argument points into the object, which keeps it reachable: the cleanup never runs; pass the handle to release, not a pointer into the object")
			return
		}
	}
	mc, ok := f.(*ssa.MakeClosure)
	if !ok {
		return
	}
	for _, b := range mc.Bindings {
		r := norm(b)
		if r.Root == o.Root && (hasPrefix(o.Ops, r.Ops) || hasPrefix(r.Ops, o.Ops) && !hasLoad(r.Ops[len(o.Ops):])) {
			what := "function literal"
			if g, ok := mc.Fn.(*ssa.Function); ok && g.Synthetic != "" {
				what = "method value"
			}
			c.rep.Reportf(call.Pos(), "the %s's %s captures the object it is attached to, which keeps the object reachable: the %s never runs; use the function's parameter instead of the captured variable",
				kind, what, kind)
			return
		}
	}
}

// releaseAt returns the first release of the finalizer or cleanup that call
// registers on a *t, or nil when it releases nothing (or t is nil).
func (c *checker) releaseAt(t *types.TypeName, call ssa.CallInstruction) *lifetime.FinalizerRelease {
	if t == nil {
		return nil
	}
	for _, fin := range c.lt.FinalizersOf(t) {
		if fin.Pos() == call.Pos() && len(fin.Releases) > 0 {
			return &fin.Releases[0]
		}
	}
	return nil
}

// outToField reports whether r is the address of a variable of fn whose
// value fn stores into field: an out-parameter the handle is copied from.
func (c *checker) outToField(fn *ssa.Function, r access.Ref, field access.Ref) bool {
	a, ok := r.Root.(*ssa.Alloc)
	if !ok || len(r.Ops) > 0 || a.Parent() != fn || a.Referrers() == nil {
		return false
	}
	for _, ref := range *a.Referrers() {
		load, ok := ref.(*ssa.UnOp)
		if !ok || load.Op != token.MUL || load.Referrers() == nil {
			continue
		}
		for _, u := range *load.Referrers() {
			if st, ok := u.(*ssa.Store); ok && st.Val == load && sameRef(norm(st.Addr), field) {
				return true
			}
		}
	}
	return false
}

// writesField reports whether call, of a Go function, writes field (a
// path of one of its arguments) according to the callee's summary.
func (c *checker) writesField(call *ssa.Call, field access.Ref) bool {
	callee := call.Call.StaticCallee()
	if callee == nil || call.Call.IsInvoke() {
		return false
	}
	sum := c.lt.SummaryOf(callee)
	if sum == nil {
		return false
	}
	for i, a := range call.Call.Args {
		ar := norm(a)
		if ar.Root != field.Root || !hasPrefix(field.Ops, ar.Ops) {
			continue
		}
		p := access.Path{Root: i, Ops: slices.Clone(field.Ops[len(ar.Ops):])}
		if sum.StoresTo(p) {
			return true
		}
	}
	return false
}

// armedEarly reports a finalizer or cleanup armed on a new object before
// the handle it releases is acquired, when an error return can then drop
// the object: the finalizer gets a handle that was never acquired.
func (c *checker) armedEarly(fn *ssa.Function, call *ssa.Call, obj, f ssa.Value) {
	o := norm(obj)
	if _, isNew := o.Root.(*ssa.Alloc); !isNew || len(o.Ops) > 0 {
		return
	}
	rel := c.releaseAt(access.PointeeName(o.Root.Type()), call)
	if rel == nil || len(rel.Ops) < 2 || rel.Ops[len(rel.Ops)-1].Kind != access.Load {
		return
	}
	if rel.Guarded {
		return // the finalizer tests the handle first: an unset one is skipped
	}
	field := access.Ref{Root: o.Root, Ops: rel.Ops[:len(rel.Ops)-1]} // the location of the handle
	// The acquisition after the registration: a store to the field, a call
	// into C that writes the handle through &o.field, or through &h of a
	// variable later stored in the field (an out-parameter), or a helper of
	// the package that writes the field (t.init()).
	var acq ssa.Instruction
	cfg.After(call, func(instr ssa.Instruction) bool {
		switch instr := instr.(type) {
		case *ssa.Store:
			if sameRef(norm(instr.Addr), field) {
				acq = instr
			}
		case *ssa.Call:
			if cc := c.calls.Lookup(instr); cc != nil {
				for _, r := range cc.Args {
					if sameRef(lifetime.NormRef(r), field) || c.outToField(fn, lifetime.NormRef(r), field) {
						acq = instr
					}
				}
			} else if c.writesField(instr, field) {
				acq = instr
			}
		}
		return acq == nil
	})
	if acq == nil {
		return
	}
	// An error return after it that drops the object.
	var drop *ssa.Return
	cfg.After(acq, func(instr ssa.Instruction) bool {
		if ret, ok := instr.(*ssa.Return); ok && !slices.ContainsFunc(ret.Results, func(v ssa.Value) bool { return norm(v).Root == o.Root }) {
			drop = ret
		}
		return drop == nil
	})
	if drop == nil {
		return
	}
	name := c.text(o)
	handle := access.Render(name, o.Root.Type(), rel.Ops)
	c.rep.Reportf(call.Pos(), "the finalizer is armed before %s is acquired (at %s): when that fails, the return at %s drops %s and the finalizer releases a %s that was never acquired; set the finalizer once construction has succeeded",
		handle, diag.Where(c.pass.Fset, acq.Pos(), call.Pos()), diag.Where(c.pass.Fset, drop.Pos(), call.Pos()), name, handle)
}
