// Package lifetime is the pass that follows handles along the paths of each
// function: the lifetime state machine shared by the analyzers that report
// on releases (doublerelease now; useafterrelease, handleleak and
// releaseorder build on it).
//
// It runs over go/ssa, function by function, callees first. For each
// function it tracks abstract values (tokens) for handles and for the
// locations that hold them, through loads, stores, field selections, phis,
// calls into C (from the cgocall pass, with the model pass saying which C
// functions release what), calls of Go functions (through their summaries),
// deferred calls (run in reverse order at every return and panic), and
// loops. Paths are kept apart up to a bound, then merged.
//
// Its products:
//   - a Summary per function (which parameter paths it releases, clears,
//     may change, whose finalizer it disarms), exported as a SummaryFact
//     so that importers see through wrapper packages;
//   - a Trace per user function: the events found on its paths (a handle
//     released twice, released through a copy, cleared in a copy);
//   - the finalizers and cleanups the package registers, per type, exported
//     as a FinalizerFact on the type.
//
// Summaries over-approximate stores and under-approximate releases: a
// release only counts when it happens on every call without a test of the
// handle's state (Release.Guarded), so that reports stay precise.
package lifetime

import (
	"go/token"
	"go/types"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/srcname"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/cpreamble"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// Analyzer is the lifetime pass. Its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "lifetime",
	Doc:        "follow handles along each function's paths; summarize functions (a pass: reports nothing)",
	URL:        "https://github.com/lifetimevet/lifetimevet/tree/main/passes/lifetime",
	Run:        run,
	Requires:   []*analysis.Analyzer{buildssa.Analyzer, cgocall.Analyzer, cpreamble.Analyzer, model.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(SummaryFact), new(FinalizerFact), new(RegistrarFact)},
}

// Result is what the pass computed for the package.
type Result struct {
	// Summaries holds the summary of every user function of the package
	// (and of the synthetic functions they reach).
	Summaries map[*ssa.Function]*Summary
	// Traces holds the events of every user function.
	Traces map[*ssa.Function]*Trace
	// Finalizers lists the finalizers and cleanups the package registers.
	Finalizers []*Finalizer

	pass    *analysis.Pass
	callers map[*ssa.Function][]*ssa.Function
}

// Callers returns the functions of the package that call fn directly (or
// create a closure of it), each once.
func (r *Result) Callers(fn *ssa.Function) []*ssa.Function { return r.callers[fn] }

// ReleasesThrough reports whether finalizer f's function is g, or
// releases through g: a release of its summary comes, through callees, from
// g's (func(x *T) { x.Close() } for g Close). False for a finalizer known
// only from a fact (no function).
func (r *Result) ReleasesThrough(f *Finalizer, g *ssa.Function) bool {
	if f.Func == nil || g == nil {
		return false
	}
	g = originOf(g)
	if f.Func == g {
		return true
	}
	sum := r.SummaryOf(f.Func)
	if sum == nil {
		return false
	}
	for _, rel := range sum.Releases {
		for depth := 0; rel != nil && depth < 8; depth++ {
			var via *ssa.Function
			rel, via = rel.Via()
			if via == g {
				return true
			}
		}
	}
	return false
}

// originOf returns the generic function an instance of it was made from
// (Box[T].Close for Box[int].Close), fn itself otherwise: an instance has
// its origin's body, so its summary, claims and callers are the origin's.
func originOf(fn *ssa.Function) *ssa.Function {
	if fn != nil && fn.Origin() != nil {
		return fn.Origin()
	}
	return fn
}

// Posn returns pos as Release.Posn and FinalizerRelease.Posn write it:
// file:line, the file's base name.
func Posn(fset *token.FileSet, pos token.Pos) string { return posn(fset, pos) }

// FinalizersOf returns the finalizers and cleanups known to release handles
// of objects of type t: registered in this package, or, for a type of
// another package, by the fact its package exported.
func (r *Result) FinalizersOf(t *types.TypeName) []*Finalizer {
	var out []*Finalizer
	for _, f := range r.Finalizers {
		if f.Type == t {
			out = append(out, f)
		}
	}
	if t.Pkg() != r.pass.Pkg {
		var fact FinalizerFact
		if r.pass.ImportObjectFact(t, &fact) {
			for _, f := range fact.Finalizers {
				out = append(out, &Finalizer{Type: t, FinalizerInfo: f})
			}
		}
	}
	return out
}

