package finalizer

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/cfg"
	"github.com/lifetimevet/lifetimevet/internal/cgofile"
	"github.com/lifetimevet/lifetimevet/internal/diag"
	"github.com/lifetimevet/lifetimevet/internal/srcname"
	"github.com/lifetimevet/lifetimevet/internal/stmtedit"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/guards"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// Analyzer reports finalizers and cleanups that can fire during C calls,
// or never.
var Analyzer = &analysis.Analyzer{
	Name:     "finalizer",
	Doc:      Doc.Compile().Format(false),
	URL:      "https://github.com/lifetimevet/lifetimevet/blob/main/analyzers/finalizer/doc.go",
	Requires: []*analysis.Analyzer{cgocall.Analyzer, model.Analyzer, lifetime.Analyzer, guards.Analyzer},
	Run:      run,
}

type checker struct {
	pass  *analysis.Pass
	calls *cgocall.Result
	lt    *lifetime.Result
	model *model.Result
	locks *guards.Result
	rep   *diag.Reporter
	fins  map[*ssa.Function]bool // the package's finalizer and cleanup functions
	sites map[*ssa.Function]callSites
	// declared caches otherVariantDeclares, by directory and name
	declared map[string]bool
}

func run(pass *analysis.Pass) (any, error) {
	c := &checker{
		pass:  pass,
		calls: pass.ResultOf[cgocall.Analyzer].(*cgocall.Result),
		lt:    pass.ResultOf[lifetime.Analyzer].(*lifetime.Result),
		fins:  map[*ssa.Function]bool{},
		model: pass.ResultOf[model.Analyzer].(*model.Result),
		locks: pass.ResultOf[guards.Analyzer].(*guards.Result),
	}
	c.rep = diag.New(pass, c.model)
	defer c.rep.ReportUnused()
	c.finalizerOnly()
	for _, fn := range c.calls.Funcs {
		if c.fins[fn] {
			continue // the object is being finalized already
		}
		c.keepAlive(fn)
		c.registrations(fn)
	}
	return nil, nil
}

// finalizerOnly collects the functions that run only as a finalizer or
// cleanup, or on its behalf: the registered functions, the method a method
// expression's thunk calls, and unexported functions called only from
// those. There the object is being finalized already: no KeepAlive is due.
func (c *checker) finalizerOnly() {
	for _, f := range c.lt.Finalizers {
		if f.Func == nil {
			continue
		}
		c.fins[f.Func] = true
		if f.Func.Synthetic != "" {
			// (*T).free as a value: a thunk that calls the method
			for _, b := range f.Func.Blocks {
				for _, instr := range b.Instrs {
					if ci, ok := instr.(ssa.CallInstruction); ok {
						if callee := ci.Common().StaticCallee(); callee != nil {
							c.fins[callee] = true
						}
					}
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fn := range c.calls.Funcs {
			if c.fins[fn] || fn.Object() != nil && fn.Object().Exported() && fn.Parent() == nil {
				continue
			}
			callers := c.lt.Callers(fn)
			if len(callers) == 0 {
				continue
			}
			all := true
			for _, caller := range callers {
				all = all && c.fins[caller]
			}
			if all {
				c.fins[fn] = true
				changed = true
			}
		}
	}
}

// A managed handle: a handle loaded from an object whose finalizer or
// cleanup releases it.
type managed struct {
	obj  access.Ref // the object's pointer, in the function's frame
	fin  *lifetime.Finalizer
	rel  lifetime.FinalizerRelease
	tn   *types.TypeName
	root types.Type // type of obj.Root
	// table is set when obj's root was read out of a table that keeps it
	// while the entry stays (tableRead)
	table bool
	// via is the object as reached from an accessor's result, when obj's
	// path was found through one (w for w := h.get(), whose path is h.im;
	// w.in for a path h.w.in): the frame's own value, which the source
	// names; invalid otherwise.
	via access.Ref
	// inDo is set, on the way up through callers (callersKeep), once
	// the call is known to run inside a (*sync.Once).Do that makes the
	// finalizer's release: the method value the Do runs releases it
	inDo bool
}

// handleOf reports whether v is (or is derived from) a handle a finalizer
// or cleanup of its owner releases.
func (c *checker) handleOf(fn *ssa.Function, v access.Ref) (managed, bool) {
	r, wps, ok := c.originVia(fn, v, 0)
	if !ok || r.Root == nil {
		return managed{}, false
	}
	switch root := r.Root.(type) {
	case *ssa.FreeVar:
		// a captured variable belongs to the enclosing function, which
		// may keep it, unless the literal runs on a goroutine of its own
		// and the enclosing function uses the variable no more after
		// starting it
		if !goroutineOwns(fn, root) && !returnedOnly(fn) && calledInPlace(fn) == nil {
			return managed{}, false
		}
	case *ssa.Global, *ssa.Const:
		// a global is always reachable
		return managed{}, false
	}
	table := c.tableRead(r.Root, 0)
	rootType := r.Root.Type()
	_, alloc := r.Root.(*ssa.Alloc)
	copied := alloc && srcname.IsVar(r.Root.(*ssa.Alloc))
	for k := 0; k < len(r.Ops); k++ {
		if !pointerValue(r.Ops[:k]) {
			continue
		}
		if k == 0 && copied {
			// a variable of the struct type (a value receiver, a copy
			// of *p): the object whose finalizer releases the handle
			// is the one it was copied from, which its caller holds
			continue
		}
		tn := access.PointeeName(access.TypeAfter(rootType, r.Ops[:k]))
		if tn == nil {
			continue
		}
		for _, fin := range c.lt.FinalizersOf(tn) {
			for _, fr := range fin.Releases {
				if hasPrefix(access.Canon(r.Ops[k:]), access.Canon(fr.Ops)) && hasLoad(fr.Ops) {
					fr.Ops = access.Canon(fr.Ops)
					m := managed{obj: access.Ref{Root: r.Root, Ops: r.Ops[:k]}, fin: fin, rel: fr, tn: tn, root: rootType, table: table}
					// the value of the frame the object is reached from,
					// if an accessor's result
					for i := len(wps) - 1; i > 0; i-- {
						if wps[i].at <= k {
							m.via = access.Ref{Root: wps[i].v, Ops: r.Ops[wps[i].at:k]}
							break
						}
					}
					return m, true
				}
			}
		}
	}
	return managed{}, false
}

// origin names v as an access path, seeing through accessors: a call of a
// function whose result is always one of its parameter's paths.
func (c *checker) origin(fn *ssa.Function, v access.Ref, depth int) (access.Ref, bool) {
	r, _, ok := c.originVia(fn, v, depth)
	return r, ok
}

// A waypoint is a value of the frame that a path found through accessors
// passes through: the path's ops from at on are relative to v (for
// w := h.get(); w.p, the path h.im.p has the waypoints h at 0 and the
// call h.get() at 2).
type waypoint struct {
	v  ssa.Value
	at int
}

// originVia is origin, with the path's waypoints, outermost first: the
// path's root, then each accessor's result.
func (c *checker) originVia(fn *ssa.Function, v access.Ref, depth int) (access.Ref, []waypoint, bool) {
	r := lifetime.NormRef(v)
	here := []waypoint{{r.Root, 0}}
	call, ok := r.Root.(*ssa.Call)
	if !ok || depth > 3 {
		return r, here, true
	}
	callee := call.Call.StaticCallee()
	if callee == nil || call.Call.IsInvoke() {
		return r, here, true
	}
	sum := c.lt.SummaryOf(callee)
	if sum == nil {
		return r, here, true
	}
	p, ok := sum.ReturnOf(0)
	if !ok {
		return r, here, true
	}
	operand := lifetime.CallOperand(&call.Call, p.Root)
	if operand == nil {
		return r, here, true
	}
	inner, wps, ok := c.originVia(fn, access.Ref{Root: operand}, depth+1)
	if !ok {
		return r, here, false
	}
	at := len(inner.Ops) + len(p.Ops)
	return inner.With(append(slices.Clone(p.Ops), r.Ops...)...), append(wps, waypoint{call, at}), true
}

// norm expands v in its function's frame (lifetime.Norm).
func norm(v ssa.Value) access.Ref { return lifetime.Norm(v) }

// pointerValue reports whether a path ending in ops names a pointer held in
// a variable or a field (the address of a separately allocated object), not
// the address of a field computed from another pointer (&c.Object is part
// of c's allocation: a finalizer on *Object does not apply to it).
func pointerValue(ops []access.Op) bool {
	return len(ops) == 0 || ops[len(ops)-1].Kind != access.FieldAddr && ops[len(ops)-1].Kind != access.IndexAddr
}

func hasPrefix(ops, prefix []access.Op) bool {
	return len(ops) >= len(prefix) && slices.Equal(ops[:len(prefix)], prefix)
}

func hasLoad(ops []access.Op) bool {
	for _, o := range ops {
		if o.Kind == access.Load {
			return true
		}
	}
	return false
}

// keepAlive reports calls into C (or into Go functions that pass their
// argument to C) with a managed handle whose object nothing keeps alive
// until the call returns.
func (c *checker) keepAlive(fn *ssa.Function) {
	type finding struct {
		call  *ssa.Call
		cname string
		m     managed
		coll  access.Ref // the collection, for handles gathered from one
	}
	var all []finding
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || c.calls.Plumbing(call) {
				continue
			}
			cname, args := c.handleArgs(fn, call)
			if cname == "" {
				continue
			}
			var done []access.Ref // objects found for this call
			// found records m's object as at risk during the call, unless
			// it is kept alive past it, its finalizer is disarmed, claimed
			// or locked out first or not armed yet, it is reachable from a
			// live value, or it is found for the call already
			found := func(m managed) {
				if c.keptAlive(fn, call, m.obj, call) || c.disarmedBefore(fn, call, m.obj) || c.claimedBefore(fn, call, m) || c.lockedOut(fn, call, m) ||
					c.notArmedYet(fn, call, m.obj) || c.reachableFromLive(fn, call, m.obj) ||
					slices.ContainsFunc(done, func(r access.Ref) bool { return sameRef(r, m.obj) }) {
					return
				}
				done = append(done, m.obj)
				all = append(all, finding{call, cname, m, access.Ref{}})
			}
			for _, arg := range args {
				if m, ok := c.handleOf(fn, arg); ok {
					if !(m.table && !c.tableChangedBefore(fn, call, m.obj.Root)) && !c.swappedOut(fn, call, arg, m) {
						found(m)
					}
					continue
				}
				// Handles in the elements of a Go array whose first
				// element reaches C: every object whose handle is there.
				if ms := c.elemHandles(fn, call, arg); len(ms) > 0 {
					for _, m := range ms {
						found(m)
					}
					continue
				}
				// A handle copied into a C struct (a parameter block:
				// args.h = o.h) that reaches C, by address or by value.
				if m, ok := c.copiedIn(fn, call, arg); ok {
					found(m)
					continue
				}
				// Handles copied out of a collection of managed objects
				// into a Go array passed to C.
				if m, coll, ok := c.gathered(fn, arg); ok && !c.keptAlive(fn, call, coll, call) {
					all = append(all, finding{call, cname, m, coll})
					break
				}
			}
		}
	}
	// A function only the package calls, whose callers all keep the
	// object alive across the call: no finding (callers.go).
	all = slices.DeleteFunc(all, func(f finding) bool {
		if f.coll.Valid() {
			return c.callersKeep(fn, f.coll, nil)
		}
		return c.callersKeep(fn, f.m.obj, &f.m)
	})
	// One report per object: at its first call at risk, naming the others;
	// a single runtime.KeepAlive fixes them all.
	reported := make([]bool, len(all))
	for i, f := range all {
		if reported[i] {
			continue
		}
		key := f.m.obj
		if f.coll.Valid() {
			key = f.coll
		}
		var more []*ssa.Call
		for j := i + 1; j < len(all); j++ {
			g := all[j]
			gk := g.m.obj
			if g.coll.Valid() {
				gk = g.coll
			}
			if !reported[j] && sameRef(gk, key) {
				reported[j] = true
				more = append(more, g.call)
			}
		}
		coll := ""
		if f.coll.Valid() {
			coll = c.text(f.coll)
		}
		c.reportKeepAlive(fn, f.call, f.cname, f.m, coll, more)
	}
}

// disarmedBefore reports whether a disarm of obj's finalizer or cleanup
// (runtime.SetFinalizer(obj, nil), Stop on a runtime.Cleanup in obj, or a
// call of a function whose summary disarms it: func (w *W) stop() {
// w.c.Stop() }) runs before call on every path.
func (c *checker) disarmedBefore(fn *ssa.Function, call ssa.CallInstruction, obj access.Ref) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Call)
			if !ok || ssa.CallInstruction(d) == call {
				continue
			}
			callee := d.Call.StaticCallee()
			if callee == nil || len(d.Call.Args) == 0 {
				continue
			}
			if callee.Pkg == nil || callee.Pkg.Pkg.Path() != "runtime" {
				if sum := c.lt.SummaryOf(callee); sum != nil && cfg.Dominates(d, call) {
					for _, p := range sum.Disarms {
						if p.Root >= 0 && p.Root < len(d.Call.Args) && sameRef(norm(d.Call.Args[p.Root]).With(p.Ops...), obj) {
							return true
						}
					}
				}
				continue
			}
			arg := norm(d.Call.Args[0])
			switch {
			case callee.Name() == "SetFinalizer" && len(d.Call.Args) == 2 && sameRef(arg, obj):
				if k, ok := unwrap(d.Call.Args[1]).(*ssa.Const); !ok || k.Value != nil {
					continue
				}
			case callee.Name() == "Stop" && arg.Root == obj.Root && hasPrefix(arg.Ops, obj.Ops):
			case callee.Name() == "Stop" && cleanupAddedOn(d.Call.Args[0], obj):
			default:
				continue
			}
			if cfg.Dominates(d, call) {
				return true
			}
		}
	}
	return false
}

