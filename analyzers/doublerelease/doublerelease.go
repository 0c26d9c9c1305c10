package doublerelease

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/diag"
	"github.com/lifetimevet/lifetimevet/internal/srcname"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// Analyzer reports once-only native handles released twice.
var Analyzer = &analysis.Analyzer{
	Name:     "doublerelease",
	Doc:      Doc.Compile().Format(false),
	URL:      "https://github.com/lifetimevet/lifetimevet/blob/main/analyzers/doublerelease/doc.go",
	Requires: []*analysis.Analyzer{cgocall.Analyzer, model.Analyzer, lifetime.Analyzer},
	Run:      run,
}

type checker struct {
	pass  *analysis.Pass
	calls *cgocall.Result
	lt    *lifetime.Result
	model *model.Result
	rep   *diag.Reporter

	sameCallee map[token.Pos]bool // releases reported as "called twice"
	// armedAtReturn are the events of handles released by a function
	// that armed the finalizer or cleanup that releases them again,
	// reported after finalizerArmed (a release through a method it
	// reports is reported there)
	armedAtReturn []armedEvent
}

type armedEvent struct {
	fn *ssa.Function
	ev *lifetime.Event
}

func run(pass *analysis.Pass) (any, error) {
	c := &checker{
		pass:  pass,
		calls: pass.ResultOf[cgocall.Analyzer].(*cgocall.Result),
		lt:    pass.ResultOf[lifetime.Analyzer].(*lifetime.Result),
		model: pass.ResultOf[model.Analyzer].(*model.Result),

		sameCallee: map[token.Pos]bool{},
	}
	c.rep = diag.New(pass, c.model)
	defer c.rep.ReportUnused()
	for _, fn := range c.calls.Funcs {
		if tr := c.lt.Traces[fn]; tr != nil {
			for _, ev := range tr.Events {
				c.event(fn, ev)
			}
		}
	}
	found := c.finalizerArmed()
	c.reportArmedAtReturn(found)
	c.handleTypes()
	c.wrappedThenReleased()
	return nil, nil
}

func handle(s string) string {
	if s == "" {
		return "the handle"
	}
	return s
}

func (c *checker) where(pos, at token.Pos) string { return diag.Where(c.pass.Fset, pos, at) }

// whereP is where for a file:line position (a summary's, maybe from a
// fact): "line N" in at's file.
func (c *checker) whereP(posn string, at token.Pos) string {
	if rest, ok := strings.CutPrefix(posn, filepath.Base(c.pass.Fset.Position(at).Filename)+":"); ok {
		return "line " + rest
	}
	return posn
}

// isLiteral reports whether fn is a function literal.
func isLiteral(fn *ssa.Function) bool { return fn != nil && fn.Parent() != nil }

// releaser names the release of a site: the C function, or the Go function
// that releases (a function literal as "the function literal in F").
func releaser(s *lifetime.Site) string {
	if s.Release != nil && s.CalleeName != "" {
		return s.CalleeName
	}
	return "C." + s.CFunc
}

func (c *checker) event(fn *ssa.Function, ev *lifetime.Event) {
	switch ev.Kind {
	case lifetime.DoubleRelease:
		c.double(fn, ev)
	case lifetime.CopyRelease:
		s := ev.First
		c.rep.Reportf(s.Pos, "%s releases %s through a copy and clears only the copy: %s still holds the released handle, so a later release of it (the next call of %s) releases it twice; call %s on the original",
			releaser(s), handle(s.Handle), ev.StaleText, srcname.Func(fn), c.calleeShort(s))
	case lifetime.ClearOfCopy:
		recv := fn.Signature.Recv()
		if recv == nil || isPtr(recv.Type()) {
			return
		}
		tn := typeName(recv.Type())
		c.rep.Reportf(ev.Store.Pos(), "this clears %s in a copy: %s has a value receiver, so the caller's %s keeps the released handle and a second %s releases it again; use a pointer receiver (func (%s *%s) %s)",
			handle(ev.Handle), srcname.Func(fn), tn, srcname.Func(fn), recv.Name(), tn, srcname.Func(fn))
	}
}

// userRelease follows a release through go/ssa's synthetic wrappers (bound
// method values, method expressions) to the release in the user's method.
func userRelease(r *lifetime.Release) *lifetime.Release {
	for {
		via, fn := r.Via()
		if via == nil || fn == nil || fn.Synthetic == "" && r.Pos().IsValid() {
			return r
		}
		r = via
	}
}

