package lifetime

import (
	"fmt"
	"go/token"
	"maps"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/cfg"
)

// ParamPath names v, a value of fn computed from a parameter or free
// variable without intervening writes (a field, a loaded field, an element
// address), as a path from it. Parameters spilled to a variable because a
// closure captures them (as cgo's wrappers do) count as the parameter.
func ParamPath(fn *ssa.Function, v ssa.Value) (access.Path, bool) {
	return refPath(fn, Expand(v))
}

// Expand names v as an access path in its function's frame, loads
// included, seeing through variables assigned once from a parameter (a
// parameter spilled for a closure). Use it to relate values read at one
// point, such as the arguments of a call; a load is not evaluated where it
// is written.
func Expand(v ssa.Value) access.Ref {
	v = access.StripConv(v)
	switch v := v.(type) {
	case *ssa.FieldAddr:
		return Expand(v.X).With(access.Op{Kind: access.FieldAddr, Index: v.Field})
	case *ssa.Field:
		return Expand(v.X).With(access.Op{Kind: access.Field, Index: v.Field})
	case *ssa.IndexAddr:
		return Expand(v.X).With(access.Op{Kind: access.IndexAddr})
	case *ssa.UnOp:
		if v.Op == token.MUL {
			if stored := SingleStore(v.X); stored != nil {
				return Expand(stored)
			}
			return Expand(v.X).With(access.Op{Kind: access.Load})
		}
	case *ssa.Call:
		// an atomic cell's Load or Swap reads the cell as a load does
		if op, ok := AtomicCellOp(&v.Call); ok && op.Reads() {
			return Expand(op.Addr).With(access.Op{Kind: access.Load})
		}
	}
	return access.Ref{Root: v}
}

// SingleStore returns the value a variable holds for as long as it is read:
// for an Alloc stored exactly once, before every load (and before every
// closure that captures it), and otherwise only loaded or captured by
// closures that only load it; nil otherwise.
func SingleStore(a ssa.Value) ssa.Value {
	alloc, ok := a.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var store *ssa.Store
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if store != nil || ref.Addr != alloc {
				return nil
			}
			store = ref
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return nil
			}
		case *ssa.MakeClosure:
			if !onlyLoaded(ref, alloc) {
				return nil
			}
		case *ssa.DebugRef:
		default:
			return nil
		}
	}
	if store == nil {
		return nil
	}
	for _, ref := range *alloc.Referrers() {
		if ref != store && !before(store, ref) {
			return nil
		}
	}
	return store.Val
}

// before reports whether a runs before b on every path to b (both in one
// function).
func before(a, b ssa.Instruction) bool {
	if a.Block() == b.Block() {
		for _, instr := range a.Block().Instrs {
			if instr == a {
				return true
			}
			if instr == b {
				return false
			}
		}
		return false
	}
	return a.Block().Dominates(b.Block())
}

// SpilledParam returns the parameter whose value the variable a holds for
// the whole function: an Alloc stored once, with a parameter, and otherwise
// only loaded or captured by closures that only load it.
func SpilledParam(a ssa.Value) *ssa.Parameter {
	p, _ := SingleStore(a).(*ssa.Parameter)
	return p
}

// onlyLoaded reports whether the closure mc only loads the free variables
// bound to a.
func onlyLoaded(mc *ssa.MakeClosure, a ssa.Value) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return false
	}
	for i, b := range mc.Bindings {
		if b != a || i >= len(fn.FreeVars) {
			continue
		}
		for _, ref := range *fn.FreeVars[i].Referrers() {
			switch ref := ref.(type) {
			case *ssa.UnOp:
				if ref.Op != token.MUL {
					return false
				}
			case *ssa.MakeClosure:
				if !onlyLoaded(ref, fn.FreeVars[i]) {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// returns computes the results of fn that are always the same parameter path.
// The return of the block a recovered panic resumes at is left out: it gives
// the results' slots as a deferred recover left them, and runs only then.
func returns(fn *ssa.Function, sumOf func(*ssa.Function) *Summary) []Returned {
	rets := slices.DeleteFunc(cfg.Returns(fn), func(r *ssa.Return) bool { return fn.Recover != nil && r.Block() == fn.Recover })
	if len(rets) == 0 {
		return nil
	}
	var out []Returned
	for i := range rets[0].Results {
		var p access.Path
		var reads []ssa.Value
		ok, found := true, false
		for _, r := range rets {
			v := resultValue(r.Results[i])
			if c, isConst := v.(*ssa.Const); isConst && c.IsNil() {
				// nil, on the paths that find no handle (func (v *V)
				// native() *C.v { if v == nil || v.p == nil { return
				// nil }; return v.p }): the path's value, or none
				continue
			}
			q, k := ParamPath(fn, v)
			if !k {
				q, k = returnedVia(fn, v, sumOf)
			}
			if !k || found && q.Key() != p.Key() {
				ok = false
				break
			}
			p, found = q, true
			reads = append(reads, v)
		}
		if !ok || !found {
			continue
		}
		entry, known := readBeforeWrites(fn, p, reads, sumOf)
		if known {
			out = append(out, Returned{Result: i, Path: p, Entry: entry})
		}
	}
	return out
}

// resultValue returns the value a return gives as v: in a function with a
// defer, the builder keeps results in a slot that the return stores and
// then loads (so that a recovered panic can return them); v is that load,
// and the value is the one the return stored, when nothing else (a
// deferred closure) may write the slot.
func resultValue(v ssa.Value) ssa.Value {
	u, ok := v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return v
	}
	slot, ok := u.X.(*ssa.Alloc)
	if !ok || slot.Heap {
		return v
	}
	for _, ref := range *slot.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != slot {
				return v
			}
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return v
			}
		case *ssa.DebugRef:
		default:
			return v // a deferred closure may write it
		}
	}
	// the store of this return: the last one before the load in its block
	// (return nil on one path and return p on another store the slot
	// twice)
	instrs := u.Block().Instrs
	for i := slices.Index(instrs, ssa.Instruction(u)) - 1; i >= 0; i-- {
		if st, ok := instrs[i].(*ssa.Store); ok && st.Addr == slot {
			return st.Val
		}
	}
	return v
}

