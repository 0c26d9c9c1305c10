package finalizer

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/cfg"
	"github.com/lifetimevet/lifetimevet/internal/srcname"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
)

// A call is at risk from a finalizer only when, on the path to it, the
// finalizer is armed, will find this handle in the field it releases, and
// the object can become unreachable. The functions below each say when one
// of these does not hold.

// notArmedYet reports whether obj is allocated in fn and nothing that could
// arm a finalizer on it (runtime.SetFinalizer or AddCleanup, a Go function
// it is passed to, a store or capture that lets it escape) runs before call
// on any path: arming is per path, so a constructor's error branch that
// releases the handle before SetFinalizer is reached is not at risk.
func (c *checker) notArmedYet(fn *ssa.Function, call *ssa.Call, obj access.Ref) bool {
	a, ok := obj.Root.(*ssa.Alloc)
	if !ok || len(obj.Ops) != 0 || !a.Heap || srcname.IsVar(a) || a.Parent() != fn {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if instr == call || !c.mayArm(instr, obj) {
				continue
			}
			if cfg.Reaches(instr, call) {
				return false
			}
		}
	}
	return true
}

// mayArm reports whether instr can arm a finalizer or cleanup on obj, or
// hand obj to code that can: a call of Go code (not C, which cannot) with
// obj among its operands, or obj stored, sent or captured.
func (c *checker) mayArm(instr ssa.Instruction, obj access.Ref) bool {
	if c.calls.Plumbing(instr) {
		return false // cgo's own code around a C call
	}
	switch instr := instr.(type) {
	case ssa.CallInstruction:
		if c.calls.Lookup(instr) != nil {
			return false
		}
		return c.usesObj(instr, obj)
	case *ssa.Store:
		if a, ok := instr.Addr.(*ssa.Alloc); ok && lifetime.SingleStore(a) == instr.Val {
			return false // a variable holding it: its loads are uses
		}
		return sameRef(norm(instr.Val), obj)
	case *ssa.MapUpdate:
		return sameRef(norm(instr.Value), obj) || sameRef(norm(instr.Key), obj)
	case *ssa.Send:
		return sameRef(norm(instr.X), obj)
	case *ssa.MakeClosure:
		if fn, ok := instr.Fn.(*ssa.Function); ok && c.calls.IsWrapper(fn) {
			return false
		}
		return c.usesObj(instr, obj)
	}
	return false
}

// swappedOut reports whether the handle arg passes was loaded from the field
// the finalizer releases and the field was then overwritten (h := x.h;
// x.h = nil; C.release(h)) before call on every path: the finalizer
// releases what is in the field when it runs, and that is no longer this
// handle. An atomic cell's Swap loads and overwrites in one step (h :=
// x.h.Swap(nil)); its Store overwrites, and so does its CompareAndSwap of
// the loaded handle on the side of the test where it succeeded. What was
// loaded and overwritten may be a pointer the handle is reached through
// (b := w.box; w.box = nil; C.release(b.h), or b := w.box.Swap(nil)): the
// finalizer reaches another box, or none.
func (c *checker) swappedOut(fn *ssa.Function, call *ssa.Call, arg access.Ref, m managed) bool {
	n := len(m.rel.Ops)
	if n == 0 || m.rel.Ops[n-1].Kind != access.Load {
		return false
	}
	root := arg.Root
	if a, ok := root.(*ssa.Alloc); ok && len(arg.Ops) == 1 && arg.Ops[0].Kind == access.Load {
		// a variable captured by cgo's pointer-checking closure
		root = lifetime.SingleStore(a)
	} else if len(arg.Ops) != 0 {
		return false
	}
	full := m.obj.With(m.rel.Ops...)
	// the values loaded along the path to the handle, the handle's own
	// first (b.h, then b): the path up to each load
	var loads []int
	for j := len(full.Ops); j > len(m.obj.Ops); j-- {
		if full.Ops[j-1].Kind == access.Load {
			loads = append(loads, j)
		}
	}
	upTo := func(j int) access.Ref { return access.Ref{Root: full.Root, Ops: full.Ops[:j]} }
	v := root
	for depth := 0; v != nil && depth < 4; depth++ {
		if ld := loadedValue(v); ld != nil {
			r := norm(ld)
			if i := slices.IndexFunc(loads, func(j int) bool { return sameRef(r, upTo(j)) }); i >= 0 {
				k := loads[i]
				if c.takenOut(access.StripConv(v), upTo(k)) || overwritten(fn, call, ld, upTo(k-1)) {
					return true
				}
			}
			v = throughPointer(ld)
			continue
		}
		// a take-out helper's result: what it took out is a pointer
		// along the path, or the handle
		return slices.ContainsFunc(loads, func(j int) bool { return c.takenOut(access.StripConv(v), upTo(j)) })
	}
	return false
}