// cleanupAddedOn reports whether v, the receiver of a Stop, is the
// runtime.Cleanup that runtime.AddCleanup returned for obj, held in a
// variable assigned once (cl := runtime.AddCleanup(o, f, o.h); cl.Stop()).
func cleanupAddedOn(v ssa.Value, obj access.Ref) bool {
	if st := lifetime.SingleStore(v); st != nil {
		v = st
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	callee := call.Call.StaticCallee()
	if callee == nil {
		return false
	}
	if o := callee.Origin(); o != nil {
		callee = o
	}
	return callee.Pkg != nil && callee.Pkg.Pkg.Path() == "runtime" && callee.Name() == "AddCleanup" &&
		len(call.Call.Args) == 3 && sameRef(norm(call.Call.Args[0]), obj)
}

// lockedOut reports whether the finalizer's release of m's handle and
// call hold one lock: the finalizer takes it on its way to the release
// (mu.Lock(); defer mu.Unlock() in a Close it runs), and fn holds it
// across call, so a finalizer that runs during the call waits for it and
// releases afterwards. The finalizer's lock must be exclusive; the call may
// hold it for reading (Lock waits for readers too). Locks are told apart
// by variable, or by type and field (guards' keys): a lock of another
// object of the same type is taken for the object's own.
func (c *checker) lockedOut(fn *ssa.Function, call *ssa.Call, m managed) bool {
	if c.locks == nil || m.fin == nil {
		return false
	}
	held := keys(append(slices.Clone(c.locks.Held(call)), c.locks.EntryLocks(fn)...), false)
	if len(held) == 0 {
		return false
	}
	rel := c.finalizerLocks(m.fin, m.rel)
	return slices.ContainsFunc(held, func(k guards.Key) bool { return slices.Contains(rel, k) })
}

// finalizerLocks returns the exclusive locks the finalizer f holds at its
// release rel: at each step of the calls it makes on the way (its
// function's call of Close, Close's C call).
func (c *checker) finalizerLocks(f *lifetime.Finalizer, rel lifetime.FinalizerRelease) []guards.Key {
	if f.Func == nil || rel.Posn == "" {
		return nil
	}
	sum := c.lt.SummaryOf(f.Func)
	if sum == nil {
		return nil
	}
	i := slices.IndexFunc(sum.Releases, func(r *lifetime.Release) bool { return r.Path.Root == 0 && r.Posn == rel.Posn })
	if i < 0 {
		return nil
	}
	var out []guards.Key
	cur, fn := sum.Releases[i], f.Func
	for depth := 0; cur != nil && fn != nil && depth < 8; depth++ {
		// (a synthetic step, such as a method expression's thunk,
		// has no position: it holds no lock of its own)
		if step := lifetime.CallAt(fn, cur.Pos()); step != nil {
			out = append(out, keys(append(slices.Clone(c.locks.Held(step)), c.locks.EntryLocks(fn)...), true)...)
		}
		cur, fn = cur.Via()
	}
	return out
}

// keys returns the keys of locks ls, only the exclusive ones with
// exclusive, leaving out the locks guards names by type alone.
func keys(ls []guards.Lock, exclusive bool) []guards.Key {
	var out []guards.Key
	for _, l := range ls {
		if (!exclusive || !l.Read) && l.Key.Fields != guards.Some {
			out = append(out, l.Key)
		}
	}
	return out
}

// claimedBefore reports whether fn claims m's object before call
// (lifetime's ClaimsBefore: b.state.CompareAndSwap(0, 1), b.closed = true,
// a claim() helper) and the finalizer claims the same location on its way
// to releasing m's handle (FinalizerClaims: a literal that calls Close,
// or any function that claims b.closed before the release): collected
// during the call, the finalizer finds the object claimed and releases
// nothing, whatever call does with the handle (the finalizer's own
// release, a helper making it, another C call of another method that
// made the same claim). Release claiming another flag than the one the
// finalizer's Close claims claims nothing the finalizer tests.
func (c *checker) claimedBefore(fn *ssa.Function, call ssa.CallInstruction, m managed) bool {
	if !m.rel.Guarded || m.rel.Posn == "" {
		return false
	}
	return lifetime.SharesClaim(c.lt.ClaimsBefore(fn, call, m.obj, m.rel.Ops), c.lt.FinalizerClaims(m.fin, m.rel))
}

// tableRead reports whether v was read out of a table that keeps it
// reachable for as long as the entry stays, as a global keeps what it
// holds: a package-level map (registry[id]), a package-level sync.Map's
// Load, or the cgo handle table (cgo.Handle(h).Value(), in a callback
// whose caller holds the handle across the C call, per the runtime/cgo
// documentation), directly or through a function of the package that
// returns such a read (lookup(id), which reads the map under its lock). A
// read that removes the entry (LoadAndDelete) holds nothing.
func (c *checker) tableRead(v ssa.Value, depth int) bool {
	for {
		switch x := v.(type) {
		case *ssa.TypeAssert:
			v = x.X
			continue
		case *ssa.Extract:
			if x.Index != 0 {
				return false
			}
			v = x.Tuple
			continue
		case *ssa.ChangeInterface:
			v = x.X
			continue
		case *ssa.MakeInterface:
			v = x.X
			continue
		}
		break
	}
	global := func(x ssa.Value) bool {
		_, ok := lifetime.NormRef(access.Ref{Root: x}).Root.(*ssa.Global)
		return ok
	}
	switch x := v.(type) {
	case *ssa.Lookup:
		_, isMap := x.X.Type().Underlying().(*types.Map)
		return isMap && global(x.X)
	case *ssa.Call:
		callee := x.Call.StaticCallee()
		if callee == nil || callee.Pkg == nil {
			return false
		}
		if callee.Pkg.Pkg == c.pass.Pkg && depth < 2 && len(callee.Blocks) > 0 && callee.Signature.Results().Len() == 1 {
			if c.bodyChangesTable(callee, 1) {
				return false // take(id): reads the entry, and removes it
			}
			// every return of the package's function is such a read
			// (or nil)
			var results []ssa.Value
			for _, r := range cfg.Returns(callee) {
				res := r.Results[0]
				if ld, ok := res.(*ssa.UnOp); ok && ld.Op == token.MUL {
					if a, ok := ld.X.(*ssa.Alloc); ok {
						// a result variable (a function with a
						// defer returns through one): what is
						// stored into it
						for _, ref := range *a.Referrers() {
							if st, ok := ref.(*ssa.Store); ok && st.Addr == a {
								results = append(results, st.Val)
							}
						}
						continue
					}
				}
				results = append(results, res)
			}
			reads := 0
			for _, res := range results {
				if k, ok := res.(*ssa.Const); ok && k.IsNil() {
					continue
				}
				if !c.tableRead(res, depth+1) {
					return false
				}
				reads++
			}
			return reads > 0
		}
		if len(x.Call.Args) == 0 {
			return false
		}
		recv := callee.Signature.Recv()
		if recv == nil {
			return false
		}
		switch path, name := callee.Pkg.Pkg.Path(), callee.Name(); {
		case path == "runtime/cgo" && name == "Value":
			return true
		case path == "sync" && (name == "Load" || name == "LoadOrStore") && types.TypeString(recv.Type(), nil) == "*sync.Map":
			return global(x.Call.Args[0])
		}
	}
	return false
}

// tableChangedBefore reports whether fn may take an entry out of a table
// before call (see tableRead): delete or clear, a map update, a store to
// a package-level variable, a sync.Map's Delete, LoadAndDelete, Swap,
// CompareAndDelete, CompareAndSwap, Store or Clear, a cgo.Handle's Delete,
// or a call of a function of the package that writes globals or does one
// of those (its summary or its body says so, or it has no summary) other
// than read, the call that read
// the object (lookup(id)), wherever it can run before the call.
func (c *checker) tableChangedBefore(fn *ssa.Function, call *ssa.Call, read ssa.Value) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if v, ok := instr.(ssa.Value); ok && v == read {
				continue
			}
			if instr != call && c.changesTable(instr, 0) && cfg.Reaches(instr, call) {
				return true
			}
		}
	}
	return false
}

