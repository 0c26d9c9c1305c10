// Package concurrency is the pass that says which functions of a package
// may run at the same time as which, and why.
//
// A check-then-act on shared state is only a bug when two goroutines can
// reach it. The pass gathers the evidence, strongest first:
//
//  1. the type says so: //lifetime:threadsafe, or a doc comment that says
//     values are safe for concurrent use (the Go convention);
//     //lifetime:confined, or a doc comment that says they are not, says
//     the opposite and turns concurrency findings off for the type;
//  2. the type is built to be shared: it has a sync.Mutex or RWMutex that
//     at least half of the functions that change its state, pass it to C
//     or hold the lock hold (its contract, inferred from the majority as
//     checklocks does; analyzers also check that it guards the state in
//     question elsewhere), or fields of sync/atomic types. A mutex that
//     only a few of them take (Init, Close) is a lock of the lifecycle,
//     evidence only for those functions (see Result.LifecycleLock);
//  3. a go statement (through closures and method values), a finalizer or
//     cleanup (they run on the finalizer goroutine), or an //export
//     directive (C may call the function from any thread) reaches the code;
//  4. in a package that uses cgo, an exported function is library API that
//     callers may call from several goroutines at once when the package
//     says so (a weaker kind, for package-level state): it, or the
//     function, is documented for concurrent callers, or it guards
//     package-level state of its own. Being exported is no evidence on its
//     own, and a package that pins its work to one OS thread
//     (runtime.LockOSThread outside a goroutine it starts) has none; its
//     types are confined.
//
// Contexts model where code runs: each go statement starts one, and so
// does a call that runs its function argument on a new goroutine by its
// documented contract ((*sync.WaitGroup).Go, (*errgroup.Group).Go and
// TryGo: see spawnedBy) (several
// goroutines when the statement is in a loop or its function may run
// several times at once, or when the spawner itself then runs the
// goroutine's function on the same value, go j.Tick(); j.Tick(), or a
// function the goroutine's literal calls on captured values, with no
// receive, select or Wait between), finalizers share one, each //export function is
// entered from C threads, and library API from the callers' goroutines.
// Each function gets the set of contexts that reach it through the
// package's static call graph, and whether the package's callers reach it
// on their own goroutine.
//
// Contexts are told apart by the values they can reach, as far as types
// say: a goroutine shares the types of what its go statement hands it
// (arguments, receiver, captured variables, and what those reach through
// fields), a finalizer those of its object, a C thread those reachable
// from package-level variables. A goroutine its spawner waits for on
// every path to return (a channel the goroutine closes or sends on, a
// WaitGroup it signals) never overlaps the spawner's callers. Types that
// implement database/sql/driver.Conn, Stmt, Rows or Tx get no evidence
// from their mutex or atomics: the driver contract says database/sql never
// uses one from two goroutines at once.
//
// In a package's test variant, goroutines that only test functions start
// belong to those tests: go test runs test functions one after another
// (those that call t.Parallel at the same time as each other), so such a
// goroutine meets only code of its own tests, and it counts only for
// findings in _test.go files (see Result.Contexts). The pass reports
// nothing.
package concurrency

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/cfg"
	"github.com/lifetimevet/lifetimevet/internal/cgofile"
	"github.com/lifetimevet/lifetimevet/internal/srcname"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/guards"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// Analyzer is the concurrency pass. Its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "lifetimeconcurrency",
	Doc:        "find which functions may run at the same time as which, and why (a pass: reports nothing)",
	URL:        "https://github.com/lifetimevet/lifetimevet/tree/main/passes/concurrency",
	Run:        run,
	Requires:   []*analysis.Analyzer{cgocall.Analyzer, model.Analyzer, lifetime.Analyzer, guards.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
}

// ContextKind says where a context's code comes from.
type ContextKind uint8

const (
	Spawned   ContextKind = iota + 1 // a goroutine started by a go statement
	Finalizer                        // the finalizer goroutine (finalizers and cleanups)
	Export                           // a C thread calling an //export function
	API                              // callers of an exported function of a cgo package
)

// A Context is somewhere the package's code runs.
type Context struct {
	Kind ContextKind
	Pos  token.Pos // the go statement, the SetFinalizer or AddCleanup call, the //export function, the exported function
	// Multi is set when several goroutines can run the context at once:
	// a go statement in a loop, C threads, library callers.
	Multi bool
	// Desc describes the context for messages: "the goroutine started at
	// line 12", "the finalizer goroutine (finalizer set at line 8)".
	Desc string
	// Object is, for a finalizer or cleanup, the type of the object it is
	// set on: it runs once the object is unreachable, so never at the same
	// time as code that uses that object.
	Object *types.TypeName
	// Joined is set for a go statement whose function waits for the
	// goroutine on every path to its return (a receive from a channel the
	// goroutine closes or sends on, or WaitGroup.Wait after Done): the
	// goroutine never outlives the call that starts it, so it runs at the
	// same time as its siblings and other contexts, not as the spawner's
	// callers.
	Joined bool
	// tests, for a goroutine started during the run of test functions
	// only (a go statement in a Test…, Benchmark…, Fuzz… or Example…
	// function of a _test.go file, in its closures, or in helpers only
	// tests call), are their groups (see testSet); nil otherwise. go
	// test runs test functions one at a time, so such a goroutine meets
	// only code of its own tests (see Result.meet).
	tests testSet
	// caller is, for an API context, the exported function its callers call.
	caller *ssa.Function
	// shared are the named types of the values the context is handed (a go
	// statement's arguments, receiver and captured variables; a finalized
	// object), and of the values reachable from them through fields; nil
	// for contexts that may reach any value (C threads, library callers).
	shared map[*types.TypeName]bool
}

// Shares reports whether the context may use values of type t that other
// goroutines use too: it was handed one, or a value that reaches one. A
// goroutine started with no argument of a type works on values of its own,
// as far as the package's code shows.
func (c *Context) Shares(t *types.TypeName) bool {
	return c == nil || c.shared == nil || t == nil || c.shared[t]
}

// reachTypes adds the named types reachable from t through pointers,
// containers and struct fields, to a small depth.
func reachTypes(t types.Type, out map[*types.TypeName]bool, depth int) {
	if depth > 4 {
		return
	}
	switch u := types.Unalias(t).(type) {
	case *types.Pointer:
		reachTypes(u.Elem(), out, depth)
	case *types.Slice:
		reachTypes(u.Elem(), out, depth+1)
	case *types.Array:
		reachTypes(u.Elem(), out, depth+1)
	case *types.Map:
		reachTypes(u.Key(), out, depth+1)
		reachTypes(u.Elem(), out, depth+1)
	case *types.Chan:
		reachTypes(u.Elem(), out, depth+1)
	case *types.Named:
		tn := u.Origin().Obj()
		if out[tn] {
			return
		}
		out[tn] = true
		reachTypes(u.Underlying(), out, depth+1)
	case *types.Struct:
		for i := range u.NumFields() {
			reachTypes(u.Field(i).Type(), out, depth+1)
		}
	}
}

// goShared returns the types a go statement hands its goroutine.
func goShared(g *ssa.Go) map[*types.TypeName]bool {
	out := map[*types.TypeName]bool{}
	for _, a := range g.Call.Args {
		reachTypes(a.Type(), out, 0)
	}
	if mc, ok := g.Call.Value.(*ssa.MakeClosure); ok {
		for _, b := range mc.Bindings {
			reachTypes(b.Type(), out, 0)
		}
	}
	if g.Call.IsInvoke() {
		reachTypes(g.Call.Value.Type(), out, 0)
	}
	return out
}