// Incomplete returns the user functions whose analysis stopped at a work
// bound before a fixpoint (Trace.Incomplete), in source order: findings in
// them may be missing, and a driver should say so.
func (r *Result) Incomplete() []*ssa.Function {
	var out []*ssa.Function
	for fn, t := range r.Traces {
		if t.Incomplete {
			out = append(out, fn)
		}
	}
	slices.SortFunc(out, func(a, b *ssa.Function) int {
		if a.Pos() != b.Pos() {
			return int(a.Pos()) - int(b.Pos())
		}
		return strings.Compare(a.String(), b.String())
	})
	return out
}

// SummaryOf returns the summary of a function of this package or, through
// its fact, of another (an instance's is its origin's); nil when nothing is
// known.
func (r *Result) SummaryOf(fn *ssa.Function) *Summary {
	if fn == nil {
		return nil
	}
	fn = originOf(fn)
	if s, ok := r.Summaries[fn]; ok {
		return s
	}
	if s := builtinSummary(fn); s != nil {
		return s
	}
	if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() != r.pass.Pkg {
		var fact SummaryFact
		if r.pass.ImportObjectFact(obj, &fact) {
			return &fact.Summary
		}
	}
	return nil
}

// handleDelete is the summary of (runtime/cgo.Handle).Delete: it releases
// its receiver, the handle. runtime/cgo documents that Delete invalidates
// the handle, and it panics ("misuse of an invalid Handle") when given one
// deleted already: a second Delete of a handle is a double release. (No
// acquire goes with it: a handle kept for the life of the program, in a
// registry, is no leak.)
var handleDelete = &Summary{Releases: []*Release{{
	Path: access.Path{Root: 0}, Text: "h", CFunc: "(cgo.Handle).Delete", Class: "cgo-handle",
	Posn: "runtime/cgo", Func: "(cgo.Handle).Delete",
}}}

// builtinSummary returns the summary of a function of the standard
// library whose effect on handles its documentation gives, or nil.
func builtinSummary(fn *ssa.Function) *Summary {
	if fn.Pkg == nil || fn.Pkg.Pkg.Path() != "runtime/cgo" || fn.Name() != "Delete" {
		return nil
	}
	if recv := fn.Signature.Recv(); recv == nil || access.TypeName(recv.Type()) == nil || access.TypeName(recv.Type()).Name() != "Handle" {
		return nil
	}
	return handleDelete
}

// A Finalizer is a finalizer (runtime.SetFinalizer) or cleanup
// (runtime.AddCleanup) registered on objects of a type, with the handles it
// releases.
type Finalizer struct {
	Type *types.TypeName // the object's type: finalizers are set on *Type
	Func *ssa.Function   // the finalizer or cleanup function (this package only)
	FinalizerInfo
	pos token.Pos
}

// FinalizerInfo is what a fact records of a Finalizer.
type FinalizerInfo struct {
	Releases []FinalizerRelease // handles released, relative to the object's pointer
	Cleanup  bool               // runtime.AddCleanup rather than SetFinalizer
	Posn     string             // file:line of the registration
	Name     string             // the finalizer function, for messages ("(*database).destroy", "func literal")
}

// Pos returns the position of the registration in this package; NoPos for
// a finalizer read from a fact.
func (f *Finalizer) Pos() token.Pos { return f.pos }