// changesTable reports whether instr may take an entry out of a table, as
// tableChangedBefore lists; in a function of the package, four calls deep
// (unregister(id) { delete(registry, id) }). A write can drop the table's
// reference only where the value it replaces could be one: a map update or
// a package-level variable's store of a type without pointers (a hit
// counter, lastUsed[id]++) removes no entry.
func (c *checker) changesTable(instr ssa.Instruction, depth int) bool {
	switch instr := instr.(type) {
	case *ssa.MapUpdate:
		return mayHoldPointer(instr.Value.Type())
	case *ssa.Store:
		_, ok := instr.Addr.(*ssa.Global)
		return ok && mayHoldPointer(instr.Val.Type())
	case ssa.CallInstruction:
		// (a deferred call too: in a callee, it runs before the
		// callee returns, take(id) { defer delete(registry, id) })
		com := instr.Common()
		if b, ok := com.Value.(*ssa.Builtin); ok {
			return b.Name() == "delete" || b.Name() == "clear"
		}
		callee := com.StaticCallee()
		if callee == nil || callee.Pkg == nil || c.calls.Lookup(instr) != nil || c.calls.Plumbing(instr) {
			return false
		}
		if _, isGo := instr.(*ssa.Go); isGo {
			return true // a goroutine may remove it at any time
		}
		switch path, name := callee.Pkg.Pkg.Path(), callee.Name(); {
		case path == "sync":
			return slices.Contains([]string{"Delete", "LoadAndDelete", "Swap", "CompareAndDelete", "CompareAndSwap", "Store", "Clear"}, name)
		case path == "runtime/cgo":
			return name == "Delete"
		case callee.Pkg.Pkg == c.pass.Pkg:
			if sum := c.lt.SummaryOf(callee); sum == nil || sum.Globals {
				return true
			}
			return depth < 4 && c.bodyChangesTable(callee, depth+1)
		}
	}
	return false
}

// mayHoldPointer reports whether a value of type t may hold a pointer:
// anything but booleans, numbers, strings and arrays and structs of them.
func mayHoldPointer(t types.Type) bool {
	switch t := t.Underlying().(type) {
	case *types.Basic:
		return t.Kind() == types.UnsafePointer || t.Kind() == types.Uintptr
	case *types.Array:
		return mayHoldPointer(t.Elem())
	case *types.Struct:
		for f := range t.Fields() {
			if mayHoldPointer(f.Type()) {
				return true
			}
		}
		return false
	}
	return true
}

// bodyChangesTable reports whether fn may take an entry out of a table
// (changesTable), depth calls deep.
func (c *checker) bodyChangesTable(fn *ssa.Function, depth int) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c.changesTable(instr, depth) {
				return true
			}
		}
	}
	return false
}

// handleArgs returns, for a call into C or into a Go function that passes
// some of its parameters to C, a name for the message and the arguments
// that reach C; "" when the call does neither.
func (c *checker) handleArgs(fn *ssa.Function, call *ssa.Call) (string, []access.Ref) {
	if cc := c.calls.Lookup(call); cc != nil {
		if cc.Mode != cgocall.Direct {
			return "", nil
		}
		var refs []access.Ref
		for _, r := range cc.Args {
			if r.Valid() {
				refs = append(refs, r)
			}
		}
		return "C." + cc.Name, refs
	}
	callee := call.Call.StaticCallee()
	if callee == nil || call.Call.IsInvoke() {
		return "", nil
	}
	sum := c.lt.SummaryOf(callee)
	var refs []access.Ref
	for i, a := range call.Call.Args {
		// a handle passed by value that the callee hands to C, or a slice
		// whose elements it hands to C (&in[0])
		if sum != nil && sum.UsesPath(access.Path{Root: i}) || isSlice(a.Type()) && c.passesElems(callee, i) {
			refs = append(refs, access.Ref{Root: a})
		}
		// a struct copied out of *x (a value receiver: x.Method()) whose
		// field the callee hands to C: that field of the object x points to
		if load, ok := a.(*ssa.UnOp); ok && load.Op == token.MUL && sum != nil {
			for _, u := range sum.Uses {
				if u.Root == i && len(u.Ops) > 0 && u.Ops[0].Kind == access.Field {
					refs = append(refs, access.Ref{Root: load.X, Ops: []access.Op{{Kind: access.FieldAddr, Index: u.Ops[0].Index}, {Kind: access.Load}}})
				}
			}
		}
	}
	if len(refs) == 0 {
		return "", nil
	}
	return calleeName(callee), refs
}

// passesElems reports whether fn, a function of the package, passes C the
// address of an element of its slice parameter i (&in[0], the array C
// reads), in its own body.
func (c *checker) passesElems(fn *ssa.Function, i int) bool {
	if fn.Pkg == nil || fn.Pkg.Pkg != c.pass.Pkg || i >= len(fn.Params) {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			cc := c.calls.Lookup(instr)
			if cc == nil || cc.Mode != cgocall.Direct {
				continue
			}
			for _, r := range cc.Args {
				if !r.Valid() {
					continue
				}
				a := lifetime.NormRef(r)
				if a.Root == fn.Params[i] && len(a.Ops) > 0 && a.Ops[0].Kind == access.IndexAddr {
					return true
				}
			}
		}
	}
	return false
}

func calleeName(fn *ssa.Function) string {
	if m, ok := fn.Object().(*types.Func); ok {
		if recv := m.Signature().Recv(); recv != nil {
			return fmt.Sprintf("(%s).%s", types.TypeString(recv.Type(), types.RelativeTo(m.Pkg())), m.Name())
		}
		return m.Name()
	}
	return fn.Name()
}

// gathered reports whether arg points into a Go slice or array into which
// the function stores handles of managed objects taken from a collection
// (tensors of a feeds slice copied into a C array); it returns one such
// handle and the collection.
func (c *checker) gathered(fn *ssa.Function, arg access.Ref) (managed, access.Ref, bool) {
	r := elemRef(arg)
	i := slices.IndexFunc(r.Ops, func(o access.Op) bool { return o.Kind == access.IndexAddr })
	var arrays []access.Ref
	switch {
	case i >= 0:
		base := access.Ref{Root: r.Root, Ops: r.Ops[:i]}
		arrays = []access.Ref{base}
		switch {
		case len(base.Ops) == 0 && isSlice(base.Root.Type()):
			// a slice built by appends (ptrs = append(ptrs, in.v))
			arrays = append(arrays, sliceSources(base.Root)...)
		case len(base.Ops) == 1 && base.Ops[0].Kind == access.Load:
			// a slice variable assigned in a loop: what is stored in it
			if al, ok := base.Root.(*ssa.Alloc); ok {
				for _, ref := range *al.Referrers() {
					if st, ok := ref.(*ssa.Store); ok && st.Addr == ssa.Value(al) && isSlice(st.Val.Type()) {
						arrays = append(arrays, sliceSources(st.Val)...)
					}
				}
			}
		}
	case len(r.Ops) == 0 && isSlice(r.Root.Type()):
		// a Go slice handed to a function that passes its elements to C,
		// built by appends or over an array
		arrays = sliceSources(r.Root)
	default:
		return managed{}, access.Ref{}, false
	}
	return c.storedHandles(fn, arrays, 0)
}

// copiedIn returns the managed handle fn copies into a field of the C
// struct that arg passes to C, by address (&args, or a pointer C.malloc
// returned) or by value (C.args{h: o.h}): C reads the handle out of the
// struct during the call, and only the struct is kept alive by cgo. The
// store must run before the call on every path to it.
func (c *checker) copiedIn(fn *ssa.Function, call *ssa.Call, arg access.Ref) (managed, bool) {
	r := lifetime.NormRef(arg)
	switch {
	case len(r.Ops) == 0:
	case len(r.Ops) == 1 && r.Ops[0].Kind == access.Load:
		if _, ok := r.Root.(*ssa.Alloc); !ok {
			return managed{}, false // a struct read out of memory the analysis does not follow
		}
	default:
		return managed{}, false
	}
	switch r.Root.(type) {
	case *ssa.Alloc, *ssa.Call: // a variable, a literal, fresh memory (C.malloc)
	default:
		return managed{}, false
	}
	// the struct, and the literals copied into it whole (a := C.args{h:
	// o.h} is a literal copied into a)
	srcs := []ssa.Value{r.Root}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok && st.Addr == r.Root {
				if ld, ok := st.Val.(*ssa.UnOp); ok && ld.Op == token.MUL {
					if al, ok := ld.X.(*ssa.Alloc); ok {
						srcs = append(srcs, al)
					}
				}
				// p := x.params(): a struct a function of the package
				// builds and returns, with a handle of its argument
				if bc, ok := st.Val.(*ssa.Call); ok && before(st, call) {
					if m, ok := c.builtBy(bc); ok {
						return m, true
					}
				}
			}
			// x.fill(&p): a function of the package fills the struct in
			if fc, ok := instr.(*ssa.Call); ok && fc != call && before(fc, call) {
				if i := slices.Index(fc.Call.Args, r.Root); i >= 0 {
					if m, ok := c.filledBy(fc, i); ok {
						return m, true
					}
				}
			}
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || !before(st, call) {
				continue
			}
			sr := lifetime.NormRef(access.Ref{Root: st.Addr})
			ops := sr.Ops
			if !slices.Contains(srcs, sr.Root) || len(ops) == 0 || !fieldsOnly(ops) {
				continue
			}
			if m, ok := c.handleOf(fn, access.Ref{Root: st.Val}); ok && !m.table {
				return m, true
			}
		}
	}
	return managed{}, false
}

// elemRef returns arg normalized (lifetime.NormRef), with
// unsafe.SliceData(s) read as &s[0], the first element's address.
func elemRef(arg access.Ref) access.Ref {
	r := lifetime.NormRef(arg)
	if sd, ok := r.Root.(*ssa.Call); ok && len(r.Ops) == 0 {
		if b, ok := sd.Call.Value.(*ssa.Builtin); ok && b.Name() == "SliceData" && len(sd.Call.Args) == 1 {
			return lifetime.NormRef(access.Ref{Root: sd.Call.Args[0]}).With(access.Op{Kind: access.IndexAddr})
		}
	}
	return r
}

// fieldsOnly reports whether ops are field addresses only (a path into
// a struct, or none).
func fieldsOnly(ops []access.Op) bool {
	return !slices.ContainsFunc(ops, func(o access.Op) bool { return o.Kind != access.FieldAddr })
}