// readsHandle reports whether a release releases a handle read out of its
// parameter (c.h) rather than the parameter itself.
func readsHandle(r *lifetime.Release) bool {
	if r.Declared {
		return false
	}
	for _, o := range r.Path.Ops {
		if o.Kind == access.Load {
			return true
		}
	}
	return false
}

func (c *checker) calleeShort(s *lifetime.Site) string {
	if s.Callee != nil {
		return s.Callee.Name()
	}
	return s.CFunc
}

func (c *checker) double(fn *ssa.Function, ev *lifetime.Event) {
	first, second := ev.First, ev.Second
	if ev.ArmedAtReturn != nil && !ev.Lent {
		c.armedAtReturn = append(c.armedAtReturn, armedEvent{fn, ev})
		return
	}
	if ev.Lent && first.Class == lifetime.CallbackClass {
		cb := srcname.Func(fn)
		if a := ev.Armed; a != nil {
			wrapper := "runtime.SetFinalizer"
			if second.Instr != nil {
				if callee := second.Instr.(ssa.CallInstruction).Common().StaticCallee(); callee != nil && !(callee.Pkg != nil && callee.Pkg.Pkg.Path() == "runtime") {
					wrapper = srcname.Func(callee)
				}
			}
			c.rep.Reportf(second.Pos, "%s is lent by C to the //export function %s for the call, and %s wraps it in an object whose finalizer (%s, set at %s) releases it: the library still owns it and frees it itself, so it is freed twice once the object is collected; wrap it without a releasing finalizer (a weak wrapper), or declare the callback's ownership with //lifetime:release %s",
				handle(second.Handle), cb, wrapper, a.Fin, c.whereP(a.Posn, second.Pos), first.Handle)
			return
		}
		h := second.Handle
		if h == "" {
			h = first.Handle
		}
		c.rep.Reportf(second.Pos, "%s is released here, but C lent it to the //export function %s for the call: the library still owns it and frees it itself, so it is freed twice; do not release it, or declare the callback's ownership with //lifetime:release %s",
			handle(h), cb, first.Handle)
		return
	}
	if ev.Lent {
		c.rep.Reportf(second.Pos, "%s is released here, but C.%s lent it at %s: it belongs to the handle it came from, which frees it, so it is freed twice; do not release it",
			handle(second.Handle), first.CFunc, c.where(first.Pos, second.Pos))
		return
	}
	h := handle(second.Handle)
	if first.Handle != "" && second.Handle == "" {
		h = first.Handle
	}
	// The same release of the same function, called twice on one value,
	// of a handle the function reads out of the value: report in the
	// function, whose release is not idempotent. (A function that releases
	// the handle it is passed is the caller's to call once.)
	if first.Release != nil && second.Release != nil && first != second &&
		userRelease(first.Release) == userRelease(second.Release) && readsHandle(userRelease(first.Release)) &&
		userRelease(first.Release).Pos().IsValid() {
		r := userRelease(first.Release)
		// a //lifetime:ignore at either call of this caller silences
		// the finding for this caller (it is reported in the callee,
		// once for all callers)
		if c.rep.Ignored(second.Pos) || c.rep.Ignored(first.Pos) {
			return
		}
		if c.sameCallee[r.Pos()] {
			return
		}
		c.sameCallee[r.Pos()] = true
		why := "neither clears nor checks it"
		if r.Repeats {
			why = "checks it but changes nothing the check reads, so a second call passes the check again"
		}
		c.rep.Reportf(r.Pos(), "%s is released twice when %s is called twice on the same value, as %s does (%s and %s): %s %s; clear it after releasing it (under a lock, or claim it with atomic.Pointer.Swap) so that a second call does nothing",
			r.Text, r.Func, srcname.Func(fn), c.where(first.Pos, r.Pos()), c.where(second.Pos, r.Pos()), r.Func, why)
		return
	}
	switch {
	case first == second && first.Deferred:
		c.rep.Reportf(first.Pos, "%s is released by a deferred %s registered on each iteration of a loop: every deferred call releases the same handle when %s returns; release it once, outside the loop",
			h, strings.TrimPrefix(releaser(first), "the "), srcname.Func(fn))
	case first == second && !everyTrip(first.Instr.Block()):
		// released only on the trips where a condition in the loop
		// holds: a count that reaches zero once, a flag the release sets
		// (if !s.closed { free; s.closed = true }) may let it happen
		// once; which, the paths do not tell
	case first == second:
		c.rep.Reportf(first.Pos, "%s is released again on the next iteration of the loop, with no new handle acquired in between; acquire a handle per iteration or release it once after the loop",
			h)
	case second.Deferred && !first.Deferred && isLiteral(second.Callee):
		// the deferred literal reads the variable when it runs
		c.rep.Reportf(first.Pos, "%s is released here and again by the deferred %s at %s when %s returns; drop this release, or clear %s here and have the deferred function skip a cleared handle",
			h, strings.TrimPrefix(releaser(second), "the "), c.where(second.Pos, first.Pos), srcname.Func(fn), h)
	case second.Deferred && !first.Deferred:
		c.rep.Reportf(first.Pos, "%s is released here and again by the deferred %s at %s when %s returns (the defer evaluated the handle when it ran); drop this release, or defer a closure that releases whatever the variable holds at exit and clear it here",
			h, strings.TrimPrefix(releaser(second), "the "), c.where(second.Pos, first.Pos), srcname.Func(fn))
	default:
		c.rep.Reportf(second.Pos, "%s is released twice: by %s at %s and again here; release it once, or clear it after the first release",
			h, releaser(first), c.where(first.Pos, second.Pos))
	}
}

