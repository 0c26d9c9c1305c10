package lifetime

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/passes/cgocall"
)

// Liveness. A path state only grows if nothing leaves it: a function of
// thousands of allocate/release pairs would carry, in every state, every
// handle it ever released, and each block would copy, key and re-scan them
// all (a cost in the square of the function's length). A handle whose SSA
// value the rest of the function no longer reads, and that no location,
// pending defer or held acquisition still leads to, can never be released,
// used or reported again: its entries are dropped from the state at the
// entry of each block (prune). What is kept is exactly what a later
// instruction can reach, so the findings are those of the full state.

// reads returns the SSA values the state machine may read when it runs
// instr: its operands, and what it looks through from them (conversions,
// field selections, a closure's bindings, the roots of a call into C's
// arguments, the operands a branch condition's walk reaches).
func (a *fnAnalysis) reads(instr ssa.Instruction, add func(ssa.Value)) {
	var ops [8]*ssa.Value
	for _, p := range instr.Operands(ops[:0]) {
		if p != nil && *p != nil {
			lookThrough(*p, add)
		}
	}
	if c, ok := instr.(ssa.CallInstruction); ok {
		a.callReads(a.pa.calls.Lookup(c), add)
	}
	if i, ok := instr.(*ssa.If); ok {
		a.condReads(i.Cond, 0, add)
	}
}

func (a *fnAnalysis) callReads(c *cgocall.Call, add func(ssa.Value)) {
	if c == nil {
		return
	}
	for _, r := range c.Args {
		if r.Root != nil {
			lookThrough(r.Root, add)
		}
	}
	if c.Value != nil {
		lookThrough(c.Value, add)
	}
	for _, n := range c.Nested {
		a.callReads(n, add)
	}
}

// condReads follows a branch condition as guard and branchOf do.
func (a *fnAnalysis) condReads(v ssa.Value, depth int, add func(ssa.Value)) {
	if v == nil || depth > maxDepthArg+1 {
		return
	}
	lookThrough(v, add)
	switch v := v.(type) {
	case *ssa.BinOp:
		a.condReads(v.X, depth+1, add)
		a.condReads(v.Y, depth+1, add)
	case *ssa.UnOp:
		if v.Op != token.MUL {
			a.condReads(v.X, depth+1, add)
		}
	case *ssa.Call:
		for _, arg := range v.Call.Args {
			a.condReads(arg, depth+1, add)
		}
		a.callReads(a.pa.calls.Lookup(v), add)
	case *ssa.Extract:
		a.condReads(v.Tuple, depth+1, add)
	}
}

// lookThrough adds v and the values tokOf, resolve and backing read
// through it.
func lookThrough(v ssa.Value, add func(ssa.Value)) {
	for v != nil {
		add(v)
		switch x := v.(type) {
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Convert:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.SliceToArrayPointer:
			v = x.X
		case *ssa.MultiConvert:
			v = x.X
		case *ssa.TypeAssert:
			v = x.X
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		case *ssa.Extract:
			v = x.Tuple
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.Index:
			v = x.X
		case *ssa.Slice:
			v = x.X
		case *ssa.UnOp:
			if x.Op == token.MUL {
				return // a load's token is the state's (vals)
			}
			v = x.X
		case *ssa.MakeClosure:
			for _, b := range x.Bindings {
				lookThrough(b, add)
			}
			return
		case *ssa.Call:
			if _, ok := x.Call.Value.(*ssa.Builtin); ok && len(x.Call.Args) > 0 {
				v = x.Call.Args[0] // unsafe.Slice, unsafe.String, unsafe.SliceData
				continue
			}
			return
		default:
			return
		}
	}
}

// maxLive bounds the entries of the live sets (values times the blocks
// each is live on entry to): a function that keeps thousands of values
// live across thousands of blocks is not pruned (its states hold them all
// anyway, and it reaches the work budget).
const maxLive = 1_000_000