// refPath names r, a reference in fn's frame, as a path of fn's parameters
// or free variables.
func refPath(fn *ssa.Function, r access.Ref) (access.Path, bool) {
	switch root := r.Root.(type) {
	case *ssa.Parameter:
		if i := slices.Index(fn.Params, root); i >= 0 {
			return access.Path{Root: i, Ops: r.Ops}, true
		}
	case *ssa.FreeVar:
		if i := slices.Index(fn.FreeVars, root); i >= 0 {
			return access.Path{Root: -1 - i, Ops: r.Ops}, true
		}
	}
	return access.Path{}, false
}

func isCellOp(c *ssa.Call) bool {
	_, ok := AtomicCellOp(&c.Call)
	return ok
}

// readBeforeWrites tells, for reads the values fn returns as path p, when
// they are read relative to fn's writes of p: entry when every write of p
// (or of a location p lies in) runs after the read (p := b.h; b.h = nil;
// return p), not entry when none does (a plain accessor, or a lazy init
// before the read). known is false when some writes run before a read and
// some after, or a read is not an instruction of fn: then the result is
// neither what p held on entry nor on return.
func readBeforeWrites(fn *ssa.Function, p access.Path, reads []ssa.Value, sumOf func(*ssa.Function) *Summary) (entry, known bool) {
	n := len(p.Ops)
	if n == 0 || p.Ops[n-1].Kind != access.Load {
		return false, true // the parameter itself, or an address in it
	}
	loc := access.Path{Root: p.Root, Ops: p.Ops[:n-1]}
	// related reports whether a write of w changes what loc holds: w is
	// loc, a location loc lies in, or part of loc's own storage (the
	// inner field of an atomic.Pointer)
	related := func(w access.Path) bool {
		if w.Root != loc.Root {
			return false
		}
		if loc.HasPrefix(w) {
			return true
		}
		return w.HasPrefix(loc) && !slices.ContainsFunc(w.Ops[len(loc.Ops):], func(o access.Op) bool { return o.Kind == access.Load })
	}
	relatedArg := func(v ssa.Value, ops []access.Op) bool {
		if _, spilled := v.(*ssa.Alloc); spilled && len(ops) > 0 && ops[0].Kind == access.Load {
			// a literal's free variable bound to a variable's address
			// (-1*&.0 of a deferred func() { b.h = nil } is b.h): what
			// the variable holds
			q, ok := refPath(fn, NormRef(access.Ref{Root: v, Ops: slices.Clip(ops)}))
			return ok && related(q)
		}
		q, ok := ParamPath(fn, v)
		return ok && related(access.Path{Root: q.Root, Ops: append(slices.Clip(q.Ops), ops...)})
	}
	type write struct {
		at       ssa.Instruction
		deferred bool
	}
	var writes []write
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Store:
				if relatedArg(instr.Addr, nil) {
					writes = append(writes, write{at: instr})
				}
			case ssa.CallInstruction:
				com := instr.Common()
				if _, ok := com.Value.(*ssa.Builtin); ok {
					continue
				}
				_, deferred := instr.(*ssa.Defer)
				if op, ok := AtomicCellOp(com); ok {
					if op.Kind != CellLoad && relatedArg(op.Addr, nil) {
						writes = append(writes, write{instr, deferred})
					}
					continue
				}
				var csum *Summary
				if callee := com.StaticCallee(); callee != nil && !com.IsInvoke() && sumOf != nil && callee != fn {
					csum = sumOf(callee)
				}
				args := com.Args
				if com.IsInvoke() {
					args = append([]ssa.Value{com.Value}, args...)
				}
				changes := func() bool {
					if csum == nil {
						// unknown code may write what it is given
						return slices.ContainsFunc(args, func(a ssa.Value) bool { return refLike(a.Type()) && relatedArg(a, nil) })
					}
					for _, w := range append(slices.Clone(csum.Clobbers), storePaths(csum.Stores)...) {
						if operand := CallOperand(com, w.Root); operand != nil && relatedArg(operand, w.Ops) {
							return true
						}
					}
					return false
				}()
				if changes {
					// (a write in a returned accessor's call is the
					// read's own: return b.take() reads and writes
					// in one step)
					writes = append(writes, write{instr, deferred})
				}
			}
		}
	}
	if len(writes) == 0 {
		return false, true
	}
	after, before := false, false
	for _, v := range reads {
		read, ok := access.StripConv(v).(ssa.Instruction)
		if !ok {
			return false, false
		}
		for _, w := range writes {
			if w.at == read {
				// the read's own write: a Swap, or a call of a
				// take-out; an accessor that writes before it reads
				// (a lazy init) gives what it wrote
				if c, ok := read.(*ssa.Call); ok && !isCellOp(c) {
					if callee := c.Call.StaticCallee(); callee != nil && sumOf != nil {
						if cs := sumOf(callee); cs != nil {
							if r := cs.returned(0); r != nil && !r.Entry {
								before = true
								continue
							}
						}
					}
				}
				after = true
				continue
			}
			if w.deferred || cfg.Reaches(read, w.at) {
				after = true
			}
			if !w.deferred && w.at != read && (cfg.Dominates(w.at, read) || cfg.Reaches(w.at, read)) {
				before = true
			}
		}
	}
	switch {
	case after && before:
		return false, false
	case after:
		return true, true
	}
	return false, true
}