// guarded reports whether release r happens only after a test that keeps a
// second run of its function out: a test of state the function changes (a
// cleared handle, a flag set, a claim). A test of state nothing changes
// (Release.Repeats) is passed again.
func guarded(r *lifetime.Release) bool { return r.Guarded && !r.Repeats }

// finalizerArmed reports functions that release a handle which a finalizer
// or cleanup of its owner also releases, and leave the finalizer armed. A
// release through a callee that is itself reported is reported there only.
func (c *checker) finalizerArmed() map[*lifetime.Release]bool {
	only := c.finalizerOnly()
	type match struct {
		fn  *ssa.Function
		r   *lifetime.Release
		msg string
	}
	var matches []match
	found := map[*lifetime.Release]bool{}
	for _, fn := range c.calls.Funcs {
		if only[fn] {
			continue
		}
		sum := c.lt.Summaries[fn]
		if sum == nil {
			continue
		}
		for _, r := range sum.Releases {
			if r.Declared || r.Path.Root < 0 || r.Path.Root >= len(fn.Params) || !r.Pos().IsValid() {
				continue
			}
			// A release past a test (if o.h != nil, a closed flag)
			// keeps out a finalizer, which reads the object when it
			// runs and makes the same test, or finds the handle
			// cleared; not a cleanup, which runs with the copy it
			// took when it was added and reads nothing of the
			// object. (A release inside sync.Once.Do is guarded
			// against a second call, not against either.)
			cleanupsOnly := guarded(r) && !r.Once
			if msg := c.armed(fn, sum, r, cleanupsOnly); msg != "" && !c.safeAtCallers(fn, r, 0) {
				matches = append(matches, match{fn, r, msg})
				found[r] = true
			}
		}
	}
	for _, m := range matches {
		// reported in a callee (through a literal: once.Do(func() {
		// d.free() }) releases through the literal, which releases
		// through free)
		inCallee := false
		for via, depth := m.r, 0; via != nil && depth < 8 && !inCallee; depth++ {
			via, _ = via.Via()
			inCallee = via != nil && found[via]
		}
		if inCallee {
			continue
		}
		c.rep.Reportf(m.r.Pos(), "%s", m.msg)
	}
	return found
}

