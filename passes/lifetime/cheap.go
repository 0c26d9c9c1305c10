package lifetime

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
)

// relevant reports whether fn can release, acquire, use or disarm
// anything: it calls into C, calls a Go function whose summary releases,
// acquires or disarms, or registers or disarms a finalizer or cleanup. Only relevant functions go through the state machine; the
// others (all of a pure Go package) get a cheap summary of what they write.
// For a function that is not relevant, rets is what it returns (returns),
// which cheapSummary takes.
func (pa *pkgAnalysis) relevant(fn *ssa.Function) (relevant bool, rets []Returned) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ci, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if c := pa.calls.Lookup(instr); c != nil {
				return true, nil // handles reach C here: uses, acquisitions, releases
			}
			callee := ci.Common().StaticCallee()
			if callee == nil {
				continue
			}
			if lit, _ := onceLiteral(ci.Common()); lit != nil {
				callee = lit // once.Do(func() { ... }): the literal runs here
			}
			if o := callee.Origin(); o != nil {
				callee = o
			}
			if callee.Pkg != nil && callee.Pkg.Pkg.Path() == "runtime" {
				switch callee.Name() {
				case "SetFinalizer", "AddCleanup", "Stop":
					return true, nil
				}
			}
			if s := pa.summaryOf(callee); s != nil && (len(s.Releases) > 0 || len(s.Drops) > 0 || len(s.Retains) > 0 || len(s.Disarms) > 0 || len(s.Acquires) > 0 || len(s.AcquiresInto) > 0 || len(s.Lends) > 0 || len(s.Arms) > 0) {
				return true, nil
			}
		}
	}
	// a take-out (p := b.h; b.h = nil; return p): what it stores on
	// every path tells its callers that the handle has left the path
	rets = returns(fn, pa.summaryOf)
	return slices.ContainsFunc(rets, func(r Returned) bool { return r.Entry }), rets
}

// cheapSummary returns a flow-insensitive summary of a function that
// releases nothing: the parameter locations it may write (all as
// clobbers), and whether it may write globals.
func (pa *pkgAnalysis) cheapSummary(fn *ssa.Function, rets []Returned) *Summary {
	sum := &Summary{}
	seen := map[string]bool{}
	add := func(p access.Path) {
		if k := p.Key(); !seen[k] {
			seen[k] = true
			sum.Clobbers = append(sum.Clobbers, p)
		}
	}
	// escape: the parameter v is (when it is one) handed to code this
	// summary cannot follow (a function value, an interface method, a
	// callee that keeps it) or stored in memory: as in the state machine,
	// the caller's handle may be released or kept there, and is no longer
	// only the caller's to release. A parameter the function only reads
	// does not escape.
	escaped := map[int]bool{}
	escape := func(v ssa.Value) {
		if p, ok := ParamPath(fn, v); ok && p.Root >= 0 && len(p.Ops) == 0 && !escaped[p.Root] {
			escaped[p.Root] = true
			sum.Escapes = append(sum.Escapes, p.Root)
		}
	}
	uses := map[string]bool{}
	use := func(p access.Path) {
		if k := p.Key(); !uses[k] {
			uses[k] = true
			sum.Uses = append(sum.Uses, p)
		}
	}
	pathOf := func(v ssa.Value) (access.Path, bool) {
		r := Expand(v)
		switch root := r.Root.(type) {
		case *ssa.Parameter:
			for i, p := range fn.Params {
				if p == root {
					return access.Path{Root: i, Ops: r.Ops}, true
				}
			}
		case *ssa.FreeVar:
			for i, fv := range fn.FreeVars {
				if fv == root {
					return access.Path{Root: -1 - i, Ops: r.Ops}, true
				}
			}
		case *ssa.Global:
			sum.Globals = true
		}
		return access.Path{}, false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.MapUpdate:
				escape(instr.Value)
				escape(instr.Key) // kept by the map, as a registry key
				if p, ok := pathOf(instr.Key); ok {
					use(p) // a handle used as a registry key
				}
			case *ssa.Lookup:
				if _, isMap := instr.X.Type().Underlying().(*types.Map); isMap {
					if p, ok := pathOf(instr.Index); ok {
						use(p)
					}
				}
			case *ssa.Store:
				if p, ok := pathOf(instr.Addr); ok {
					add(p)
				}
				if !localAlloc(instr.Addr) {
					escape(instr.Val)
				}
			case *ssa.MakeInterface:
				escape(instr.X)
			case *ssa.Send:
				escape(instr.X)
			case *ssa.MakeClosure:
				for _, b := range instr.Bindings {
					escape(b)
				}
			case ssa.CallInstruction:
				if pa.calls.Plumbing(instr) || pa.calls.Lookup(instr) != nil {
					// calls into C write through the Go pointers they get
					if c := pa.calls.Lookup(instr); c != nil {
						for _, r := range c.Args {
							if r.Valid() {
								if p, ok := pathOf(r.Root); ok {
									p.Ops = append(p.Ops, r.Ops...)
									if refLike(r.Root.Type()) && len(r.Ops) == 0 || endsInAddr(p) {
										add(p)
									}
									if !endsInAddr(p) {
										use(p)
									}
								}
							}
						}
					}
					continue
				}
				com := instr.Common()
				if _, ok := com.Value.(*ssa.Builtin); ok {
					continue
				}
				callee := com.StaticCallee()
				var csum *Summary
				if callee != nil && !com.IsInvoke() {
					csum = pa.summaryOf(callee)
				}
				if csum == nil && callee != nil && atomicLoad(callee) {
					continue
				}
				if csum == nil {
					std := callee != nil && callee.Package() != nil && isStd(callee.Package().Pkg.Path())
					if !std {
						sum.Globals = true
					}
					args := com.Args
					if com.IsInvoke() {
						args = append([]ssa.Value{com.Value}, args...)
					}
					for _, a := range args {
						escape(a) // unknown code may release or keep it
						if !refLike(a.Type()) {
							continue
						}
						if p, ok := pathOf(a); ok {
							add(p)
						}
					}
					continue
				}
				sum.Globals = sum.Globals || csum.Globals
				for _, i := range csum.Escapes {
					if i < len(com.Args) {
						escape(com.Args[i])
					}
				}
				for _, u := range csum.Uses {
					if u.Root >= 0 && u.Root < len(com.Args) {
						if p, ok := pathOf(com.Args[u.Root]); ok {
							p.Ops = append(p.Ops, u.Ops...)
							use(p)
						}
					}
				}
				args := com.Args
				if mc, ok := com.Value.(*ssa.MakeClosure); ok {
					args = append(append([]ssa.Value{}, args...), mc.Bindings...)
				}
				nparams := len(com.Args)
				for _, ps := range [][]access.Path{csum.Clobbers, storePaths(csum.Stores)} {
					for _, cp := range ps {
						i := cp.Root
						if i < 0 {
							i = nparams + (-1 - i)
						}
						if i >= len(args) {
							continue
						}
						if p, ok := pathOf(args[i]); ok {
							p.Ops = append(p.Ops, cp.Ops...)
							add(p)
						}
					}
				}
			}
		}
	}
	cheapClears(fn, sum, pathOf)
	sum.Returns = rets
	sum.Wraps = wraps(fn)
	return sum
}

