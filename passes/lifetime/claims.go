package lifetime

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/lifetimevet/lifetimevet/internal/cfg"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
)

// A claim is how code that releases a handle of an object makes itself the
// only one to: it tests a location of the object other than the handle,
// and changes it before the release, on every path that reaches the
// release (b.state.CompareAndSwap(0, 1), if !b.closed { b.closed = true },
// a claim() helper that sets the flag). Two releases past claims of one
// location of one object exclude each other: one claim fails, and its
// release does not run. A test of the handle itself (b.h != nil) is no
// claim, nor is a location no test before the release reads.

// ClaimsBefore returns the locations of the object at obj, in fn's frame,
// that fn claims before call, as ops from the object ([FieldAddr closed]
// for b.closed). handle is the ops from the object to the handle call
// releases or uses; it and the locations it lies in are never claims.
func (r *Result) ClaimsBefore(fn *ssa.Function, call ssa.Instruction, obj access.Ref, handle []access.Op) [][]access.Op {
	if fn == nil || call == nil || !obj.Valid() {
		return nil
	}
	h := obj.With(handle...)
	// state reports whether the location at ref is the object's, and not
	// the handle
	state := func(ref access.Ref) bool {
		return ref.Root == obj.Root && hasOpsPrefix(ref.Ops, obj.Ops) && len(ref.Ops) > len(obj.Ops) &&
			!hasOpsPrefix(h.Ops, ref.Ops) && !hasOpsPrefix(ref.Ops, h.Ops)
	}
	// written returns the object's locations instr writes: a store, an
	// atomic operation (atomic.CompareAndSwapInt32(&b.state, …),
	// b.state.CompareAndSwap(…)), a Go function whose summary stores or
	// may change them
	written := func(instr ssa.Instruction) []access.Ref {
		var out []access.Ref
		switch instr := instr.(type) {
		case *ssa.Store:
			out = append(out, Norm(instr.Addr))
		case *ssa.Call:
			callee := instr.Call.StaticCallee()
			if callee == nil {
				break
			}
			args := instr.Call.Args
			if callee.Pkg != nil && callee.Pkg.Pkg.Path() == "sync/atomic" {
				// the operations that write: not Load
				if len(args) > 0 && !strings.HasPrefix(callee.Name(), "Load") {
					out = append(out, Norm(args[0]))
				}
				break
			}
			if s := r.SummaryOf(callee); s != nil {
				// what it assigns on every path, or may change (a
				// claim() that sets the flag on the path it returns
				// true on)
				paths := slices.Clone(s.Clobbers)
				for _, st := range s.Stores {
					paths = append(paths, st.Path)
				}
				for _, p := range paths {
					if p.Root >= 0 && p.Root < len(args) {
						out = append(out, Norm(args[p.Root]).With(p.Ops...))
					}
				}
			}
		}
		for i, ref := range out {
			out[i] = atomicCell(ref)
		}
		return slices.DeleteFunc(out, func(ref access.Ref) bool { return !state(ref) })
	}
	// the locations the tests before the call read (b.closed), or that
	// the call a test takes the result of writes (the CAS, claim())
	var tested, changed []access.Ref
	// the value a claimed location held where the test let the call run
	// (false for if !b.closed, CompareAndSwap(false, true)'s false): a
	// write of it back after the claim gives the claim up
	type unclaim struct {
		loc access.Ref
		val constant.Value
		at  *ssa.If
	}
	var unclaims []unclaim
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if instr == call || !cfg.Dominates(instr, call) {
				continue
			}
			changed = append(changed, written(instr)...)
			iff, ok := instr.(*ssa.If)
			if !ok || !decides(iff, call) {
				continue
			}
			// the value the test is of, and what it is where the call
			// runs (CompareAndSwap(…) == false: false)
			cond, val, ok := Outcome(iff, call)
			if !ok {
				continue
			}
			var operands []ssa.Value
			if bin, ok := cond.(*ssa.BinOp); ok {
				operands = append(operands, bin.X, bin.Y)
			} else {
				operands = append(operands, cond)
			}
			for _, v := range operands {
				switch v := v.(type) {
				case *ssa.UnOp:
					if v.Op == token.MUL {
						loc := atomicCell(Norm(v.X))
						tested = append(tested, loc)
						if v == cond && isBool(v.Type()) {
							unclaims = append(unclaims, unclaim{loc, constant.MakeBool(val), iff})
						}
					}
				case *ssa.Call:
					if pol, known := claimPolarity(v, 0); v == cond && known && val != pol {
						// a claim (CAS, claim()) that failed: the
						// other side's claim may succeed
						continue
					}
					tested = append(tested, written(v)...)
					if callee := v.Call.StaticCallee(); callee != nil && callee.Pkg != nil && callee.Pkg.Pkg.Path() == "sync/atomic" && len(v.Call.Args) > 0 {
						loc := atomicCell(Norm(v.Call.Args[0]))
						tested = append(tested, loc) // b.state.Load()
						if strings.HasPrefix(callee.Name(), "CompareAndSwap") && v == cond && val && len(v.Call.Args) == 3 {
							if old, ok := v.Call.Args[1].(*ssa.Const); ok && old.Value != nil {
								unclaims = append(unclaims, unclaim{loc, old.Value, iff})
							}
						}
					}
				}
			}
		}
	}
	// givenBack reports whether a write of t's unclaimed value runs after
	// the claim and may run before the call (b.closed.Store(false) under
	// the winning CompareAndSwap): another claimant may then win
	givenBack := func(t access.Ref) bool {
		for _, u := range unclaims {
			if u.loc.Root != t.Root || !slices.Equal(u.loc.Ops, t.Ops) {
				continue
			}
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					var addr, val ssa.Value
					switch instr := instr.(type) {
					case *ssa.Store:
						addr, val = instr.Addr, instr.Val
					case *ssa.Call:
						callee := instr.Call.StaticCallee()
						if callee != nil && callee.Pkg != nil && callee.Pkg.Pkg.Path() == "sync/atomic" && strings.HasPrefix(callee.Name(), "Store") && len(instr.Call.Args) == 2 {
							addr, val = instr.Call.Args[0], instr.Call.Args[1]
						}
					}
					k, ok := val.(*ssa.Const)
					if addr == nil || !ok || k.Value == nil || !constant.Compare(k.Value, token.EQL, u.val) {
						continue
					}
					if w := atomicCell(Norm(addr)); w.Root != t.Root || !slices.Equal(w.Ops, t.Ops) {
						continue
					}
					if cfg.Dominates(u.at, instr) && cfg.Reaches(instr, call) {
						return true
					}
				}
			}
		}
		return false
	}
	var out [][]access.Op
	for _, t := range tested {
		if !state(t) || !slices.ContainsFunc(changed, func(w access.Ref) bool { return w.Root == t.Root && slices.Equal(w.Ops, t.Ops) }) || givenBack(t) {
			continue
		}
		ops := t.Ops[len(obj.Ops):]
		if !slices.ContainsFunc(out, func(o []access.Op) bool { return slices.Equal(o, ops) }) {
			out = append(out, ops)
		}
	}
	return out
}