// Evidence is why values of a type may be used by several goroutines at
// once.
type Evidence struct {
	Kind EvidenceKind
	Pos  token.Pos
	Desc string // "Stream is documented as safe for concurrent use"
}

// EvidenceKind is the kind of an Evidence.
type EvidenceKind uint8

const (
	ThreadSafe EvidenceKind = iota + 1 // //lifetime:threadsafe
	Documented                         // its doc comment says it is safe for concurrent use
	Lock                               // it has a sync.Mutex or sync.RWMutex that its functions hold (its contract)
	Atomic                             // it has fields of sync/atomic types
	// Lifecycle is the evidence of a lock that only a few of the type's
	// functions take (Init, Close): it makes those safe against each
	// other and the finalizer, and says nothing about the rest.
	Lifecycle
)

// Result is what the pass found in the package.
type Result struct {
	pass     *analysis.Pass
	contexts map[*ssa.Function][]*Context
	// callers marks the functions the package's callers may run on their
	// own goroutine: reached through the static call graph from exported
	// functions and from functions the package does not call itself
	// (other than as a goroutine, finalizer or //export).
	callers map[*ssa.Function]bool
	entry   map[*ssa.Function]*ssa.Function // the exported function through which callers reach it
	// callerTests are, per function, the groups of the test functions
	// that call it on their own goroutine (see Context.tests).
	callerTests map[*ssa.Function]testSet
	types       map[*types.TypeName][]Evidence
	confined    map[*types.TypeName]bool
	// locks says, per type with a mutex, which of the functions that use
	// its state hold it (see lockContract).
	locks map[*types.TypeName]*lockUse
}

// lockUse is how a type's functions use its mutex: users are the declared
// functions (with their function literals) that change its state or pass
// it to C, or hold its lock; holders those of them that hold its lock
// somewhere.
type lockUse struct {
	users, holders map[*ssa.Function]bool
	contract       bool
}

// Contexts returns the contexts that reach fn, ordered by position. For a
// function outside _test.go files, it leaves out the goroutines that only
// test functions start: they show how the tests use the package, not how
// its callers do (a test may start goroutines that each make and use their
// own values, which types alone cannot tell from sharing one).
func (r *Result) Contexts(fn *ssa.Function) []*Context { return r.contextsAt(fn, fn) }

// contextsAt returns the contexts that reach fn, for a finding in function
// at: without the goroutines only tests start unless at is in a _test.go
// file.
func (r *Result) contextsAt(fn, at *ssa.Function) []*Context {
	cs := r.contexts[fn]
	if r.callerTests == nil || inTestFile(r.pass.Fset, at.Pos()) || !slices.ContainsFunc(cs, func(c *Context) bool { return c.tests != nil }) {
		return cs
	}
	var out []*Context
	for _, c := range cs {
		if c.tests == nil {
			out = append(out, c)
		}
	}
	return out
}

// inTestFile reports whether pos is in a _test.go file.
func inTestFile(fset *token.FileSet, pos token.Pos) bool {
	return strings.HasSuffix(fset.Position(pos).Filename, "_test.go")
}

// TypeEvidence returns why values of t may be used by several goroutines at
// once (nil for a confined type).
func (r *Result) TypeEvidence(t *types.TypeName) []Evidence {
	if r.Confined(t) {
		return nil
	}
	return r.types[t]
}

// Confined reports whether t is used by one goroutine at a time: declared
// //lifetime:confined, or documented as not safe for concurrent use.
func (r *Result) Confined(t *types.TypeName) bool { return r.confined[t] }

// LifecycleLock returns the evidence of t's mutex for code in fns when the
// mutex is not the type's contract (most of the functions that change or
// use its state do so without it) but every one of fns holds it somewhere:
// a lock that Init and Close take says they may run at the same time as
// each other (or as a finalizer that closes), not that the type's other
// methods do. It reports false otherwise.
func (r *Result) LifecycleLock(t *types.TypeName, fns ...*ssa.Function) (Evidence, bool) {
	if t == nil || r.Confined(t) {
		return Evidence{}, false
	}
	u := r.locks[t]
	if u == nil || u.contract || len(fns) == 0 {
		return Evidence{}, false
	}
	var names []string
	for _, fn := range fns {
		o := outermost(fn)
		if !u.holders[o] {
			return Evidence{}, false
		}
		if n := srcname.Func(o); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	verb := "holds"
	if len(names) > 1 {
		verb = "hold"
	}
	return Evidence{Kind: Lifecycle, Pos: t.Pos(), Desc: fmt.Sprintf("%s %s %s's mutex, which only %d of the %d functions that use its state take: a lock of its lifecycle, that makes them safe against each other",
		strings.Join(names, " and "), verb, t.Name(), len(u.holders), len(u.users))}, true
}

// outermost returns the declared function a function literal is in.
func outermost(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	return fn
}

// lockContract infers, as checklocks infers a field's guard from the
// majority of its accesses, whether a type's mutex is a promise of
// concurrent use: it is when at least half of the declared functions that
// change the type's state, pass it to C or hold the lock, hold it. A type
// whose functions mostly change it without any lock is used by one
// goroutine at a time; its mutex guards only the functions that take it
// (Init against Close, Close against the finalizer).
func (r *Result) lockContract(g *guards.Result, calls *cgocall.Result) {
	own := func(t *types.TypeName) *lockUse {
		if t == nil || t.Pkg() != r.pass.Pkg {
			return nil
		}
		u := r.locks[t]
		if u == nil {
			return nil
		}
		return u
	}
	for _, fn := range calls.Funcs {
		o := outermost(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				for _, l := range g.Held(instr) {
					if u := own(l.Key.Type); u != nil {
						u.holders[o] = true
						u.users[o] = true
					}
				}
			}
		}
	}
	for _, a := range g.Accesses {
		switch a.Kind {
		case guards.Write, guards.MapWrite, guards.CUse:
		default:
			continue
		}
		if al, ok := a.Ref.Root.(*ssa.Alloc); ok && !srcname.IsVar(al) {
			continue // an object the function allocates: a constructor
		}
		if u := own(a.Key.Type); u != nil {
			u.users[outermost(a.Func)] = true
		}
	}
	for t, u := range r.locks {
		u.contract = len(u.holders) > 0 && 2*len(u.holders) >= len(u.users)
		if u.contract {
			r.types[t] = append(r.types[t], Evidence{Lock, t.Pos(), t.Name() + " has a mutex"})
		}
	}
}

// CallerEntry returns the function through which the package's callers
// reach fn on their own goroutine (an exported function, or fn itself), or
// nil when they do not.
func (r *Result) CallerEntry(fn *ssa.Function) *ssa.Function { return r.entry[fn] }

// CallerEntryMeeting is CallerEntry for the callers' goroutine paired with
// context c: when c is a goroutine that only tests start, one of those
// tests that calls fn itself (the callers' goroutine c meets).
func (r *Result) CallerEntryMeeting(fn *ssa.Function, c *Context) *ssa.Function {
	if c != nil && c.tests != nil {
		if t := r.callerTests[fn].common(c.tests); t != nil {
			return t
		}
	}
	return r.entry[fn]
}

// SelfOverlap returns a context in which two activations of fn can run at
// once, or nil. kinds, when not empty, limits the contexts considered.
func (r *Result) SelfOverlap(fn *ssa.Function, kinds ...ContextKind) *Context {
	return r.SelfOverlapOn(fn, nil, kinds...)
}

