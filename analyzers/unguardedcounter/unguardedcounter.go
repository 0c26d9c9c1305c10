package unguardedcounter

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/cfg"
	"github.com/lifetimevet/lifetimevet/internal/cgofile"
	"github.com/lifetimevet/lifetimevet/internal/diag"
	"github.com/lifetimevet/lifetimevet/internal/released"
	"github.com/lifetimevet/lifetimevet/internal/scope"
	"github.com/lifetimevet/lifetimevet/internal/srcname"
	"github.com/lifetimevet/lifetimevet/internal/stmtedit"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/concurrency"
	"github.com/lifetimevet/lifetimevet/passes/guards"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// Analyzer reports counters and reference counts updated without atomics
// or a lock.
var Analyzer = &analysis.Analyzer{
	Name: "unguardedcounter",
	Doc:  Doc.Compile().Format(false),
	URL:  "https://github.com/lifetimevet/lifetimevet/blob/main/analyzers/unguardedcounter/doc.go",
	Requires: []*analysis.Analyzer{cgocall.Analyzer, model.Analyzer, lifetime.Analyzer,
		concurrency.Analyzer, guards.Analyzer},
	FactTypes: []analysis.Fact{new(AtomicFact)},
	Run:       run,
}

// AtomicFact records that a field or package-level variable is accessed
// with sync/atomic in its package, so that a plain access to it in another
// package is seen to mix the two.
type AtomicFact struct {
	Op   string // the first atomic operation: "Add", "Load", "CompareAndSwap"
	Posn string // where, as file:line
}

func (*AtomicFact) AFact() {}

func (f *AtomicFact) String() string { return "atomic " + f.Op + " at " + f.Posn }

var includeTests bool

func init() {
	Analyzer.Flags.BoolVar(&includeTests, "tests", false, "report in test files too")
}

type checker struct {
	pass   *analysis.Pass
	calls  *cgocall.Result
	model  *model.Result
	lt     *lifetime.Result
	conc   *concurrency.Result
	guards *guards.Result
	rep    *diag.Reporter

	byInstr  map[ssa.Instruction][]*guards.Access
	byKey    map[guards.Key][]*guards.Access
	refcount map[guards.Key]*refTest
	counted  map[string]bool         // fn/key pairs reported as unguarded updates
	cgo      bool                    // the package calls C
	goAt     map[token.Pos][]*ssa.Go // the package's go statements by position (startedOnBuilt); nil: not indexed yet
	// sites are the static calls of each of the package's functions
	// that are only called (see callSites); nil: not indexed yet
	sites map[*ssa.Function][]*ssa.Call
}

// refTest is a zero test of a counter that guards a release.
type refTest struct {
	pos     token.Pos
	release string // the release it guards: "C.expr_free", "(*T).Close"
	relPos  token.Pos
}

func run(pass *analysis.Pass) (any, error) {
	c := &checker{
		pass:     pass,
		calls:    pass.ResultOf[cgocall.Analyzer].(*cgocall.Result),
		model:    pass.ResultOf[model.Analyzer].(*model.Result),
		lt:       pass.ResultOf[lifetime.Analyzer].(*lifetime.Result),
		conc:     pass.ResultOf[concurrency.Analyzer].(*concurrency.Result),
		guards:   pass.ResultOf[guards.Analyzer].(*guards.Result),
		byInstr:  map[ssa.Instruction][]*guards.Access{},
		byKey:    map[guards.Key][]*guards.Access{},
		refcount: map[guards.Key]*refTest{},
		counted:  map[string]bool{},
	}
	c.rep = diag.New(pass, c.model)
	defer c.rep.ReportUnused()
	c.cgo = scope.UsesCgo(pass)
	for _, a := range c.guards.Accesses {
		c.byInstr[a.Instr] = append(c.byInstr[a.Instr], a)
		c.byKey[a.Key] = append(c.byKey[a.Key], a)
	}
	c.exportFacts()
	c.findRefcounts()
	c.counters()
	c.mixed()
	c.unlockedReads()
	for _, fn := range c.calls.Funcs {
		c.reload(fn)
		c.checkThenStore(fn)
	}
	return nil, nil
}

// inScope reports whether findings on k are lifetimevet's to make: in a
// package that calls C, where every cgo call is a synchronization point for
// the race detector and hides these races from go test -race; elsewhere,
// on state that holds a C handle or counts references to one. Counters of
// pure-Go state in pure-Go packages are the race detector's.
func (c *checker) inScope(k guards.Key) bool {
	switch {
	case c.cgo:
		return true
	case k.Type != nil:
		if cgocall.HoldsC(k.Type.Type()) {
			return true
		}
	case k.Global != nil:
		if cgocall.HoldsC(k.Global.Type()) {
			return true
		}
	}
	rt := c.refcount[k]
	return rt != nil && strings.HasPrefix(rt.release, "C.")
}

// keyVar returns the variable a key names: the last field of its path, or
// the package-level variable.
func keyVar(k guards.Key) *types.Var {
	var t types.Type
	var v *types.Var
	if k.Type != nil {
		t = k.Type.Type()
	} else if k.Global != nil {
		v = k.Global
		t = v.Type()
	} else {
		return nil
	}
	if k.Fields == "" {
		return v
	}
	for _, f := range strings.Split(k.Fields, ".") {
		st, ok := types.Unalias(t).Underlying().(*types.Struct)
		if !ok {
			return nil
		}
		i := 0
		fmt.Sscan(f, &i)
		if i >= st.NumFields() {
			return nil
		}
		v = st.Field(i)
		t = v.Type()
	}
	return v
}

func atomicAccess(a *guards.Access) bool {
	return a.Kind == guards.AtomicRead || a.Kind == guards.AtomicRMW
}

// exportFacts records the package's own fields and variables that it
// accesses atomically.
func (c *checker) exportFacts() {
	done := map[*types.Var]bool{}
	for _, a := range c.guards.Accesses {
		if !atomicAccess(a) {
			continue
		}
		v := keyVar(a.Key)
		// only what other packages can access plainly: exported, and not
		// of a sync/atomic type
		if v == nil || v.Pkg() != c.pass.Pkg || done[v] || !v.Exported() || atomicType(v.Type()) {
			continue
		}
		done[v] = true
		posn := c.pass.Fset.Position(a.Pos)
		c.pass.ExportObjectFact(v, &AtomicFact{Op: a.Op, Posn: fmt.Sprintf("%s:%d", shortName(posn.Filename), posn.Line)})
	}
}

// atomicType reports whether t is a type of sync/atomic.
func atomicType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync/atomic"
}

func shortName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

// findRefcounts finds the counters whose zero test guards a release:
// reference counts.
func (c *checker) findRefcounts() {
	for _, fn := range c.calls.Funcs {
		for _, b := range fn.Blocks {
			iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
			if !ok {
				continue
			}
			cmp, ok := iff.Cond.(*ssa.BinOp)
			if !ok || !comparison(cmp.Op) {
				continue
			}
			var operand ssa.Value
			if isZero(cmp.Y) {
				operand = cmp.X
			} else if isZero(cmp.X) {
				operand = cmp.Y
			} else {
				continue
			}
			k, pos, ok := c.counterOf(operand)
			if !ok || c.refcount[k] != nil {
				continue
			}
			for _, s := range b.Succs {
				if len(s.Preds) != 1 {
					continue
				}
				if rel, relPos := c.releaseIn(fn, s); rel != "" {
					c.refcount[k] = &refTest{pos: pos, release: rel, relPos: relPos}
					break
				}
			}
		}
	}
}

