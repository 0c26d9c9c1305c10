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
//  2. the type is built to be shared: it has a sync.Mutex or RWMutex, or
//     fields of sync/atomic types (analyzers also check that the mutex
//     guards the state in question elsewhere);
//  3. a go statement (through closures and method values), a finalizer or
//     cleanup (they run on the finalizer goroutine), or an //export
//     directive (C may call the function from any thread) reaches the code;
//  4. in a package that uses cgo, an exported function is library API that
//     callers may call from any goroutine (a weaker kind, for package-level
//     state).
//
// Contexts model where code runs: each go statement starts one (several
// goroutines when the statement is in a loop or its function may run
// several times at once), finalizers share one, each //export function is
// entered from C threads, and library API from the callers' goroutines.
// Each function gets the set of contexts that reach it through the
// package's static call graph. The pass reports nothing.
package concurrency

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/cfg"
	"github.com/lifetimevet/lifetimevet/internal/cgofile"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// Analyzer is the concurrency pass. Its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "lifetimeconcurrency",
	Doc:        "find which functions may run at the same time as which, and why (a pass: reports nothing)",
	URL:        "https://github.com/lifetimevet/lifetimevet/tree/main/passes/concurrency",
	Run:        run,
	Requires:   []*analysis.Analyzer{cgocall.Analyzer, model.Analyzer, lifetime.Analyzer},
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
	Lock                               // it has a sync.Mutex or sync.RWMutex
	Atomic                             // it has fields of sync/atomic types
)

// Result is what the pass found in the package.
type Result struct {
	pass     *analysis.Pass
	contexts map[*ssa.Function][]*Context
	types    map[*types.TypeName][]Evidence
	confined map[*types.TypeName]bool
}

// Contexts returns the contexts that reach fn, ordered by position.
func (r *Result) Contexts(fn *ssa.Function) []*Context { return r.contexts[fn] }

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

// SelfOverlap returns a context in which two activations of fn can run at
// once, or nil. kinds, when not empty, limits the contexts considered.
func (r *Result) SelfOverlap(fn *ssa.Function, kinds ...ContextKind) *Context {
	for _, c := range r.contexts[fn] {
		if c.Multi && (len(kinds) == 0 || slices.Contains(kinds, c.Kind)) {
			return c
		}
	}
	return nil
}

// Overlap returns contexts in which activations of f and g can run at the
// same time (c1 runs f, c2 runs g), and whether there are any. kinds, when
// not empty, limits the contexts considered.
func (r *Result) Overlap(f, g *ssa.Function, kinds ...ContextKind) (c1, c2 *Context, ok bool) {
	filter := func(cs []*Context) []*Context {
		if len(kinds) == 0 {
			return cs
		}
		var out []*Context
		for _, c := range cs {
			if slices.Contains(kinds, c.Kind) {
				out = append(out, c)
			}
		}
		return out
	}
	fs, gs := filter(r.contexts[f]), filter(r.contexts[g])
	for _, a := range fs {
		if a.Multi && slices.Contains(gs, a) {
			return a, a, true
		}
		// A context overlaps any other context, and the code that is
		// reached from no context at all (the callers' own goroutine).
		if len(gs) == 0 {
			return a, nil, true
		}
		for _, b := range gs {
			if b != a && !(a.Kind == Finalizer && b.Kind == Finalizer) {
				return a, b, true
			}
		}
	}
	if len(fs) == 0 && len(gs) > 0 {
		return nil, gs[0], true
	}
	return nil, nil, false
}