// A FinalizerRelease is one handle a finalizer releases.
type FinalizerRelease struct {
	Ops     []access.Op // from the object's pointer: [FieldAddr h, Load] is obj.h
	Text    string
	CFunc   string
	Class   string // see model.Compatible
	Guarded bool   // released only after a test (idempotent by design if the handle is cleared)
	Counted bool   // drops a counted reference (clRelease*, g_object_unref): the last one releases
	// OnceIn is, for a release inside (*sync.Once).Do, that Do's Once
	// (Release.OnceOf) in the finalizer's frame, parameter 0 the object:
	// a release under the same Once of the same object (OnceIn.Rebase)
	// happens at most once with this one
	OnceIn OnceRef
	// Posn is the file:line of the release's C call (as Release.Posn):
	// with Guarded, the finalizer reaches that C call only past the
	// test the code around it makes (a compare-and-swap, a closed flag)
	Posn string
	// Copied is, for a cleanup, how many of Ops lead to the argument
	// runtime.AddCleanup copied when it was added (obj.h: 2): a store to
	// that location later changes nothing the cleanup reads, a write
	// through the value copied may
	Copied int
}

// FinalizerFact lists the finalizers and cleanups a package registers on
// one of its types.
type FinalizerFact struct{ Finalizers []FinalizerInfo }

func (*FinalizerFact) AFact() {}

func (f *FinalizerFact) String() string { return "finalizers" }

// RegistrarFact marks a function that registers a finalizer for its
// caller: it passes its parameter Obj to runtime.SetFinalizer as the
// object and its parameter Fin as the finalizer, directly or through
// another such helper (func Arm[T any](x *T, f func(*T)) {
// runtime.SetFinalizer(x, f) }). Where it comes from: the function's body,
// read in its own package.
type RegistrarFact struct{ Obj, Fin int }

func (*RegistrarFact) AFact() {}

func (f *RegistrarFact) String() string {
	return "registrar(obj=" + strconv.Itoa(f.Obj) + ", fin=" + strconv.Itoa(f.Fin) + ")"
}

type pkgAnalysis struct {
	pass       *analysis.Pass
	calls      *cgocall.Result
	cres       *cpreamble.Result // the package's own C
	model      *model.Result
	res        *Result
	inProgress map[*ssa.Function]bool
	setFields  map[*types.TypeName]map[int]bool // fields stored to after construction (setAfterBuilt)
	user       map[*ssa.Function]bool
}

func run(pass *analysis.Pass) (any, error) {
	calls := pass.ResultOf[cgocall.Analyzer].(*cgocall.Result)
	pa := &pkgAnalysis{
		pass:  pass,
		calls: calls,
		cres:  pass.ResultOf[cpreamble.Analyzer].(*cpreamble.Result),
		model: pass.ResultOf[model.Analyzer].(*model.Result),
		res: &Result{
			Summaries: map[*ssa.Function]*Summary{},
			Traces:    map[*ssa.Function]*Trace{},
			pass:      pass,
			callers:   map[*ssa.Function][]*ssa.Function{},
		},
		inProgress: map[*ssa.Function]bool{},
		user:       map[*ssa.Function]bool{},
	}
	for _, fn := range calls.Funcs {
		pa.user[fn] = true
	}
	for _, fn := range calls.Funcs {
		pa.summaryOf(fn)
		pa.callGraph(fn)
	}
	pa.finalizers()
	if debugging("summary") && pass.Module != nil {
		pa.res.dump(os.Stderr)
	}
	// Export the package's registrars for importers (those whose
	// finalizer is a parameter: a function of the helper's own is not
	// its callers' to name).
	for _, fn := range calls.Funcs {
		if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() == pass.Pkg && fn.Parent() == nil {
			if reg, ok := pa.registrar(fn, map[*ssa.Function]bool{}); ok && reg.fin >= 0 {
				pass.ExportObjectFact(obj, &RegistrarFact{Obj: reg.obj, Fin: reg.fin})
			}
		}
	}
	// Export summaries of declared functions for importers.
	for _, fn := range calls.Funcs {
		s := pa.res.Summaries[fn]
		// (an empty summary too: a function with no effects is known to
		// have none, where one without a fact is taken to have any)
		if obj, ok := fn.Object().(*types.Func); ok && s != nil && obj.Pkg() == pass.Pkg {
			pass.ExportObjectFact(obj, &SummaryFact{*factCopy(s)})
		}
	}
	byType := map[*types.TypeName][]FinalizerInfo{}
	var order []*types.TypeName
	for _, f := range pa.res.Finalizers {
		if f.Type.Pkg() == pass.Pkg {
			if byType[f.Type] == nil {
				order = append(order, f.Type)
			}
			byType[f.Type] = append(byType[f.Type], f.FinalizerInfo)
		}
	}
	for _, t := range order {
		pass.ExportObjectFact(t, &FinalizerFact{Finalizers: byType[t]})
	}
	return pa.res, nil
}