func comparison(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

func isZero(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.Value != nil && k.Value.Kind() == constant.Int && constant.Sign(k.Value) == 0
}

// counterOf returns the counter a value was read from: a plain or atomic
// load of a field or variable, or the result of an atomic Add on it.
func (c *checker) counterOf(v ssa.Value) (guards.Key, token.Pos, bool) {
	for range 4 {
		switch x := v.(type) {
		case *ssa.Convert:
			v = x.X
			continue
		case *ssa.ChangeType:
			v = x.X
			continue
		}
		break
	}
	instr, ok := v.(ssa.Instruction)
	if !ok {
		return guards.Key{}, 0, false
	}
	for _, a := range c.byInstr[instr] {
		switch a.Kind {
		case guards.Read, guards.AtomicRead:
			return a.Key, a.Pos, true
		case guards.AtomicRMW:
			if a.Op == "Add" {
				return a.Key, a.Pos, true
			}
		}
	}
	return guards.Key{}, 0, false
}

// releaseIn returns the first release in the blocks s dominates: a call
// into C that releases, a function whose summary releases, or a method
// named like a release.
func (c *checker) releaseIn(fn *ssa.Function, s *ssa.BasicBlock) (string, token.Pos) {
	for _, bb := range fn.Blocks {
		if !s.Dominates(bb) {
			continue
		}
		for _, instr := range bb.Instrs {
			if cc := c.calls.Lookup(instr); cc != nil {
				if len(c.model.Model.Releases(cc.Name, cc.Sig)) > 0 {
					return "C." + cc.Name, cc.Pos
				}
				continue
			}
			ci, ok := instr.(ssa.CallInstruction)
			if !ok || c.calls.Plumbing(instr) {
				continue
			}
			callee := ci.Common().StaticCallee()
			if callee == nil {
				if ci.Common().IsInvoke() && releaseName(ci.Common().Method.Name()) {
					return ci.Common().Method.Name(), ci.Pos()
				}
				continue
			}
			if sum := c.lt.SummaryOf(callee); sum != nil && len(sum.Releases) > 0 {
				return callee.Name(), ci.Pos()
			}
			if callee.Signature.Recv() != nil && releaseName(callee.Name()) {
				return callee.Name(), ci.Pos()
			}
		}
	}
	return "", token.NoPos
}

// releaseName reports whether a method's name says it releases.
func releaseName(name string) bool {
	switch strings.TrimSuffix(strings.TrimSuffix(name, "Locked"), "Internal") {
	case "Close", "close", "Free", "free", "Release", "release", "Destroy", "destroy",
		"Dispose", "dispose", "Finalize", "finalize", "Unref", "unref", "Delete":
		return true
	}
	return false
}

// counterUpdate reports whether the store st adds to or subtracts from the
// value it loaded from k.
func (c *checker) counterUpdate(st *ssa.Store, k guards.Key) bool {
	bin, ok := st.Val.(*ssa.BinOp)
	if !ok || (bin.Op != token.ADD && bin.Op != token.SUB) {
		return false
	}
	if b, ok := bin.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return false
	}
	for _, x := range []ssa.Value{bin.X, bin.Y} {
		if instr, ok := x.(ssa.Instruction); ok {
			for _, a := range c.byInstr[instr] {
				if a.Key == k && a.Kind == guards.Read {
					return true
				}
			}
		}
	}
	return false
}

// exempt reports whether an access needs no guard: a lock is held, it is
// in a sync.Once body, it is to an object the function has just made, or
// the type is confined to one goroutine.
func (c *checker) exempt(a *guards.Access) bool {
	if a.Once || c.guards.InOnce(a.Func) || c.fresh(a) || c.testFile(a.Pos) {
		return true
	}
	if a.Key.Type != nil && c.conc.Confined(a.Key.Type) {
		return true
	}
	for _, l := range c.locksOf(a.Func, a.Instr) {
		if !l.Read || a.Kind == guards.Read {
			return true
		}
	}
	return false
}

// testFile reports whether pos lies in a test file (left out unless
// -unguardedcounter.tests is given).
func (c *checker) testFile(pos token.Pos) bool {
	return !includeTests && strings.HasSuffix(c.pass.Fset.Position(pos).Filename, "_test.go")
}

// fresh reports whether the access is to an object the function allocated:
// a composite literal or new(T), or a local variable the function builds
// before it lets the variable's address out (var im Image; im.refs = 1;
// return &im, or a registration under a lock after the writes): see
// beforeEscapes. A variable whose address a closure captures or the
// function gives away before the access may be shared at the access. An
// access through a parameter of an init helper is to a fresh object when
// every call of the helper passes one (freshArg): o := &Obj{}; o.init();
// return o.
func (c *checker) fresh(a *guards.Access) bool {
	switch root := a.Ref.Root.(type) {
	case *ssa.Alloc:
		if srcname.IsVar(root) {
			return beforeEscapes(root, a.Instr, nil)
		}
		return len(c.locksOf(a.Func, a.Instr)) > 0 || !c.publishedBefore(root, a.Instr)
	case *ssa.Parameter:
		return c.freshParam(root, a.Instr, 0)
	}
	return false
}

// publishedBefore reports whether the object al, a new allocation (&T{},
// new(T)), may be published before instr: its address stored where other
// code can read it (a field, a global, a slice element, a map, a sync.Map
// or an atomic.Pointer, also as an interface value), sent on a channel, or
// handed to a goroutine (an argument of a go statement, or a
// variable holding it that a literal a go statement or wg.Go starts
// captures). Another goroutine may then use the object at instr. Other
// calls given the object are not publications here: what they do with it
// is not known (runtime.SetFinalizer(o, …) before o.refs = 1 keeps it
// fresh, and so does a helper that arms it; one that registers it,
// register(p), is missed).
func (c *checker) publishedBefore(al *ssa.Alloc, instr ssa.Instruction) bool {
	if instr == nil || instr.Parent() != al.Parent() {
		return false
	}
	started := func(mc *ssa.MakeClosure) []ssa.Instruction {
		var out []ssa.Instruction
		for _, r := range *mc.Referrers() {
			switch r := r.(type) {
			case *ssa.Go:
				out = append(out, r)
			case *ssa.Call:
				if slices.Contains(r.Call.Args, ssa.Value(mc)) {
					out = append(out, r) // wg.Go(func() { … }), or any call that may start it
				}
			}
		}
		return out
	}
	var pubs []ssa.Instruction
	vals := []ssa.Value{al}
	for _, r := range *al.Referrers() {
		switch r := r.(type) {
		case *ssa.MakeInterface, *ssa.ChangeType, *ssa.Convert:
			vals = append(vals, r.(ssa.Value)) // live.Store(id, any(p))
		}
	}
	for _, v := range vals {
		for _, r := range *v.Referrers() {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Val != v {
					continue
				}
				if v, ok := r.Addr.(*ssa.Alloc); ok && v.Parent() == al.Parent() {
					// a variable holding it: published where a goroutine's
					// literal captures the variable
					for _, vr := range *v.Referrers() {
						if mc, ok := vr.(*ssa.MakeClosure); ok {
							pubs = append(pubs, started(mc)...)
						}
					}
					continue
				}
				pubs = append(pubs, r)
			case *ssa.MapUpdate:
				if r.Value == v || r.Key == v {
					pubs = append(pubs, r)
				}
			case *ssa.Send:
				if r.X == v {
					pubs = append(pubs, r)
				}
			case *ssa.Go:
				pubs = append(pubs, r)
			case *ssa.Call:
				if storesShared(&r.Call) {
					pubs = append(pubs, r) // live.Store(id, p), ptr.Store(p)
				}
			}
		}
	}
	return slices.ContainsFunc(pubs, func(p ssa.Instruction) bool { return cfg.Reaches(p, instr) })
}

// storesShared reports whether com stores its arguments where other
// goroutines load them, by the documented contract of the sync types: a
// sync.Map's Store, LoadOrStore, Swap or CompareAndSwap, or the Store,
// Swap or CompareAndSwap of a sync/atomic Pointer or Value.
func storesShared(com *ssa.CallCommon) bool {
	f := com.StaticCallee()
	if f == nil || com.IsInvoke() || f.Signature.Recv() == nil {
		return false
	}
	if o := f.Origin(); o != nil {
		f = o
	}
	t := f.Signature.Recv().Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	switch path, name := n.Obj().Pkg().Path(), n.Obj().Name(); {
	case path == "sync" && name == "Map":
		return f.Name() == "Store" || f.Name() == "LoadOrStore" || f.Name() == "Swap" || f.Name() == "CompareAndSwap"
	case path == "sync/atomic" && (name == "Pointer" || name == "Value"):
		return f.Name() == "Store" || f.Name() == "Swap" || f.Name() == "CompareAndSwap"
	}
	return false
}