// SelfOverlapOn is SelfOverlap for code that uses a value of type obj (a
// field of it): only contexts that share values of that type count. A nil
// obj stands for package-level state, which every context shares.
func (r *Result) SelfOverlapOn(fn *ssa.Function, obj *types.TypeName, kinds ...ContextKind) *Context {
	for _, c := range r.Contexts(fn) {
		if c.Multi && (len(kinds) == 0 || slices.Contains(kinds, c.Kind)) && c.Shares(obj) {
			return c
		}
	}
	return nil
}

// Overlap returns contexts in which activations of f and g can run at the
// same time (c1 runs f, c2 runs g; nil stands for the goroutine of the
// package's callers), and whether there are any. kinds, when not empty,
// limits the contexts considered.
func (r *Result) Overlap(f, g *ssa.Function, kinds ...ContextKind) (c1, c2 *Context, ok bool) {
	return r.OverlapOn(f, g, nil, kinds...)
}

// OverlapOn is Overlap for code that uses a value of type obj: only
// contexts that share values of that type count. A nil obj stands for
// package-level state. The pair is for a finding in f: goroutines that
// only tests start count when f is in a _test.go file (see Contexts).
func (r *Result) OverlapOn(f, g *ssa.Function, obj *types.TypeName, kinds ...ContextKind) (c1, c2 *Context, ok bool) {
	filter := func(cs []*Context) []*Context {
		var out []*Context
		for _, c := range cs {
			if (len(kinds) == 0 || slices.Contains(kinds, c.Kind)) && c.Shares(obj) {
				out = append(out, c)
			}
		}
		return out
	}
	fs, gs := filter(r.Contexts(f)), filter(r.contextsAt(g, f))
	// the callers' own goroutine runs g when the package's callers reach it
	// (or nothing else does)
	gCallers := r.callers[g] || len(r.contextsAt(g, f)) == 0
	fCallers := r.callers[f] || len(r.Contexts(f)) == 0
	for _, a := range fs {
		if a.Multi && slices.Contains(gs, a) {
			return a, a, true
		}
		for _, b := range gs {
			if b != a && !(a.Kind == Finalizer && b.Kind == Finalizer) && r.meet(f, a, g, b) {
				return a, b, true
			}
		}
		// A context overlaps the callers' goroutine, unless its spawner
		// waits for it.
		if gCallers && !a.Joined && r.meet(f, a, g, nil) {
			return a, nil, true
		}
	}
	if fCallers {
		for _, b := range gs {
			if !b.Joined && r.meet(f, nil, g, b) {
				return nil, b, true
			}
		}
	}
	return nil, nil, false
}

// A testSet is a set of test groups: each test function is a group of its
// own, but for those that call t.Parallel, which share one (they run at
// the same time as each other). Each group maps to one of its test
// functions, the first in the package's order, to name in messages.
type testSet map[int]*ssa.Function

func (s testSet) meets(t testSet) bool {
	return s.common(t) != nil
}

// common returns the test function of the first group s and t share, or
// nil.
func (s testSet) common(t testSet) *ssa.Function {
	var id int
	var out *ssa.Function
	for g, f := range s {
		if t[g] != nil && (out == nil || g < id) {
			id, out = g, f
		}
	}
	return out
}

// meet reports whether context a running f and context b running g can
// exist at the same time, as far as test runs say (nil stands for the
// callers' goroutine of the function). A goroutine that only test
// functions start exists only during their run, and go test runs test
// functions one after another: it meets goroutines of its own tests, the
// goroutines of the package's own code, finalizers and C threads, and the
// callers' goroutine only where its tests call the function themselves. A
// goroutine a test starts and does not wait for may outlive the test; the
// analysis assumes it does not.
func (r *Result) meet(f *ssa.Function, a *Context, g *ssa.Function, b *Context) bool {
	ta, tb := a.testsOf(), b.testsOf()
	switch {
	case ta == nil && tb == nil:
		return true
	case ta != nil && tb != nil:
		return ta.meets(tb)
	case ta != nil:
		return r.meetsTests(g, b, ta)
	default:
		return r.meetsTests(f, a, tb)
	}
}

// meetsTests reports whether context c running fn can exist during the run
// of the tests ts.
func (r *Result) meetsTests(fn *ssa.Function, c *Context, ts testSet) bool {
	switch {
	case c == nil:
		return r.callerTests[fn].meets(ts)
	case c.Kind == API:
		return r.callerTests[c.caller].meets(ts)
	}
	return true // finalizers, C threads, the package's own goroutines
}

func (c *Context) testsOf() testSet {
	if c == nil {
		return nil
	}
	return c.tests
}