// reportArmedAtReturn reports the handles a function released after it
// armed the finalizer or cleanup that releases them, and left in place at
// a return with it still armed (a constructor's error path that frees the
// handle it has just wrapped). A release through a method finalizerArmed
// reported (found) is reported there.
func (c *checker) reportArmedAtReturn(found map[*lifetime.Release]bool) {
	for _, e := range c.armedAtReturn {
		ev, fn := e.ev, e.fn
		first := ev.First
		inCallee := false
		for via, depth := first.Release, 0; via != nil && depth < 8 && !inCallee; depth++ {
			inCallee = found[via]
			via, _ = via.Via()
		}
		if inCallee {
			continue
		}
		arm := ev.ArmedAtReturn
		obj, tn := "", "the object"
		if call, ok := ev.Second.Instr.(ssa.CallInstruction); ok && len(call.Common().Args) > 0 {
			v := call.Common().Args[0]
			if mi, ok := v.(*ssa.MakeInterface); ok {
				v = mi.X
			}
			if n := srcname.Of(c.pass.Files, v); n != "" {
				obj = n
			}
			if t := access.PointeeName(v.Type()); t != nil {
				tn = "the " + t.Name()
			}
		}
		disarm := fmt.Sprintf("runtime.SetFinalizer(%s, nil)", obj)
		if obj == "" {
			disarm = "runtime.SetFinalizer with nil"
		}
		what, fix := "finalizer set", fmt.Sprintf("disarm it (%s) before releasing %s, or set the finalizer after the last error return", disarm, handle(first.Handle))
		if ev.Cleanup {
			what, fix = "cleanup added", "Stop its runtime.Cleanup before releasing "+handle(first.Handle)+", or add the cleanup after the last error return"
		}
		at := c.whereP(arm.Posn, first.Pos)
		ret := ""
		if ev.Return != nil {
			ret = " at " + c.where(ev.Return.Pos(), first.Pos)
		}
		c.rep.Reportf(first.Pos, "%s is released here and again by the %s at %s (%s) once %s is collected: %s returns%s with it still armed; %s",
			handle(first.Handle), what, at, arm.Fin, tn, srcname.Func(fn), ret, fix)
	}
}

// safeAtCallers reports whether release r of fn, a function only its
// package calls, is no double release at any of its calls: every caller
// releases the same handle through it (a release whose Via is r), and each
// of those passes the check (Close's once.Do(func() { d.free() }), whose
// finalizer shares the Once), or is itself safe at its callers (the
// literal once.Do runs). A helper is judged where it is called; a caller
// that does not release through it (d.free as a value, stored) leaves it
// as it is.
func (c *checker) safeAtCallers(fn *ssa.Function, r *lifetime.Release, depth int) bool {
	if exported(fn) || depth > 4 {
		return false
	}
	callers := c.lt.Callers(fn)
	if len(callers) == 0 {
		return false
	}
	for _, g := range callers {
		sum := c.lt.Summaries[g]
		if sum == nil {
			return false
		}
		through := 0
		for _, rr := range sum.Releases {
			if via, _ := rr.Via(); via != r {
				continue
			}
			through++
			switch {
			case rr.Path.Root < 0:
				// a literal's free variable: judged where it runs
				if !c.safeAtCallers(g, rr, depth+1) {
					return false
				}
			case rr.Declared || rr.Path.Root >= len(g.Params):
				return false
			case guarded(rr) && !rr.Once:
				// released after a test (a compare-and-swap, a
				// flag): safe where each finalizer of the handle
				// releases through g, and so through its test, or
				// g disarms it, clears the handle, or claims what
				// it claims (armed); no report at g otherwise,
				// which skips guarded releases
				if c.armed(g, sum, rr, false) != "" {
					return false
				}
			case c.armed(g, sum, rr, false) != "" && !c.safeAtCallers(g, rr, depth+1):
				return false
			}
		}
		if through == 0 {
			return false
		}
	}
	return true
}

// ownerFinalizers calls f with each finalizer or cleanup of an owner of
// r's handle (an object along r's path, k ops into it, of a type tn that
// has one) and its release of the handle, until f returns false. fn is
// r's function; its own finalizer, unexported, is left out.
func (c *checker) ownerFinalizers(fn *ssa.Function, r *lifetime.Release, f func(fin *lifetime.Finalizer, fr lifetime.FinalizerRelease, k int, tn *types.TypeName) bool) {
	ops := r.Path.Ops
	if r.Path.Root < 0 || r.Path.Root >= len(fn.Params) {
		return
	}
	root := fn.Params[r.Path.Root]
	for k := 0; k <= len(ops); k++ {
		if k > 0 && (ops[k-1].Kind == access.FieldAddr || ops[k-1].Kind == access.IndexAddr) {
			continue // the address of a field: part of another allocation
		}
		tn := access.PointeeName(access.TypeAfter(root.Type(), ops[:k]))
		if tn == nil {
			continue
		}
		for _, fin := range c.lt.FinalizersOf(tn) {
			if fin.Func == fn && !exported(fn) {
				continue
			}
			for _, fr := range fin.Releases {
				if !slices.Equal(fr.Ops, ops[k:]) || !model.Compatible(fr.Class, r.Class) {
					continue
				}
				if !f(fin, fr, k, tn) {
					return
				}
			}
		}
	}
}