// cheapClears makes Stores with Zero of the clobbers of sum that fn, a
// function of one block (the one a recovered panic resumes at aside),
// writes nil or zero into with nothing after that store writing them or
// calling anything (func() { b.h = nil }, deferred by a take-out): on
// every path that returns, the location holds zero.
func cheapClears(fn *ssa.Function, sum *Summary, pathOf func(ssa.Value) (access.Path, bool)) {
	var body *ssa.BasicBlock
	for _, b := range fn.Blocks {
		if b == fn.Recover {
			continue
		}
		if body != nil {
			return
		}
		body = b
	}
	if body == nil {
		return
	}
	instrs := body.Instrs
	for i, instr := range instrs {
		st, ok := instr.(*ssa.Store)
		if !ok {
			continue
		}
		if c, ok := st.Val.(*ssa.Const); !ok || !isZero(c) {
			continue
		}
		p, ok := pathOf(st.Addr)
		if !ok {
			continue
		}
		later := slices.ContainsFunc(instrs[i+1:], func(x ssa.Instruction) bool {
			switch x := x.(type) {
			case *ssa.Store:
				q, ok := pathOf(x.Addr)
				return !ok || q.HasPrefix(p) || p.HasPrefix(q)
			case ssa.CallInstruction:
				return true
			}
			return false
		})
		k := p.Key()
		if later || slices.ContainsFunc(sum.Stores, func(st Store) bool { return st.Path.Key() == k }) {
			continue
		}
		sum.Clobbers = slices.DeleteFunc(sum.Clobbers, func(q access.Path) bool { return q.Key() == k })
		sum.Stores = append(sum.Stores, Store{Path: p, Zero: true})
	}
}

// endsInAddr reports whether p denotes an address (ends in a field address).
func endsInAddr(p access.Path) bool {
	return len(p.Ops) > 0 && p.Ops[len(p.Ops)-1].Kind == access.FieldAddr
}

func storePaths(sts []Store) []access.Path {
	var out []access.Path
	for _, st := range sts {
		out = append(out, st.Path)
	}
	return out
}

// refLike reports whether a value of type t can give a callee access to
// memory it could write.
func refLike(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Basic:
		return t.Underlying().(*types.Basic).Kind() == types.UnsafePointer
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface, *types.Struct:
		return true
	}
	return false
}