// filledBy returns the managed handle that call, of a function of the
// package, stores into a field of the struct its argument i points to
// (func (x *Model) fill(p *C.run_params) { p.m = x.m }) from another of
// its arguments: that argument's object, in the caller's frame.
func (c *checker) filledBy(call *ssa.Call, i int) (managed, bool) {
	callee := call.Call.StaticCallee()
	if callee == nil || call.Call.IsInvoke() || callee.Pkg == nil || callee.Pkg.Pkg != c.pass.Pkg || len(callee.Blocks) == 0 || i >= len(callee.Params) {
		return managed{}, false
	}
	for _, b := range callee.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			sr := lifetime.NormRef(access.Ref{Root: st.Addr})
			if sr.Root != callee.Params[i] || len(sr.Ops) == 0 || !fieldsOnly(sr.Ops) {
				continue
			}
			if m, ok := c.argHandle(callee, call, st.Val); ok {
				return m, true
			}
		}
	}
	return managed{}, false
}

// argHandle returns the managed handle v is in callee when it is a
// handle of one of callee's parameters, named in the frame of call (the
// call of callee) by the argument passed for it.
func (c *checker) argHandle(callee *ssa.Function, call *ssa.Call, v ssa.Value) (managed, bool) {
	m, ok := c.handleOf(callee, access.Ref{Root: v})
	if !ok || m.table {
		return managed{}, false
	}
	p, isParam := m.obj.Root.(*ssa.Parameter)
	j := slices.Index(callee.Params, p)
	if !isParam || j < 0 || j >= len(call.Call.Args) {
		return managed{}, false
	}
	m.obj = lifetime.NormRef(access.Ref{Root: call.Call.Args[j], Ops: m.obj.Ops})
	if !m.obj.Valid() {
		return managed{}, false
	}
	m.root = m.obj.Root.Type()
	m.via = access.Ref{}
	return m, true
}

// elemHandles returns the managed handles fn stores into the elements of the
// Go array or slice whose first element arg passes to C (&items[0], or
// unsafe.SliceData(items)): C reads every element, and cgo keeps only the
// array alive for the call, not the objects whose handles are in it. The
// handle is an element itself (ms := []*C.model{x.m}, ms[i] = x.m, the
// OrtValue ** of an inputs array), a field of a struct element
// (items[i].m = x.m, a slice literal of structs), or a field of a struct
// literal copied into an element (append(items, C.item{m: x.m})). The
// store runs before the call on every path, or in a loop before it. Each
// object appears once ([2]*C.OrtValue{a.v, b.v} gives a and b).
func (c *checker) elemHandles(fn *ssa.Function, call *ssa.Call, arg access.Ref) []managed {
	var out []managed
	add := func(m managed) {
		if !slices.ContainsFunc(out, func(o managed) bool { return sameRef(o.obj, m.obj) }) {
			out = append(out, m)
		}
	}
	r := elemRef(arg)
	var sliceVals []ssa.Value
	switch {
	case len(r.Ops) == 1 && r.Ops[0].Kind == access.IndexAddr:
		sliceVals = []ssa.Value{r.Root}
	case len(r.Ops) == 2 && r.Ops[0].Kind == access.Load && r.Ops[1].Kind == access.IndexAddr:
		// a slice variable assigned more than once (items = append(items,
		// …) in a loop): every value stored in it
		al, ok := r.Root.(*ssa.Alloc)
		if !ok {
			return nil
		}
		for _, ref := range *al.Referrers() {
			if st, ok := ref.(*ssa.Store); ok && st.Addr == ssa.Value(al) {
				sliceVals = append(sliceVals, st.Val)
			}
		}
	default:
		return nil
	}
	// the arrays the slice is made of: itself, what it slices, what
	// appends put in it
	arrays := map[ssa.Value]bool{}
	var srcs []access.Ref
	for _, v := range sliceVals {
		srcs = append(srcs, sliceSources(v)...)
	}
	for _, s := range srcs {
		if len(s.Ops) != 0 {
			continue
		}
		switch v := s.Root.(type) {
		case *ssa.Alloc, *ssa.MakeSlice, *ssa.Phi, *ssa.Call:
			arrays[v] = true
		case *ssa.Slice:
			arrays[v] = true
			if x := norm(v.X); len(x.Ops) == 0 {
				arrays[x.Root] = true
			}
		}
	}
	stored := func(st *ssa.Store) bool { return before(st, call) || loopBefore(st, call) }
	// an array variable assigned a literal whole (ptrs := [2]*C.T{a.v,
	// b.v} copies the literal into ptrs): the literal's elements
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || !stored(st) || !arrays[st.Addr] {
				continue
			}
			if ld, ok := st.Val.(*ssa.UnOp); ok && ld.Op == token.MUL {
				if al, ok := ld.X.(*ssa.Alloc); ok {
					arrays[al] = true
				}
			}
		}
	}
	// (a handle taken from a collection, objs[i].m, is gathered's)
	handle := func(v ssa.Value) (managed, bool) {
		m, ok := c.handleOf(fn, access.Ref{Root: v})
		return m, ok && !m.table && !slices.ContainsFunc(m.obj.Ops, func(o access.Op) bool { return o.Kind == access.IndexAddr })
	}
	lits := map[ssa.Value]bool{} // struct literals copied into an element
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || !stored(st) {
				continue
			}
			sr := lifetime.NormRef(access.Ref{Root: st.Addr})
			if !arrays[sr.Root] || len(sr.Ops) == 0 || sr.Ops[0].Kind != access.IndexAddr || !fieldsOnly(sr.Ops[1:]) {
				continue
			}
			if m, ok := handle(st.Val); ok {
				add(m) // the element, or a field of it
				continue
			}
			if ld, ok := st.Val.(*ssa.UnOp); ok && ld.Op == token.MUL && len(sr.Ops) == 1 {
				if al, ok := ld.X.(*ssa.Alloc); ok {
					lits[al] = true
				}
			}
		}
	}
	if len(lits) == 0 {
		return out
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || !stored(st) {
				continue
			}
			sr := lifetime.NormRef(access.Ref{Root: st.Addr})
			if lits[sr.Root] && len(sr.Ops) > 0 && fieldsOnly(sr.Ops) {
				if m, ok := handle(st.Val); ok {
					add(m)
				}
			}
		}
	}
	return out
}

// builtBy returns the managed handle that call, of a function of the
// package returning a struct literal it builds (func (x *Model) params()
// C.run_params { return C.run_params{m: x.m} }), copies into a field of
// the struct from one of its arguments: that argument's object, in the
// caller's frame.
func (c *checker) builtBy(call *ssa.Call) (managed, bool) {
	callee := call.Call.StaticCallee()
	if callee == nil || call.Call.IsInvoke() || callee.Pkg == nil || callee.Pkg.Pkg != c.pass.Pkg || len(callee.Blocks) == 0 {
		return managed{}, false
	}
	var lits []*ssa.Alloc
	for _, r := range cfg.Returns(callee) {
		if len(r.Results) != 1 {
			return managed{}, false
		}
		ld, ok := r.Results[0].(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			continue
		}
		if al, ok := ld.X.(*ssa.Alloc); ok {
			lits = append(lits, al)
		}
	}
	for _, b := range callee.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			sr := lifetime.NormRef(access.Ref{Root: st.Addr})
			al, ok := sr.Root.(*ssa.Alloc)
			if !ok || !slices.Contains(lits, al) || len(sr.Ops) == 0 || !fieldsOnly(sr.Ops) {
				continue
			}
			if m, ok := c.argHandle(callee, call, st.Val); ok {
				return m, true
			}
		}
	}
	return managed{}, false
}

// storedHandles reports whether fn stores into one of arrays (Go slices
// or arrays of its frame) a handle of a managed object taken from a
// collection; it returns one such handle and the collection. An array a
// helper of the package returns counts with what the helper stores into
// it (handlesOf(images), a method copying the handles of a field's
// objects), the collection named in fn's frame by the helper's argument.
func (c *checker) storedHandles(fn *ssa.Function, arrays []access.Ref, depth int) (managed, access.Ref, bool) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			ia, ok := st.Addr.(*ssa.IndexAddr)
			if !ok || !slices.ContainsFunc(arrays, func(a access.Ref) bool { return sameRef(norm(ia.X), a) }) {
				continue
			}
			m, ok := c.handleOf(fn, access.Ref{Root: st.Val})
			if !ok || m.table {
				continue
			}
			// the object comes from a collection: the part of its path
			// before the element
			j := slices.IndexFunc(m.obj.Ops, func(o access.Op) bool { return o.Kind == access.IndexAddr })
			if j < 0 {
				continue
			}
			return m, access.Ref{Root: m.obj.Root, Ops: m.obj.Ops[:j]}, true
		}
	}
	if depth >= 2 {
		return managed{}, access.Ref{}, false
	}
	for _, a := range arrays {
		call, ok := a.Root.(*ssa.Call)
		if !ok || len(a.Ops) != 0 || call.Call.IsInvoke() {
			continue
		}
		callee := call.Call.StaticCallee()
		if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg != c.pass.Pkg || len(callee.Blocks) == 0 {
			continue
		}
		var inner []access.Ref
		for _, b := range callee.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
				for _, v := range ret.Results {
					if isSlice(v.Type()) {
						inner = append(inner, sliceSources(v)...)
					}
				}
			}
		}
		m, coll, ok := c.storedHandles(callee, inner, depth+1)
		if !ok {
			continue
		}
		p, isParam := coll.Root.(*ssa.Parameter)
		i := slices.Index(callee.Params, p)
		if !isParam || i < 0 || i >= len(call.Call.Args) {
			continue
		}
		return m, lifetime.NormRef(access.Ref{Root: call.Call.Args[i], Ops: coll.Ops}), true
	}
	return managed{}, access.Ref{}, false
}

func isSlice(t types.Type) bool {
	_, ok := t.Underlying().(*types.Slice)
	return ok
}

// sliceSources returns the arrays and slices a slice value is made of:
// through appends (the slice appended to and the values appended), phis of
// a loop, reslicing and conversions.
func sliceSources(v ssa.Value) []access.Ref {
	var out []access.Ref
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		if v == nil || seen[v] || len(seen) > 32 {
			return
		}
		seen[v] = true
		out = append(out, norm(v))
		switch v := v.(type) {
		case *ssa.Phi:
			for _, e := range v.Edges {
				walk(e)
			}
		case *ssa.Slice:
			walk(v.X)
		case *ssa.ChangeType:
			walk(v.X)
		case *ssa.Call:
			if b, ok := v.Call.Value.(*ssa.Builtin); ok && b.Name() == "append" {
				for _, a := range v.Call.Args {
					walk(a)
				}
			}
		}
	}
	walk(v)
	return out
}