// armed returns the finding for release r of fn when a finalizer or cleanup
// of the handle's owner releases it too and fn neither disarms it, clears
// or flags the object, nor claims a location of it the finalizer claims
// too; "" otherwise. With cleanupsOnly, only cleanups count.
func (c *checker) armed(fn *ssa.Function, sum *lifetime.Summary, r *lifetime.Release, cleanupsOnly bool) string {
	ops := r.Path.Ops
	root := fn.Params[r.Path.Root]
	msg := ""
	c.ownerFinalizers(fn, r, func(fin *lifetime.Finalizer, fr lifetime.FinalizerRelease, k int, tn *types.TypeName) bool {
		if cleanupsOnly && !fin.Cleanup {
			return true
		}
		obj := access.Path{Root: r.Path.Root, Ops: ops[:k]}
		if k := fr.OnceIn.Rebase(obj).Key(); r.Once && k != "" && k == r.OnceOf.Key() {
			// the finalizer releases under the same Once of the same
			// object (SetFinalizer(d, (*D).Close), or a literal that
			// calls Close): at most one of the two releases runs
			return true
		}
		if sum.DisarmsPath(obj) {
			return true
		}
		if guarded(r) && !r.Once && c.lt.ReleasesThrough(fin, fn) {
			// released after a test in the function the finalizer
			// releases through: the finalizer makes the same test (a
			// Once is the one the Do call's receiver names, above)
			return true
		}
		var claims [][]access.Op
		if guarded(r) {
			claims = c.lt.FinalizerClaims(fin, fr)
		}
		if !fin.Cleanup && (r.Clears || !guarded(r) && (fr.Guarded || c.lt.ReleasesThrough(fin, fn)) && (sum.StoresTo(obj) || storesUnder(sum, obj))) {
			// a finalizer reads the object when it runs: a cleared
			// handle keeps it out, and so does a closed flag when the
			// finalizer releases past a test, or through fn, whose
			// state it is; a finalizer that frees without a test of
			// its own reads no flag. (A release past a test of fn's is
			// judged by the claims below.)
			return true
		}
		if fin.Cleanup && storesUnder(sum, access.Path{Root: r.Path.Root, Ops: ops[:k+min(fr.Copied, len(ops)-k)]}) {
			// a cleanup's argument is a copy taken when it was added:
			// clearing the object's field changes nothing, a write
			// through the value copied may (a flag, or the handle, in
			// a state struct the object points to)
			return true
		}
		if len(claims) > 0 {
			// fn claims the object before the release (Release's
			// closed.CompareAndSwap), or sets what it claims, and so
			// does the finalizer on its way to its release (Close's,
			// the same closed): one of the two claims fails. A claim
			// of another flag (released) keeps nothing out.
			at := lifetime.CallAt(fn, r.Pos())
			objRef := lifetime.NormRef(access.Ref{Root: root, Ops: ops[:k]})
			if at != nil && lifetime.SharesClaim(c.lt.ClaimsBefore(fn, at, objRef, ops[k:]), claims) {
				return true
			}
			for _, cl := range claims {
				if p := (access.Path{Root: obj.Root, Ops: slices.Concat(obj.Ops, cl)}); !fin.Cleanup && (sum.StoresTo(p) || storesUnder(sum, p)) {
					return true
				}
			}
		}
		objText := access.Render(lifetime.ParamName(root), root.Type(), ops[:k])
		what, kind := "finalizer set", "finalizer"
		disarm := fmt.Sprintf("runtime.SetFinalizer(%s, nil)", objText)
		if fin.Cleanup {
			what, kind = "cleanup added", "cleanup"
			disarm = "Stop on its runtime.Cleanup"
		}
		at := fin.Posn
		if fin.Pos().IsValid() {
			at = c.where(fin.Pos(), r.Pos())
		}
		if r.Class == model.Transferred {
			msg = fmt.Sprintf("%s is handed to C for good here (C.%s takes ownership) and released again by the %s at %s (%s) once the %s is collected; disarm it (%s) and clear %s when C takes it",
				r.Text, r.CFunc, what, at, fin.Name, tn.Name(), disarm, r.Text)
		} else {
			msg = fmt.Sprintf("%s is released here and again by the %s at %s (%s) once the %s is collected; disarm it (%s) and clear %s, or release only through the %s's function",
				r.Text, what, at, fin.Name, tn.Name(), disarm, r.Text, kind)
		}
		return false
	})
	return msg
}