// freshParam reports whether the object parameter p points to is fresh
// at instr, in p's function: instr runs before the function lets p out
// (other than by instr, a call of a helper of the helper),
// and every call of the function passes an object fresh at the call (see
// callSites), which no other goroutine can reach until the caller hands
// it on after the call. An unexported helper that initialises the object
// its constructor has just made (initObj(o), o.init()) is part of the
// constructor.
func (c *checker) freshParam(p *ssa.Parameter, instr ssa.Instruction, depth int) bool {
	fn := p.Parent()
	i := slices.Index(fn.Params, p)
	if depth > 3 || i < 0 || !beforeEscapes(p, instr, instr) {
		return false
	}
	sites := c.callSites(fn)
	if len(sites) == 0 {
		return false
	}
	for _, site := range sites {
		if i >= len(site.Call.Args) {
			return false
		}
		switch arg := access.StripConv(site.Call.Args[i]).(type) {
		case *ssa.Alloc:
			if srcname.IsVar(arg) && !beforeEscapes(arg, site, site) || !srcname.IsVar(arg) && c.publishedBefore(arg, site) {
				return false
			}
		case *ssa.Parameter:
			if !c.freshParam(arg, site, depth+1) { // a helper of a helper
				return false
			}
		default:
			return false
		}
	}
	return true
}

// callSites returns the static calls of fn, a function of the package
// that nothing can call but those calls: unexported, not a literal, not
// exported to C, never used as a value (a function or method value, a
// method of an interface the package calls dynamically). nil otherwise.
func (c *checker) callSites(fn *ssa.Function) []*ssa.Call {
	if c.sites == nil {
		c.sites = map[*ssa.Function][]*ssa.Call{}
		used := map[*ssa.Function]bool{} // used other than as a static callee
		invoked := map[string]bool{}     // methods called dynamically, by id
		for _, f := range c.calls.Funcs {
			for _, b := range f.Blocks {
				for _, instr := range b.Instrs {
					var ops []*ssa.Value
					ops = instr.Operands(ops)
					ci, isCall := instr.(ssa.CallInstruction)
					for j, op := range ops {
						if op == nil || *op == nil || isCall && j == 0 && !ci.Common().IsInvoke() {
							continue
						}
						if g, ok := (*op).(*ssa.Function); ok {
							used[g] = true
						}
						if mc, ok := (*op).(*ssa.MakeClosure); ok {
							if g, ok := mc.Fn.(*ssa.Function); ok {
								used[g] = true
							}
						}
					}
					if !isCall {
						continue
					}
					com := ci.Common()
					if com.IsInvoke() {
						invoked[com.Method.Id()] = true
						continue
					}
					call, ok := instr.(*ssa.Call)
					if g := com.StaticCallee(); g != nil && ok {
						c.sites[g] = append(c.sites[g], call)
					} else if g != nil {
						used[g] = true // go f(o), defer f(o)
					}
				}
			}
		}
		// a method used as a value is called through its wrapper
		for g := range used {
			if g.Synthetic != "" {
				if m, ok := g.Object().(*types.Func); ok {
					invoked[m.Id()] = true
				}
			}
		}
		for g := range c.sites {
			obj, _ := g.Object().(*types.Func)
			if used[g] || obj == nil || g.Parent() != nil || obj.Exported() || c.calls.ExportedToC(obj) || invoked[obj.Id()] {
				delete(c.sites, g)
			}
		}
	}
	return c.sites[fn]
}

// beforeEscapes reports whether instr, in the function of root (a
// variable, or a parameter that points to the object), runs before every
// instruction that lets root's address out (a call, a store of the
// address, a go statement, a closure, a return) other than except: its
// fields may be read and written before that. Until the address is out no
// other goroutine can reach the variable, and whoever receives it later
// does so through that hand-off, which orders the writes before it.
func beforeEscapes(root ssa.Value, instr, except ssa.Instruction) bool {
	if instr == nil || instr.Parent() != root.Parent() {
		return false
	}
	var escapes []ssa.Instruction
	var walk func(v ssa.Value, depth int) bool
	walk = func(v ssa.Value, depth int) bool {
		if depth > 4 {
			return false
		}
		for _, r := range *v.Referrers() {
			switch r := r.(type) {
			case *ssa.DebugRef:
			case *ssa.UnOp:
				if r.Op != token.MUL {
					escapes = append(escapes, r)
				}
			case *ssa.Store:
				if r.Val == v {
					escapes = append(escapes, r) // the address is stored somewhere
				}
			case *ssa.FieldAddr:
				if !walk(r, depth+1) {
					return false
				}
			case *ssa.IndexAddr:
				if !walk(r, depth+1) {
					return false
				}
			default:
				escapes = append(escapes, r) // a call, a return, a go statement, a closure's binding, a conversion
			}
		}
		return true
	}
	if !walk(root, 0) {
		return false
	}
	for _, e := range escapes {
		if e != except && !runsBefore(instr, e) {
			return false
		}
	}
	return true
}

// runsBefore reports whether a runs before b on every path to b: earlier
// in the same block, or in a block that dominates b's (and is not in a
// loop with it).
func runsBefore(a, b ssa.Instruction) bool {
	return cfg.Dominates(a, b) && (a.Block() == b.Block() || !cfg.BlockReaches(b.Block(), a.Block()))
}

// counters reports counter fields updated plainly in shared types.
func (c *checker) counters() {
	for _, a := range c.guards.Accesses {
		if a.Kind != guards.Write || a.Key.Type == nil || c.exempt(a) {
			continue
		}
		st, ok := a.Instr.(*ssa.Store)
		if !ok || !c.counterUpdate(st, a.Key) {
			continue
		}
		if !c.inScope(a.Key) {
			continue
		}
		why, ok := c.shared(a)
		if !ok {
			continue
		}
		c.counted[fmt.Sprint(a.Func, a.Key)] = true
		what := "updates"
		if bin := st.Val.(*ssa.BinOp); bin.Op == token.SUB {
			what = "decrements"
		} else if k, ok := bin.Y.(*ssa.Const); ok && k.Value != nil && constant.Compare(k.Value, token.EQL, constant.MakeInt64(1)) {
			what = "increments"
		}
		field := c.text(a)
		fix := "make it a sync/atomic type (atomic.Int32, atomic.Int64) or hold the lock that guards it"
		harm := "two updates at once can lose one"
		if c.refcount[a.Key] != nil {
			fix = "make it an atomic.Int32 and release when the value Add returns is zero"
			harm += ", or let two callers see zero and release twice"
		}
		c.rep.Reportf(a.Pos, "%s %s %s without atomics or a lock: %s; %s; %s",
			srcname.Func(a.Func), what, field, why, harm, fix)
	}
}

// goroutines are the contexts that make two goroutines of the package's
// own code meet. C callbacks (//export) are left out: the object a
// callback updates is usually one the C library hands back for one of its
// own objects (a connection, a statement), and the library calls back on
// the thread that is using that object.
var goroutines = []concurrency.ContextKind{concurrency.Spawned, concurrency.Finalizer}