// atomicCell returns ref cut at the first value of a sync/atomic type it
// reaches: an atomic.Bool is one location, however its methods reach its
// inner fields (claim() { return g.closed.CompareAndSwap(false, true) }
// changes g.closed, as the CAS of the caller's d.g.closed does).
func atomicCell(ref access.Ref) access.Ref {
	if ref.Root == nil {
		return ref
	}
	for k := 1; k < len(ref.Ops); k++ {
		t := access.TypeAfter(ref.Root.Type(), ref.Ops[:k])
		if t == nil {
			break
		}
		if ref.Ops[k-1].Kind == access.FieldAddr {
			t = access.Deref(t)
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync/atomic" {
			return access.Ref{Root: ref.Root, Ops: ref.Ops[:k]}
		}
	}
	return ref
}

// FinalizerClaims returns the locations of its object, as ops from it,
// that finalizer f claims on its way to release rel (one of f.Releases):
// the claims its function makes before the step that releases, and each
// function its release goes through before the next (func(d *D) {
// d.Close() } claims what Close claims before its d.free()). Nil for a
// finalizer known only from a fact, and for one whose release happens at
// several places along the way (if d.pooled { d.Close() } else { d.free()
// }): a path without the claims may release.
func (r *Result) FinalizerClaims(f *Finalizer, rel FinalizerRelease) [][]access.Op {
	if f == nil || f.Func == nil || rel.Posn == "" {
		return nil
	}
	sum := r.SummaryOf(f.Func)
	if sum == nil {
		return nil
	}
	i := slices.IndexFunc(sum.Releases, func(x *Release) bool { return x.Path.Root == 0 && x.Posn == rel.Posn })
	if i < 0 {
		return nil
	}
	var out [][]access.Op
	cur, fn := sum.Releases[i], f.Func
	for depth := 0; cur != nil && fn != nil && depth < 8; depth++ {
		if cur.sites {
			return nil
		}
		p := cur.Path
		n := len(p.Ops) - len(rel.Ops)
		if p.Root < 0 || p.Root >= len(fn.Params) || n < 0 || !slices.Equal(access.Canon(p.Ops[n:]), access.Canon(rel.Ops)) {
			break
		}
		obj := NormRef(access.Ref{Root: fn.Params[p.Root], Ops: p.Ops[:n]})
		if step := CallAt(fn, cur.Pos()); step != nil {
			for _, c := range r.ClaimsBefore(fn, step, obj, p.Ops[n:]) {
				if !slices.ContainsFunc(out, func(o []access.Op) bool { return slices.Equal(o, c) }) {
					out = append(out, c)
				}
			}
		}
		cur, fn = cur.Via()
	}
	return out
}