// storesUnder reports whether the summary writes any field of the object at p
// (a closed flag the finalizer may test).
func storesUnder(sum *lifetime.Summary, p access.Path) bool {
	for _, st := range sum.Stores {
		if st.Path.HasPrefix(p) {
			return true
		}
	}
	for _, cl := range sum.Clobbers {
		if cl.HasPrefix(p) {
			return true
		}
	}
	return false
}

// finalizerOnly returns the functions that run only as (or on behalf of) a
// finalizer: unexported finalizer functions and literals, and unexported
// functions called only from those.
func (c *checker) finalizerOnly() map[*ssa.Function]bool {
	only := map[*ssa.Function]bool{}
	for _, f := range c.lt.Finalizers {
		if f.Func != nil && !exported(f.Func) {
			only[f.Func] = true
		}
		if f.Func != nil && f.Func.Synthetic != "" {
			// (*T).close as a value: the thunk's method is the finalizer's
			// function, exported or not
			for _, b := range f.Func.Blocks {
				for _, instr := range b.Instrs {
					if ci, ok := instr.(ssa.CallInstruction); ok {
						if callee := ci.Common().StaticCallee(); callee != nil && !exported(callee) {
							only[callee] = true
						}
					}
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fn := range c.calls.Funcs {
			if only[fn] || exported(fn) {
				continue
			}
			callers := c.lt.Callers(fn)
			if len(callers) == 0 {
				continue
			}
			all := true
			for _, caller := range callers {
				all = all && only[caller]
			}
			if all {
				only[fn] = true
				changed = true
			}
		}
	}
	return only
}

// handleTypes reports release methods of //lifetime:handle types that a
// second call would repeat.
func (c *checker) handleTypes() {
	for _, fn := range c.calls.Funcs {
		recv := fn.Signature.Recv()
		if recv == nil {
			continue
		}
		tn := typeName(recv.Type())
		obj := namedObj(recv.Type())
		if obj == nil || !c.model.Types[obj].Handle {
			continue
		}
		sum := c.lt.Summaries[fn]
		if sum == nil {
			continue
		}
		for _, r := range sum.Releases {
			if r.Path.Root != 0 || guarded(r) || r.Clears || r.Declared || !r.Pos().IsValid() {
				continue
			}
			how := "without clearing or checking it"
			if r.Repeats {
				how = "after a check, but changes nothing the check reads"
			}
			c.rep.Reportf(r.Pos(), "%s releases %s %s, but %s is a //lifetime:handle: a second %s releases the handle again; clear %s after releasing it, or guard the release with sync.Once",
				srcname.Func(fn), r.Text, how, tn, srcname.Func(fn), r.Text)
		}
	}
}

func exported(fn *ssa.Function) bool {
	obj := fn.Object()
	return obj != nil && obj.Exported() && fn.Parent() == nil
}

func isPtr(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

func namedObj(t types.Type) *types.TypeName {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}

func typeName(t types.Type) string {
	if o := namedObj(t); o != nil {
		return o.Name()
	}
	return t.String()
}

// everyTrip reports whether block b runs on every trip that goes on to
// the next, of each loop that holds it: b dominates the source of every
// back edge of the loop (b is in the loop headed by h when it reaches the
// source of one of h's back edges without passing h). A release there
// runs on every trip; one under a condition tested in the loop may not.
func everyTrip(b *ssa.BasicBlock) bool {
	if b == nil || b.Parent() == nil {
		return true
	}
	for _, h := range b.Parent().Blocks {
		if !h.Dominates(b) {
			continue
		}
		var back []*ssa.BasicBlock // the sources of h's back edges
		in := false                // b is in the loop h heads
		for _, p := range h.Preds {
			if h.Dominates(p) {
				back = append(back, p)
				in = in || reachesWithout(b, p, h)
			}
		}
		if !in {
			continue
		}
		for _, p := range back {
			if !b.Dominates(p) {
				return false
			}
		}
	}
	return true
}

// reachesWithout reports whether block to is reachable from block from
// without passing through block avoid (from and to themselves aside).
func reachesWithout(from, to, avoid *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{from: true}
	work := []*ssa.BasicBlock{from}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == to {
			return true
		}
		for _, s := range b.Succs {
			if s == to {
				return true
			}
			if s != avoid && !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return false
}