// shared says why the counter a updates is shared between goroutines.
func (c *checker) shared(a *guards.Access) (string, bool) {
	k := a.Key
	if rt := c.refcount[k]; rt != nil {
		if c.ownedByOneGoroutine(k) {
			return "", false
		}
		return fmt.Sprintf("%s is a reference count (its zero test at %s guards %s), shared by every holder of a reference",
			c.text(a), diag.Where(c.pass.Fset, rt.pos, a.Pos), rt.release), true
	}
	for _, e := range c.conc.TypeEvidence(k.Type) {
		switch e.Kind {
		case concurrency.ThreadSafe, concurrency.Documented:
			return e.Desc, true
		case concurrency.Lock:
			// the mutex guards the counter when the code's majority
			// says so: most of its uses hold it
			lock, n, total, ok := c.guards.Guard(k)
			if !ok || lock.Type != k.Type {
				continue
			}
			share := ""
			if total > 0 {
				share = fmt.Sprintf(", as %d of its %d uses do", n, total)
			}
			for _, o := range c.byKey[k] {
				if o.Locked(lock, false) {
					return fmt.Sprintf("%s, which %s holds when it accesses %s (%s)%s", e.Desc, srcname.Func(o.Func),
						strings.TrimPrefix(k.String(), k.Type.Name()+"."), diag.Where(c.pass.Fset, o.Pos, a.Pos), share), true
				}
			}
		}
	}
	if e, ok := c.conc.LifecycleLock(k.Type, a.Func); ok {
		for _, o := range c.byKey[k] {
			if o.Func != a.Func && slices.ContainsFunc(o.Locks, func(l guards.Lock) bool { return l.Key.Type == k.Type }) {
				if _, ok := c.conc.LifecycleLock(k.Type, a.Func, o.Func); ok {
					return e.Desc, true
				}
			}
		}
	}
	fn := a.Func
	if ctx := c.conc.SelfOverlapOn(fn, k.Type, goroutines...); ctx != nil && !ownFinalizer(ctx, k) {
		return fmt.Sprintf("two goroutines can run %s at once (%s)", srcname.Func(fn), ctx.Desc), true
	}
	for _, o := range c.byKey[k] {
		if o.Kind != guards.Write || c.exempt(o) {
			continue
		}
		c1, c2, ok := c.conc.OverlapOn(fn, o.Func, k.Type, goroutines...)
		if !ok || (c1 == nil && c2 == nil) || ownFinalizer(c1, k) || ownFinalizer(c2, k) {
			continue
		}
		if o.Func == fn && (c1 == c2 || c1 == nil || c2 == nil) {
			continue
		}
		return fmt.Sprintf("%s (%s) and %s (%s) can run at once", describe(c1, fn), srcname.Func(fn), describe(c2, o.Func), srcname.Func(o.Func)), true
	}
	return "", false
}

// ownedByOneGoroutine reports whether every access to the counter k (but
// those to an object being built) is made by one goroutine of the
// package's own, started once per object: a function that only one go
// statement runs, not in a loop, on an object the function with the go
// statement has just built (w := &Worker{jobs: ch}; go w.loop()), and that
// nothing else calls (an actor's loop, the goroutine of a locked OS
// thread that owns a GL or CUDA context). Holders of a reference on other
// goroutines reach the count only through it (a channel), so no two
// updates meet: a reference count is shared by its holders, and here it
// is not.
func (c *checker) ownedByOneGoroutine(k guards.Key) bool {
	var owner *concurrency.Context
	for _, o := range c.byKey[k] {
		if c.fresh(o) {
			continue
		}
		cs := c.conc.Contexts(o.Func)
		if len(cs) != 1 || cs[0].Kind != concurrency.Spawned || cs[0].Multi || owner != nil && cs[0] != owner {
			return false
		}
		owner = cs[0]
	}
	return owner != nil && c.startedOnBuilt(owner.Pos, k.Type)
}

// startedOnBuilt reports whether the go statement at pos starts its
// goroutine on an object of type t that its function allocated.
func (c *checker) startedOnBuilt(pos token.Pos, t *types.TypeName) bool {
	if c.goAt == nil {
		c.goAt = map[token.Pos][]*ssa.Go{}
		for _, fn := range c.calls.Funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					if g, ok := instr.(*ssa.Go); ok {
						c.goAt[g.Pos()] = append(c.goAt[g.Pos()], g)
					}
				}
			}
		}
	}
	for _, g := range c.goAt[pos] {
		vals := slices.Clone(g.Call.Args)
		if mc, ok := g.Call.Value.(*ssa.MakeClosure); ok {
			vals = append(vals, mc.Bindings...)
		}
		for _, v := range vals {
			if st := lifetime.SingleStore(v); st != nil {
				v = st // a captured variable assigned once
			}
			r := lifetime.Expand(v)
			if al, ok := r.Root.(*ssa.Alloc); ok && len(r.Ops) == 0 && al.Heap && access.PointeeName(al.Type()) == t {
				return true
			}
		}
	}
	return false
}

func ownFinalizer(ctx *concurrency.Context, k guards.Key) bool {
	return ctx != nil && ctx.Kind == concurrency.Finalizer && ctx.Object == k.Type
}

func describe(ctx *concurrency.Context, fn *ssa.Function) string {
	if ctx == nil {
		return "the caller of " + srcname.Func(fn)
	}
	return ctx.Desc
}

// text renders the accessed location as the source names it: x.refs.
func (c *checker) text(a *guards.Access) string {
	r := a.Ref
	if !r.Valid() {
		return a.Key.String()
	}
	if g, ok := r.Root.(*ssa.Global); ok && len(r.Ops) == 0 {
		return g.Name()
	}
	name := srcname.Of(c.pass.Files, r.Root)
	if name == "" {
		name = r.Root.Name()
	}
	if al, ok := r.Root.(*ssa.Alloc); ok && srcname.IsVar(al) {
		// the variable's address, loaded (*c), then the path: &*c.hits
		// is c.hits
		return strings.TrimPrefix(strings.TrimPrefix(access.Render(name, al.Type(), append([]access.Op{{Kind: access.Load}}, r.Ops...)), "&"), "*")
	}
	text := strings.TrimPrefix(access.Render(name, r.Root.Type(), r.Ops), "&")
	if _, ok := r.Root.(*ssa.FreeVar); ok && len(r.Ops) > 0 && r.Ops[0].Kind == access.Load {
		// a closure's free variable is the captured variable's address:
		// *e.fails is e.fails
		text = strings.TrimPrefix(text, "*")
	}
	return text
}

// mixed reports plain accesses to fields and variables that are accessed
// atomically elsewhere (in this package, or in theirs, through facts).
func (c *checker) mixed() {
	type atomicUse struct {
		where string
		op    string
		fn    string
		acc   []*guards.Access
	}
	uses := map[guards.Key]*atomicUse{}
	for _, a := range c.guards.Accesses {
		if !atomicAccess(a) {
			continue
		}
		u := uses[a.Key]
		if u == nil {
			u = &atomicUse{op: a.Op, fn: srcname.Func(a.Func), where: ""}
			uses[a.Key] = u
		}
		u.acc = append(u.acc, a)
	}
	reported := map[string]bool{}
	for _, a := range c.guards.Accesses {
		if a.Kind != guards.Read && a.Kind != guards.Write {
			continue
		}
		if a.Once || c.guards.InOnce(a.Func) || c.fresh(a) || c.testFile(a.Pos) || a.Key.Type != nil && c.conc.Confined(a.Key.Type) {
			continue
		}
		key := fmt.Sprint(a.Func, a.Key)
		if c.counted[key] || reported[key] {
			continue
		}
		var other, op, fnName string
		if u := uses[a.Key]; u != nil {
			// a plain read under a lock that every atomic write holds too
			if a.Kind == guards.Read && c.lockedLikeWrites(a, u.acc) {
				continue
			}
			first := u.acc[0]
			other = diag.Where(c.pass.Fset, first.Pos, a.Pos)
			op, fnName = first.Op, srcname.Func(first.Func)
		} else {
			v := keyVar(a.Key)
			if v == nil || v.Pkg() == c.pass.Pkg || v.Pkg() == nil {
				continue
			}
			var fact AtomicFact
			if !c.pass.ImportObjectFact(v, &fact) {
				continue
			}
			other = fact.Posn
			op, fnName = fact.Op, "package "+v.Pkg().Name()
		}
		if !c.inScope(a.Key) {
			continue
		}
		reported[key] = true
		what := "reads"
		if a.Kind == guards.Write {
			what = "writes"
		}
		c.rep.Reportf(a.Pos, "%s %s %s plainly, but %s accesses it with atomic %s (%s): a plain access at the same time as an atomic one is a data race, and the plain one may see a stale or torn value; access it only through sync/atomic (an atomic.Int32 or atomic.Int64 field makes that the only way)",
			srcname.Func(a.Func), what, c.text(a), fnName, op, other)
	}
}

