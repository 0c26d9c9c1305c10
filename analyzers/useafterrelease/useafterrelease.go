package useafterrelease

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/cfg"
	"github.com/lifetimevet/lifetimevet/internal/diag"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/cpreamble"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// Analyzer reports handles used after their release.
var Analyzer = &analysis.Analyzer{
	Name:     "useafterrelease",
	Doc:      Doc.Compile().Format(false),
	URL:      "https://github.com/lifetimevet/lifetimevet/blob/main/analyzers/useafterrelease/doc.go",
	Requires: []*analysis.Analyzer{cgocall.Analyzer, model.Analyzer, lifetime.Analyzer, cpreamble.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	calls := pass.ResultOf[cgocall.Analyzer].(*cgocall.Result)
	mres := pass.ResultOf[model.Analyzer].(*model.Result)
	lt := pass.ResultOf[lifetime.Analyzer].(*lifetime.Result)
	rep := diag.New(pass, mres)
	defer rep.ReportUnused()
	cres := pass.ResultOf[cpreamble.Analyzer].(*cpreamble.Result)
	cleared := clearedFields(calls, lt, mres)
	constructors(pass, rep, calls, lt, mres)
	var unchecked []unchecked
	safe := map[*ssa.Function]bool{}
	for _, fn := range calls.Funcs {
		tr := lt.Traces[fn]
		if tr == nil {
			continue
		}
		for _, ev := range tr.Events {
			switch ev.Kind {
			case lifetime.UseAfterRelease:
				useAfterRelease(pass, rep, fn, ev)
			case lifetime.UncheckedUse:
				if u, ok := uncheckedUse(mres, fn, ev, cleared); ok {
					if testsNull(pass, calls, cres, fn, ev) {
						safe[fn] = true // the package's C handles NULL
					} else {
						unchecked = append(unchecked, u)
					}
				}
			}
		}
	}
	reportUnchecked(pass, rep, calls, lt, cleared, unchecked, safe)
	return nil, nil
}

func releaser(s *lifetime.Site) string {
	if s.Release != nil && s.CalleeName != "" {
		return s.CalleeName
	}
	return "C." + s.CFunc
}

func useAfterRelease(pass *analysis.Pass, rep *diag.Reporter, fn *ssa.Function, ev *lifetime.Event) {
	first, use := ev.First, ev.Second
	h := use.Handle
	if h == "" {
		h = first.Handle
	}
	if h == "" {
		h = "a handle"
	}
	where := diag.Where(pass.Fset, first.Pos, use.Pos)
	when := ""
	if first.Deferred {
		when = " (a deferred call that already ran)"
	}
	if ev.Lent {
		lender := first.Handle
		if lender == "" {
			lender = "the handle that lent it"
		}
		rep.Reportf(use.Pos, "%s is passed to C.%s after %s released %s at %s%s, and %s lives only as long as %s (it is lent, not owned): C reads freed memory; use it before the release of %s",
			h, use.CFunc, releaser(first), lender, where, when, h, lender, lender)
		return
	}
	switch use.Class {
	case "deref", "derefwrite":
		verb := "read"
		if use.Class == "derefwrite" {
			verb = "written"
		}
		rep.Reportf(use.Pos, "the memory %s points to is %s after %s released it at %s%s: it is freed, and the next allocation may already reuse it; %s before the release",
			h, verb, releaser(first), where, when, map[string]string{"read": "read what you need from it", "written": "write to it"}[verb])
	case "return":
		if first.Deferred {
			rep.Reportf(use.Pos, "%s is returned, and the deferred %s at %s releases it as the function returns: the caller gets freed memory; leave the release to the caller (drop the defer), or return a copy of what it points to",
				h, releaser(first), where)
			return
		}
		rep.Reportf(use.Pos, "%s is returned after %s released it at %s: the caller gets freed memory; leave the release to the caller, or return a copy of what it points to",
			h, releaser(first), where)
	case "key":
		rep.Reportf(use.Pos, "%s is used as a map key after %s released it at %s%s: the next allocation can return the same address, so the registry may confuse it with a live one; update the map before the release",
			h, releaser(first), where, when)
	default:
		if use.Callee != nil {
			rep.Reportf(use.Pos, "%s is used by %s after %s released it at %s%s: passed to C it reads freed memory, and as a registry key its address may already belong to a new allocation; use it before the release, or not at all",
				h, use.CalleeName, releaser(first), where, when)
			return
		}
		rep.Reportf(use.Pos, "%s is passed to C.%s after %s released it at %s%s: C reads freed memory; use it before the release, or not at all",
			h, use.CFunc, releaser(first), where, when)
	}
}

// A field a release method clears: the handle it holds is NULL after the
// release, so a method that passes it to C unchecked hands C a NULL handle.
type field struct {
	typ *types.TypeName
	ops string // access.Path ops key
}

type clearer struct {
	method string
	pos    token.Pos
}

// clearedFields returns the fields of the package's types that a release
// method checks, releases and sets to nil or zero in Go (if c.h != nil {
// release(c.h); c.h = nil }): the type treats a nil handle as "released",
// so its other methods must too. All released fields of //lifetime:handle
// types count as well.
func clearedFields(calls *cgocall.Result, lt *lifetime.Result, mres *model.Result) map[field]clearer {
	out := map[field]clearer{}
	for _, fn := range calls.Funcs {
		recv := fn.Signature.Recv()
		if recv == nil || len(fn.Params) == 0 {
			continue
		}
		tn := named(recv.Type())
		if tn == nil {
			continue
		}
		sum := lt.Summaries[fn]
		if sum == nil {
			continue
		}
		for _, r := range sum.Releases {
			if r.Path.Root != 0 || len(r.Path.Ops) == 0 {
				continue
			}
			k := field{tn, opsKey(r.Path.Ops)}
			if mres.Types[tn].Handle || r.Guarded && storesZero(fn, r.Path.Ops) {
				if _, ok := out[k]; !ok {
					out[k] = clearer{fn.Name(), fn.Pos()}
				}
			}
		}
	}
	return out
}

func opsKey(ops []access.Op) string {
	return access.Path{Ops: ops}.Key()
}

// storesZero reports whether fn assigns nil or zero, in Go, to the field its
// receiver reaches through ops (a field address followed by a load).
func storesZero(fn *ssa.Function, ops []access.Op) bool {
	if len(ops) < 2 || ops[len(ops)-1].Kind != access.Load {
		return false
	}
	addr := ops[:len(ops)-1]
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			k, ok := st.Val.(*ssa.Const)
			if !ok || !(k.IsNil() || k.Value != nil && k.Value.ExactString() == "0") {
				continue
			}
			p, ok := lifetime.ParamPath(fn, st.Addr)
			if ok && p.Root == 0 && slices.Equal(p.Ops, addr) {
				return true
			}
		}
	}
	return false
}