// SharesClaim reports whether two sets of claims (ops from one object)
// name a location in common.
func SharesClaim(a, b [][]access.Op) bool {
	return slices.ContainsFunc(a, func(x []access.Op) bool {
		return slices.ContainsFunc(b, func(y []access.Op) bool { return slices.Equal(x, y) })
	})
}

// CallAt returns fn's call instruction at pos (a Release's Pos: the
// release's C call, or the call of the function it happens through); nil
// if none.
func CallAt(fn *ssa.Function, pos token.Pos) ssa.Instruction {
	if !pos.IsValid() {
		return nil
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if _, ok := instr.(ssa.CallInstruction); ok && instr.Pos() == pos {
				return instr
			}
		}
	}
	return nil
}

// claimPolarity returns, for call, whose boolean result a branch tests,
// the result it gives when it claimed the state, and false for known when
// that is not known: true for a compare-and-swap; false for a Swap (the old
// value); for another function (claim(), alreadyClosed()), what its
// returns say, when each returns such a call or its negation (return
// !d.closed.CompareAndSwap(false, true) claims on false), else true.
func claimPolarity(call *ssa.Call, depth int) (pol, known bool) {
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Pkg == nil {
		return false, false
	}
	if callee.Pkg.Pkg.Path() == "sync/atomic" {
		switch {
		case strings.HasPrefix(callee.Name(), "CompareAndSwap"):
			return true, true
		case strings.HasPrefix(callee.Name(), "Swap"):
			return false, true
		}
		return false, false
	}
	if strings.HasPrefix(callee.Pkg.Pkg.Path(), "sync") {
		return false, false
	}
	callee = originOf(callee)
	if depth < 3 && len(callee.Blocks) > 0 {
		var got []bool
		for _, b := range callee.Blocks {
			ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok {
				continue
			}
			if len(ret.Results) != 1 {
				got = nil
				break
			}
			v, neg := ret.Results[0], false
			if u, ok := v.(*ssa.UnOp); ok && u.Op == token.NOT {
				v, neg = u.X, true
			}
			c, ok := v.(*ssa.Call)
			if !ok {
				got = nil
				break
			}
			p, ok := claimPolarity(c, depth+1)
			if !ok {
				got = nil
				break
			}
			got = append(got, p != neg)
		}
		if len(got) > 0 && !slices.Contains(got, !got[0]) {
			return got[0], true
		}
	}
	return true, true
}

// boolCompare returns, for v a comparison of a value with a boolean
// constant (x == false, x != true), the value and whether v is its
// negation.
func boolCompare(v ssa.Value) (x ssa.Value, negated, ok bool) {
	bin, isBin := v.(*ssa.BinOp)
	if !isBin || bin.Op != token.EQL && bin.Op != token.NEQ {
		return nil, false, false
	}
	x, k := bin.X, bin.Y
	if _, isConst := x.(*ssa.Const); isConst {
		x, k = k, x
	}
	c, isConst := k.(*ssa.Const)
	if !isConst || c.Value == nil || c.Value.Kind() != constant.Bool {
		return nil, false, false
	}
	// x == true is x; x == false and x != true are !x
	return x, constant.BoolVal(c.Value) != (bin.Op == token.EQL), true
}