func run(pass *analysis.Pass) (any, error) {
	calls := pass.ResultOf[cgocall.Analyzer].(*cgocall.Result)
	mres := pass.ResultOf[model.Analyzer].(*model.Result)
	lt := pass.ResultOf[lifetime.Analyzer].(*lifetime.Result)
	r := &Result{
		pass:     pass,
		contexts: map[*ssa.Function][]*Context{},
		callers:  map[*ssa.Function]bool{},
		entry:    map[*ssa.Function]*ssa.Function{},
		types:    map[*types.TypeName][]Evidence{},
		confined: map[*types.TypeName]bool{},
		locks:    map[*types.TypeName]*lockUse{},
	}
	r.typeEvidence(mres)
	r.lockContract(pass.ResultOf[guards.Analyzer].(*guards.Result), calls)
	usesCgo := slices.ContainsFunc(pass.Pkg.Imports(), func(p *types.Package) bool { return p.Path() == "C" || p.Path() == "runtime/cgo" })
	for _, f := range pass.Files {
		if cgofile.GeneratedByCgo(f) {
			usesCgo = true
		}
	}

	// Roots: go statements, finalizers, //export functions, library API.
	var roots []root
	multi := map[*ssa.Function]bool{} // functions that may run several times at once (computed below, then refined)
	// C threads reach Go values through the package's variables (a
	// registry, a current object); what C hands a callback (a handle, user
	// data) belongs to the one call that C makes for it, as far as the
	// code shows (a free callback runs once).
	globals := map[*types.TypeName]bool{}
	for _, name := range pass.Pkg.Scope().Names() {
		if v, ok := pass.Pkg.Scope().Lookup(name).(*types.Var); ok {
			reachTypes(v.Type(), globals, 0)
		}
	}
	fset := pass.Fset
	where := func(pos token.Pos) string { return fmt.Sprintf("line %d", fset.Position(pos).Line) }
	pinned := pinsThread(calls)
	if pinned {
		// a package that pins its work to the OS thread of its Init is
		// used from that thread, one goroutine at a time
		for _, name := range pass.Pkg.Scope().Names() {
			if tn, ok := pass.Pkg.Scope().Lookup(name).(*types.TypeName); ok && !slices.ContainsFunc(r.types[tn], func(e Evidence) bool { return e.Kind == ThreadSafe || e.Kind == Documented }) {
				r.confined[tn] = true
			}
		}
	}
	apiWhy, funcDoc := apiEvidence(pass, calls)
	for _, fn := range calls.Funcs {
		if obj := fn.Object(); obj != nil && fn.Parent() == nil {
			if calls.ExportedToC(obj) {
				roots = append(roots, root{fn: fn, ctx: &Context{Kind: Export, Pos: fn.Pos(), Multi: true,
					Desc:   fmt.Sprintf("C threads calling the //export function %s", fn.Name()),
					shared: globals}})
			} else if usesCgo && obj.Exported() && exportedAPI(fn) && !inTestFile(fset, fn.Pos()) && !pinned {
				// (Test and Benchmark functions are not API: go test runs
				// them.) Being exported is no evidence on its own: the
				// package must say its callers may call it at once.
				why := apiWhy
				if d := funcDoc[obj]; d != "" {
					why = d
				}
				if why != "" {
					roots = append(roots, root{fn: fn, ctx: &Context{Kind: API, Pos: fn.Pos(), Multi: true, caller: fn,
						Desc: fmt.Sprintf("callers of %s, library API of a package that %s", apiName(fn), why)}})
				}
			}
		}
	}
	fin := &Context{Kind: Finalizer, Desc: "the finalizer goroutine"}
	for _, f := range lt.Finalizers {
		if f.Func != nil {
			c := fin
			if f.Pos().IsValid() {
				kind := "finalizer set"
				if f.Cleanup {
					kind = "cleanup added"
				}
				c = &Context{Kind: Finalizer, Pos: f.Pos(), Object: f.Type, Desc: fmt.Sprintf("the finalizer goroutine (%s at %s)", kind, where(f.Pos())),
					shared: map[*types.TypeName]bool{}}
				if f.Type != nil {
					reachTypes(f.Type.Type(), c.shared, 0)
				}
				for i := range f.Func.Params {
					reachTypes(f.Func.Params[i].Type(), c.shared, 0)
				}
				for _, fv := range f.Func.FreeVars {
					reachTypes(fv.Type(), c.shared, 0)
				}
				// all finalizers share one goroutine: keep one context
				// per function, but they never overlap each other
			}
			roots = append(roots, root{fn: f.Func, ctx: c})
		}
	}
	var goStmts []spawn
	for _, fn := range calls.Funcs {
		loops := cfg.LoopBlocks(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				sp, ok := spawnAt(calls, instr)
				if !ok {
					continue
				}
				goStmts = append(goStmts, sp)
				if sp.target == nil {
					continue
				}
				pos := sp.instr.Pos()
				c := &Context{Kind: Spawned, Pos: pos, Multi: loops[b],
					Desc:   fmt.Sprintf("the goroutines started at %s", where(pos)),
					shared: sp.shared(), Joined: sp.joined()}
				if !c.Multi {
					c.Desc = fmt.Sprintf("the goroutine started at %s", where(pos))
					// (a goroutine joined before the return still runs at
					// the same time as the spawner until the join)
					for _, rn := range sp.runs() {
						if !spawnerRunsToo(sp.instr, rn) {
							continue
						}
						// go j.Tick(); j.Tick(): the spawner runs the
						// function on the same value while the
						// goroutine may still be running it
						desc := fmt.Sprintf("the goroutines that run %s on one value: the one started at %s, and %s's own, which calls it after starting that one", srcname.Func(rn.fn), where(pos), srcname.Func(fn))
						if rn.fn == sp.target {
							c.Multi = true
							c.Desc = desc
							continue
						}
						// go func() { defer wg.Done(); j.tick() }(); j.tick():
						// tick runs twice at once, the literal once
						roots = append(roots, root{rn.fn, &Context{Kind: Spawned, Pos: pos, Multi: true, Desc: desc, shared: c.shared, Joined: c.Joined}, fn})
					}
				}
				roots = append(roots, root{sp.target, c, fn})
				_ = multi
			}
		}
	}

	// Propagate contexts through the static call graph.
	callees := map[*ssa.Function][]*ssa.Function{}
	for _, fn := range calls.Funcs {
		callees[fn] = staticCallees(calls, fn)
	}
	for _, rt := range roots {
		seen := map[*ssa.Function]bool{}
		var visit func(fn *ssa.Function)
		visit = func(fn *ssa.Function) {
			if seen[fn] {
				return
			}
			seen[fn] = true
			if !slices.Contains(r.contexts[fn], rt.ctx) {
				r.contexts[fn] = append(r.contexts[fn], rt.ctx)
			}
			for _, c := range callees[fn] {
				visit(c)
			}
		}
		visit(rt.fn)
	}
	// The callers' own goroutine.
	called := map[*ssa.Function]bool{}
	for _, cs := range callees {
		for _, c := range cs {
			called[c] = true
		}
	}
	ctxRoot := map[*ssa.Function]bool{}
	for _, rt := range roots {
		if rt.ctx.Kind != API {
			ctxRoot[rt.fn] = true
		}
	}
	var reach func(fn, from *ssa.Function)
	reach = func(fn, from *ssa.Function) {
		if r.callers[fn] {
			return
		}
		r.callers[fn] = true
		r.entry[fn] = from
		for _, c := range callees[fn] {
			reach(c, from)
		}
	}
	var entries []*ssa.Function
	for _, exported := range []bool{true, false} {
		for _, fn := range calls.Funcs {
			if fn.Parent() != nil || ctxRoot[fn] && !called[fn] {
				continue
			}
			obj := fn.Object()
			if obj != nil && obj.Exported() == exported && (exported || !called[fn]) {
				reach(fn, fn)
				entries = append(entries, fn)
			}
		}
	}
	r.testRuns(calls, callees, entries, roots)
	// A go statement in a function that runs several times at once starts
	// several goroutines.
	for changed := true; changed; {
		changed = false
		for _, g := range goStmts {
			target := g.target
			if target == nil {
				continue
			}
			if r.SelfOverlap(g.instr.Parent(), Spawned, Finalizer, Export) == nil { // library callers say nothing about one object
				continue
			}
			for _, c := range r.contexts[target] {
				if c.Kind == Spawned && c.Pos == g.instr.Pos() && !c.Multi {
					c.Multi = true
					c.Desc = fmt.Sprintf("the goroutines started at %s", where(g.instr.Pos()))
					changed = true
				}
			}
		}
	}
	for fn, cs := range r.contexts {
		slices.SortFunc(cs, func(a, b *Context) int { return int(a.Pos) - int(b.Pos) })
		r.contexts[fn] = cs
	}
	return r, nil
}

// A root is where a context starts: its function and, for a go
// statement, the function that contains it.
type root struct {
	fn      *ssa.Function
	ctx     *Context
	spawner *ssa.Function
}

// testRuns finds the test functions of the package, which test functions
// call each function on their own goroutine (Result.callerTests), and the
// goroutines that exist only during the run of some tests (Context.tests).
// entries are the functions through which callers reach the package.
func (r *Result) testRuns(calls *cgocall.Result, callees map[*ssa.Function][]*ssa.Function, entries []*ssa.Function, roots []root) {
	groups := map[*ssa.Function]int{}
	var tests []*ssa.Function
	for _, fn := range calls.Funcs {
		if isTestFunc(r.pass.Fset, fn) {
			id := len(groups) + 1
			if callsParallel(fn) {
				id = 0 // the parallel tests run at the same time
			}
			groups[fn] = id
			tests = append(tests, fn)
		}
	}
	if len(groups) == 0 {
		return
	}
	r.callerTests = map[*ssa.Function]testSet{}
	// outside: functions that callers other than test functions reach
	outside := map[*ssa.Function]bool{}
	var visit func(fn *ssa.Function, mark func(*ssa.Function) bool)
	visit = func(fn *ssa.Function, mark func(*ssa.Function) bool) {
		if !mark(fn) {
			return
		}
		for _, c := range callees[fn] {
			visit(c, mark)
		}
	}
	for _, e := range entries {
		if _, ok := groups[e]; !ok {
			visit(e, func(fn *ssa.Function) bool {
				seen := outside[fn]
				outside[fn] = true
				return !seen
			})
		}
	}
	for _, t := range tests {
		id := groups[t]
		visit(t, func(fn *ssa.Function) bool {
			ts := r.callerTests[fn]
			if ts == nil {
				ts = testSet{}
				r.callerTests[fn] = ts
			}
			if ts[id] != nil {
				return false
			}
			ts[id] = t
			return true
		})
	}
	// A goroutine belongs to the tests that run its spawner, on their own
	// goroutine or on goroutines that belong to tests (nested go
	// statements). Start from "any test" and narrow to a fixed point.
	spawnTests := func(spawner *ssa.Function) testSet {
		if outside[spawner] {
			return nil
		}
		ts := maps.Clone(r.callerTests[spawner])
		if ts == nil {
			ts = testSet{}
		}
		for _, c := range r.contexts[spawner] {
			if c.tests == nil {
				return nil
			}
			for id, t := range c.tests {
				if ts[id] == nil {
					ts[id] = t
				}
			}
		}
		if len(ts) == 0 {
			return nil
		}
		return ts
	}
	for range len(roots) + 1 {
		changed := false
		for _, rt := range roots {
			if rt.ctx.Kind != Spawned {
				continue
			}
			if ts := spawnTests(rt.spawner); !maps.Equal(ts, rt.ctx.tests) {
				rt.ctx.tests = ts
				changed = true
			}
		}
		if !changed {
			break
		}
	}
}