func named(t types.Type) *types.TypeName {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}

// An unchecked use: a method that passes a field a release method clears
// to C with no test on the path.
type unchecked struct {
	fn *ssa.Function
	ev *lifetime.Event
	f  field
	cl clearer
}

func uncheckedUse(mres *model.Result, fn *ssa.Function, ev *lifetime.Event, cleared map[field]clearer) (unchecked, bool) {
	if ev.Path.Root != 0 || fn.Signature.Recv() == nil || fn.Object() == nil || !fn.Object().Exported() {
		return unchecked{}, false
	}
	tn := named(fn.Signature.Recv().Type())
	if tn == nil {
		return unchecked{}, false
	}
	f := field{tn, opsKey(ev.Path.Ops)}
	cl, ok := cleared[f]
	if !ok || cl.method == fn.Name() || mres.Model.ChecksNull(ev.Second.CFunc) {
		return unchecked{}, false
	}
	if validated(fn, ev.Second.Instr) || loopChecked(fn, ev.Second.Instr) {
		return unchecked{}, false
	}
	return unchecked{fn, ev, f, cl}, true
}

// testsNull reports whether the C function of an unchecked use is the
// package's own and compares the argument with NULL: it handles a closed
// handle itself.
func testsNull(pass *analysis.Pass, calls *cgocall.Result, cres *cpreamble.Result, fn *ssa.Function, ev *lifetime.Event) bool {
	if ev.Second.Instr == nil {
		return false
	}
	cc := calls.Lookup(ev.Second.Instr)
	if cc == nil {
		return false
	}
	cf := cres.Lookup(cc.Name, pass.Fset.Position(cc.Pos).Filename)
	if cf == nil {
		return false
	}
	for i, r := range cc.Args {
		if !r.Valid() {
			continue
		}
		p, ok := lifetime.ParamPath(fn, r.Root)
		if !ok {
			continue
		}
		p.Ops = append(slices.Clone(p.Ops), r.Ops...)
		if p.Key() == ev.Path.Key() && cf.TestsNull(i) {
			return true
		}
	}
	return false
}