// factCopy returns s without the positions that mean nothing elsewhere.
func factCopy(s *Summary) *Summary {
	c := *s
	c.Releases = nil
	for _, r := range s.Releases {
		rc := *r
		rc.pos = token.NoPos
		rc.via, rc.viaFn = nil, nil
		c.Releases = append(c.Releases, &rc)
	}
	c.Drops = nil
	for _, r := range s.Drops {
		rc := *r
		rc.pos = token.NoPos
		rc.via, rc.viaFn = nil, nil
		c.Drops = append(c.Drops, &rc)
	}
	return &c
}

// summaryOf returns the summary of fn, computing it (and fn's trace) on
// first use; nil for functions of other packages without a fact, and for a
// call back into a function being analysed (recursion).
func (pa *pkgAnalysis) summaryOf(fn *ssa.Function) *Summary {
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	if s, ok := pa.res.Summaries[fn]; ok {
		return s
	}
	if pa.inProgress[fn] {
		return nil
	}
	if fn.Pkg == nil || fn.Pkg.Pkg != pa.pass.Pkg {
		if fn.Pkg == nil && fn.Synthetic != "" && len(fn.Blocks) > 0 {
			// a wrapper go/ssa made here for a method of another package
		} else {
			return pa.res.SummaryOf(fn)
		}
	}
	if len(fn.Blocks) == 0 {
		return nil
	}
	if pa.calls.IsWrapper(fn) {
		return nil
	}
	pa.inProgress[fn] = true
	var sum *Summary
	var trace *Trace
	if relevant, rets := pa.relevant(fn); relevant || pa.declares(fn) {
		sum, trace = pa.analyze(fn)
	} else {
		sum, trace = pa.cheapSummary(fn, rets), &Trace{Func: fn}
	}
	sum.Status = pa.statusMaps(fn)
	delete(pa.inProgress, fn)
	pa.addDeclared(fn, sum)
	pa.res.Summaries[fn] = sum
	if pa.user[fn] {
		pa.res.Traces[fn] = trace
	}
	return sum
}

// declares reports whether fn carries //lifetime: directives.
func (pa *pkgAnalysis) declares(fn *ssa.Function) bool {
	obj, ok := fn.Object().(*types.Func)
	return ok && pa.model.Funcs[obj] != nil
}

// addDeclared adds the releases //lifetime:release declares on fn, and
// takes the parameters //lifetime:borrow names out of its escapes.
func (pa *pkgAnalysis) addDeclared(fn *ssa.Function, sum *Summary) {
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return
	}
	fd := pa.model.Funcs[obj]
	if fd == nil {
		return
	}
	// //lifetime:borrow PARAM: the function uses PARAM without keeping it,
	// whatever the C it calls might do: the caller still owns the handle
	sum.Escapes = slices.DeleteFunc(sum.Escapes, func(i int) bool { return slices.Contains(fd.Borrow, i) })
	if fd.Acquire && !slices.Contains(sum.Acquires, 0) {
		sum.Acquires = append(sum.Acquires, 0)
	}
	for _, i := range fd.Release {
		if i >= len(fn.Params) {
			continue
		}
		p := access.Path{Root: i}
		if sum.ReleaseOf(p) == nil {
			sum.Releases = append(sum.Releases, &Release{
				Path: p, Text: fn.Params[i].Name(), Func: funcName(fn), Declared: true,
				CFunc: funcName(fn), Class: "declared", Posn: posn(pa.pass.Fset, fn.Pos()), pos: fn.Pos(),
			})
		}
	}
}