// before reports whether a runs before b on every path to b: a's block
// dominates b's, and, in one block, a comes first.
// loopBefore reports whether a is in the body of a loop whose header
// dominates b, which the loop's exit reaches: for i := range items {
// items[i].m = x.m } before the call that passes the items.
func loopBefore(a, b ssa.Instruction) bool {
	ab, bb := a.Block(), b.Block()
	if ab == bb || bb.Dominates(ab) {
		return false
	}
	for _, h := range ab.Preds {
		// a header: a block that dominates a and b, and that a leads
		// back to
		for d := h; d != nil; d = d.Idom() {
			if d.Dominates(bb) && d.Dominates(ab) && cfg.BlockReaches(ab, d) {
				return true
			}
		}
	}
	return false
}

func before(a, b ssa.Instruction) bool {
	if a.Block() != b.Block() {
		return a.Block().Dominates(b.Block())
	}
	for _, instr := range a.Block().Instrs {
		switch instr {
		case a:
			return true
		case b:
			return false
		}
	}
	return false
}

// heldBy returns the value that call hands to the runtime to keep
// reachable: the argument of runtime/cgo.NewHandle, whose handle table
// holds it until (cgo.Handle).Delete, or of (*runtime.Pinner).Pin, which
// pins it until Unpin (the runtime and runtime/cgo documentation); nil for
// other calls.
func heldBy(call *ssa.Call) ssa.Value {
	fn := call.Call.StaticCallee()
	if fn == nil || fn.Pkg == nil {
		return nil
	}
	args := call.Call.Args
	var v ssa.Value
	switch path := fn.Pkg.Pkg.Path(); {
	case path == "runtime/cgo" && fn.Name() == "NewHandle" && len(args) == 1:
		v = args[0]
	case path == "runtime" && fn.Name() == "Pin" && fn.Signature.Recv() != nil && len(args) == 2:
		v = args[1]
	default:
		return nil
	}
	if mi, ok := v.(*ssa.MakeInterface); ok {
		return mi.X
	}
	return v
}

// releasedBefore reports whether fn calls (cgo.Handle).Delete or
// (*runtime.Pinner).Unpin, not deferred, where it may run before at: the
// runtime may then no longer hold what NewHandle or Pin gave it.
func releasedBefore(fn *ssa.Function, at ssa.Instruction) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || instr == at {
				continue
			}
			f := call.Call.StaticCallee()
			if f == nil || f.Pkg == nil || f.Signature.Recv() == nil {
				continue
			}
			path := f.Pkg.Pkg.Path()
			if (path == "runtime/cgo" && f.Name() == "Delete" || path == "runtime" && f.Name() == "Unpin") && !cfgAfterOnly(call, at) {
				return true
			}
		}
	}
	return false
}

// cfgAfterOnly reports whether instr runs only after at: at runs before
// it on every path, and no path from instr leads back to at (a loop).
func cfgAfterOnly(instr, at ssa.Instruction) bool {
	if !before(at, instr) {
		return false
	}
	seen := map[*ssa.BasicBlock]bool{}
	var back func(b *ssa.BasicBlock) bool
	back = func(b *ssa.BasicBlock) bool {
		for _, s := range b.Succs {
			if s == at.Block() {
				return true
			}
			if !seen[s] {
				seen[s] = true
				if back(s) {
					return true
				}
			}
		}
		return false
	}
	return !back(instr.Block())
}

func sameRef(a, b access.Ref) bool {
	return a.Root == b.Root && slices.Equal(a.Ops, b.Ops)
}

// keptAlive reports whether obj stays reachable until call returns: another
// argument of the call points into it, a deferred call uses it, it is
// stored somewhere, or some path from the call uses it.
func (c *checker) keptAlive(fn *ssa.Function, call *ssa.Call, obj access.Ref, at ssa.Instruction) bool {
	return c.keptAliveDepth(fn, call, obj, at, 0, true)
}

// keptAliveDepth is keptAlive; args says whether an argument of call that
// points into obj counts (it does for a call into C, which cgo keeps
// alive, not for the call of a Go function that takes obj itself).
func (c *checker) keptAliveDepth(fn *ssa.Function, call *ssa.Call, obj access.Ref, at ssa.Instruction, depth int, args bool) bool {
	// An object a call returned that the analysis cannot see into (an
	// interface method, a function with no summary of its result) may
	// point into the receiver or an argument, as git2go's AsObject returns
	// &c.Object: keeping that value alive keeps the object alive.
	if src, ok := obj.Root.(*ssa.Call); ok && len(obj.Ops) == 0 && depth < 2 && opaqueResult(c, src) {
		from := slices.Clone(src.Call.Args)
		if src.Call.IsInvoke() {
			from = append(from, src.Call.Value)
		}
		for _, a := range from {
			if !mayPoint(a.Type()) {
				continue
			}
			if c.keptAliveDepth(fn, call, norm(a), at, depth+1, args) {
				return true
			}
		}
	}
	uses := func(instr ssa.Instruction) bool { return c.usesObj(instr, obj) }
	// Another argument of the same call points into the object (&o.field):
	// cgo keeps it alive for the call.
	var argRefs []access.Ref
	switch cc := c.calls.Lookup(call); {
	case !args:
	case cc != nil:
		for _, r := range cc.Args {
			argRefs = append(argRefs, lifetime.NormRef(r))
		}
	default:
		for _, a := range call.Call.Args {
			argRefs = append(argRefs, norm(a))
		}
	}
	for _, ar := range argRefs {
		if ar.Root == obj.Root && hasPrefix(ar.Ops, obj.Ops) && !hasLoad(ar.Ops[len(obj.Ops):]) {
			return true
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Defer:
				// runs at exit, after the call, where the defer
				// statement ran before it on every path (one after
				// the call is a use after it, below)
				if uses(instr) && before(instr, at) {
					return true
				}
			case *ssa.Store:
				if a, ok := instr.Addr.(*ssa.Alloc); ok && lifetime.SingleStore(a) == instr.Val {
					continue // a variable holding it: its loads are uses
				}
				if sameRef(norm(instr.Val), obj) {
					return true // reachable from memory
				}
			case *ssa.MapUpdate:
				if sameRef(norm(instr.Value), obj) || sameRef(norm(instr.Key), obj) {
					return true
				}
			case *ssa.Call:
				// cgo.NewHandle(o) and (*runtime.Pinner).Pin(o) keep o
				// reachable (the handle table, the pinner) until Delete
				// or Unpin, as a store to memory does
				if held := heldBy(instr); held != nil && sameRef(norm(held), obj) && before(instr, at) && !releasedBefore(fn, at) {
					return true
				}
			case *ssa.Send:
				if sameRef(norm(instr.X), obj) {
					return true
				}
			case *ssa.MakeClosure:
				// a closure that captures the object (a goroutine still
				// running, a callback kept by someone) may keep it alive;
				// cgo's own wrappers do not count, nor the closure the
				// call runs (f := func() { … }; f()): its context is
				// not kept while it runs
				if fn, ok := instr.Fn.(*ssa.Function); ok && !c.calls.IsWrapper(fn) && !c.calls.Plumbing(instr) && call.Call.Value != ssa.Value(instr) {
					for _, b := range instr.Bindings {
						r := norm(b)
						if r.Root == obj.Root && (hasPrefix(obj.Ops, r.Ops) || hasPrefix(r.Ops, obj.Ops) && !hasLoad(r.Ops[len(obj.Ops):])) {
							return true
						}
					}
				}
			}
		}
	}
	if c.operandAfter(call, uses) {
		return true
	}
	// A use on some path after the call: the compiler's liveness is a
	// union over paths, so the object stays in a live stack slot during
	// the call (it is kept alive even on the paths that do not use it).
	found := false
	cfg.After(at, func(instr ssa.Instruction) bool {
		if !c.calls.Plumbing(instr) && uses(instr) {
			found = true
		}
		return !found
	})
	return found
}

// operandAfter reports whether an operand of the expression (or simple
// statement) that makes call reads the object after call runs: gc
// evaluates the calls of an expression first and its other operands after
// them (the spec leaves their order open), so r.off in r.off +
// C.f(r.h), r.cache in r.cache[C.f(r.h)] and x in x, n := r.x, C.f(r.h)
// are read after the call, though go/ssa reads them before it. A read
// there keeps the object alive across the call under gc, and the
// portable fix, a runtime.KeepAlive, would only restate it: say nothing.
func (c *checker) operandAfter(call *ssa.Call, uses func(ssa.Instruction) bool) bool {
	ce := c.calls.CallExpr(call)
	if ce == nil {
		return false
	}
	file := cgofile.FileOf(c.pass.Files, ce.Pos())
	if file == nil || ce.End() > file.FileEnd {
		return false
	}
	path, _ := astutil.PathEnclosingInterval(file, ce.Pos(), ce.End())
	var outer ast.Node = ce
walk:
	for _, n := range path[1:] {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				break walk // its left operand runs first
			}
			outer = n
		case ast.Expr:
			outer = n
		case *ast.ReturnStmt, *ast.AssignStmt, *ast.ExprStmt, *ast.SendStmt, *ast.IncDecStmt, *ast.ValueSpec:
			outer = n
			break walk
		default:
			break walk
		}
	}
	if outer == ast.Node(ce) {
		return false
	}
	in := func(p token.Pos, n ast.Node) bool { return p.IsValid() && n.Pos() <= p && p < n.End() }
	// the operands of another call of the expression are read when that
	// call runs, in lexical order with this one (touch(&i.P) + Use(i.P))
	var calls []ast.Node
	ast.Inspect(outer, func(n ast.Node) bool {
		if e, ok := n.(*ast.CallExpr); ok && e != ce && !(e.Pos() <= ce.Pos() && ce.End() <= e.End()) {
			if tv, ok := c.pass.TypesInfo.Types[e.Fun]; !ok || !tv.IsType() {
				calls = append(calls, e)
				return false
			}
		}
		return true
	})
	for _, b := range call.Parent().Blocks {
		for _, instr := range b.Instrs {
			switch instr.(type) {
			case *ssa.FieldAddr, *ssa.Field, *ssa.UnOp, *ssa.IndexAddr, *ssa.Index, *ssa.Lookup:
			default:
				continue // a call is ordered, and so is what it reads
			}
			if in(instr.Pos(), outer) && !in(instr.Pos(), ce) && uses(instr) &&
				!slices.ContainsFunc(calls, func(n ast.Node) bool { return in(instr.Pos(), n) }) {
				return true
			}
		}
	}
	return false
}

// opaqueResult reports whether the result of call may point into one of
// its operands as far as the analysis knows: an interface method, a
// function value, or a static callee whose summary does not say it returns
// a fresh allocation or a path of a parameter.
func opaqueResult(c *checker, call *ssa.Call) bool {
	callee := call.Call.StaticCallee()
	if callee == nil || call.Call.IsInvoke() {
		return true
	}
	sum := c.lt.SummaryOf(callee)
	if sum == nil {
		return true
	}
	_, ok := sum.ReturnOf(0)
	return !ok && !returnsFresh(callee)
}