// reportUnchecked reports the unchecked uses of a field when the type keeps
// a closed-handle convention, as checklocks infers a guard from the
// majority of accesses: (nearly) all of its exported methods that pass the
// field to C test it (or the receiver's state, or call a validating helper)
// first. Where most do not, the type has no such convention: silence.
func reportUnchecked(pass *analysis.Pass, rep *diag.Reporter, calls *cgocall.Result, lt *lifetime.Result, cleared map[field]clearer, us []unchecked, safe map[*ssa.Function]bool) {
	byField := map[field][]unchecked{}
	for _, u := range us {
		byField[u.f] = append(byField[u.f], u)
	}
	for _, u := range us {
		list := byField[u.f]
		if list == nil {
			continue
		}
		byField[u.f] = nil
		// The methods of the type that pass the field to C, and which of
		// them check first.
		bad := map[*ssa.Function]bool{}
		for _, v := range list {
			bad[v.fn] = true
		}
		// What a check must read: the handle, or state the release method
		// writes (a closed flag). A test of other state (a sticky error,
		// a size) is about something else, and makes no convention.
		state := closedState(calls, lt, u)
		users, checking := 0, 0
		for _, fn := range calls.Funcs {
			if fn.Signature.Recv() == nil || fn.Object() == nil || !fn.Object().Exported() || fn.Name() == u.cl.method || named(fn.Signature.Recv().Type()) != u.f.typ {
				continue
			}
			sum := lt.Summaries[fn]
			if sum == nil || !sum.UsesPath(access.Path{Root: 0, Ops: u.ev.Path.Ops}) {
				continue
			}
			users++
			if !bad[fn] && (checksParam(fn, 0, 0, state) || safe[fn] || loopChecked(fn, nil)) {
				checking++
			}
		}
		if users < len(bad) {
			users = len(bad)
		}
		if checking < minConvention || users-checking > max(1, users/10) {
			continue // no closed-handle convention for this field
		}
		for _, v := range list {
			h := v.ev.Second.Handle
			if h == "" {
				h = access.Render(v.fn.Params[0].Name(), v.fn.Params[0].Type(), v.ev.Path.Ops)
			}
			rep.Reportf(v.ev.Second.Pos, "%s passes %s to C.%s without checking it, but %s checks it, releases it and sets it to nil, and %d of the %d methods of %s that pass it to C check it first: after %s this hands C a NULL handle (C's own checks may be assertions that release builds leave out); return an error such as ErrClosed when %s is nil, as %s does",
				v.fn.Name(), h, v.ev.Second.CFunc, v.cl.method, checking, users, u.f.typ.Name(), v.cl.method, h, v.cl.method)
		}
	}
}

// minConvention is the fewest checking methods that make a convention; with
// it, the exceptions may be one method, or a tenth of those that pass the
// field to C.
const minConvention = 4

// checksReceiver reports whether fn tests the state of its parameter i:
// a branch on a value loaded from it (a nil handle, a closed flag), or on
// the result of a validating helper given it.
// closedState returns whether a path of the receiver (an address path) is
// state that tells a released object: the handle field of u, or a
// location the release method assigns.
func closedState(calls *cgocall.Result, lt *lifetime.Result, u unchecked) func(access.Path) bool {
	handle := u.ev.Path.Ops
	if n := len(handle); n > 0 && handle[n-1].Kind == access.Load {
		handle = handle[:n-1]
	}
	paths := [][]access.Op{handle}
	for _, fn := range calls.Funcs {
		if fn.Signature.Recv() == nil || fn.Name() != u.cl.method || named(fn.Signature.Recv().Type()) != u.f.typ {
			continue
		}
		if sum := lt.Summaries[fn]; sum != nil {
			for _, st := range sum.Stores {
				if st.Path.Root == 0 {
					paths = append(paths, st.Path.Ops)
				}
			}
			for _, c := range sum.Clobbers {
				if c.Root == 0 {
					paths = append(paths, c.Ops)
				}
			}
		}
	}
	return func(p access.Path) bool {
		for _, q := range paths {
			if slices.Equal(p.Ops, q) {
				return true
			}
		}
		return false
	}
}