// isTestFunc reports whether fn is a function go test runs: a Test…,
// Benchmark…, Fuzz… or Example… function of a _test.go file (not TestMain,
// which runs them all).
func isTestFunc(fset *token.FileSet, fn *ssa.Function) bool {
	if fn.Parent() != nil || fn.Signature.Recv() != nil || fn.Name() == "TestMain" || !inTestFile(fset, fn.Pos()) {
		return false
	}
	for _, prefix := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if rest, ok := strings.CutPrefix(fn.Name(), prefix); ok {
			r, _ := utf8.DecodeRuneInString(rest)
			return rest == "" || !unicode.IsLower(r)
		}
	}
	return false
}

// callsParallel reports whether test function fn calls t.Parallel itself
// (its subtests calling it run in parallel with each other only).
func callsParallel(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				if f := c.Common().StaticCallee(); f != nil && f.Name() == "Parallel" && f.Pkg != nil && f.Pkg.Pkg.Path() == "testing" {
					return true
				}
			}
		}
	}
	return false
}

// joined reports whether the function of go statement g waits for the
// goroutine on every path from g to a return: a receive from a channel
// the goroutine captures (and closes or sends on), including a select case
// that receives it, or a Wait on a sync.WaitGroup it captures.
func joined(g *ssa.Go) bool {
	mc, ok := g.Call.Value.(*ssa.MakeClosure)
	if !ok {
		return false
	}
	var chans, groups []ssa.Value
	body, _ := mc.Fn.(*ssa.Function)
	if body == nil {
		return false
	}
	for i, b := range mc.Bindings {
		if i >= len(body.FreeVars) || !signals(body.FreeVars[i]) {
			continue
		}
		t := b.Type()
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		switch {
		case isChan(t):
			chans = append(chans, b)
		case isWaitGroup(t):
			groups = append(groups, b)
		}
	}
	if len(chans) == 0 && len(groups) == 0 {
		return false
	}
	// same reports whether v is one of vs, or a load of one (a captured
	// variable is an Alloc the closure binds).
	same := func(v ssa.Value, vs []ssa.Value) bool {
		if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
			v = u.X
		}
		return slices.Contains(vs, v)
	}
	// joinAt: blocks entered only once the goroutine is waited for (the
	// true branch of a select's case index test), and instructions that wait.
	joinBlock := map[*ssa.BasicBlock]bool{}
	waits := func(instr ssa.Instruction) bool {
		switch instr := instr.(type) {
		case *ssa.UnOp:
			return instr.Op == token.ARROW && same(instr.X, chans)
		case *ssa.Call:
			com := instr.Common()
			if f := com.StaticCallee(); f != nil && f.Name() == "Wait" && len(com.Args) == 1 && isWaitGroupPtr(com.Args[0].Type()) {
				return same(com.Args[0], groups) || slices.Contains(groups, com.Args[0])
			}
		case *ssa.Select:
			if !instr.Blocking || len(instr.States) != 1 {
				return false
			}
			st := instr.States[0]
			return st.Dir == types.RecvOnly && same(st.Chan, chans)
		}
		return false
	}
	fn := g.Parent()
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok {
				continue
			}
			for i, st := range sel.States {
				if st.Dir != types.RecvOnly || !same(st.Chan, chans) {
					continue
				}
				for _, u := range *sel.Referrers() {
					ex, ok := u.(*ssa.Extract)
					if !ok || ex.Index != 0 {
						continue
					}
					for _, u2 := range *ex.Referrers() {
						cmp, ok := u2.(*ssa.BinOp)
						if !ok || cmp.Op != token.EQL {
							continue
						}
						if c, ok := cmp.Y.(*ssa.Const); ok && c.Int64() == int64(i) {
							for _, u3 := range *cmp.Referrers() {
								if iff, ok := u3.(*ssa.If); ok {
									joinBlock[iff.Block().Succs[0]] = true
								}
							}
						}
					}
				}
			}
		}
	}
	return waitsBeforeReturn(g, waits, joinBlock)
}

// waitsBeforeReturn reports whether every path from instr to a return of
// its function passes an instruction waits accepts, or enters a block of
// joined (entered only once the goroutine is waited for).
func waitsBeforeReturn(instr ssa.Instruction, waits func(ssa.Instruction) bool, joined map[*ssa.BasicBlock]bool) bool {
	seen := map[*ssa.BasicBlock]bool{}
	// free reports whether a path from instruction from of b reaches a
	// return without waiting
	var free func(b *ssa.BasicBlock, from int) bool
	free = func(b *ssa.BasicBlock, from int) bool {
		for _, in := range b.Instrs[from:] {
			if waits(in) {
				return false
			}
			if _, ok := in.(*ssa.Return); ok {
				return true
			}
		}
		for _, s := range b.Succs {
			if joined[s] || seen[s] {
				continue
			}
			seen[s] = true
			if free(s, 0) {
				return true
			}
		}
		return false
	}
	b := instr.Block()
	return !free(b, slices.Index(b.Instrs, instr)+1)
}

// signals reports whether a goroutine's function closes or sends on the
// channel, or calls Done on the WaitGroup, in free variable fv.
func signals(fv *ssa.FreeVar) bool {
	uses := func(v ssa.Value) []ssa.Instruction {
		if v.Referrers() == nil {
			return nil
		}
		return *v.Referrers()
	}
	vals := []ssa.Value{fv}
	for _, u := range uses(fv) {
		if l, ok := u.(*ssa.UnOp); ok && l.Op == token.MUL {
			vals = append(vals, l)
		}
	}
	for _, v := range vals {
		for _, u := range uses(v) {
			switch u := u.(type) {
			case *ssa.Send:
				if u.Chan == v {
					return true
				}
			case ssa.CallInstruction:
				com := u.Common()
				if b, ok := com.Value.(*ssa.Builtin); ok && b.Name() == "close" {
					return true
				}
				if f := com.StaticCallee(); f != nil && f.Name() == "Done" && len(com.Args) == 1 && com.Args[0] == v {
					return true
				}
			}
		}
	}
	return false
}