func (pa *pkgAnalysis) callGraph(fn *ssa.Function) {
	seen := map[*ssa.Function]bool{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var callee *ssa.Function
			switch instr := instr.(type) {
			case ssa.CallInstruction:
				callee = instr.Common().StaticCallee()
			case *ssa.MakeClosure:
				callee, _ = instr.Fn.(*ssa.Function)
				if m := boundMethod(callee); m != nil {
					// d.free as a value: a call of free, later
					callee = m
				}
			}
			// an instance's callers are its origin's (b.free() in a
			// method of Box[T] calls (*Box[T]).free's instance)
			callee = originOf(callee)
			if callee != nil && !seen[callee] {
				seen[callee] = true
				pa.res.callers[callee] = append(pa.res.callers[callee], fn)
			}
		}
	}
}

// summarize builds fn's summary from the paths the state machine followed.
func (a *fnAnalysis) summarize() *Summary {
	sum := &Summary{Globals: a.globals || a.unknowns}
	// Releases of parameter paths.
	type relInfo struct {
		rel           *Release
		tok           *tok
		guarded, once bool
		settled       bool // see relRec.settled
		ownTest       bool // see relRec.ownTest
		onceOf        OnceRef
		site          *Site // the first release site
	}
	byKey := map[string]*relInfo{}
	var keys []string
	for _, r := range a.rels {
		p, ok := r.tok.path(a.fn)
		if !ok {
			continue
		}
		k := p.Key()
		ri := byKey[k]
		if ri != nil && ri.site != r.site {
			ri.rel.sites = true
		}
		if ri == nil {
			rel := &Release{Path: p, Func: funcName(a.fn), Class: r.site.Class, pos: r.site.Pos}
			if r.once && r.site.Release != nil && inSource(a.fn, r.site.Release.Pos()) {
				// released by a function literal of fn's that
				// sync.Once.Do runs: where the literal releases it
				rel.pos = r.site.Release.Pos()
			}
			rel.Text = a.paramText(p)
			if r.site.Release != nil {
				rel.CFunc, rel.Posn = r.site.Release.CFunc, r.site.Release.Posn
				rel.via, rel.viaFn = r.site.Release, originOf(r.site.Callee)
			} else {
				rel.CFunc, rel.Posn = r.site.CFunc, posn(a.pa.pass.Fset, r.site.Pos)
			}
			ri = &relInfo{rel: rel, tok: r.tok, guarded: true, once: true, ownTest: true, site: r.site}
			byKey[k] = ri
			keys = append(keys, k)
		}
		ri.guarded = ri.guarded && r.guarded
		ri.settled = ri.settled || r.settled
		ri.ownTest = ri.ownTest && r.ownTest
		if ri.once && r.once && (ri.onceOf.Key() == "" || ri.onceOf.Key() == r.onceOf.Key()) {
			ri.onceOf = r.onceOf
		} else {
			ri.onceOf = OnceRef{}
		}
		ri.once = ri.once && r.once
	}
	slices.Sort(keys)
	settled, ownTest := map[*Release]bool{}, map[*Release]bool{}
	for _, k := range keys {
		ri := byKey[k]
		settled[ri.rel], ownTest[ri.rel] = ri.settled, ri.ownTest
		ri.rel.Guarded = ri.guarded && !nilTestsOnly(a.fn, ri.rel.Path)
		ri.rel.Once = ri.once
		if ri.once {
			ri.rel.OnceOf = ri.onceOf
		}
		// Clearing means something only for a handle read from a location
		// the caller sees: a handle passed by value stays in the caller's
		// variable.
		ri.rel.Clears = origin(a.ts, ri.tok) != nil && origin(a.ts, ri.tok).outliving()
		for _, s := range a.exits {
			_, released := s.released[ri.tok]
			_, maybe := s.maybe[ri.tok]
			if (released || maybe) && a.staleIn(s, ri.tok) != nil {
				ri.rel.Clears = false
			}
		}
		sum.Releases = append(sum.Releases, ri.rel)
	}
	// Drops of parameter paths, once each.
	dropped := map[string]bool{}
	for _, r := range a.drops {
		p, ok := r.tok.path(a.fn)
		if !ok || dropped[p.Key()] || sum.ReleaseOf(p) != nil {
			continue
		}
		dropped[p.Key()] = true
		rel := &Release{Path: p, Func: funcName(a.fn), Class: r.site.Class, pos: r.site.Pos, Text: a.paramText(p)}
		if r.site.Release != nil {
			rel.CFunc, rel.Posn = r.site.Release.CFunc, r.site.Release.Posn
			rel.via, rel.viaFn = r.site.Release, originOf(r.site.Callee)
		} else {
			rel.CFunc, rel.Posn = r.site.CFunc, posn(a.pa.pass.Fset, r.site.Pos)
		}
		sum.Drops = append(sum.Drops, rel)
	}
	slices.SortFunc(sum.Drops, func(x, y *Release) int { return strings.Compare(x.Path.Key(), y.Path.Key()) })
	// Retains of parameter paths still held at some return.
	retained := map[string]bool{}
	for _, t := range a.retains {
		p, ok := t.path(a.fn)
		if !ok || retained[p.Key()] {
			continue
		}
		for _, s := range a.exits {
			if n, known := s.counts[t]; s.open[t] && (!known || n > 0) {
				retained[p.Key()] = true
				sum.Retains = append(sum.Retains, p)
				break
			}
		}
	}
	slices.SortFunc(sum.Retains, func(x, y access.Path) int { return strings.Compare(x.Key(), y.Key()) })
	// Stores: locations of the caller written on the paths to a return.
	type stInfo struct {
		path  access.Path
		zeros int
		any   int
	}
	stores := map[string]*stInfo{}
	var skeys []string
	for _, s := range a.exits {
		for l, c := range s.content {
			if !l.outliving() {
				continue
			}
			if _, global := l.root.v.(*ssa.Global); global {
				sum.Globals = true
				continue
			}
			if c == a.ts.canon(l) {
				// written back with what it held on entry (p := b.h;
				// b.h = nil; b.h = p): unchanged for the caller
				continue
			}
			p, ok := l.path(a.fn)
			if !ok {
				continue
			}
			k := p.Key()
			si := stores[k]
			if si == nil {
				si = &stInfo{path: p}
				stores[k] = si
				skeys = append(skeys, k)
			}
			si.any++
			if c.kind == tZero {
				si.zeros++
			}
		}
	}
	slices.Sort(skeys)
	for _, k := range skeys {
		si := stores[k]
		if si.zeros == len(a.exits) {
			sum.Stores = append(sum.Stores, Store{Path: si.path, Zero: true})
		} else {
			sum.Clobbers = append(sum.Clobbers, si.path)
		}
	}
	if !a.opaqueTests && len(sum.Stores) == 0 && len(sum.Clobbers) == 0 && !sum.Globals && !a.pa.changesState(a.fn, sum) {
		// A test keeps a second call out only when the first changes
		// what it tests: a function that writes no memory the caller
		// sees (it neither clears the handle nor sets a flag, a count
		// or a claim) passes its test again, and releases again (if
		// b.h != nil { C.free(b.h) } with no b.h = nil).
		// The test is of the handle itself (which the release leaves as
		// it was), or of a flag no function of the package sets once the
		// object is built: a flag set elsewhere (weak, owned) may be a
		// mode that keeps the release from ever running twice.
		for _, r := range sum.Releases {
			r.Repeats = r.Guarded && !r.Once && !settled[r] && (ownTest[r] || !a.pa.setAfterBuilt(a.fn, r.Path))
		}
	}
	var ukeys []string
	for k := range a.uses {
		ukeys = append(ukeys, k)
	}
	slices.Sort(ukeys)
	for _, k := range ukeys {
		sum.Uses = append(sum.Uses, a.uses[k])
	}
	sum.Returns = returns(a.fn, a.pa.summaryOf)
	for k := range sum.Returns {
		if sum.Returns[k].Entry {
			sum.Returns[k].Clears = a.clearsWhenReturned(sum.Returns[k])
		}
	}
	sum.Wraps = wraps(a.fn)
	if a.exitsNormal > 0 {
		for i := range a.fn.Signature.Results().Len() {
			if a.retAcq[i] == a.exitsNormal && a.retReal[i] > 0 && resultCanHoldHandle(a.fn.Signature.Results().At(i).Type()) {
				sum.Acquires = append(sum.Acquires, i)
				if !a.retUncounted[i] {
					sum.Counted = append(sum.Counted, i)
				}
			}
		}
	}
	sum.AcquiresInto = a.acquiresInto()
	sum.Lends = a.lends()
	for i, p := range a.fn.Params {
		if a.escapes[p] {
			sum.Escapes = append(sum.Escapes, i)
		}
	}
	var dkeys []string
	for k := range a.disarms {
		dkeys = append(dkeys, k)
	}
	slices.Sort(dkeys)
	for _, k := range dkeys {
		sum.Disarms = append(sum.Disarms, a.disarms[k])
	}
	return sum
}