// checksParam reports whether fn tests parameter i before it acts, or
// calls a validating helper of it whose verdict it acts on. With state not
// nil, a field the test reads directly must be one state accepts (an
// address path of the parameter); a helper's own tests are not limited.
func checksParam(fn *ssa.Function, i, depth int, state func(access.Path) bool) bool {
	if i >= len(fn.Params) {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.If:
				if condReads(fn, instr.Cond, i, 0, state) {
					return true
				}
			case *ssa.Call:
				if depth < 2 && validatorCall(fn, instr, i, depth) {
					return true
				}
			}
		}
	}
	return false
}

// condReads reports whether a branch condition reads a value loaded from
// parameter i (or the result of a call that validates it); with state not
// nil, only from a location state accepts.
func condReads(fn *ssa.Function, v ssa.Value, i, depth int, state func(access.Path) bool) bool {
	if v == nil || depth > 6 {
		return false
	}
	switch v := v.(type) {
	case *ssa.BinOp:
		return condReads(fn, v.X, i, depth+1, state) || condReads(fn, v.Y, i, depth+1, state)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			p, ok := lifetime.ParamPath(fn, v.X)
			return ok && p.Root == i && (state == nil || state(p))
		}
		return condReads(fn, v.X, i, depth+1, state)
	case *ssa.Extract:
		return condReads(fn, v.Tuple, i, depth+1, state)
	case *ssa.Call:
		return isValidator(fn, v, i, depth)
	case *ssa.Phi:
		return false
	}
	if p, ok := lifetime.ParamPath(fn, v); ok && p.Root == i && len(p.Ops) > 0 && state == nil {
		return true // a field of a value parameter (not an address path)
	}
	return false
}

// isValidator reports whether call passes parameter i of fn (or a path of
// it) to a function of the package that tests it and returns the verdict
// (an error or a bool).
func isValidator(fn *ssa.Function, call *ssa.Call, i, depth int) bool {
	callee := call.Call.StaticCallee()
	if depth > 2 {
		return false
	}
	if nilOnlyIfAllNil(callee) && len(call.Call.Args) == 1 {
		// errors.Join(m.check(), o.check()) is nil only when every
		// error it is given is nil, and cmp.Or(…) returns the first
		// that is not (their documentation): a verdict of each
		// validator given to it
		for _, e := range varargs(call.Call.Args[0]) {
			if c, ok := access.StripConv(e).(*ssa.Call); ok && isValidator(fn, c, i, depth+1) {
				return true
			}
		}
		return false
	}
	if callee == nil || callee.Pkg != fn.Pkg || len(callee.Blocks) == 0 {
		return false
	}
	args := call.Call.Args
	for j, a := range args {
		p, ok := lifetime.ParamPath(fn, a)
		if !ok {
			// a variadic validator given the parameter among others
			// (checkAll(m, o)): it checks each element of its slice
			if j < len(callee.Params) && slices.ContainsFunc(varargs(a), func(e ssa.Value) bool {
				p, ok := lifetime.ParamPath(fn, e)
				return ok && p.Root == i && len(p.Ops) == 0
			}) && checksParam(callee, j, depth+1, nil) {
				return true
			}
			continue
		}
		if p.Root != i || len(p.Ops) > 0 && j >= len(callee.Params) {
			continue
		}
		if checksParam(callee, j, depth+1, nil) {
			return true
		}
	}
	return false
}

// nilOnlyIfAllNil reports whether fn is errors.Join or an instance of
// cmp.Or: variadic functions whose result is nil (zero) only when each of
// their arguments is.
func nilOnlyIfAllNil(fn *ssa.Function) bool {
	if fn == nil {
		return false
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if fn.Pkg == nil {
		return false
	}
	path := fn.Pkg.Pkg.Path()
	return path == "errors" && fn.Name() == "Join" || path == "cmp" && fn.Name() == "Or"
}

// varargs returns the values a slice built for a variadic call holds
// (f(a, b) passes a slice of a new array into which a and b are stored),
// or nil if v is no such slice.
func varargs(v ssa.Value) []ssa.Value {
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return nil
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var out []ssa.Value
	for _, r := range *arr.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, rr := range *ia.Referrers() {
			if st, ok := rr.(*ssa.Store); ok && st.Addr == ssa.Value(ia) {
				out = append(out, st.Val)
			}
		}
	}
	return out
}

// validatorCall reports whether call validates parameter i and acts on
// the verdict: its result is tested, or the helper panics.
func validatorCall(fn *ssa.Function, call *ssa.Call, i, depth int) bool {
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Pkg != fn.Pkg || len(callee.Blocks) == 0 {
		return false
	}
	if !panics(callee) {
		return false // a tested result is found through the branch
	}
	return isValidator(fn, call, i, depth)
}