// returnsFresh reports whether every return of fn returns a new allocation
// (&T{...}, new(T)) or nil.
func returnsFresh(fn *ssa.Function) bool {
	if len(fn.Blocks) == 0 {
		return false
	}
	for _, b := range fn.Blocks {
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			if len(r.Results) == 0 {
				return false
			}
			switch v := r.Results[0].(type) {
			case *ssa.Alloc:
				if !v.Heap {
					return false
				}
			case *ssa.Const:
			default:
				return false
			}
		}
	}
	return true
}

// mayPoint reports whether a value of type t can hold a pointer.
func mayPoint(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Interface, *types.Slice, *types.Map, *types.Chan:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Struct:
		return true
	}
	return false
}

// usesObj reports whether instr uses obj, a pointer named by an access path:
// an operand is obj, a field address of it, or a prefix of its path (what
// it was loaded from); closures count with their bindings. An operand is
// named as obj is (origin): through accessors, so the result of h.get(),
// which is h.im's pointer itself, is a use of h.im. The map an object was
// read from counts, as a slice does for its elements.
func (c *checker) usesObj(instr ssa.Instruction, obj access.Ref) bool {
	// an object read out of a map (m["a"]): the map, or what holds it,
	// keeps its values reachable, as a slice does its elements
	var held access.Ref
	if l, ok := obj.Root.(*ssa.Lookup); ok {
		if _, isMap := l.X.Type().Underlying().(*types.Map); isMap {
			held = norm(l.X)
		}
	}
	var ops []*ssa.Value
	ops = instr.Operands(ops[:0])
	if ci, ok := instr.(ssa.CallInstruction); ok {
		if mc, ok := ci.Common().Value.(*ssa.MakeClosure); ok {
			for i := range mc.Bindings {
				ops = append(ops, &mc.Bindings[i])
			}
		}
	}
	for _, p := range ops {
		if p == nil || *p == nil {
			continue
		}
		r := norm(*p)
		if _, ok := r.Root.(*ssa.Call); ok {
			if o, ok := c.origin(instr.Parent(), r, 0); ok {
				r = o
			}
		}
		if held.Valid() && r.Root == held.Root && hasPrefix(held.Ops, r.Ops) {
			return true // the map the object was read from, which holds it
		}
		if r.Root != obj.Root {
			continue
		}
		// the object, a pointer into it (&o.f: a load through it reads
		// the object), or what holds it; not a value loaded out of it
		// earlier, which lives on its own
		if hasPrefix(r.Ops, obj.Ops) && !hasLoad(r.Ops[len(obj.Ops):]) || hasPrefix(obj.Ops, r.Ops) {
			return true
		}
	}
	return false
}

// text renders an access path of fn's frame as source would.
func (c *checker) text(r access.Ref) string {
	name := srcname.Of(c.pass.Files, r.Root)
	if name == "" {
		name = r.Root.Name()
	}
	if a, ok := r.Root.(*ssa.Alloc); ok && srcname.IsVar(a) || capturedVar(r.Root) {
		// the variable's address: its value is one load away
		if len(r.Ops) > 0 && r.Ops[0].Kind == access.Load {
			return access.Render(name, access.Deref(r.Root.Type()), r.Ops[1:])
		}
		return strings.TrimPrefix(access.Render(name, r.Root.Type(), append([]access.Op{{Kind: access.Load}}, r.Ops...)), "*")
	}
	return access.Render(name, r.Root.Type(), r.Ops)
}

// argTextImpure returns how the call at pos names the object whose
// handle, at path suffix (".h") from it, it passes: the one argument that
// is an expression without side effects (a variable, a field, an element
// at an index of such, a dereference) followed by the suffix, without the
// suffix; ok is false unless exactly one argument is. impure reports that
// the one argument with the suffix computes the object with a call, a
// receive or an assertion (h.Take().h): whatever the path says of it, no
// name fits.
func (c *checker) argTextImpure(pos token.Pos, suffix string) (name string, ok, impure bool) {
	f := cgofile.FileOf(c.pass.Files, pos)
	if f == nil {
		return "", false, false
	}
	path, _ := astutil.PathEnclosingInterval(f, pos, pos)
	for _, n := range path {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			continue
		}
		var names []string
		matched := 0
		for _, a := range call.Args {
			text := types.ExprString(ast.Unparen(a))
			rest, ok := strings.CutSuffix(text, suffix)
			if !ok || rest == "" {
				continue
			}
			matched++
			if e, err := parser.ParseExpr(rest); err == nil && pure(e, c.pass.TypesInfo) {
				names = append(names, rest)
			}
		}
		if len(names) == 1 && matched == 1 {
			return names[0], true, false
		}
		return "", false, matched == 1 && len(names) == 0
	}
	return "", false, false
}

// localVar reports whether name, at pos, is a variable declared in a
// function (a parameter, a local, a captured local), not a package-level
// one.
func (c *checker) localVar(name string, pos token.Pos) bool {
	if !token.IsIdentifier(name) {
		return false
	}
	sc := c.pass.Pkg.Scope().Innermost(pos)
	if sc == nil {
		return false
	}
	in, obj := sc.LookupParent(name, pos)
	_, ok := obj.(*types.Var)
	return ok && in != c.pass.Pkg.Scope() && in != types.Universe
}

// pure reports whether evaluating e (parsed from the source's text, so
// without types: info is only asked about names) has no effect and gives
// the same value again while nothing writes what it reads: names, fields,
// dereferences, indices and literals, len and cap.
func pure(e ast.Expr, info *types.Info) bool {
	switch e := e.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return pure(e.X, info)
	case *ast.SelectorExpr:
		return pure(e.X, info)
	case *ast.StarExpr:
		return pure(e.X, info)
	case *ast.IndexExpr:
		return pure(e.X, info) && pure(e.Index, info)
	case *ast.BinaryExpr:
		return pure(e.X, info) && pure(e.Y, info)
	case *ast.CallExpr:
		id, ok := e.Fun.(*ast.Ident)
		return ok && (id.Name == "len" || id.Name == "cap") && len(e.Args) == 1 && pure(e.Args[0], info)
	}
	return false
}

// validExpr reports whether s, a path as access.Render renders it or an
// argument's text, is an expression the user could write: not ws[i], nor
// *p.f (which means *(p.f)).
func validExpr(s string) bool {
	if validIdentPath(s) {
		return true
	}
	e, err := parser.ParseExpr(s)
	return err == nil && !strings.Contains(s, "[i]") && !strings.HasPrefix(s, "*") && pure(e, nil)
}

func (c *checker) reportKeepAlive(fn *ssa.Function, call *ssa.Call, cname string, m managed, coll string, more []*ssa.Call) {
	pos := call.Pos()
	if cc := c.calls.Lookup(call); cc != nil {
		pos = cc.Pos
	}
	obj := c.text(m.obj)
	named := srcname.Of(c.pass.Files, m.obj.Root) != ""
	written := false // obj is the source's text
	// A name the analysis's path gives that the call does not (h.w, when
	// the call passes w.h or h.Take().h) may not hold the object after
	// the call (Take clears h.w): the call's name goes in the message.
	// A fix keeps the call's name alive only where that name is a local
	// variable (w := h.Take(); C.use(w.h)): a KeepAlive(w) right after
	// the call reads the very value the call's argument was computed
	// from, which the analysis names by the same path (through an
	// accessor, see usesObj). An expression (h.Take(), or x.w for a path
	// h.w) may give another value when evaluated again: no fix.
	suffix := access.Render("", access.TypeAfter(m.root, m.obj.Ops), m.rel.Ops)
	noFix := false
	argName, argOK, impure := c.argTextImpure(pos, suffix)
	viaRoot := "" // the variable holding the accessor's result
	if m.via.Valid() {
		// Found through an accessor: the path (h.im, perhaps a field
		// another package does not export) is the analysis's, not the
		// source's. The object is named by the variable that holds the
		// accessor's result (w := h.take()), and the fix keeps that
		// variable alive: a KeepAlive(w) is a use of the path through
		// the accessor (usesObj), and keeps what w reaches (w.in)
		// reachable. A result no variable holds has no name.
		root := srcname.Of(c.pass.Files, m.via.Root)
		noFix = len(more) > 0 || !c.localVar(root, pos)
		if root == "" || !token.IsIdentifier(root) {
			named = false
		} else {
			obj, named, written = c.text(m.via), true, true
			if !validExpr(obj) {
				obj = root
			}
			viaRoot = root
		}
		argOK, impure = false, false
	}
	if len(more) == 0 && (impure || argOK && argName != obj) {
		noFix = !argOK || !c.localVar(argName, pos)
		if impure {
			named = false
		} else {
			obj, written = argName, true
		}
	}
	if len(more) == 0 && (!named || !validExpr(obj)) {
		// the object as the call's argument names it (ws[0].h, m[k].h,
		// (*pw).h) where the path cannot (ws[i], or a value with no
		// name); a path it can write stays: it is what the analysis
		// takes a KeepAlive of (h.w for w := h.W(), through the
		// getter); with several calls, they may be at other objects:
		// no one name fits
		if argOK {
			obj, named, written = argName, true, true
		}
	}
	// a value with no name says "the object"; a path that is no Go
	// (ws[i]) stays in the message, and neither gets a KeepAlive of it
	unnamed := !named
	if unnamed {
		obj = "the object"
	}
	handle := access.Render(obj, access.TypeAfter(m.root, m.obj.Ops), m.rel.Ops)
	if e, err := parser.ParseExpr(obj); err == nil {
		if p, ok := e.(*ast.ParenExpr); ok {
			// (*pw).h, but KeepAlive(*pw)
			obj = types.ExprString(p.X)
		}
	}
	if unnamed {
		handle = "its handle"
	}
	what := "finalizer set"
	if m.fin.Cleanup {
		what = "cleanup added"
	}
	at := m.fin.Posn
	if m.fin.Pos().IsValid() {
		at = diag.Where(c.pass.Fset, m.fin.Pos(), pos)
	}
	keep := obj
	switch {
	case coll != "":
		keep = coll
	case viaRoot != "":
		keep = viaRoot
	}
	// The advice says what the fix does: a runtime.KeepAlive after the
	// call, or a deferred one before it (see keepAliveFix, which says which
	// even when it offers no fix).
	fix, deferred, hasFix, say := c.keepAliveFix(call, keep, more)
	hasFix = hasFix && !noFix
	advice := "add runtime.KeepAlive(" + keep + ") after the call"
	switch {
	case deferred && len(more) > 0:
		advice = "add defer runtime.KeepAlive(" + keep + ") before the first of them"
	case deferred:
		advice = "add defer runtime.KeepAlive(" + keep + ") before the call"
	case len(more) > 0:
		advice = "add runtime.KeepAlive(" + keep + ") after the last of them"
	}
	if (unnamed || !written && !validExpr(obj)) && coll == "" {
		advice = "hold it in a variable, and keep that alive past the call (runtime.KeepAlive)"
	}
	if say != "" {
		advice = say
	}
	var msg string
	if coll != "" {
		msg = fmt.Sprintf("the %s objects in %s may be collected while %s runs with handles copied out of them: nothing uses %s after the call, so the %s at %s (%s) can release them during it",
			m.tn.Name(), coll, cname, coll, what, at, m.fin.Name)
	} else {
		msg = fmt.Sprintf("%s may be collected while %s runs with %s: nothing uses %s after the call, so the %s at %s (%s) can release %s during it",
			obj, cname, handle, obj, what, at, m.fin.Name, handle)
	}
	if len(more) > 0 {
		var lines []string
		for _, m := range more {
			p := m.Pos()
			if cc := c.calls.Lookup(m); cc != nil {
				p = cc.Pos
			}
			lines = append(lines, strings.TrimPrefix(diag.Where(c.pass.Fset, p, pos), "line "))
		}
		word := "line"
		if len(lines) > 1 {
			word = "lines"
		}
		msg += fmt.Sprintf(" (and the same at %s %s)", word, strings.Join(lines, ", "))
	}
	d := analysis.Diagnostic{Pos: pos, Message: msg + "; " + advice}
	if hasFix {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	c.rep.Report(d)
}

// callPos is the position of call in the user's source: cgo's wrapper
// call is at the C call it stands for.
func (c *checker) callPos(call ssa.CallInstruction) token.Pos {
	if cc := c.calls.Lookup(call); cc != nil {
		return cc.Pos
	}
	return call.Pos()
}

// exitsAt reports whether the statement that makes the call at pos leaves
// the function: a return, a panic or another terminating statement.
func (c *checker) exitsAt(file *ast.File, pos token.Pos) bool {
	path, _ := astutil.PathEnclosingInterval(file, pos, pos)
	_, inner, _, found := stmtedit.Enclosing(path)
	if !found {
		return false
	}
	switch s := inner.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.ExprStmt:
		return stmtedit.Terminates(s, c.pass.TypesInfo)
	}
	return stmtedit.Terminates(inner, c.pass.TypesInfo)
}