// lockedLikeWrites reports whether a plain read holds a lock that every
// atomic write of the key holds too (so no write can run during it).
func (c *checker) lockedLikeWrites(a *guards.Access, atomics []*guards.Access) bool {
	for _, l := range a.Locks {
		all := true
		for _, w := range atomics {
			if w.Kind == guards.AtomicRMW && !w.Locked(l.Key, true) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// reload reports an atomic Add whose result is dropped, followed by a
// separate atomic Load of the same counter that a branch tests. The same
// counter is the same variable: the Load's address is the Add's (the same
// SSA values; through memory, only where nothing can store in between), so
// that Add(&x.refs) and Load(&y.refs), or a Load after b = other, are not
// it; a Load in a loop that the Add is not in waits for the other
// goroutines (a spin wait), and is not it either. The fix (test the value
// Add returns where the Load was) is offered only where it moves nothing
// the program can observe: the Load follows the Add in straight-line code,
// with nothing in between that reads the counter, calls, or stores.
func (c *checker) reload(fn *ssa.Function) {
	var adds []*guards.Access
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			for _, a := range c.byInstr[instr] {
				if a.Kind == guards.AtomicRMW && a.Op == "Add" {
					if call, ok := instr.(*ssa.Call); ok && (call.Referrers() == nil || len(*call.Referrers()) == 0) {
						adds = append(adds, a)
					}
				}
			}
		}
	}
	for _, add := range adds {
		if add.Key.Type != nil && c.conc.Confined(add.Key.Type) || c.testFile(add.Pos) {
			continue
		}
		for _, ld := range c.byKey[add.Key] {
			if ld.Func != fn || ld.Kind != guards.AtomicRead || !cfg.Dominates(add.Instr, ld.Instr) {
				continue
			}
			if !c.tested(ld.Instr.(ssa.Value)) {
				continue
			}
			if c.sameLock(add, ld) {
				continue
			}
			between, straight := straightLine(add.Instr, ld.Instr)
			quiet := straight && !effects(between)
			if !sameAddr(atomicAddr(add.Instr), atomicAddr(ld.Instr), quiet) || waitLoop(add.Instr.Block(), ld.Instr.Block()) {
				continue
			}
			field := c.text(ld)
			d := analysis.Diagnostic{
				Pos: ld.Pos,
				Message: fmt.Sprintf("%s tests %s with a separate atomic Load after the atomic Add at %s: two goroutines can both add before either loads, and both see the final value (both release, or neither); test the value Add returns",
					srcname.Func(fn), field, diag.Where(c.pass.Fset, add.Pos, ld.Pos)),
			}
			if quiet && !c.readsBetween(add.Key, between) && !mayPanic(between, atomicAddr(add.Instr)) {
				if fix, ok := c.reloadFix(add, ld); ok {
					d.SuggestedFixes = []analysis.SuggestedFix{fix}
				}
			}
			c.rep.Report(d)
			break
		}
	}
}

// atomicAddr returns the address a sync/atomic call works on: its first
// argument (the receiver of a method of atomic.Int32 and the like).
func atomicAddr(instr ssa.Instruction) ssa.Value {
	if ci, ok := instr.(ssa.CallInstruction); ok && len(ci.Common().Args) > 0 {
		return ci.Common().Args[0]
	}
	return nil
}

// sameAddr reports whether x and y are the same address: the same SSA
// value, or the same field or element (at the same index) of the same
// address; and, when quiet (nothing can store between the two), the
// address loaded from the same variable.
func sameAddr(x, y ssa.Value, quiet bool) bool {
	if x == nil || y == nil {
		return false
	}
	x, y = access.StripConv(x), access.StripConv(y)
	if x == y {
		return true
	}
	switch x := x.(type) {
	case *ssa.FieldAddr:
		y, ok := y.(*ssa.FieldAddr)
		return ok && x.Field == y.Field && sameAddr(x.X, y.X, quiet)
	case *ssa.IndexAddr:
		y, ok := y.(*ssa.IndexAddr)
		return ok && sameIndex(x.Index, y.Index) && sameAddr(x.X, y.X, quiet)
	case *ssa.UnOp:
		y, ok := y.(*ssa.UnOp)
		return ok && quiet && x.Op == token.MUL && y.Op == token.MUL && sameAddr(x.X, y.X, quiet)
	}
	return false
}

func sameIndex(x, y ssa.Value) bool {
	x, y = access.StripConv(x), access.StripConv(y)
	if x == y {
		return true
	}
	cx, ok1 := x.(*ssa.Const)
	cy, ok2 := y.(*ssa.Const)
	return ok1 && ok2 && cx.Value != nil && cy.Value != nil && constant.Compare(cx.Value, token.EQL, cy.Value)
}

// straightLine returns the instructions that run after a and before b when
// b follows a in straight-line code: in the same block, or in a chain of
// blocks each the only successor of the one before and with it as its only
// predecessor (so not a loop header).
func straightLine(a, b ssa.Instruction) ([]ssa.Instruction, bool) {
	var out []ssa.Instruction
	blk := a.Block()
	i := slices.Index(blk.Instrs, a) + 1
	for range len(a.Parent().Blocks) {
		if blk == b.Block() {
			j := slices.Index(blk.Instrs, b)
			if j < i {
				return nil, false
			}
			return append(out, blk.Instrs[i:j]...), true
		}
		out = append(out, blk.Instrs[i:]...)
		if len(blk.Succs) != 1 || len(blk.Succs[0].Preds) != 1 {
			return nil, false
		}
		blk, i = blk.Succs[0], 0
	}
	return nil, false
}

// effects reports whether any of instrs calls, stores or communicates:
// moving an atomic Add past it could change what the program observes.
func effects(instrs []ssa.Instruction) bool {
	for _, instr := range instrs {
		switch instr := instr.(type) {
		case *ssa.Store, *ssa.MapUpdate, *ssa.Send, *ssa.Go, *ssa.Defer, *ssa.Select, *ssa.Panic, *ssa.RunDefers:
			return true
		case ssa.CallInstruction:
			return true
		case *ssa.UnOp:
			if instr.Op == token.ARROW {
				return true
			}
		}
	}
	return false
}

// mayPanic reports whether one of instrs can panic: moving an atomic Add
// past it would lose the Add where the panic is recovered (an index out
// of range, a nil dereference, a failed type assertion, a division by
// zero, a negative shift). The address of a field of the pointer the Add
// worked through (addr) is no nil dereference: the Add made it already;
// nor is a load of a variable (a local's cell, a global), or of the field
// address of what the Add loaded from the same variable (instrs store
// nothing: the caller checked).
func mayPanic(instrs []ssa.Instruction, addr ssa.Value) bool {
	bases := map[ssa.Value]bool{}
	for v := access.StripConv(addr); v != nil; {
		bases[v] = true
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = access.StripConv(x.X)
			continue
		case *ssa.UnOp:
			if variable(x.X) {
				bases[x.X] = true
			}
		}
		break
	}
	for _, instr := range instrs {
		switch instr := instr.(type) {
		case *ssa.IndexAddr, *ssa.Index, *ssa.Slice, *ssa.SliceToArrayPointer, *ssa.MakeSlice, *ssa.MakeChan, *ssa.Lookup:
			return true
		case *ssa.FieldAddr:
			x := access.StripConv(instr.X)
			if ld, ok := x.(*ssa.UnOp); ok && ld.Op == token.MUL && bases[ld.X] {
				continue
			}
			if !bases[x] {
				return true
			}
		case *ssa.UnOp:
			if instr.Op == token.MUL && !variable(instr.X) {
				return true
			}
		case *ssa.TypeAssert:
			if !instr.CommaOk {
				return true
			}
		case *ssa.BinOp:
			switch instr.Op {
			case token.QUO, token.REM, token.SHL, token.SHR:
				return true
			}
		}
	}
	return false
}