func panics(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if _, ok := instr.(*ssa.Panic); ok {
				return true
			}
		}
	}
	return false
}

// validated reports whether a validating helper given the receiver, its
// verdict tested, runs before use (if err := r.validate(); err != nil).
func validated(fn *ssa.Function, use ssa.Instruction) bool {
	if use == nil {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var ok bool
			switch instr := instr.(type) {
			case *ssa.If:
				ok = condCalls(fn, instr.Cond, 0)
			case *ssa.Call:
				ok = validatorCall(fn, instr, 0, 0)
			}
			if ok && (instr.Block() == use.Block() && slices.Index(b.Instrs, instr) < slices.Index(b.Instrs, use) || instr.Block() != use.Block() && instr.Block().Dominates(use.Block())) {
				return true
			}
		}
	}
	return false
}

// loopChecked reports whether a loop over a slice literal that holds the
// receiver tests each element before use, with use after the loop (for
// _, x := range []*Mat{m, o} { if x.p == nil { return ErrClosed } }, the
// inline form of a variadic validator): the test reads a field of the
// element, or passes the element to a validating helper. The literal's
// length is fixed, and every trip of the loop runs before its exit.
// With use nil, it reports whether such a loop test exists at all.
func loopChecked(fn *ssa.Function, use ssa.Instruction) bool {
	if len(fn.Params) == 0 {
		return false
	}
	// holds reports whether v is an element loaded from a slice literal
	// holding the receiver
	holds := func(v ssa.Value) bool {
		ld, ok := v.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			return false
		}
		ia, ok := ld.X.(*ssa.IndexAddr)
		if !ok {
			return false
		}
		return slices.ContainsFunc(varargs(ia.X), func(e ssa.Value) bool {
			p, ok := lifetime.ParamPath(fn, e)
			return ok && p.Root == 0 && len(p.Ops) == 0
		})
	}
	var reads func(v ssa.Value, depth int) bool
	reads = func(v ssa.Value, depth int) bool {
		if v == nil || depth > 6 {
			return false
		}
		switch v := v.(type) {
		case *ssa.BinOp:
			return reads(v.X, depth+1) || reads(v.Y, depth+1)
		case *ssa.UnOp:
			if v.Op != token.MUL {
				return reads(v.X, depth+1)
			}
			// x.p: a field of the element
			for x := v.X; ; {
				fa, ok := x.(*ssa.FieldAddr)
				if !ok {
					return false
				}
				if holds(fa.X) {
					return true
				}
				ld, ok := fa.X.(*ssa.UnOp)
				if !ok || ld.Op != token.MUL {
					return false
				}
				x = ld.X
			}
		case *ssa.Extract:
			return reads(v.Tuple, depth+1)
		case *ssa.Call:
			// x.check(): a validating helper given the element
			callee := v.Call.StaticCallee()
			if callee == nil || callee.Pkg != fn.Pkg || len(v.Call.Args) == 0 || !holds(v.Call.Args[0]) {
				return false
			}
			return checksParam(callee, 0, 1, nil)
		}
		return false
	}
	for _, b := range fn.Blocks {
		iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok || !reads(iff.Cond, 0) {
			continue
		}
		if use == nil {
			return true
		}
		if cfg.BlockReaches(use.Block(), b) {
			continue // (use inside the loop, or before it)
		}
		// the loop's header: it dominates the test and the use
		for h := b.Idom(); h != nil; h = h.Idom() {
			if h.Dominates(use.Block()) && cfg.BlockReaches(b, h) {
				return true
			}
		}
	}
	return false
}

// condCalls reports whether a branch condition tests the verdict of a
// validating helper given the receiver.
func condCalls(fn *ssa.Function, v ssa.Value, depth int) bool {
	if v == nil || depth > 6 {
		return false
	}
	switch v := v.(type) {
	case *ssa.BinOp:
		return condCalls(fn, v.X, depth+1) || condCalls(fn, v.Y, depth+1)
	case *ssa.UnOp:
		return v.Op != token.MUL && condCalls(fn, v.X, depth+1)
	case *ssa.Extract:
		return condCalls(fn, v.Tuple, depth+1)
	case *ssa.Call:
		return isValidator(fn, v, 0, 0)
	}
	return false
}