// Outcome returns, for iff a branch that decides whether instr runs, the
// boolean value its condition tests, through negations and comparisons with
// a boolean constant (!ok, ok == false, !(ok != true)), and the value it has
// wherever instr runs. ok is false when both sides of the branch reach
// instr and neither leads to it alone.
func Outcome(iff *ssa.If, instr ssa.Instruction) (x ssa.Value, val, ok bool) {
	x, negated := iff.Cond, false
	for range 4 {
		if u, isNot := x.(*ssa.UnOp); isNot && u.Op == token.NOT {
			x, negated = u.X, !negated
			continue
		}
		if y, neg, isCmp := boolCompare(x); isCmp {
			x, negated = y, negated != neg
			continue
		}
		break
	}
	succs := iff.Block().Succs
	var side bool
	switch {
	case !reachesFrom(succs[1], instr):
		side = true
	case !reachesFrom(succs[0], instr):
		side = false
	default:
		// both sides reach instr (a loop back to the test): the side
		// that alone enters the part of the function instr is in
		switch b := instr.Block(); {
		case len(succs[0].Preds) == 1 && succs[0].Dominates(b):
			side = true
		case len(succs[1].Preds) == 1 && succs[1].Dominates(b):
			side = false
		default:
			return nil, false, false
		}
	}
	return x, side != negated, true
}

// Tests returns the branches that test v, a boolean result, directly or
// through negations and comparisons with a constant (if !v, if v ==
// false), and whether v has another use (stored, passed on, returned, a
// phi): then the branches may not be all that reads it.
func Tests(v ssa.Value) (ifs []*ssa.If, other bool) {
	var walk func(x ssa.Value, depth int)
	walk = func(x ssa.Value, depth int) {
		if depth > 4 || x.Referrers() == nil {
			other = true
			return
		}
		for _, r := range *x.Referrers() {
			switch r := r.(type) {
			case *ssa.DebugRef:
			case *ssa.If:
				ifs = append(ifs, r)
			case *ssa.UnOp:
				if r.Op != token.NOT {
					other = true
					continue
				}
				walk(r, depth+1)
			case *ssa.BinOp:
				_, cx := r.X.(*ssa.Const)
				_, cy := r.Y.(*ssa.Const)
				if (r.Op != token.EQL && r.Op != token.NEQ) || !cx && !cy {
					other = true
					continue
				}
				walk(r, depth+1)
			default:
				other = true
			}
		}
	}
	walk(v, 0)
	return ifs, other
}

// reachesFrom reports whether instr can run once block b is entered.
func reachesFrom(b *ssa.BasicBlock, instr ssa.Instruction) bool {
	return len(b.Instrs) > 0 && (b.Instrs[0] == instr || cfg.Reaches(b.Instrs[0], instr))
}

// decides reports whether the branch iff decides whether instr runs: one
// of its successors does not reach it.
func decides(iff *ssa.If, instr ssa.Instruction) bool {
	for _, succ := range iff.Block().Succs {
		if len(succ.Instrs) > 0 && succ.Instrs[0] != instr && !cfg.Reaches(succ.Instrs[0], instr) {
			return true
		}
	}
	return false
}

// Norm expands v in its function's frame; see NormRef.
func Norm(v ssa.Value) access.Ref {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	return NormRef(access.Ref{Root: v})
}

// NormRef expands the root of r (loads included) in its function's frame.
// A variable assigned once (a parameter spilled for a closure, as cgo's
// wrappers make them; x := &T{} captured by a closure) reads as its value,
// and so does the variable itself, bound into a closure: it keeps the value
// reachable.
func NormRef(r access.Ref) access.Ref {
	if !r.Valid() {
		return r
	}
	e := Expand(r.Root).With(r.Ops...)
	if a, ok := e.Root.(*ssa.Alloc); ok {
		if stored := SingleStore(a); stored != nil {
			switch {
			case len(e.Ops) == 0:
				return Expand(stored)
			case e.Ops[0].Kind == access.Load:
				return Expand(stored).With(e.Ops[1:]...)
			}
		}
	}
	return e
}

func hasOpsPrefix(ops, prefix []access.Op) bool {
	return len(ops) >= len(prefix) && slices.Equal(ops[:len(prefix)], prefix)
}