// resultCanHoldHandle reports whether a result of type t can be a handle:
// a pointer, unsafe.Pointer or integer (not a bool, not an error).
func resultCanHoldHandle(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer || u.Info()&types.IsInteger != 0
	}
	return false
}

// paramText renders a path relative to the function's own parameters.
func (a *fnAnalysis) paramText(p access.Path) string {
	if p.Root >= 0 && p.Root < len(a.fn.Params) {
		prm := a.fn.Params[p.Root]
		return access.Render(ParamName(prm), prm.Type(), p.Ops)
	}
	if j := -1 - p.Root; j >= 0 && j < len(a.fn.FreeVars) {
		return freeVarText(a.fn.FreeVars[j], p.Ops)
	}
	return "?"
}

// ParamName is the name of parameter p as the source writes it: for a
// range-over-func loop body's (go/ssa's arg0, arg1), the loop variable it
// is stored into; p's own name otherwise.
func ParamName(p *ssa.Parameter) string {
	if n := srcname.Of(nil, p); n != "" {
		return n
	}
	return p.Name()
}

// freeVarText renders a path from a free variable, the address of a
// captured variable: a load of it reads the variable.
func freeVarText(fv *ssa.FreeVar, ops []access.Op) string {
	if len(ops) > 0 && ops[0].Kind == access.Load {
		return access.Render(fv.Name(), access.Deref(fv.Type()), ops[1:])
	}
	return access.Render("&"+fv.Name(), fv.Type(), ops)
}