// throughPointer returns, for ld a load of a field of a pointed-to value
// (*(&p.h), p.h.Load()), the pointer p when it is itself loaded; nil
// otherwise.
func throughPointer(ld ssa.Value) ssa.Value {
	var addr ssa.Value
	switch x := ld.(type) {
	case *ssa.UnOp:
		addr = x.X
	case *ssa.Call:
		if op, ok := lifetime.AtomicCellOp(&x.Call); ok {
			addr = op.Addr
		}
	}
	fa, ok := access.StripConv(addr).(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	p := access.StripConv(fa.X)
	switch p.(type) {
	case *ssa.Call, *ssa.Extract:
		return p // a call's result (a take-out helper's)
	}
	if loadedValue(p) == nil {
		return nil
	}
	return p
}

// overwritten reports whether the location field, from which ld was
// loaded, is given another value after ld and before call on every path
// to call (a store, an atomic cell's Store, or its CompareAndSwap of ld
// where it succeeded), or ld is an atomic cell's Swap.
func overwritten(fn *ssa.Function, call *ssa.Call, ld ssa.Value, field access.Ref) bool {
	if c, ok := ld.(*ssa.Call); ok {
		if op, ok := lifetime.AtomicCellOp(&c.Call); ok && op.Kind == lifetime.CellSwap {
			return true
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var addr, val ssa.Value
			switch instr := instr.(type) {
			case *ssa.Store:
				addr, val = instr.Addr, instr.Val
			case *ssa.Call:
				op, ok := lifetime.AtomicCellOp(&instr.Call)
				if !ok || op.Kind == lifetime.CellLoad || op.Kind == lifetime.CellCAS && !casSucceeds(instr, ld, call) {
					continue
				}
				addr, val = op.Addr, op.Val
			default:
				continue
			}
			if access.StripConv(val) == ld || !sameRef(lifetime.NormRef(access.Ref{Root: addr}), field) {
				continue
			}
			if cfg.Dominates(ld.(ssa.Instruction), instr) && cfg.Dominates(instr, call) {
				return true
			}
		}
	}
	return false
}

// takenOut reports whether v is the result of a take-out helper (p :=
// b.h; b.h = nil; return p, or return b.h.Swap(nil)) called on the path
// h: the helper read the handle and stored into the path on every path
// that returns, so a finalizer that runs later finds what it stored.
func (c *checker) takenOut(v ssa.Value, h access.Ref) bool {
	i := 0
	if x, ok := v.(*ssa.Extract); ok {
		v, i = x.Tuple, x.Index // p, ok := b.take()
	}
	call, ok := v.(*ssa.Call)
	if !ok || call.Call.IsInvoke() {
		return false
	}
	callee := call.Call.StaticCallee()
	if callee == nil {
		return false
	}
	sum := c.lt.SummaryOf(callee)
	if sum == nil {
		return false
	}
	p, ok := sum.TakesOut(i)
	if !ok {
		return false
	}
	base := lifetime.CallOperand(&call.Call, p.Root)
	return base != nil && sameRef(norm(base).With(p.Ops...), h)
}

// casSucceeds reports whether cas, a CompareAndSwap of an atomic cell,
// replaces the value ld it compares with wherever call runs: a branch on
// its result (cas, !cas, cas == false) leads to call only on the side
// where it swapped.
func casSucceeds(cas *ssa.Call, ld ssa.Value, call *ssa.Call) bool {
	if len(cas.Call.Args) != 3 || access.StripConv(cas.Call.Args[1]) != ld {
		return false
	}
	ifs, _ := lifetime.Tests(cas)
	for _, iff := range ifs {
		if cfg.Dominates(iff, call) {
			if x, val, ok := lifetime.Outcome(iff, call); ok && x == ssa.Value(cas) && val {
				return true
			}
		}
	}
	return false
}

// loadedValue returns the load that v is (a load of a variable or field,
// an atomic cell's Load or Swap), through conversions and a variable
// assigned once, or nil.
func loadedValue(v ssa.Value) ssa.Value {
	for i := 0; i < 4 && v != nil; i++ {
		v = access.StripConv(v)
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op == token.MUL {
				if a, ok := x.X.(*ssa.Alloc); ok {
					if s := lifetime.SingleStore(a); s != nil {
						v = s
						continue
					}
				}
				return x
			}
			return nil
		case *ssa.Call:
			if op, ok := lifetime.AtomicCellOp(&x.Call); ok && op.Reads() {
				return x
			}
			return nil
		case *ssa.Alloc:
			v = lifetime.SingleStore(x)
			continue
		}
		return nil
	}
	return nil
}