// variable reports whether v is the address of a variable: a local's
// cell or a global, never nil.
func variable(v ssa.Value) bool {
	switch v.(type) {
	case *ssa.Alloc, *ssa.Global:
		return true
	}
	return false
}

// readsBetween reports whether one of instrs accesses the counter k.
func (c *checker) readsBetween(k guards.Key, instrs []ssa.Instruction) bool {
	for _, instr := range instrs {
		for _, a := range c.byInstr[instr] {
			if a.Key == k {
				return true
			}
		}
	}
	return false
}

// waitLoop reports whether ld is in a loop that add is not in: a Load
// repeated until the other goroutines have added, not a test of this
// goroutine's Add.
func waitLoop(add, ld *ssa.BasicBlock) bool {
	if add == ld {
		return false
	}
	seen := map[*ssa.BasicBlock]bool{add: true}
	work := slices.Clone(ld.Succs)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == ld {
			return true
		}
		if seen[b] {
			continue
		}
		seen[b] = true
		work = append(work, b.Succs...)
	}
	return false
}

// tested reports whether v (a loaded value) is compared in a branch
// condition.
func (c *checker) tested(v ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value, depth int) bool
	walk = func(v ssa.Value, depth int) bool {
		if depth > 4 || seen[v] || v.Referrers() == nil {
			return false
		}
		seen[v] = true
		for _, u := range *v.Referrers() {
			switch u := u.(type) {
			case *ssa.If:
				return true
			case *ssa.BinOp:
				if walk(u, depth+1) {
					return true
				}
			case *ssa.UnOp:
				if walk(u, depth+1) {
					return true
				}
			case *ssa.Convert:
				if walk(u, depth+1) {
					return true
				}
			}
		}
		return false
	}
	return walk(v, 0)
}

func (c *checker) sameLock(a, b *guards.Access) bool {
	for _, l := range a.Locks {
		if !l.Read && b.Locked(l.Key, true) {
			return true
		}
	}
	return false
}

// reloadFix drops the Add statement and tests its value where the Load
// was.
func (c *checker) reloadFix(add, ld *guards.Access) (analysis.SuggestedFix, bool) {
	file := c.fileOf(add.Pos)
	if file == nil || c.fileOf(ld.Pos) != file {
		return analysis.SuggestedFix{}, false
	}
	addCall, addStmt := callAt(file, add.Instr.Pos())
	ldCall, _ := callAt(file, ld.Instr.Pos())
	if addCall == nil || addStmt == nil || ldCall == nil {
		return analysis.SuggestedFix{}, false
	}
	// the Add call as the file has it (its comments included), not
	// reprinted, which would drop them
	tf := c.pass.Fset.File(addCall.Pos())
	if tf == nil || c.pass.ReadFile == nil {
		return analysis.SuggestedFix{}, false
	}
	src, err := c.pass.ReadFile(tf.Name())
	if err != nil || tf.Size() != len(src) {
		return analysis.SuggestedFix{}, false
	}
	callText := slices.Clone(src[tf.Offset(addCall.Pos()):tf.Offset(addCall.End())])
	del := analysis.TextEdit{Pos: addStmt.Pos(), End: addStmt.End()}
	{
		start := tf.PositionFor(addStmt.Pos(), false)
		end := tf.PositionFor(addStmt.End(), false)
		// the whole line only when the Add is a statement of a list of
		// its own: not under a label (which the line holds too, and a
		// goto names) nor an if's or a switch's init
		path, _ := astutil.PathEnclosingInterval(file, addStmt.Pos(), addStmt.End())
		if start.Line == end.Line && end.Line < tf.LineCount() && stmtedit.InList(path, addStmt) && c.aloneOnLine(file, addStmt) {
			del = analysis.TextEdit{Pos: tf.LineStart(start.Line), End: tf.LineStart(start.Line + 1)}
		} else {
			// the line keeps something else (a comment, a label): the
			// deletion takes the blanks it would leave at the line's end
			s, e := stmtedit.WidenDeletion(src, start.Offset, end.Offset)
			if e == end.Offset && stmtedit.InList(path, addStmt) {
				// a statement of a list on a line with others
				// ({ r.n.Add(-1); switch ... }): its separator goes
				// with it, and the blanks after that
				k := e
				for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
					k++
				}
				if k < len(src) && src[k] == ';' {
					k++
					for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
						k++
					}
					e = k
				}
			}
			del = analysis.TextEdit{Pos: tf.Pos(s), End: tf.Pos(e)}
		}
	}
	return analysis.SuggestedFix{
		Message: "test the value atomic Add returns",
		TextEdits: []analysis.TextEdit{
			del,
			{Pos: ldCall.Pos(), End: ldCall.End(), NewText: callText},
		},
	}, true
}

// aloneOnLine reports whether no other statement or comment shares stmt's
// line.
func (c *checker) aloneOnLine(file *ast.File, stmt ast.Stmt) bool {
	line := func(p token.Pos) int { return c.pass.Fset.PositionFor(p, false).Line }
	l := line(stmt.Pos())
	alone := true
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil || !alone {
			return false
		}
		if s, ok := n.(ast.Stmt); ok && n != stmt {
			if _, block := s.(*ast.BlockStmt); !block && (line(s.Pos()) == l || line(s.End()) == l) && (s.End() <= stmt.Pos() || s.Pos() >= stmt.End()) {
				alone = false
			}
		}
		return true
	})
	for _, cg := range file.Comments {
		for _, cm := range cg.List {
			// a comment inside the statement moves with the call's text
			inside := cm.Pos() >= stmt.Pos() && cm.End() <= stmt.End()
			if !inside && (line(cm.Pos()) == l || line(cm.End()) == l) {
				return false
			}
		}
	}
	return alone
}

func (c *checker) fileOf(pos token.Pos) *ast.File {
	return cgofile.FileOf(c.pass.Files, pos)
}

// callAt returns the call expression whose '(' is at lparen, and the
// expression statement it forms, if it is one.
func callAt(file *ast.File, lparen token.Pos) (*ast.CallExpr, ast.Stmt) {
	path, _ := astutil.PathEnclosingInterval(file, lparen, lparen+1)
	for i, n := range path {
		call, ok := n.(*ast.CallExpr)
		if !ok || call.Lparen != lparen {
			continue
		}
		if i+1 < len(path) {
			if es, ok := path[i+1].(*ast.ExprStmt); ok {
				return call, es
			}
		}
		return call, nil
	}
	return nil, nil
}

// checkThenStore reports a branch on an atomic Load followed, in the code
// it decides, by an atomic Store of the same variable around an action:
// two goroutines can both pass the check and both act.
func (c *checker) checkThenStore(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		for _, ld := range c.condLoads(iff.Cond) {
			if ld.Key.Type != nil && c.conc.Confined(ld.Key.Type) || ld.Once || c.testFile(ld.Pos) || !c.inScope(ld.Key) {
				continue
			}
			for _, s := range b.Succs {
				if len(s.Preds) != 1 {
					continue
				}
				st, acts := c.storeIn(fn, s, ld.Key)
				if st == nil || c.sameLock(ld, st) || c.recheckedUnderLock(fn, ld, st) || c.releasesLoaded(fn, s, ld) {
					continue
				}
				where := diag.Where(c.pass.Fset, st.Pos, ld.Pos)
				switch {
				case st.Op == "Add":
					// a bound tested, then passed: both goroutines add
					c.rep.Reportf(ld.Pos, "%s checks %s with an atomic Load and then changes it with a separate Add (%s): two goroutines can both pass the check before either adds, and both add past what the check allows; use a CompareAndSwap loop (load, test, CompareAndSwap the new value, retry when it fails)",
						srcname.Func(fn), c.text(ld), where)
				case acts:
					c.rep.Reportf(ld.Pos, "%s checks %s with an atomic Load and then sets it with a separate Store (%s): two goroutines can both pass the check and both run what it guards; claim it with CompareAndSwap and act only when that succeeds, or use sync.Once",
						srcname.Func(fn), c.text(ld), where)
				case !constStore(st) && c.seededRaise(iff.Cond, ld, st):
					// a hint raised to a value computed from its own
					// earlier value (n := hint.Load(); grow n; if
					// hint.Load() < n { hint.Store(n) }): a lost raise
					// costs the next caller the same computation, from
					// the smaller seed, and loses nothing it cannot redo
					continue
				case !constStore(st):
					// if v > peak.Load() { peak.Store(v) }: the last store
					// wins, whether or not it passes the check any more
					c.rep.Reportf(ld.Pos, "%s checks %s with an atomic Load and then sets it with a separate Store (%s): two goroutines can both pass the check, and the one that stores last can undo the other's update; use a CompareAndSwap loop (load, test, CompareAndSwap the new value, retry when it fails)",
						srcname.Func(fn), c.text(ld), where)
				default:
					continue
				}
				break
			}
		}
	}
}