// changesState reports whether fn may change state its Stores and
// Clobbers do not list, which a test may read: it sends on, receives from,
// selects on or closes a channel (a done channel is a closed flag), writes
// or deletes a map entry (a registry of live objects), calls code the
// summaries do not see into (an interface method, a function value, a
// function with no summary, such as sync.Map's claims), calls a function
// whose summary writes anything, or gives C the address of a location
// (C may clear it: av_frame_free(&f.f)).
func (pa *pkgAnalysis) changesState(fn *ssa.Function, sum *Summary) bool {
	for _, r := range sum.Releases {
		if endsInAddr(r.Path) {
			return true
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Send, *ssa.Select, *ssa.MapUpdate:
				return true
			case *ssa.UnOp:
				if instr.Op == token.ARROW {
					return true
				}
			case ssa.CallInstruction:
				if pa.calls.Plumbing(instr) || pa.calls.Lookup(instr) != nil {
					continue // a call into C: judged by what it is given (above, opaqueTests)
				}
				com := instr.Common()
				if bi, ok := com.Value.(*ssa.Builtin); ok {
					switch bi.Name() {
					case "close", "delete", "clear", "copy":
						return true
					}
					continue
				}
				callee := com.StaticCallee()
				if callee == nil || com.IsInvoke() {
					return true
				}
				if atomicLoad(callee) {
					continue
				}
				if o := callee.Origin(); o != nil {
					callee = o
				}
				if pkg := callee.Package(); pkg != nil && pkg.Pkg.Path() == "runtime" {
					continue // KeepAlive, SetFinalizer: no state a test reads
				}
				cs := pa.summaryOf(callee)
				if cs == nil || len(cs.Stores) > 0 || len(cs.Clobbers) > 0 || cs.Globals {
					return true
				}
			}
		}
	}
	return false
}