// reachableFromLive reports whether every value obj can hold at call stays
// reachable until call returns, itself or through an object that points to
// it and is used after the call: issuer := c; if c.Issuer != nil { issuer =
// c.Issuer } with c used later, or p := owner.child with owner used later.
// An object reachable from a live object is not collected.
func (c *checker) reachableFromLive(fn *ssa.Function, call *ssa.Call, obj access.Ref) bool {
	vals := valuesOf(obj, 0)
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if !c.liveOrOwned(fn, call, v) {
			return false
		}
	}
	return true
}

// liveOrOwned reports whether v is kept alive after call (itself, or what
// holds it: c for c.Issuer), or is reached from a package-level variable.
func (c *checker) liveOrOwned(fn *ssa.Function, call *ssa.Call, v access.Ref) bool {
	if !v.Valid() {
		return false
	}
	if _, ok := v.Root.(*ssa.Global); ok {
		return true
	}
	return c.keptAlive(fn, call, v, call)
}

// valuesOf returns the values obj can hold, each as an access path: the
// edges of a phi, the values stored in a local variable it is loaded from
// (when every store is in the variable's own function), or obj itself; nil
// when one is unknown.
func valuesOf(obj access.Ref, depth int) []access.Ref {
	if depth > 3 {
		return nil
	}
	switch r := obj.Root.(type) {
	case *ssa.Phi:
		if len(obj.Ops) != 0 {
			break
		}
		var out []access.Ref
		for _, e := range r.Edges {
			vs := valuesOf(norm(e), depth+1)
			if vs == nil {
				return nil
			}
			out = append(out, vs...)
		}
		return out
	case *ssa.Alloc:
		if len(obj.Ops) != 1 || obj.Ops[0].Kind != access.Load || !srcname.IsVar(r) || r.Referrers() == nil {
			break
		}
		var out []access.Ref
		for _, u := range *r.Referrers() {
			switch u := u.(type) {
			case *ssa.Store:
				if u.Addr != r {
					return nil
				}
				vs := valuesOf(norm(u.Val), depth+1)
				if vs == nil {
					return nil
				}
				out = append(out, vs...)
			case *ssa.UnOp:
			case *ssa.MakeClosure:
				// a closure that captures the variable may assign it
				if storesFreeVar(u, r) {
					return nil
				}
			default:
				return nil
			}
		}
		return out
	}
	return []access.Ref{obj}
}

// storesFreeVar reports whether the closure mc stores into the variable a
// it captures.
func storesFreeVar(mc *ssa.MakeClosure, a *ssa.Alloc) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return true
	}
	for i, b := range mc.Bindings {
		if b != a || i >= len(fn.FreeVars) || fn.FreeVars[i].Referrers() == nil {
			continue
		}
		for _, u := range *fn.FreeVars[i].Referrers() {
			switch u.(type) {
			case *ssa.UnOp:
			default:
				return true
			}
		}
	}
	return false
}