// wraps returns the fields of fn's results that are, on every return, a
// new object (&T{...}) whose field holds a path of fn's parameters, stored
// once, where it dominates the return.
func wraps(fn *ssa.Function) []Wrap {
	rets := cfg.Returns(fn)
	if len(rets) == 0 {
		return nil
	}
	var out []Wrap
	for i := range rets[0].Results {
		var common map[int]access.Path
		for j, r := range rets {
			fields := map[int]access.Path{}
			alloc, ok := access.StripConv(r.Results[i]).(*ssa.Alloc)
			if ok && alloc.Heap {
				stored := map[int]int{}
				for _, ref := range *alloc.Referrers() {
					fa, ok := ref.(*ssa.FieldAddr)
					if !ok || fa.X != alloc {
						continue
					}
					for _, fr := range *fa.Referrers() {
						st, ok := fr.(*ssa.Store)
						if !ok || st.Addr != fa {
							continue
						}
						stored[fa.Field]++
						if p, ok := ParamPath(fn, st.Val); ok && st.Block().Dominates(r.Block()) {
							fields[fa.Field] = p
						}
					}
				}
				for f, n := range stored {
					if n != 1 {
						delete(fields, f)
					}
				}
			}
			if j == 0 {
				common = fields
				continue
			}
			for f, p := range common {
				if q, ok := fields[f]; !ok || q.Key() != p.Key() {
					delete(common, f)
				}
			}
		}
		for _, f := range slices.Sorted(maps.Keys(common)) {
			out = append(out, Wrap{Result: i, Field: f, Path: common[f]})
		}
	}
	return out
}

// returnedVia names v, the result of a call of an accessor (a function that
// always returns a path of a parameter), as a path of fn's parameters:
// func (t *Table) inner() *C.table { return t.ptr() }.
func returnedVia(fn *ssa.Function, v ssa.Value, sumOf func(*ssa.Function) *Summary) (access.Path, bool) {
	call, ok := v.(*ssa.Call)
	if !ok || sumOf == nil || call.Call.IsInvoke() || call.Call.Signature().Results().Len() != 1 {
		return access.Path{}, false
	}
	callee := call.Call.StaticCallee()
	if callee == nil || callee == fn {
		return access.Path{}, false
	}
	sum := sumOf(callee)
	if sum == nil {
		return access.Path{}, false
	}
	q, ok := sum.ReturnOf(0)
	if !ok {
		return access.Path{}, false
	}
	operand := CallOperand(&call.Call, q.Root)
	if operand == nil {
		return access.Path{}, false
	}
	base, ok := ParamPath(fn, operand)
	if !ok {
		return access.Path{}, false
	}
	return access.Path{Root: base.Root, Ops: append(slices.Clone(base.Ops), q.Ops...)}, true
}

// posn describes pos for messages in other packages (facts): the file's base
// name and the line, which do not depend on where the build ran.
func posn(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	if !p.IsValid() {
		return ""
	}
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}