// computeLive sets a.live: for each block, the values defined in other
// blocks that the state machine may read at or after its entry; nil past
// maxLive.
func (a *fnAnalysis) computeLive() {
	a.live = make(map[*ssa.BasicBlock]map[ssa.Value]bool, len(a.fn.Blocks))
	entries := 0
	defer func() {
		if entries > maxLive {
			a.live = nil
		}
	}()
	var stack []*ssa.BasicBlock
	// markIn marks v live on entry to b and, going up, to the blocks that
	// lead to b without defining v.
	markIn := func(b *ssa.BasicBlock, v ssa.Value, def *ssa.BasicBlock) {
		stack = append(stack[:0], b)
		for len(stack) > 0 {
			b := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if b == def {
				continue
			}
			m := a.live[b]
			if m == nil {
				m = map[ssa.Value]bool{}
				a.live[b] = m
			}
			if m[v] || entries > maxLive {
				continue
			}
			m[v] = true
			entries++
			stack = append(stack, b.Preds...)
		}
	}
	use := func(at *ssa.BasicBlock) func(ssa.Value) {
		return func(v ssa.Value) {
			if d, ok := v.(ssa.Instruction); ok && d.Block() != nil && d.Block() != at {
				markIn(at, v, d.Block())
			}
		}
	}
	for _, b := range a.fn.Blocks {
		for _, instr := range b.Instrs {
			if phi, ok := instr.(*ssa.Phi); ok {
				// an edge's operand is read at the end of its predecessor
				for k, e := range phi.Edges {
					if k < len(b.Preds) {
						lookThrough(e, use(b.Preds[k]))
					}
				}
				continue
			}
			a.reads(instr, use(b))
		}
	}
}

// alive reports whether root r (a token of kind tRoot) may still be read
// on entry to b.
func (a *fnAnalysis) aliveAt(r *tok, b *ssa.BasicBlock) bool {
	if _, ok := r.v.(*ssa.Const); ok {
		// go/ssa makes a constant per operand: its token comes back only
		// when the instruction that has it runs again, in a loop
		return a.loop[b]
	}
	d, ok := r.v.(ssa.Instruction)
	if !ok || d.Block() == nil {
		return true // parameters, free variables, globals, functions
	}
	if _, phi := r.v.(*ssa.Phi); phi && d.Block() == b {
		return true
	}
	return a.live[b][r.v]
}

// prune drops from s, entering b, the entries no later instruction can
// reach: those of tokens whose root is dead on entry to b, unless a held
// acquisition, a deferred call's argument, a live value's token, or a location that
// is kept leads to them. Held acquisitions are never dropped (a handle
// that is neither released nor handed on is a leak at the return).
func (a *fnAnalysis) prune(s *state, b *ssa.BasicBlock) {
	if a.live == nil {
		return // past maxLive
	}
	kept := map[*tok]bool{} // dead roots kept for what leads to them
	isKept := func(t *tok) bool {
		r := t.root
		return r.kind != tRoot || kept[r] || a.deferHeld[r] || a.aliveAt(r, b)
	}
	changed := false
	keep := func(t *tok) {
		if t != nil && !isKept(t) {
			kept[t.root] = true
			changed = true
		}
	}
	for k, aq := range s.acquired {
		keep(k)
		keep(aq.status)
		keep(aq.errcode)
		keep(aq.out)
	}
	for k := range s.counts {
		keep(k)
	}
	for k, t := range s.vals {
		if a.aliveAt(a.ts.rootOf(a.values[k]), b) {
			keep(t)
		} else {
			delete(s.vals, k)
		}
	}
	for first := true; first || changed; first = false {
		changed = false
		for l, c := range s.content {
			if isKept(l) || isKept(c) {
				keep(l)
				keep(c)
			}
		}
		for k, p := range s.parents {
			if isKept(k) {
				keep(p)
			}
		}
		for k, st := range s.relStatus {
			if isKept(k) {
				keep(st)
			}
		}
	}
	for l := range s.content {
		if !isKept(l) {
			delete(s.content, l)
		}
	}
	dropDead(s.released, isKept)
	dropDead(s.maybe, isKept)
	dropDead(s.guards, isKept)
	dropDead(s.open, isKept)
	dropDead(s.raised, isKept)
	dropDead(s.parents, isKept)
	dropDead(s.escaped, isKept)
	dropDead(s.unsure, isKept)
	dropDead(s.relStatus, isKept)
}

func dropDead[V any](m map[*tok]V, isKept func(*tok) bool) {
	for t := range m {
		if !isKept(t) {
			delete(m, t)
		}
	}
}