func isChan(t types.Type) bool {
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

func isWaitGroup(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == "WaitGroup"
}

func isWaitGroupPtr(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	return ok && isWaitGroup(p.Elem())
}

// goTarget returns the function a go statement runs, seeing through cgo's
// wrappers (go C.f(x) has no Go function to run).
// A spawn is a go statement, or a call that runs its function argument
// on a new goroutine (see spawnedBy).
type spawn struct {
	instr  ssa.CallInstruction // the *ssa.Go, or the *ssa.Call of wg.Go(f)
	fn     ssa.Value           // the function value the goroutine calls
	args   []ssa.Value         // its arguments (none for wg.Go(f))
	target *ssa.Function       // the function it runs; nil when unknown (go C.f(x), a func value)
	group  ssa.Value           // for wg.Go(f), the group whose Wait joins it
}

// spawnAt returns the spawn instr is, if it is one.
func spawnAt(calls *cgocall.Result, instr ssa.Instruction) (spawn, bool) {
	switch instr := instr.(type) {
	case *ssa.Go:
		return spawn{instr: instr, fn: instr.Call.Value, args: instr.Call.Args, target: goTarget(calls, instr)}, true
	case *ssa.Call:
		f := spawnedBy(&instr.Call)
		if f == nil {
			return spawn{}, false
		}
		sp := spawn{instr: instr, fn: f, group: instr.Call.Args[0]}
		switch v := f.(type) {
		case *ssa.MakeClosure:
			sp.target, _ = v.Fn.(*ssa.Function)
		case *ssa.Function:
			sp.target = v
		}
		if sp.target != nil && sp.target.Origin() != nil {
			sp.target = sp.target.Origin()
		}
		return sp, true
	}
	return spawn{}, false
}

// spawnedBy returns the function value com runs on a new goroutine, by
// the documented contract of what it calls: (*sync.WaitGroup).Go ("Go
// calls f in a new goroutine and adds that task to the WaitGroup", Go
// 1.25) and (*errgroup.Group).Go and TryGo (golang.org/x/sync/errgroup:
// "Go calls the given function in a new goroutine"); nil for other calls.
func spawnedBy(com *ssa.CallCommon) ssa.Value {
	f := com.StaticCallee()
	if f == nil || com.IsInvoke() || len(com.Args) != 2 || f.Signature.Recv() == nil {
		return nil
	}
	t := f.Signature.Recv().Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return nil
	}
	switch path, name := n.Obj().Pkg().Path(), n.Obj().Name(); {
	case path == "sync" && name == "WaitGroup" && f.Name() == "Go":
	case path == "golang.org/x/sync/errgroup" && name == "Group" && (f.Name() == "Go" || f.Name() == "TryGo"):
	default:
		return nil
	}
	return com.Args[1]
}

// shared returns the types the goroutine is handed (see goShared).
func (sp spawn) shared() map[*types.TypeName]bool {
	if g, ok := sp.instr.(*ssa.Go); ok {
		return goShared(g)
	}
	out := map[*types.TypeName]bool{}
	if mc, ok := sp.fn.(*ssa.MakeClosure); ok {
		for _, b := range mc.Bindings {
			reachTypes(b.Type(), out, 0)
		}
	}
	return out
}

// joined reports whether the spawner waits for the goroutine on every
// path to its return (see joined; for wg.Go(f), a Wait on the group).
func (sp spawn) joined() bool {
	if g, ok := sp.instr.(*ssa.Go); ok {
		return joined(g)
	}
	group := canonArg(sp.group)
	waits := func(instr ssa.Instruction) bool {
		c, ok := instr.(*ssa.Call)
		if !ok {
			return false
		}
		f := c.Call.StaticCallee()
		return f != nil && f.Name() == "Wait" && len(c.Call.Args) == 1 && canonArg(c.Call.Args[0]) == group
	}
	return waitsBeforeReturn(sp.instr, waits, nil)
}

// An argVal is a value of the spawner's frame as a call names it: the
// value, or the variable it is loaded from (a captured variable).
type argVal struct {
	v    ssa.Value
	load bool // the value loaded from variable v
}

func canonArg(v ssa.Value) argVal {
	v = access.StripConv(v)
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		if al, ok := u.X.(*ssa.Alloc); ok {
			return argVal{al, true}
		}
	}
	return argVal{v: v}
}

// A spawnRun is a call of a function the goroutine makes, with its arguments
// named in the spawner's frame.
type spawnRun struct {
	fn   *ssa.Function
	args []argVal
}

// runs returns the calls the goroutine makes that the spawner may make
// too: the go statement's own (go j.tick()), or those its literal makes
// on values it captures or constants (go func() { defer wg.Done();
// j.tick() }(), wg.Go(j.tick), whose bound method calls tick on j).
func (sp spawn) runs() []spawnRun {
	var out []spawnRun
	if _, ok := sp.instr.(*ssa.Go); ok && sp.target != nil && !sp.instr.Common().IsInvoke() && len(sp.args) > 0 {
		r := spawnRun{fn: sp.target}
		for _, a := range sp.args {
			r.args = append(r.args, canonArg(a))
		}
		out = append(out, r)
	}
	mc, ok := sp.fn.(*ssa.MakeClosure)
	if !ok {
		return out
	}
	body, _ := mc.Fn.(*ssa.Function)
	if body == nil {
		return out
	}
	bound := func(v ssa.Value) (argVal, bool) {
		v = access.StripConv(v)
		load := false
		if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
			v, load = u.X, true
		}
		switch v := v.(type) {
		case *ssa.Const:
			return argVal{v: v}, !load
		case *ssa.FreeVar:
			i := slices.Index(body.FreeVars, v)
			if i < 0 || i >= len(mc.Bindings) {
				return argVal{}, false
			}
			b := canonArg(mc.Bindings[i])
			if load {
				if b.load {
					return argVal{}, false
				}
				b.load = true
			}
			return b, true
		}
		return argVal{}, false
	}
	for _, b := range body.Blocks {
	calls:
		for _, instr := range b.Instrs {
			c, ok := instr.(*ssa.Call)
			if !ok || c.Call.IsInvoke() || len(c.Call.Args) == 0 {
				continue
			}
			f := c.Call.StaticCallee()
			if f == nil {
				continue
			}
			if f.Origin() != nil {
				f = f.Origin()
			}
			r := spawnRun{fn: f}
			for _, a := range c.Call.Args {
				av, ok := bound(a)
				if !ok {
					continue calls
				}
				r.args = append(r.args, av)
			}
			out = append(out, r)
		}
	}
	return out
}

// spawnerRunsToo reports whether the function of spawn instr calls run's
// function itself after instr, on the same arguments (the same receiver
// and the same values), with nothing between them that could wait for
// the goroutine: a receive, a select, a Wait, or a call that may do one
// (see mayWait). Two activations of the function on one value then run
// at once, with no happens-before between them (go j.Tick(); j.Tick()).
func spawnerRunsToo(instr ssa.CallInstruction, target spawnRun) bool {
	same := func(c *ssa.CallCommon) bool {
		callee := c.StaticCallee()
		if callee == nil || c.IsInvoke() || len(c.Args) != len(target.args) {
			return false
		}
		if callee.Origin() != nil {
			callee = callee.Origin()
		}
		if callee != target.fn {
			return false
		}
		for i := range c.Args {
			if canonArg(c.Args[i]) != target.args[i] {
				return false // go d.step(a); d.step(b): other values
			}
		}
		return true
	}
	// scan returns whether instrs call target before they may wait
	scan := func(instrs []ssa.Instruction) (found, waits bool) {
		for _, instr := range instrs {
			if ci, ok := instr.(*ssa.Call); ok && same(ci.Common()) {
				return true, false
			}
			if mayWait(instr, 0) {
				return false, true
			}
		}
		return false, false
	}
	b := instr.Block()
	i := slices.Index(b.Instrs, ssa.Instruction(instr))
	found, waits := scan(b.Instrs[i+1:])
	if found || waits {
		return found
	}
	seen := map[*ssa.BasicBlock]bool{b: true}
	work := slices.Clone(b.Succs)
	for len(work) > 0 && len(seen) < 64 {
		n := work[0]
		work = work[1:]
		if seen[n] {
			continue
		}
		seen[n] = true
		found, waits := scan(n.Instrs)
		if found {
			return true
		}
		if !waits {
			work = append(work, n.Succs...)
		}
	}
	return false
}