// keepAliveFix inserts runtime.KeepAlive(obj) after the statement that
// makes the call, or, when control never gets past that statement (it
// returns, panics, or is another terminating statement) or later calls are
// at risk too (several), defers it just before (deferred is true). The
// statement is the element of the statement list that holds the call (a
// block, a case or comm clause's body, through labels). In a loop it never
// defers for later calls, and offers no fix when later calls are at risk
// too (a KeepAlive after the first call would not cover them); it offers
// none either for a defer before anything but a return or a panic in a
// function with a goto (the defer could pile up on a jump back), nor when
// no statement list holds the call. An insertion
// after the statement goes after the comments that end its line, or, when
// other code follows it on its line, right after it on a line of its own.
func (c *checker) keepAliveFix(call *ssa.Call, obj string, more []*ssa.Call) (fix analysis.SuggestedFix, deferred, ok bool, advice string) {
	several := len(more) > 0
	pos := c.callPos(call)
	if several {
		// the defer goes before the first call in the source, which
		// need not be the one reported (the first in the blocks' order)
		others := append([]*ssa.Call{call}, more...)
		first := slices.MinFunc(others, func(a, b *ssa.Call) int { return cmp.Compare(c.callPos(a), c.callPos(b)) })
		pos = c.callPos(first)
		more = slices.DeleteFunc(others, func(m *ssa.Call) bool { return m == first })
	}
	file := cgofile.FileOf(c.pass.Files, pos)
	if file == nil {
		return analysis.SuggestedFix{}, several, false, ""
	}
	// (an object the fix cannot name, ws[0], still gets the advice of
	// where its KeepAlive goes)
	identOK := validIdentPath(obj)
	path, _ := astutil.PathEnclosingInterval(file, pos, pos)
	// With later calls at risk too, the defer goes before the statement,
	// of the innermost statement list holding them all, that holds the
	// first: a defer in a block that the later calls' paths never enter
	// (if k > 0 { return C.use(o) }; C.use(o)) would not cover them.
	from := 0
	if several {
		from = -1
		for i, n := range path {
			if !slices.ContainsFunc(more, func(m *ssa.Call) bool { p := c.callPos(m); return p < n.Pos() || p >= n.End() }) {
				from = i
				break
			}
		}
		if from < 0 {
			return analysis.SuggestedFix{}, true, false, ""
		}
		switch path[from].(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			if from > 0 {
				from--
			}
		}
	}
	stmt, inner, depth, found := stmtedit.Enclosing(path[from:])
	if !found {
		return analysis.SuggestedFix{}, several, false, ""
	}
	// (when the file's name for runtime means something else here, the
	// advice still says where the KeepAlive goes; there is no fix)
	rt, imported, rtOK := c.runtimeName(file, pos)
	indent := "\n" + strings.Repeat("\t", max(depth, 1))
	// a loop counts when the insertion statement is in its body: a loop
	// inside the statement (for { if … { return C.use(o) } }; C.use(o))
	// runs after the defer, which goes before it once
	inLoop := false
	var body ast.Node
	for _, n := range path[from:] {
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if n != inner && n.Pos() <= stmt.Pos() && stmt.End() <= n.End() {
				inLoop = true
			}
		case *ast.FuncLit:
			body = n.Body
			goto done
		case *ast.FuncDecl:
			body = n.Body
			goto done
		}
	}
done:
	if body == nil {
		return analysis.SuggestedFix{}, false, false, ""
	}
	if several {
		// a defer takes the object before the first call: one that
		// code between the calls gives another value (o.f = v,
		// set(&o, v)) would not be the later calls'
		last := pos
		for _, m := range more {
			last = max(last, c.callPos(m))
		}
		atRisk := []token.Pos{pos}
		for _, m := range more {
			atRisk = append(atRisk, c.callPos(m))
		}
		if c.writesBetween(body, obj, pos, pos, last) || c.mayChangeBetween(body, obj, pos, last, atRisk) {
			return analysis.SuggestedFix{}, true, false, "keep each object alive past its call (runtime.KeepAlive): " + obj + " changes between them"
		}
	}
	if several && inLoop {
		// no fix; the advice is a KeepAlive after the last call, which
		// covers them all unless one of them leaves the function
		exit := c.exitsAt(file, pos)
		for _, m := range more {
			exit = exit || c.exitsAt(file, c.callPos(m))
		}
		return analysis.SuggestedFix{}, exit, false, ""
	}
	var edits []analysis.TextEdit
	msg := "Add runtime.KeepAlive(" + obj + ") after the call"
	exits := false // inner leaves the function: a return or a panic
	switch s := inner.(type) {
	case *ast.ReturnStmt:
		exits = true
	case *ast.ExprStmt:
		exits = stmtedit.Terminates(s, c.pass.TypesInfo)
	}
	// A statement that gives the variable another value (n, o =
	// C.use(o.h), o.next) would have a KeepAlive after it keep that one
	// alive, not the object the call used: a deferred one takes the
	// value before it (but in a loop, would pile up, one per trip).
	reassigns := c.assigns(inner, obj, pos)
	if exits || several || reassigns || !stmtedit.Completes(inner, c.pass.TypesInfo) {
		// (a KeepAlive after a statement that control never gets past,
		// one whose every path returns or breaks out of a loop, would
		// be dead code)
		if !exits && (stmtedit.HasGoto(body) || inLoop && (reassigns || stmtedit.HasContinue(inner))) {
			// a jump back would run the defer again and again: the
			// advice stays, the fix is the user's to place
			return analysis.SuggestedFix{}, true, false, ""
		}
		deferred = true
		msg = "Add defer runtime.KeepAlive(" + obj + ") before the call"
		// after the labels, which then name the defer (a goto to one
		// runs it), unless a break or continue may name them (there
		// is no goto then: only falling in reaches the label)
		at := inner.Pos()
		if stmtedit.Breakable(inner) {
			at = stmt.Pos()
		}
		if !rtOK || !identOK || !c.sameNames(file, obj, pos, at) {
			return analysis.SuggestedFix{}, true, false, ""
		}
		edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte("defer " + rt + "KeepAlive(" + obj + ")" + indent)})
	} else {
		// after the statement and the comments that end its line, in
		// the file as it is (not as //line directives present it)
		end, ok := c.lineEnd(stmt.End())
		if !ok {
			return analysis.SuggestedFix{}, false, false, ""
		}
		if !rtOK || !identOK {
			return analysis.SuggestedFix{}, false, false, ""
		}
		// the names as they are after the statement, which may declare
		// either (runtime := …, or a new o: n, o := C.use(o.h), 7):
		// a defer before it takes o as the call does
		if !c.sameNames(file, obj, pos, stmt.End()) {
			return analysis.SuggestedFix{}, true, false, ""
		}
		edits = append(edits, analysis.TextEdit{Pos: end, End: end, NewText: []byte(indent + rt + "KeepAlive(" + obj + ")")})
	}
	if !imported {
		imp, ok := c.importEdit(file)
		if !ok {
			return analysis.SuggestedFix{}, deferred, false, ""
		}
		// first: a fix's edits in file order, as diff.Merge (analysistest,
		// gopls) takes them
		edits = append([]analysis.TextEdit{imp}, edits...)
	}
	return analysis.SuggestedFix{Message: msg, TextEdits: edits}, deferred, true, ""
}

// assigns reports whether statement s may give obj (o, or a path o.f of
// its root variable as it is at pos) another value: it assigns to it or to
// a prefix of its path, or takes the address of one (through an index or
// a dereference, any write to the variable counts).
func (c *checker) assigns(s ast.Stmt, obj string, pos token.Pos) bool {
	return c.writesBetween(s, obj, pos, s.Pos(), s.End())
}

// writesBetween reports whether code of n between from and to may give obj
// (as it is at pos) another value, as assigns says.
func (c *checker) writesBetween(n ast.Node, obj string, pos, from, to token.Pos) bool {
	root := strings.TrimLeft(obj, "*(") // (*pw).f, *pw: pw
	if i := strings.IndexAny(root, ".[()"); i >= 0 {
		root = root[:i]
	}
	sc := c.pass.Pkg.Scope().Innermost(pos)
	if sc == nil {
		return true
	}
	_, v := sc.LookupParent(root, pos)
	if v == nil {
		return true
	}
	rootOf := func(e ast.Expr) types.Object {
		for {
			switch x := ast.Unparen(e).(type) {
			case *ast.SelectorExpr:
				e = x.X
			case *ast.IndexExpr:
				e = x.X
			case *ast.StarExpr:
				e = x.X
			case *ast.Ident:
				return c.pass.TypesInfo.ObjectOf(x)
			default:
				return nil
			}
		}
	}
	// e writes obj, or a prefix of its path (o.f for o.f.g): not a
	// field of it (&o.h, which C fills in, leaves o as it is)
	writes := func(e ast.Expr) bool {
		if e == nil || rootOf(e) != v {
			return false
		}
		t := types.ExprString(ast.Unparen(e))
		return t == obj || strings.HasPrefix(obj, t+".") || strings.ContainsAny(t, "[*")
	}
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if n == nil || found || n.End() <= from || n.Pos() >= to {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				found = found || writes(l)
			}
		case *ast.IncDecStmt:
			found = found || writes(n.X)
		case *ast.RangeStmt:
			found = found || writes(n.Key) || writes(n.Value)
		case *ast.UnaryExpr:
			found = found || n.Op == token.AND && writes(n.X)
		}
		return !found
	})
	return found
}