func run(pass *analysis.Pass) (any, error) {
	calls := pass.ResultOf[cgocall.Analyzer].(*cgocall.Result)
	mres := pass.ResultOf[model.Analyzer].(*model.Result)
	lt := pass.ResultOf[lifetime.Analyzer].(*lifetime.Result)
	r := &Result{
		pass:     pass,
		contexts: map[*ssa.Function][]*Context{},
		types:    map[*types.TypeName][]Evidence{},
		confined: map[*types.TypeName]bool{},
	}
	r.typeEvidence(mres)
	usesCgo := slices.ContainsFunc(pass.Pkg.Imports(), func(p *types.Package) bool { return p.Path() == "C" || p.Path() == "runtime/cgo" })
	for _, f := range pass.Files {
		if cgofile.GeneratedByCgo(f) {
			usesCgo = true
		}
	}

	// Roots: go statements, finalizers, //export functions, library API.
	type root struct {
		fn  *ssa.Function
		ctx *Context
	}
	var roots []root
	multi := map[*ssa.Function]bool{} // functions that may run several times at once (computed below, then refined)
	exports := exportedToC(pass)
	fset := pass.Fset
	where := func(pos token.Pos) string { return fmt.Sprintf("line %d", fset.Position(pos).Line) }
	for _, fn := range calls.Funcs {
		if obj := fn.Object(); obj != nil && fn.Parent() == nil {
			if exports[obj] {
				roots = append(roots, root{fn, &Context{Kind: Export, Pos: fn.Pos(), Multi: true,
					Desc: fmt.Sprintf("C threads calling the //export function %s", fn.Name())}})
			} else if usesCgo && obj.Exported() && exportedAPI(fn) {
				roots = append(roots, root{fn, &Context{Kind: API, Pos: fn.Pos(), Multi: true,
					Desc: fmt.Sprintf("callers of %s, library API of a package that uses cgo", apiName(fn))}})
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
				c = &Context{Kind: Finalizer, Pos: f.Pos(), Object: f.Type, Desc: fmt.Sprintf("the finalizer goroutine (%s at %s)", kind, where(f.Pos()))}
				// all finalizers share one goroutine: keep one context
				// per function, but they never overlap each other
			}
			roots = append(roots, root{f.Func, c})
		}
	}
	var goStmts []*ssa.Go
	for _, fn := range calls.Funcs {
		loops := cfg.LoopBlocks(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				g, ok := instr.(*ssa.Go)
				if !ok {
					continue
				}
				goStmts = append(goStmts, g)
				target := goTarget(calls, g)
				if target == nil {
					continue
				}
				c := &Context{Kind: Spawned, Pos: g.Pos(), Multi: loops[b],
					Desc: fmt.Sprintf("the goroutines started at %s", where(g.Pos()))}
				if !c.Multi {
					c.Desc = fmt.Sprintf("the goroutine started at %s", where(g.Pos()))
				}
				roots = append(roots, root{target, c})
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
	// A go statement in a function that runs several times at once starts
	// several goroutines.
	for changed := true; changed; {
		changed = false
		for _, g := range goStmts {
			target := goTarget(calls, g)
			if target == nil {
				continue
			}
			if r.SelfOverlap(g.Parent()) == nil {
				continue
			}
			for _, c := range r.contexts[target] {
				if c.Kind == Spawned && c.Pos == g.Pos() && !c.Multi {
					c.Multi = true
					c.Desc = fmt.Sprintf("the goroutines started at %s", where(g.Pos()))
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

// goTarget returns the function a go statement runs, seeing through cgo's
// wrappers (go C.f(x) has no Go function to run).
func goTarget(calls *cgocall.Result, g *ssa.Go) *ssa.Function {
	if calls.Lookup(g) != nil {
		return nil
	}
	if g.Call.IsInvoke() {
		return nil
	}
	return g.Call.StaticCallee()
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
				c, _ = instr.Fn.(*ssa.Function)
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

// exportedToC returns the functions of the package marked //export.
func exportedToC(pass *analysis.Pass) map[types.Object]bool {
	out := map[types.Object]bool{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil {
				continue
			}
			for _, c := range fd.Doc.List {
				if strings.HasPrefix(c.Text, "//export ") {
					if obj := pass.TypesInfo.Defs[fd.Name]; obj != nil {
						out[obj] = true
					}
				}
			}
		}
	}
	return out
}

var (
	safeDoc   = regexp.MustCompile(`(?i)\b(safe (for|to) (concurrent|simultaneous|parallel) use|safe (for|to) use (concurrently|from multiple goroutines|by multiple goroutines)|safe for use by multiple goroutines|(goroutine|thread|concurrency)[- ]safe)\b`)
	notSafeDo = regexp.MustCompile(`(?i)\b(not|isn't|is not|aren't|are not|never|un)\s*(safe|thread-safe|goroutine-safe)\b|\bnot\b[^.]*\b(goroutine|thread|concurrency)[- ]safe\b|\bunsafe for concurrent\b|\bnot\b[^.]*\bsafe for (concurrent|simultaneous)`)
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
					for _, sentence := range strings.SplitAfter(doc.Text(), ".") {
						switch {
						case notSafeDo.MatchString(sentence):
							r.confined[tn] = true
						case safeDoc.MatchString(sentence):
							r.types[tn] = append(r.types[tn], Evidence{Documented, ts.Pos(), tn.Name() + " is documented as safe for concurrent use"})
						}
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
				if lock {
					r.types[tn] = append(r.types[tn], Evidence{Lock, ts.Pos(), tn.Name() + " has a mutex"})
				}
				if atomic {
					r.types[tn] = append(r.types[tn], Evidence{Atomic, ts.Pos(), tn.Name() + " has atomic fields"})
				}
			}
		}
	}
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