// mayWait reports whether instr may wait for another goroutine: a
// receive, a select, a Wait method, a dynamic call, or a call of a
// function of the package that may (j.wait() { <-j.done }), a few calls
// deep.
func mayWait(instr ssa.Instruction, depth int) bool {
	switch instr := instr.(type) {
	case *ssa.Select:
		return true
	case *ssa.UnOp:
		return instr.Op == token.ARROW
	case *ssa.Go:
		return false
	case ssa.CallInstruction:
		com := instr.Common()
		f := com.StaticCallee()
		if f == nil {
			_, builtin := com.Value.(*ssa.Builtin)
			return !builtin // an interface or func value: unknown
		}
		if f.Name() == "Wait" {
			return true // sync.WaitGroup, sync.Cond, errgroup.Group, exec.Cmd
		}
		if f.Pkg == nil || f.Pkg != instr.Parent().Pkg || len(f.Blocks) == 0 {
			return false
		}
		if depth >= 3 {
			return true
		}
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if mayWait(in, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

func goTarget(calls *cgocall.Result, g *ssa.Go) *ssa.Function {
	if calls.Lookup(g) != nil {
		return nil
	}
	if g.Call.IsInvoke() {
		return nil
	}
	f := g.Call.StaticCallee()
	if f != nil && f.Origin() != nil {
		f = f.Origin() // go a.run() in a generic function starts run's body
	}
	return f
}

// staticCallees returns the functions fn calls, defers or starts, and the
// closures it makes (they run in its context when called).
func staticCallees(calls *cgocall.Result, fn *ssa.Function) []*ssa.Function {
	var out []*ssa.Function
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var c *ssa.Function
			switch instr := instr.(type) {
			case *ssa.Go:
				continue // a new context, not this one
			case ssa.CallInstruction:
				c = instr.Common().StaticCallee()
			case *ssa.MakeClosure:
				if onlyStarted(instr) {
					continue // go func() { ... }(): a new context
				}
				c, _ = instr.Fn.(*ssa.Function)
			}
			// a function literal that captures nothing is a plain
			// function value: one passed to a call runs in the caller's
			// context too (t.Run(name, func(t *testing.T) { ... })), but
			// for finalizers and cleanups
			if call, ok := instr.(ssa.CallInstruction); ok && !setsFinalizer(call.Common()) {
				for _, arg := range call.Common().Args {
					if arg == spawnedBy(call.Common()) {
						continue // wg.Go(f): a new context
					}
					if lit, ok := arg.(*ssa.Function); ok && lit.Parent() == fn && !slices.Contains(out, lit) {
						out = append(out, lit)
					}
				}
			}
			if c != nil && !calls.IsWrapper(c) && !slices.Contains(out, c) {
				if o := c.Origin(); o != nil {
					c = o
				}
				out = append(out, c)
			}
		}
	}
	return out
}

// setsFinalizer reports whether call is runtime.SetFinalizer or
// runtime.AddCleanup, whose function runs on the finalizer goroutine.
func setsFinalizer(call *ssa.CallCommon) bool {
	f := call.StaticCallee()
	if f == nil || f.Pkg == nil || f.Pkg.Pkg.Path() != "runtime" {
		return false
	}
	if o := f.Origin(); o != nil {
		f = o
	}
	return f.Name() == "SetFinalizer" || f.Name() == "AddCleanup"
}

// onlyStarted reports whether a closure is used only by go statements.
func onlyStarted(mc *ssa.MakeClosure) bool {
	refs := mc.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, u := range *refs {
		switch u := u.(type) {
		case *ssa.Go:
			if u.Call.Value != mc {
				return false
			}
		case *ssa.Call:
			if spawnedBy(&u.Call) != mc {
				return false // wg.Go(func() { … }) starts it
			}
		default:
			return false
		}
	}
	return true
}

// exportedAPI reports whether fn is part of a package's API: an exported
// function, or an exported method of an exported type.
func exportedAPI(fn *ssa.Function) bool {
	recv := fn.Signature.Recv()
	if recv == nil {
		return true
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Exported()
}

func apiName(fn *ssa.Function) string {
	if recv := fn.Signature.Recv(); recv != nil {
		return fmt.Sprintf("(%s).%s", types.TypeString(recv.Type(), types.RelativeTo(fn.Pkg.Pkg)), fn.Name())
	}
	return fn.Name()
}

// pinsThread reports whether the package pins its work to one OS thread:
// it calls runtime.LockOSThread on its callers' goroutine (in an init
// function or its Init, where a GPU context is made current), rather than
// in the body of a goroutine it starts (a worker that pins itself).
func pinsThread(calls *cgocall.Result) bool {
	started := map[*ssa.Function]bool{}
	for _, fn := range calls.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if sp, ok := spawnAt(calls, instr); ok && sp.target != nil {
					started[sp.target] = true
				}
				if g, ok := instr.(*ssa.Go); ok {
					if t := goTarget(calls, g); t != nil {
						started[t] = true
					}
					if mc, ok := g.Call.Value.(*ssa.MakeClosure); ok {
						if f, ok := mc.Fn.(*ssa.Function); ok {
							started[f] = true
						}
					}
				}
			}
		}
	}
	for _, fn := range calls.Funcs {
		if started[fn] {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				if f := call.Call.StaticCallee(); f != nil && f.Name() == "LockOSThread" && f.Pkg != nil && f.Pkg.Pkg.Path() == "runtime" {
					return true
				}
			}
		}
	}
	return false
}

// concurrentDoc matches a doc comment that says a function is called, or
// may be called, from several goroutines at once.
var concurrentDoc = regexp.MustCompile(`(?i)\b(called|used|invoked|run)\s+(concurrently|in parallel|simultaneously|from (many|multiple|several|any|different) (goroutines|threads))\b`)

// docText returns a doc comment's text with its line breaks as spaces: a
// sentence wraps across comment lines.
func docText(cg *ast.CommentGroup) string {
	return strings.Join(strings.Fields(cg.Text()), " ")
}