// seededRaise reports whether the check compares the load ld with the very
// value the store st then stores (a compare-and-raise, or lower: a
// high-water mark), and that value is computed from an atomic read of the
// same variable (a seed it grew from). Such a variable is a hint that
// memoises work: each caller recomputes from whatever it reads, so a lost
// update is redone, not lost. An observation from outside (if v >
// peak.Load() { peak.Store(v) }) is lost for good, and a count (the load
// plus a delta, tested against a bound) is not compared with what it stores.
func (c *checker) seededRaise(cond ssa.Value, ld, st *guards.Access) bool {
	call, ok := st.Instr.(ssa.CallInstruction)
	if !ok || len(call.Common().Args) == 0 {
		return false
	}
	stored := access.StripConv(call.Common().Args[len(call.Common().Args)-1])
	ldv, ok := ld.Instr.(ssa.Value)
	if !ok {
		return false
	}
	cmp, ok := cond.(*ssa.BinOp)
	if !ok {
		return false
	}
	switch cmp.Op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
	default:
		return false
	}
	x, y := access.StripConv(cmp.X), access.StripConv(cmp.Y)
	if !(x == ldv && y == stored || y == ldv && x == stored) {
		return false
	}
	// the stored value grows from a read of the same variable: through
	// arithmetic, conversions and the phis of a loop
	seen := map[ssa.Value]bool{}
	var from func(v ssa.Value, depth int) bool
	from = func(v ssa.Value, depth int) bool {
		if v == nil || depth > 8 || seen[v] {
			return false
		}
		seen[v] = true
		if instr, ok := v.(ssa.Instruction); ok && v != ldv {
			for _, a := range c.byInstr[instr] {
				if a.Kind == guards.AtomicRead && a.Key == ld.Key {
					return true
				}
			}
		}
		switch v := v.(type) {
		case *ssa.Phi:
			for _, e := range v.Edges {
				if from(e, depth+1) {
					return true
				}
			}
		case *ssa.BinOp:
			return from(v.X, depth+1) || from(v.Y, depth+1)
		case *ssa.Convert:
			return from(v.X, depth+1)
		}
		return false
	}
	return from(stored, 0)
}

// constStore reports whether an atomic Store stores a constant (a flag).
func constStore(st *guards.Access) bool {
	call, ok := st.Instr.(ssa.CallInstruction)
	if !ok {
		return false
	}
	args := call.Common().Args
	if len(args) < 2 {
		return false
	}
	_, ok = args[len(args)-1].(*ssa.Const)
	return ok
}

// condLoads returns the atomic loads a branch condition compares.
func (c *checker) condLoads(cond ssa.Value) []*guards.Access {
	var out []*guards.Access
	var walk func(v ssa.Value, depth int)
	walk = func(v ssa.Value, depth int) {
		if v == nil || depth > 4 {
			return
		}
		if instr, ok := v.(ssa.Instruction); ok {
			for _, a := range c.byInstr[instr] {
				if a.Kind == guards.AtomicRead {
					out = append(out, a)
				}
			}
		}
		switch v := v.(type) {
		case *ssa.BinOp:
			walk(v.X, depth+1)
			walk(v.Y, depth+1)
		case *ssa.UnOp:
			walk(v.X, depth+1)
		case *ssa.Convert:
			walk(v.X, depth+1)
		}
	}
	walk(cond, 0)
	return out
}

// storeIn returns an atomic Store of k in the blocks s dominates, and
// whether those blocks also act (call something other than sync/atomic).
func (c *checker) storeIn(fn *ssa.Function, s *ssa.BasicBlock, k guards.Key) (*guards.Access, bool) {
	var st *guards.Access
	acts := false
	for _, bb := range fn.Blocks {
		if !s.Dominates(bb) {
			continue
		}
		for _, instr := range bb.Instrs {
			for _, a := range c.byInstr[instr] {
				if a.Key == k && a.Kind == guards.AtomicRMW {
					if a.Op != "Store" && a.Op != "Add" {
						return nil, false // a claim (CompareAndSwap, Swap) decides
					}
					if st == nil {
						st = a
					}
				}
			}
			ci, ok := instr.(ssa.CallInstruction)
			if !ok || c.calls.Plumbing(instr) {
				continue
			}
			if c.calls.Lookup(instr) != nil {
				acts = true
				continue
			}
			if callee := ci.Common().StaticCallee(); callee != nil && atomicFunc(callee) {
				continue
			}
			if _, ok := ci.Common().Value.(*ssa.Builtin); ok {
				continue
			}
			if op, _, ok := lockCall(ci.Common()); ok && op != "" {
				continue
			}
			acts = true
		}
	}
	return st, acts
}

// atomicFunc reports whether fn is of sync/atomic, a generic method
// ((*atomic.Pointer[T]).Load) included: its instance has no package.
func atomicFunc(fn *ssa.Function) bool {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	return fn.Pkg != nil && fn.Pkg.Pkg.Path() == "sync/atomic"
}

// releasesLoaded reports whether the code s decides releases the very
// value the atomic load ld read (h := p.h.Load(); if h != nil { free(h);
// p.h.Store(nil) }): the loaded value is a handle, and a check then release
// of a handle is checkthendestroy's finding, with its fix.
func (c *checker) releasesLoaded(fn *ssa.Function, s *ssa.BasicBlock, ld *guards.Access) bool {
	v, ok := ld.Instr.(ssa.Value)
	if !ok {
		return false
	}
	// (the released value as its path names it: an atomic cell's Load
	// reads the cell, p.h)
	loaded := released.Normalize(access.Ref{Root: v})
	for _, bb := range fn.Blocks {
		if !s.Dominates(bb) {
			continue
		}
		for _, instr := range bb.Instrs {
			for _, r := range released.Refs(c.calls, c.model.Model, c.lt, instr) {
				if r.Root == v && len(r.Ops) == 0 || r.Root == loaded.Root && slices.Equal(r.Ops, loaded.Ops) {
					return true
				}
			}
		}
	}
	return false
}

// lockCall reports whether com is a method of sync.Mutex or RWMutex.
func lockCall(com *ssa.CallCommon) (string, bool, bool) {
	callee := com.StaticCallee()
	if callee == nil || callee.Signature.Recv() == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "sync" {
		return "", false, false
	}
	return callee.Name(), true, true
}

// recheckedUnderLock reports whether the variable is loaded again, with a
// lock held that the store holds, between the check and the store (double-
// checked locking).
func (c *checker) recheckedUnderLock(fn *ssa.Function, ld, st *guards.Access) bool {
	for _, a := range c.byKey[ld.Key] {
		if a.Func != fn || a == ld || (a.Kind != guards.AtomicRead && a.Kind != guards.Read) {
			continue
		}
		if c.sameLock(st, a) && cfg.Dominates(a.Instr, st.Instr) {
			return true
		}
	}
	return false
}

// An update is a change of a counter: a ++, --, += or -= of it, or a call
// of a method of its integer type on its address (r.IncOnNoError(err)).
type update struct {
	fn    *ssa.Function
	pos   token.Pos
	locks []guards.Lock
}