// mayChangeBetween reports whether code of body between from and to may
// give obj another value in ways writesBetween, which reads assignments
// to obj's own names, cannot see. An object read from memory (s.in, ws[0],
// *pw) changes through any alias: a Go call (s.set(v), reset()), or an
// assignment through a pointer, a field or an element (*p = v, q.in = v);
// only C calls, builtins and conversions leave it. The calls at risk, at
// atRisk, are not among the calls between. (A variable changes only by
// its own name, or through a literal that captured it, which keeps the
// object alive: no finding.)
func (c *checker) mayChangeBetween(body ast.Node, obj string, from, to token.Pos, atRisk []token.Pos) bool {
	if token.IsIdentifier(obj) {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || found || n.End() <= from || n.Pos() >= to {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // runs when called: a call below
		case *ast.CallExpr:
			found = c.goCall(n) && !slices.Contains(atRisk, n.Pos()) && !slices.Contains(atRisk, n.Lparen)
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if _, ok := ast.Unparen(l).(*ast.Ident); !ok {
					found = true
				}
			}
		case *ast.IncDecStmt:
			_, ok := ast.Unparen(n.X).(*ast.Ident)
			found = !ok
		}
		return !found
	})
	return found
}

// goCall reports whether call runs Go code that could write memory: not a
// call of C (C.f), a builtin, a conversion, or runtime.KeepAlive.
func (c *checker) goCall(call *ast.CallExpr) bool {
	info := c.pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return false
	}
	fun := ast.Unparen(call.Fun)
	if sel, ok := fun.(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok && id.Name == "C" {
			if _, isPkg := info.Uses[id].(*types.PkgName); isPkg || info.Uses[id] == nil {
				return false // C.f: cgo's
			}
		}
		if f, ok := info.Uses[sel.Sel].(*types.Func); ok && f.Pkg() != nil && f.Pkg().Path() == "runtime" && f.Name() == "KeepAlive" {
			return false
		}
	}
	if id, ok := fun.(*ast.Ident); ok {
		if f, ok := info.Uses[id].(*types.Func); ok && f.Pkg() != nil && f.Pkg().Path() == "runtime" && f.Name() == "KeepAlive" {
			return false
		}
	}
	return true
}

// sameNames reports whether the names the fix writes at insertion point at
// mean there what they mean at the call at pos: the object's root
// identifier (o of o.f) is the same variable, and runtimeName's name for
// package runtime still names it (or, when the file does not import it,
// names nothing).
func (c *checker) sameNames(file *ast.File, obj string, pos, at token.Pos) bool {
	root, _, _ := strings.Cut(obj, ".")
	lookup := func(p token.Pos) types.Object {
		sc := c.pass.Pkg.Scope().Innermost(p)
		if sc == nil {
			return nil
		}
		_, o := sc.LookupParent(root, p)
		return o
	}
	if o := lookup(pos); o == nil || o != lookup(at) {
		return false
	}
	_, _, ok := c.runtimeName(file, at)
	return ok
}

// runtimeName returns how the file names package runtime at pos: "runtime."
// or its import name and a dot ("" for a dot import), and whether the file
// imports it. ok is false when the name the fix would use means something
// else at pos (a parameter called runtime, another package under that
// name): the fix would not compile.
func (c *checker) runtimeName(file *ast.File, pos token.Pos) (prefix string, imported, ok bool) {
	name := "runtime"
	for _, is := range file.Imports {
		if is.Path.Value != `"runtime"` {
			continue
		}
		switch {
		case is.Name == nil:
			imported = true
		case is.Name.Name == "_":
			continue
		case is.Name.Name == ".":
			// KeepAlive itself must name runtime's there, not a
			// variable or function of the same name
			sc := c.pass.Pkg.Scope().Innermost(pos)
			if sc == nil {
				return "", false, false
			}
			_, obj := sc.LookupParent("KeepAlive", pos)
			fn, isFunc := obj.(*types.Func)
			return "", true, isFunc && fn.Pkg() != nil && fn.Pkg().Path() == "runtime"
		default:
			name, imported = is.Name.Name, true
		}
		break
	}
	scope := c.pass.Pkg.Scope().Innermost(pos)
	if scope == nil {
		return "", false, false
	}
	_, obj := scope.LookupParent(name, pos)
	if imported {
		pn, isPkg := obj.(*types.PkgName)
		if !isPkg || pn.Imported().Path() != "runtime" {
			return "", false, false
		}
	} else if obj != nil {
		return "", false, false
	}
	return name + ".", imported, true
}

func validIdentPath(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if !token.IsIdentifier(part) {
			return false
		}
	}
	return s != ""
}

// importEdit adds import "runtime" after the file's last import.
func (c *checker) importEdit(f *ast.File) (analysis.TextEdit, bool) {
	if c.otherVariantDeclares(f, "runtime") {
		// the import would clash there: runtime already declared
		return analysis.TextEdit{}, false
	}
	var last ast.Decl
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			last = gd
		}
	}
	if last == nil {
		return analysis.TextEdit{Pos: f.Name.End(), End: f.Name.End(), NewText: []byte("\n\nimport \"runtime\"")}, true
	}
	// after the comments that end the declaration's line, which stay on
	// it: import "C" // the library
	end, ok := c.lineEnd(last.End())
	return analysis.TextEdit{Pos: end, End: end, NewText: []byte("\n\nimport \"runtime\"")}, ok
}

// otherVariantDeclares reports whether a file of f's package that this
// pass does not see (an internal _test.go file, one that build tags leave
// out) declares name at package level: an import of that name added to f
// would not compile in the build that has both.
func (c *checker) otherVariantDeclares(f *ast.File, name string) bool {
	dir := filepath.Dir(c.pass.Fset.PositionFor(f.Package, true).Filename)
	key := dir + "\x00" + name
	if v, ok := c.declared[key]; ok {
		return v // once per pass: each fix asks again
	}
	v := c.otherVariantDeclaresIn(dir, name)
	if c.declared == nil {
		c.declared = map[string]bool{}
	}
	c.declared[key] = v
	return v
}

func (c *checker) otherVariantDeclaresIn(dir, name string) bool {
	seen := map[string]bool{}
	for _, g := range c.pass.Files {
		seen[c.pass.Fset.PositionFor(g.Package, true).Filename] = true
	}
	tests, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, name2 := range append(tests, c.pass.IgnoredFiles...) {
		if !strings.HasSuffix(name2, ".go") || seen[name2] {
			continue
		}
		g, err := parser.ParseFile(token.NewFileSet(), name2, nil, parser.SkipObjectResolution)
		if err != nil || g.Name.Name != c.pass.Pkg.Name() {
			continue
		}
		for _, d := range g.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == name {
					return true
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.ValueSpec:
						for _, id := range sp.Names {
							if id.Name == name {
								return true
							}
						}
					case *ast.TypeSpec:
						if sp.Name.Name == name {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// lineEnd returns where the line of a statement or declaration that ends
// at end ends, after the comments that end the line with it (see
// stmtedit.LineEnd), in the file as it is (not as //line directives
// present it); end itself when other code follows on the line. ok is false
// when the file cannot be read as the analysis saw it.
func (c *checker) lineEnd(end token.Pos) (token.Pos, bool) {
	tf := c.pass.Fset.File(end)
	if tf == nil || c.pass.ReadFile == nil {
		return end, false
	}
	src, err := c.pass.ReadFile(tf.Name())
	if err != nil || tf.Size() != len(src) {
		return end, false
	}
	if at, ok := stmtedit.LineEnd(src, tf.Offset(end)); ok {
		return tf.Pos(at), true
	}
	return end, true
}

// goroutineOwns reports whether the function literal fn is only started
// by go statements of its enclosing function, none of which uses the
// value fn captures as fv at or after the go statement: once started, the
// goroutine's own uses are all that keep the value alive (the enclosing
// function may have returned).
func goroutineOwns(fn *ssa.Function, fv *ssa.FreeVar) bool {
	i := slices.Index(fn.FreeVars, fv)
	if i < 0 {
		return false
	}
	mcs := closuresOf(fn)
	for _, mc := range mcs {
		refs := *mc.Referrers()
		if len(refs) == 0 {
			return false
		}
		for _, ref := range refs {
			g, ok := ref.(*ssa.Go)
			if !ok || g.Call.Value != mc || usedAfter(mc.Bindings[i], g) {
				return false
			}
		}
	}
	return len(mcs) > 0
}

// returnedOnly reports whether the enclosing function of the function
// literal fn only returns the closures it makes of fn (func (d *D)
// Reader() func() int { return func() int { … d.h … } }): the literal runs
// after its enclosing function has returned, whenever its caller calls the
// result, and only its own uses keep what it captured alive, as for a
// goroutine that owns it.
func returnedOnly(fn *ssa.Function) bool {
	mcs := closuresOf(fn)
	for _, mc := range mcs {
		for _, ref := range *mc.Referrers() {
			switch ref.(type) {
			case *ssa.Return, *ssa.DebugRef:
			default:
				return false
			}
		}
	}
	return len(mcs) > 0
}

// usedAfter reports whether an instruction that can run after instr uses v.
func usedAfter(v ssa.Value, instr ssa.Instruction) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	used := false
	cfg.After(instr, func(i ssa.Instruction) bool {
		used = slices.Contains(*refs, i)
		return !used
	})
	return used
}

// closuresOf returns the closures of the function literal fn that its
// enclosing function makes.
func closuresOf(fn *ssa.Function) []*ssa.MakeClosure {
	var out []*ssa.MakeClosure
	if fn.Parent() == nil {
		return nil
	}
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				out = append(out, mc)
			}
		}
	}
	return out
}

// capturedVar reports whether v is a function literal's free variable that
// captures a variable of the enclosing function by reference (its address,
// as ssa captures a variable the literal may see change): its value is one
// load away, and the source names the variable.
func capturedVar(v ssa.Value) bool {
	fv, ok := v.(*ssa.FreeVar)
	if !ok || fv.Parent() == nil || fv.Parent().Parent() == nil {
		return false
	}
	i := slices.Index(fv.Parent().FreeVars, fv)
	for _, mc := range closuresOf(fv.Parent()) {
		if i < len(mc.Bindings) {
			_, alloc := mc.Bindings[i].(*ssa.Alloc)
			return alloc
		}
	}
	return false
}