// apiEvidence says why the package's callers may call its exported
// functions from several goroutines at once, which being exported from a
// package that uses cgo does not say on its own: the package documents
// that it is safe for concurrent use, or it guards package-level state of
// its own (a package-level mutex it locks, a variable of a sync/atomic
// type or a sync.Map, atomic operations on a package-level variable): its
// author expects concurrent callers. It also returns, per function, a doc
// comment that says so of the function alone.
func apiEvidence(pass *analysis.Pass, calls *cgocall.Result) (string, map[types.Object]string) {
	funcDoc := map[types.Object]string{}
	why := ""
	for _, f := range pass.Files {
		if f.Doc != nil && safeDoc.MatchString(docText(f.Doc)) && !notSafeDo.MatchString(docText(f.Doc)) {
			why = "is documented as safe for concurrent use"
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil {
				continue
			}
			text := docText(fd.Doc)
			if (safeDoc.MatchString(text) || concurrentDoc.MatchString(text)) && !notSafeDo.MatchString(text) {
				if obj := pass.TypesInfo.Defs[fd.Name]; obj != nil {
					funcDoc[obj] = "documents " + fd.Name.Name + " for concurrent callers"
				}
			}
		}
	}
	if why != "" {
		return why, funcDoc
	}
	global := func(v ssa.Value) *types.Var {
		for {
			switch x := v.(type) {
			case *ssa.FieldAddr:
				v = x.X
				continue
			case *ssa.Global:
				if o, ok := x.Object().(*types.Var); ok && o.Pkg() == pass.Pkg {
					return o
				}
			}
			return nil
		}
	}
	for _, fn := range calls.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || len(call.Call.Args) == 0 {
					continue
				}
				callee := call.Call.StaticCallee()
				if callee == nil || callee.Pkg == nil {
					continue
				}
				if o := callee.Origin(); o != nil {
					callee = o
				}
				path := callee.Pkg.Pkg.Path()
				if path != "sync" && path != "sync/atomic" {
					continue
				}
				switch callee.Name() {
				case "Do", "Wait", "Done", "Add", "Go":
					if path == "sync" {
						continue // a sync.Once or WaitGroup says nothing about callers
					}
				}
				if g := global(call.Call.Args[0]); g != nil {
					return "guards its package-level state (" + g.Name() + ")", funcDoc
				}
			}
		}
	}
	return "", funcDoc
}

var (
	safeDoc = regexp.MustCompile(`(?i)\b(safe (for|to) (concurrent|simultaneous|parallel) use|safe (for|to) (use|call) (concurrently|from (multiple|several|many|different) goroutines|by multiple goroutines)|safe for use by multiple goroutines|(goroutine|thread|concurrency)[- ]safe)\b` +
		// net.Conn's "Multiple goroutines may invoke methods on a Conn simultaneously"
		`|\b(multiple|several|many) goroutines (may|can) (invoke|call|use)\b[^.]*\b(simultaneously|concurrently|at once|at the same time)\b`)
	// clauseSep splits a doc comment into the sentences and clauses that
	// say one thing each ("S is safe for concurrent use, but Close must
	// not be called during Run")
	clauseSep = regexp.MustCompile(`[.;]|,?\s+but\s+`)
	notSafeDo = regexp.MustCompile(`(?i)\b(not|isn't|is not|aren't|are not|never|un)\s*(safe|thread-safe|goroutine-safe)\b|\bnot\b[^.]*\b(goroutine|thread|concurrency)[- ]safe\b|\bunsafe for concurrent\b|\bnot\b[^.]*\bsafe for (concurrent|simultaneous)` +
		`|\b(must|should|may|can)\s*not\s+be\s+(used|called|shared|accessed)\s+(concurrently|in parallel|simultaneously|(from|by|on|across) (multiple|several|many|different|two) (goroutines|threads))` +
		`|\b(one|single) goroutine at a time\b|\bonly\b[^.]*\bfrom (a single|one) goroutine\b` +
		// LMDB's "A Txn must only be used by the goroutine that created it"
		`|\bonly be used (by|from|on|in) the (goroutine|thread)\b`)
	// otherName finds, after a sentence's first word, a capitalised word
	// that is not an acronym (Env, Codec, Pool): the name of another type
	otherName = regexp.MustCompile(`\s[A-Z][a-z]\w*`)
)

// typeEvidence collects the type-level evidence of the package's types.
func (r *Result) typeEvidence(mres *model.Result) {
	for tn, td := range mres.Types {
		if td.ThreadSafe {
			r.types[tn] = append(r.types[tn], Evidence{ThreadSafe, tn.Pos(), tn.Name() + " is declared //lifetime:threadsafe"})
		}
		if td.Confined {
			r.confined[tn] = true
		}
	}
	for _, f := range r.pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				tn, ok := r.pass.TypesInfo.Defs[ts.Name].(*types.TypeName)
				if !ok {
					continue
				}
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				if doc != nil {
					// A sentence or clause (split at '.', ';' and 'but')
					// that says the type is safe
					// for concurrent use is evidence; one that says
					// something is not confines the type. Those that
					// name the type decide first: the others may be
					// about what it wraps ("Conn is safe for concurrent
					// use. The underlying sqlite3 handle is not
					// thread-safe, so every call holds mu") or another
					// type ("Use a Pool, which is safe for concurrent
					// use"); one that names another type says nothing of
					// this one. Where they disagree, not safe wins.
					var safe, notSafe [2]bool // [names the type]
					names := regexp.MustCompile(`\b` + regexp.QuoteMeta(tn.Name()) + `\b`)
					for _, sentence := range clauseSep.Split(docText(doc), -1) {
						n := 0
						if names.MatchString(sentence) {
							n = 1
						} else if otherName.MatchString(strings.TrimSpace(sentence)) {
							continue // about another type ("The Env is safe for concurrent use")
						}
						switch {
						case notSafeDo.MatchString(sentence):
							notSafe[n] = true
						case safeDoc.MatchString(sentence):
							safe[n] = true
						}
					}
					n := 0
					if safe[1] || notSafe[1] {
						n = 1
					}
					switch {
					case notSafe[n]:
						r.confined[tn] = true
					case safe[n]:
						r.types[tn] = append(r.types[tn], Evidence{Documented, ts.Pos(), tn.Name() + " is documented as safe for concurrent use"})
					}
				}
				st, ok := tn.Type().Underlying().(*types.Struct)
				if !ok {
					continue
				}
				lock, atomic := false, false
				for i := range st.NumFields() {
					switch kind(st.Field(i).Type()) {
					case "lock":
						lock = true
					case "atomic":
						atomic = true
					}
				}
				if contract := driverContract(r.pass.Pkg, tn); contract != "" {
					// database/sql never uses it from two goroutines at
					// once: a mutex in it guards something narrower
					continue
				}
				if lock {
					// evidence once its functions are seen to hold it
					// (lockContract)
					r.locks[tn] = &lockUse{users: map[*ssa.Function]bool{}, holders: map[*ssa.Function]bool{}}
				}
				if atomic {
					r.types[tn] = append(r.types[tn], Evidence{Atomic, ts.Pos(), tn.Name() + " has atomic fields"})
				}
			}
		}
	}
}

// driverContract returns the database/sql/driver interface t implements
// whose contract says database/sql does not use a value from two
// goroutines at once ("Conn is a connection to a database. It is not used
// concurrently by multiple goroutines"; Stmt likewise; Rows and Tx belong
// to one Conn), or "".
func driverContract(pkg *types.Package, tn *types.TypeName) string {
	var driver *types.Package
	for _, p := range pkg.Imports() {
		if p.Path() == "database/sql/driver" {
			driver = p
		}
	}
	if driver == nil {
		return ""
	}
	ptr := types.NewPointer(tn.Type())
	for _, name := range []string{"Conn", "Stmt", "Rows", "Tx"} {
		obj, ok := driver.Scope().Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		iface, ok := obj.Type().Underlying().(*types.Interface)
		if ok && (types.Implements(ptr, iface) || types.Implements(tn.Type(), iface)) {
			return "database/sql/driver." + name
		}
	}
	return ""
}

// kind classifies a field type: "lock" for sync.Mutex and sync.RWMutex
// (or pointers to them), "atomic" for the types of sync/atomic.
func kind(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	switch n.Obj().Pkg().Path() {
	case "sync":
		if n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex" {
			return "lock"
		}
	case "sync/atomic":
		return "atomic"
	}
	return ""
}