// setAfterBuilt reports whether a function of the package stores to a
// field of the object at p's root (other than the one p reads the handle
// from) through anything but the variable it was just allocated in: a
// flag or a mode set after construction. The answer is true when the root
// is no pointer to a named struct.
func (pa *pkgAnalysis) setAfterBuilt(fn *ssa.Function, p access.Path) bool {
	if p.Root < 0 || p.Root >= len(fn.Params) {
		return true
	}
	tn := access.PointeeName(fn.Params[p.Root].Type())
	if tn == nil {
		return true
	}
	handleField := -1
	if len(p.Ops) > 0 && p.Ops[0].Kind == access.FieldAddr {
		handleField = p.Ops[0].Index
	}
	if pa.setFields == nil {
		pa.setFields = map[*types.TypeName]map[int]bool{}
		for _, g := range pa.calls.Funcs {
			for _, b := range g.Blocks {
				for _, instr := range b.Instrs {
					st, ok := instr.(*ssa.Store)
					if !ok {
						continue
					}
					fa, ok := st.Addr.(*ssa.FieldAddr)
					if !ok {
						continue
					}
					if _, built := fa.X.(*ssa.Alloc); built {
						continue // &T{f: v}, or new(T) and its fields set
					}
					if t := access.PointeeName(fa.X.Type()); t != nil {
						if pa.setFields[t] == nil {
							pa.setFields[t] = map[int]bool{}
						}
						pa.setFields[t][fa.Field] = true
					}
				}
			}
		}
	}
	for f := range pa.setFields[tn] {
		if f != handleField {
			return true
		}
	}
	return false
}

// nilTestsOnly reports whether the release of path p by fn is guarded by
// nothing but nil tests of the parameter itself, passed by value (func
// freeCtx(c *C.ctx) { if c != nil { C.ctx_free(c) } }): every branch of
// fn compares that parameter with nil. Such a test keeps a cleared handle
// out, and a caller's handle is cleared only by the caller: a second call
// with the same handle releases it again, so the release is no guarded
// one for the callers.
func nilTestsOnly(fn *ssa.Function, p access.Path) bool {
	if len(p.Ops) != 0 || p.Root < 0 || p.Root >= len(fn.Params) {
		return false
	}
	param := fn.Params[p.Root]
	if !isPointerLike(param.Type()) {
		return false
	}
	tests := 0
	for _, b := range fn.Blocks {
		iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cond := iff.Cond
		if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
			cond = u.X
		}
		bin, ok := cond.(*ssa.BinOp)
		if !ok || bin.Op != token.EQL && bin.Op != token.NEQ {
			return false
		}
		x, y := access.StripConv(bin.X), access.StripConv(bin.Y)
		if c, ok := x.(*ssa.Const); ok && c.IsNil() {
			x, y = y, x
		}
		if c, ok := y.(*ssa.Const); !ok || !c.IsNil() || x != ssa.Value(param) {
			return false
		}
		tests++
	}
	return tests > 0
}

// inSource reports whether pos lies in the source of fn.
func inSource(fn *ssa.Function, pos token.Pos) bool {
	syn := fn.Syntax()
	return syn != nil && pos.IsValid() && syn.Pos() <= pos && pos < syn.End()
}

// clearsWhenReturned reports whether, on every return that gives the
// handle r names (not a nil constant: if b.h == nil { return nil }), the
// function leaves r's path holding nil or zero.
func (a *fnAnalysis) clearsWhenReturned(r Returned) bool {
	n := len(r.Path.Ops)
	if n == 0 || r.Path.Ops[n-1].Kind != access.Load || len(a.exits) != len(a.exitRets) {
		return false
	}
	loc := access.Path{Root: r.Path.Root, Ops: r.Path.Ops[:n-1]}
	handed := 0
	for j, s := range a.exits {
		ret := a.exitRets[j]
		if r.Result >= len(ret.Results) {
			return false
		}
		if c, ok := resultValue(ret.Results[r.Result]).(*ssa.Const); ok && c.IsNil() {
			continue
		}
		handed++
		zero := false
		for l, c := range s.content {
			if p, ok := l.path(a.fn); ok && p.Key() == loc.Key() {
				zero = c.kind == tZero
				break
			}
		}
		if !zero {
			return false
		}
	}
	return handed > 0
}