// updates returns the updates of counter fields, by key.
func (c *checker) updates() map[guards.Key][]update {
	out := map[guards.Key][]update{}
	for _, a := range c.guards.Accesses {
		if a.Kind != guards.Write || a.Key.Type == nil || c.fresh(a) {
			continue
		}
		if st, ok := a.Instr.(*ssa.Store); ok && c.counterUpdate(st, a.Key) {
			out[a.Key] = append(out[a.Key], update{a.Func, a.Pos, c.locksOf(a.Func, a.Instr)})
		}
	}
	for _, fn := range c.calls.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || call.Call.IsInvoke() {
					continue
				}
				callee := call.Call.StaticCallee()
				if callee == nil || callee.Signature.Recv() == nil || len(call.Call.Args) == 0 {
					continue
				}
				p, ok := callee.Signature.Recv().Type().(*types.Pointer)
				if !ok {
					continue
				}
				if b, ok := p.Elem().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
					continue
				}
				if k, ok := keyOf(call.Call.Args[0]); ok && k.Type != nil {
					out[k] = append(out[k], update{fn, call.Pos(), c.locksOf(fn, instr)})
				}
			}
		}
	}
	return out
}

// locksOf returns the locks held at instr in fn; for a function literal
// that is only deferred, with the locks its function holds when it defers
// it and releases only in an earlier deferred call (they are still held
// when the literal runs).
func (c *checker) locksOf(fn *ssa.Function, instr ssa.Instruction) []guards.Lock {
	held := c.guards.Held(instr)
	parent := fn.Parent()
	if parent == nil {
		return held
	}
	var defers []*ssa.Defer
	for _, b := range parent.Blocks {
		for _, in := range b.Instrs {
			mc, ok := in.(*ssa.MakeClosure)
			if !ok || mc.Fn != fn {
				continue
			}
			for _, u := range *mc.Referrers() {
				d, ok := u.(*ssa.Defer)
				if !ok || d.Call.Value != mc {
					return held
				}
				defers = append(defers, d)
			}
		}
	}
	if len(defers) == 0 {
		return held
	}
	out := slices.Clone(held)
	// locks held on entry (callers hold them across the call)
	var entry []guards.Lock
	if len(parent.Blocks) > 0 && len(parent.Blocks[0].Instrs) > 0 {
		entry = c.guards.Held(parent.Blocks[0].Instrs[0])
	}
	for _, l := range c.guards.Held(defers[0]) {
		ok := true
		for _, d := range defers {
			if !slices.Contains(c.guards.Held(d), l) || !slices.Contains(entry, l) && !c.unlockDeferredBefore(parent, l.Key, d) {
				ok = false
			}
		}
		if ok && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// unlockDeferredBefore reports whether fn defers the unlock of k before d
// (so that the unlock runs after d's call).
func (c *checker) unlockDeferredBefore(fn *ssa.Function, k guards.Key, d *ssa.Defer) bool {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			u, ok := in.(*ssa.Defer)
			if !ok || u == d {
				continue
			}
			name, _, ok := lockCall(&u.Call)
			if !ok || (name != "Unlock" && name != "RUnlock") || len(u.Call.Args) == 0 {
				continue
			}
			if uk, ok := guards.LockKeyOf(u.Call.Args[0]); ok && uk == k && cfg.Dominates(u, d) {
				return true
			}
		}
	}
	return false
}

// unlockedReads reports reads of a counter without the lock that all its
// updates hold: a reference count tested outside the lock acts on a value
// another goroutine is changing.
func (c *checker) unlockedReads() {
	ups := c.updates()
	keys := make([]guards.Key, 0, len(ups))
	for k := range ups {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b guards.Key) int { return strings.Compare(a.String(), b.String()) })
	for _, k := range keys {
		us := ups[k]
		if c.conc.Confined(k.Type) {
			continue
		}
		// the type's own lock, held by every update
		var lock *guards.Lock
		for _, l := range us[0].locks {
			if l.Read || l.Key.Type != k.Type {
				continue
			}
			all := true
			for _, u := range us[1:] {
				if !slices.ContainsFunc(u.locks, func(m guards.Lock) bool { return m.Key == l.Key && !m.Read }) {
					all = false
				}
			}
			if all {
				lock = &l
				break
			}
		}
		if lock == nil {
			continue
		}
		done := map[*ssa.Function]bool{}
		for _, a := range c.byKey[k] {
			if a.Kind != guards.Read || done[a.Func] || c.exempt(a) || len(c.locksOf(a.Func, a.Instr)) > 0 || !c.inScope(k) {
				continue
			}
			if slices.ContainsFunc(us, func(u update) bool { return u.fn == a.Func }) {
				continue
			}
			u := us[0]
			// the lock is evidence of concurrent use when the type's
			// functions hold it (its contract), when the reader is one of
			// the few that take it (a lifecycle lock), or goroutines reach
			// the reader and the update
			why := ""
			if ev := c.conc.TypeEvidence(k.Type); slices.ContainsFunc(ev, func(e concurrency.Evidence) bool { return e.Kind == concurrency.Lock }) {
				why = fmt.Sprintf("%s has a mutex that guards %s", k.Type.Name(), strings.TrimPrefix(k.String(), k.Type.Name()+"."))
			} else if e, ok := c.conc.LifecycleLock(k.Type, a.Func, u.fn); ok {
				why = e.Desc
			} else if c1, c2, ok := c.conc.OverlapOn(a.Func, u.fn, k.Type, goroutines...); ok && (c1 != nil || c2 != nil) {
				why = fmt.Sprintf("%s and %s", describe(c1, a.Func), describe(c2, u.fn))
			} else {
				continue
			}
			done[a.Func] = true
			field := c.text(a)
			lk := lockText(field, k, lock.Key)
			what := "counter"
			if c.refcount[k] != nil {
				what = "reference count"
			}
			c.rep.Reportf(a.Pos, "%s reads the %s %s without %s, which %s holds when it updates it (%s): the update can run at the same time (%s), and a test of the count outside the lock acts on a value that may already have changed; hold %s while reading it",
				srcname.Func(a.Func), what, field, lk, srcname.Func(outer(u.fn)), diag.Where(c.pass.Fset, u.pos, a.Pos), why, lk)
		}
	}
}

// outer returns the declared function a function literal is in.
func outer(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

// lockText renders the lock for the object of field (l.Mutex for l.refcount).
func lockText(field string, k, lock guards.Key) string {
	obj := field
	if i := strings.LastIndex(field, "."); i > 0 {
		obj = field[:i]
	}
	if lock.Type == k.Type {
		return obj + "." + strings.TrimPrefix(lock.String(), lock.Type.Name()+".")
	}
	return lock.String()
}

// keyOf is guards.KeyOf, which also names a field reached through a
// pointer a closure captured (&(*l).refcount, where l is a free variable).
func keyOf(v ssa.Value) (guards.Key, bool) {
	if k, ok := guards.KeyOf(v); ok {
		return k, true
	}
	r := lifetime.Expand(v)
	if !r.Valid() {
		return guards.Key{}, false
	}
	last := -1
	for i, o := range r.Ops {
		if o.Kind == access.Load || o.Kind == access.IndexAddr {
			last = i
		}
	}
	if last < 0 || r.Ops[last].Kind != access.Load || last == len(r.Ops)-1 {
		return guards.Key{}, false
	}
	var fields []string
	for _, o := range r.Ops[last+1:] {
		if o.Kind != access.FieldAddr {
			return guards.Key{}, false
		}
		fields = append(fields, fmt.Sprint(o.Index))
	}
	t := access.TypeAfter(r.Root.Type(), r.Ops[:last+1])
	if t == nil {
		return guards.Key{}, false
	}
	n, ok := types.Unalias(access.Deref(t)).(*types.Named)
	if !ok {
		return guards.Key{}, false
	}
	return guards.Key{Type: n.Origin().Obj(), Fields: strings.Join(fields, ".")}, true
}
