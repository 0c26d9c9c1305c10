package checkthendestroy

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/cfg"
	"github.com/lifetimevet/lifetimevet/internal/diag"
	"github.com/lifetimevet/lifetimevet/internal/released"
	"github.com/lifetimevet/lifetimevet/internal/scope"
	"github.com/lifetimevet/lifetimevet/internal/srcname"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/concurrency"
	"github.com/lifetimevet/lifetimevet/passes/guards"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// Analyzer reports unguarded check-then-act on shared lifetime state.
var Analyzer = &analysis.Analyzer{
	Name: "checkthendestroy",
	Doc:  Doc.Compile().Format(false),
	URL:  "https://github.com/lifetimevet/lifetimevet/blob/main/analyzers/checkthendestroy/doc.go",
	Requires: []*analysis.Analyzer{cgocall.Analyzer, model.Analyzer, lifetime.Analyzer,
		concurrency.Analyzer, guards.Analyzer},
	Run: run,
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
	released map[guards.Key]bool // keys whose handle some function releases
	flagged  map[guards.Key]bool // keys written next to a release (closed flags)
	// owners are the types that own a handle: a field of theirs holds a
	// handle some function releases, their methods release one, or they
	// hold a value of a C type (directly or through their fields).
	owners   map[*types.TypeName]bool
	reported map[string]bool
	cgo      bool // the package calls C
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
		released: map[guards.Key]bool{},
		flagged:  map[guards.Key]bool{},
		owners:   map[*types.TypeName]bool{},
		reported: map[string]bool{},
	}
	c.rep = diag.New(pass, c.model)
	c.cgo = scope.UsesCgo(pass)
	defer c.rep.ReportUnused()
	for _, a := range c.guards.Accesses {
		c.byInstr[a.Instr] = append(c.byInstr[a.Instr], a)
		c.byKey[a.Key] = append(c.byKey[a.Key], a)
	}
	c.lifetimeState()
	for _, fn := range c.calls.Funcs {
		if c.guards.InOnce(fn) {
			continue
		}
		c.checkThenAct(fn)
	}
	c.releaseOutsideLock()
	c.lockDiscipline()
	c.twoReleasers()
	return nil, nil
}

// releasedAt returns the keys whose handle instr releases: a call into C
// that the model says releases an argument loaded from a field, or a call
// of a function whose summary releases a field path of an argument; the
// field may be loaded plainly or atomically (an atomic.Pointer's Load).
func (c *checker) releasedAt(instr ssa.Instruction) []guards.Key {
	var out []guards.Key
	for _, r := range released.Refs(c.calls, c.model.Model, c.lt, instr) {
		if k, ok := loadedFrom(r); ok {
			out = append(out, k)
		} else if a := c.atomicLoad(r); a != nil {
			out = append(out, a.Key)
		}
	}
	return out
}

// atomicLoad returns the atomic load a released value is, itself (h :=
// p.h.Load(); free(h)): the handle of the atomic location it loads.
func (c *checker) atomicLoad(r access.Ref) *guards.Access {
	instr, ok := r.Root.(ssa.Instruction)
	if !ok || len(r.Ops) != 0 {
		return nil
	}
	for _, a := range c.byInstr[instr] {
		if a.Kind == guards.AtomicRead {
			return a
		}
	}
	return nil
}

// loadedFrom returns the key of the location a value path was loaded from.
func loadedFrom(r access.Ref) (guards.Key, bool) {
	n := len(r.Ops)
	if n == 0 || r.Ops[n-1].Kind != access.Load {
		return guards.Key{}, false
	}
	addr := access.Ref{Root: r.Root, Ops: r.Ops[:n-1]}
	if len(addr.Ops) == 0 {
		return guards.Key{}, false
	}
	return keyOfAddr(addr)
}

func keyOfAddr(r access.Ref) (guards.Key, bool) {
	if fv, ok := r.Root.(*ssa.FreeVar); ok && len(r.Ops) > 0 && r.Ops[0].Kind == access.Load {
		if v := guards.Captured(fv); v != nil {
			r = lifetime.Expand(v).With(r.Ops[1:]...)
		}
	}
	// reuse the pass's naming through a synthetic expansion: the last
	// load's pointee and the field path after it
	ops := r.Ops
	last := -1
	for i, o := range ops {
		if o.Kind == access.Load || o.Kind == access.IndexAddr {
			last = i
		}
	}
	var fields []string
	for _, o := range ops[last+1:] {
		if o.Kind != access.FieldAddr && o.Kind != access.Field {
			return guards.Key{}, false
		}
		fields = append(fields, fmt.Sprint(o.Index))
	}
	if len(fields) == 0 {
		return guards.Key{}, false
	}
	var t types.Type
	if last < 0 {
		if _, ok := r.Root.(*ssa.Global); ok {
			return guards.Key{}, false
		}
		t = access.Deref(r.Root.Type())
	} else {
		if ops[last].Kind == access.IndexAddr {
			return guards.Key{}, false
		}
		t = access.TypeAfter(r.Root.Type(), ops[:last+1])
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return guards.Key{}, false
	}
	return guards.Key{Type: n.Origin().Obj(), Fields: strings.Join(fields, ".")}, true
}

// lifetimeState finds the keys that hold handles some function releases,
// the types that own them, and the keys of those types written in a
// function that releases something (closed and released flags).
func (c *checker) lifetimeState() {
	var releasing []*ssa.Function
	for _, fn := range c.calls.Funcs {
		releases := false
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				for _, k := range c.releasedAt(instr) {
					c.released[k] = true
					c.owners[k.Type] = true
					releases = true
				}
				if cc := c.calls.Lookup(instr); cc != nil && len(c.model.Model.Releases(cc.Name, cc.Sig)) > 0 {
					releases = true
				}
			}
		}
		if releases {
			if t := recvType(fn); t != nil {
				c.owners[t] = true
			}
		}
		if releases || releaseName(fn.Name()) {
			releasing = append(releasing, fn)
		}
	}
	for _, k := range c.byKey {
		if t := k[0].Key.Type; t != nil && !c.owners[t] && cgocall.HoldsC(t.Type()) {
			c.owners[t] = true
		}
	}
	for _, fn := range releasing {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				for _, a := range c.byInstr[instr] {
					if a.Kind == guards.Write && a.Key.Type != nil && c.owners[a.Key.Type] {
						c.flagged[a.Key] = true
					}
				}
			}
		}
	}
}

// recvType returns the named type of fn's receiver, or nil.
func recvType(fn *ssa.Function) *types.TypeName {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	recv := fn.Signature.Recv()
	if recv == nil {
		return nil
	}
	if n, ok := types.Unalias(access.Deref(recv.Type())).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}

// releaseName reports whether a Go function's name says it releases
// (Close, Free, Release, Destroy, Dispose, Shutdown, Finalize).
func releaseName(name string) bool {
	switch strings.TrimSuffix(strings.TrimSuffix(name, "Locked"), "Internal") {
	case "Close", "close", "Free", "free", "Release", "release", "Destroy", "destroy",
		"Dispose", "dispose", "Shutdown", "shutdown", "Finalize", "finalize":
		return true
	}
	return false
}

// lifetimeKey reports whether k is lifetime state.
func (c *checker) lifetimeKey(k guards.Key) bool { return c.released[k] || c.flagged[k] }

// checkThenAct reports a check of shared state followed by the act it
// guards, with nothing making the two one step.
func (c *checker) checkThenAct(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		checks, claimed := c.condReads(iff.Cond)
		if claimed {
			continue // a compare-and-swap, swap or atomic add decides
		}
		for _, chk := range checks {
			k := chk.Key
			if k.Type == nil || c.conc.Confined(k.Type) {
				continue
			}
			release, write := c.acts(fn, b, k)
			if chk.Kind == guards.AtomicRead {
				// an atomic load tested, then its handle released (h :=
				// p.h.Load(); if h != nil { free(h); p.h.Store(nil) }):
				// the atomic flags and counters that are not handles
				// are unguardedcounter's
				if release == nil || c.claimedBefore(fn, k, release) {
					continue
				}
				write = nil
			}
			act := write
			if act == nil {
				act = release
			}
			if act == nil {
				continue
			}
			if c.covered(fn, chk, act, k) {
				continue
			}
			lifetime := release != nil || c.lifetimeKey(k)
			if !lifetime && !c.owners[k.Type] && !c.cgo {
				// ordinary Go state of a pure-Go package: the race
				// detector's (in a package that calls C, every cgo call
				// hides such races from it)
				continue
			}
			why, ok := c.concurrent(fn, k, lifetime)
			if !ok && chk.Kind == guards.AtomicRead {
				// a handle kept in an atomic location is meant to be
				// reached from several goroutines
				why, ok = fmt.Sprintf("two goroutines (%s is atomic, so it is shared)", k), true
			}
			if !ok {
				continue
			}
			c.reportCheck(fn, chk, release, write, k, why)
		}
	}
}

// condReads returns the accesses of shared state a branch condition reads,
// and whether it tests the result of an atomic read-modify-write (a claim).
func (c *checker) condReads(cond ssa.Value) ([]*guards.Access, bool) {
	var out []*guards.Access
	claimed := false
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value, depth int)
	walk = func(v ssa.Value, depth int) {
		if v == nil || depth > 6 || seen[v] {
			return
		}
		seen[v] = true
		if instr, ok := v.(ssa.Instruction); ok {
			for _, a := range c.byInstr[instr] {
				switch a.Kind {
				case guards.Read, guards.MapRead, guards.AtomicRead:
					out = append(out, a)
				case guards.AtomicRMW:
					claimed = true
				}
			}
		}
		switch v := v.(type) {
		case *ssa.BinOp:
			walk(v.X, depth+1)
			walk(v.Y, depth+1)
		case *ssa.UnOp:
			walk(v.X, depth+1)
		case *ssa.Call:
			if _, ok := v.Call.Value.(*ssa.Builtin); ok { // len(c.errs)
				for _, a := range v.Call.Args {
					walk(a, depth+1)
				}
			}
			// a method whose result is the claim (TryLock) or a field read
		case *ssa.Extract:
			walk(v.Tuple, depth+1)
		case *ssa.Field:
			walk(v.X, depth+1)
		case *ssa.Convert:
			walk(v.X, depth+1)
		case *ssa.ChangeType:
			walk(v.X, depth+1)
		case *ssa.Phi:
		}
	}
	walk(cond, 0)
	return out, claimed
}

// acts returns the first release of k's handle and the first write of k in
// the blocks the If at the end of b decides.
func (c *checker) acts(fn *ssa.Function, b *ssa.BasicBlock, k guards.Key) (release, write *guards.Access) {
	for _, s := range b.Succs {
		if len(s.Preds) != 1 {
			continue
		}
		for _, bb := range fn.Blocks {
			if !s.Dominates(bb) {
				continue
			}
			for _, instr := range bb.Instrs {
				if release == nil {
					for _, rk := range c.releasedAt(instr) {
						if rk == k {
							release = &guards.Access{Key: k, Instr: instr, Func: fn, Pos: callPos(c.calls, instr), Locks: c.guards.Held(instr)}
						}
					}
				}
				if write == nil {
					for _, a := range c.byInstr[instr] {
						if a.Key == k && (a.Kind == guards.Write || a.Kind == guards.MapWrite) {
							write = a
						}
					}
				}
			}
		}
	}
	return release, write
}

// claimedBefore reports whether an atomic Swap or CompareAndSwap of k in
// fn comes before the release on every path to it, and its result decides
// whether the release runs: the claim decides who releases, whatever the
// load before it saw.
func (c *checker) claimedBefore(fn *ssa.Function, k guards.Key, release *guards.Access) bool {
	for _, a := range c.byKey[k] {
		if a.Func == fn && a.Kind == guards.AtomicRMW && (a.Op == "Swap" || a.Op == "CompareAndSwap") && cfg.Dominates(a.Instr, release.Instr) && decides(a, release.Instr) {
			return true
		}
	}
	return false
}

// decides reports whether the result of the atomic Swap or CompareAndSwap
// a may decide whether release runs. An operation whose result nothing
// reads decides nothing: every goroutine that made it goes on to the
// release (c.h.CompareAndSwap(p, nil); C.free(p)). Nor does one whose
// result is only tested by branches that do not decide the release (if q
// := c.h.Swap(nil); q != nil { log() }; C.free(p)), or that lead to it
// only where a CompareAndSwap failed. A result used otherwise (stored,
// passed on, returned) is taken as deciding.
func decides(a *guards.Access, release ssa.Instruction) bool {
	v, ok := a.Instr.(ssa.Value)
	if !ok || v.Referrers() == nil {
		return true // the result is not known here: as a claim
	}
	tests, other := lifetime.Tests(v)
	if other {
		return true
	}
	for _, iff := range tests {
		if !cfg.Dominates(iff, release) {
			continue
		}
		x, val, ok := lifetime.Outcome(iff, release)
		if !ok {
			continue // both sides reach the release
		}
		if a.Op == "CompareAndSwap" && x == v && !val {
			continue // the release runs where the swap failed
		}
		return true
	}
	return false
}

func callPos(calls *cgocall.Result, instr ssa.Instruction) token.Pos {
	if cc := calls.Lookup(instr); cc != nil {
		return cc.Pos
	}
	return instr.Pos()
}

// covered reports whether the check and the act are one step: a lock held
// at the check is held at the act, or at a write of k that claims it; or
// the act is re-checked under a lock it holds. Only an exclusive lock makes
// them one step: RLock lets any number of goroutines hold the lock at once,
// so two of them can both pass a check made under it.
func (c *checker) covered(fn *ssa.Function, chk, act *guards.Access, k guards.Key) bool {
	for _, l := range chk.Locks {
		if l.Read {
			continue
		}
		if act.Locked(l.Key, true) {
			return true
		}
		// claimed under the lock: a write of k while the lock is held
		for _, a := range c.byKey[k] {
			if a.Func == fn && a.Kind == guards.Write && a.Locked(l.Key, true) {
				return true
			}
		}
	}
	// re-checked under a lock held at the act: a branch on k again, not
	// just a load of the handle to release it
	rechecks := map[*guards.Access]bool{}
	for _, b := range fn.Blocks {
		if iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
			reads, _ := c.condReads(iff.Cond)
			for _, a := range reads {
				rechecks[a] = true
			}
		}
	}
	for _, a := range c.byKey[k] {
		if a.Func != fn || a == chk || a.Kind != guards.Read || !rechecks[a] {
			continue
		}
		for _, l := range a.Locks {
			if !l.Read && act.Locked(l.Key, true) && cfg.Dominates(a.Instr, act.Instr) {
				return true
			}
		}
	}
	return false
}

// concurrent says why fn's check of k can race: evidence on the type, or
// contexts in which fn runs concurrently with itself or with another
// function that writes or releases k. For state that is not lifetime
// state, a lock must also guard k elsewhere.
func (c *checker) concurrent(fn *ssa.Function, k guards.Key, lifetime bool) (string, bool) {
	lock, guardedElsewhere := c.guardingLock(k)
	if !lifetime && !guardedElsewhere {
		return "", false
	}
	for _, e := range c.conc.TypeEvidence(k.Type) {
		switch e.Kind {
		case concurrency.ThreadSafe, concurrency.Documented:
			return "two goroutines (" + e.Desc + ")", true
		case concurrency.Lock:
			if guardedElsewhere && lock.Type == k.Type {
				return fmt.Sprintf("two goroutines (%s, which guards %s elsewhere)", e.Desc, strings.TrimPrefix(k.String(), k.Type.Name()+".")), true
			}
		}
	}
	if guardedElsewhere && lock.Type == k.Type {
		if e, ok := c.conc.LifecycleLock(k.Type, fn); ok {
			return "two goroutines (" + e.Desc + ")", true
		}
	}
	if ctx := c.conc.SelfOverlapOn(fn, k.Type, goroutines...); ctx != nil && !ownFinalizer(ctx, k) {
		return "two of " + ctx.Desc, true
	}
	// fn itself on two goroutines: a goroutine and the callers' own
	if c1, c2, ok := c.conc.OverlapOn(fn, fn, k.Type, goroutines...); ok && (c1 != nil || c2 != nil) && !ownFinalizer(c1, k) && !ownFinalizer(c2, k) {
		return fmt.Sprintf("%s and %s", c.describe(c1, fn, c2), c.describe(c2, fn, c1)), true
	}
	for _, a := range c.byKey[k] {
		if a.Func == fn || a.Kind != guards.Write || fresh(a) {
			continue
		}
		if c1, c2, ok := c.conc.OverlapOn(fn, a.Func, k.Type, goroutines...); ok && (c1 != nil || c2 != nil) && !ownFinalizer(c1, k) && !ownFinalizer(c2, k) {
			return fmt.Sprintf("%s and %s (%s)", c.describe(c1, fn, c2), c.describe(c2, a.Func, c1), srcname.Func(a.Func)), true
		}
	}
	return "", false
}

// ownFinalizer reports whether ctx is the finalizer of the object that owns
// k: it runs only once nothing else can use the object.
func ownFinalizer(ctx *concurrency.Context, k guards.Key) bool {
	return ctx != nil && ctx.Kind == concurrency.Finalizer && ctx.Object == k.Type
}

// goroutines are the contexts that make two goroutines of the package's own
// code meet (library callers count only for package-level state).
var goroutines = []concurrency.ContextKind{concurrency.Spawned, concurrency.Finalizer, concurrency.Export}

// describe names the context that runs fn (nil: the callers' goroutine)
// in a pair with other.
func (c *checker) describe(ctx *concurrency.Context, fn *ssa.Function, other *concurrency.Context) string {
	if ctx == nil {
		if e := c.conc.CallerEntryMeeting(fn, other); e != nil {
			fn = e
		}
		return "the caller of " + srcname.Func(fn)
	}
	return ctx.Desc
}

// guardingLock returns a lock held at some access of k in the package (or
// declared by checklocks), and whether there is one.
func (c *checker) guardingLock(k guards.Key) (guards.Key, bool) {
	if l, ok := c.guards.GuardedBy[k]; ok {
		return l, true
	}
	for _, a := range c.byKey[k] {
		for _, l := range a.Locks {
			if l.Key.Type == k.Type && l.Key.Fields != guards.Some {
				return l.Key, true
			}
		}
	}
	return guards.Key{}, false
}

func (c *checker) text(a *guards.Access) string {
	r := a.Ref
	name := srcname.Of(c.pass.Files, r.Root)
	if name == "" {
		name = r.Root.Name()
	}
	if al, ok := r.Root.(*ssa.Alloc); ok && srcname.IsVar(al) {
		return strings.TrimPrefix(access.Render(name, al.Type(), append([]access.Op{{Kind: access.Load}}, r.Ops...)), "*")
	}
	s := strings.TrimPrefix(access.Render(name, r.Root.Type(), r.Ops), "&")
	switch r.Root.(type) {
	case *ssa.FreeVar, *ssa.Alloc:
		if len(r.Ops) > 0 && r.Ops[0].Kind == access.Load {
			s = strings.TrimPrefix(s, "*") // a variable a function literal captures
		}
	}
	return s
}

func (c *checker) reportCheck(fn *ssa.Function, chk, release, write *guards.Access, k guards.Key, why string) {
	key := fmt.Sprintf("%s/%s", fn, k)
	if c.reported[key] {
		return
	}
	c.reported[key] = true
	c.reported[fmt.Sprintf("%d/%s", chk.Pos, k)] = true // one finding per check
	field := c.text(chk)
	lock, ok := c.guardingLock(k)
	hold := "hold a lock across both"
	if ok {
		hold = "hold " + lockText(field, k, lock) + " across both"
	}
	guard := "without a guard"
	if rl, ok := readLockAcross(chk, release, write); ok {
		// the check is made under a read lock, which does not exclude
		// another holder of it
		guard = "under " + lockText(field, k, rl) + " held only for reading (RLock), which does not exclude other readers"
		hold = "hold " + lockText(field, k, rl) + " with Lock, not RLock, across both"
	}
	if release != nil {
		c.rep.Reportf(chk.Pos, "%s checks %s and then releases it (%s) %s: %s can both pass the check and release it twice; claim it with atomic.Pointer.Swap(nil) or CompareAndSwap, or %s",
			srcname.Func(fn), field, diag.Where(c.pass.Fset, release.Pos, chk.Pos), guard, why, hold)
		return
	}
	c.rep.Reportf(chk.Pos, "%s checks %s and then sets it (%s) %s: %s can both pass the check; %s, or make the transition one atomic CompareAndSwap",
		srcname.Func(fn), field, diag.Where(c.pass.Fset, write.Pos, chk.Pos), guard, why, hold)
}

// readLockAcross returns a lock held for reading at both the check and
// the act (the release, else the write).
func readLockAcross(chk, release, write *guards.Access) (guards.Key, bool) {
	act := write
	if release != nil {
		act = release
	}
	for _, l := range chk.Locks {
		if l.Read && slices.Contains(act.Locks, l) && !act.Locked(l.Key, true) {
			return l.Key, true
		}
	}
	return guards.Key{}, false
}

// lockText renders the lock for the object of field (st.mu for st.closed).
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

// lockDiscipline reports lifetime state released or cleared under a lock in
// one place and read, tested or passed to C without it in another.
func (c *checker) lockDiscipline() {
	// a load that feeds a call into C reads as the call's use
	cuse := map[string]bool{}
	for _, a := range c.guards.Accesses {
		if a.Kind == guards.CUse {
			cuse[fmt.Sprint(c.pass.Fset.Position(a.Pos).Line, a.Key)] = true
		}
	}
	keys := make([]guards.Key, 0, len(c.byKey))
	for k := range c.byKey {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b guards.Key) int { return strings.Compare(a.String(), b.String()) })
	for _, k := range keys {
		accs := c.byKey[k]
		if k.Type == nil || !c.lifetimeKey(k) || c.conc.Confined(k.Type) {
			continue
		}
		// the writes under a lock
		for _, w := range accs {
			if w.Kind != guards.Write || len(w.Locks) == 0 {
				continue
			}
			for _, l := range w.Locks {
				// a lock the function's name or doc says its callers
				// hold is not a lock the write is known to take
				if l.Read || l.Key.Type != k.Type || l.Key.Fields == guards.Some {
					continue
				}
				for _, a := range accs {
					if a.Func == w.Func || (a.Kind != guards.Read && a.Kind != guards.CUse) || a.Locked(l.Key, false) || a.Once {
						continue
					}
					if fresh(a) {
						continue // a constructor filling in a new object
					}
					if c.reported[fmt.Sprintf("%s/%s", a.Func, k)] {
						continue // its check-then-act is reported
					}
					if a.Kind == guards.Read && cuse[fmt.Sprint(c.pass.Fset.Position(a.Pos).Line, a.Key)] {
						continue
					}
					why, ok := c.concurrentPair(a.Func, w.Func, k)
					if !ok {
						continue
					}
					c.reportDiscipline(a, w, l.Key, why)
				}
			}
		}
	}
}

// fresh reports whether the access is to an object the function allocated.
func fresh(a *guards.Access) bool {
	_, ok := a.Ref.Root.(*ssa.Alloc)
	return ok && !srcname.IsVar(a.Ref.Root.(*ssa.Alloc))
}

func (c *checker) concurrentPair(f, g *ssa.Function, k guards.Key) (string, bool) {
	for _, e := range c.conc.TypeEvidence(k.Type) {
		return e.Desc, true
	}
	if e, ok := c.conc.LifecycleLock(k.Type, f, g); ok {
		return e.Desc, true
	}
	if c1, c2, ok := c.conc.OverlapOn(f, g, k.Type, goroutines...); ok && (c1 != nil || c2 != nil) && !ownFinalizer(c1, k) && !ownFinalizer(c2, k) {
		return fmt.Sprintf("%s and %s", c.describe(c1, f, c2), c.describe(c2, g, c1)), true
	}
	return "", false
}

func (c *checker) reportDiscipline(a, w *guards.Access, lock guards.Key, why string) {
	key := fmt.Sprintf("%d/%s", a.Pos, a.Key)
	if c.reported[key] {
		return
	}
	c.reported[key] = true
	field := c.text(a)
	lt := lockText(field, a.Key, lock)
	what := "reads"
	if a.Kind == guards.CUse {
		what = "passes C." + a.Op + " the handle in"
	}
	c.rep.Reportf(a.Pos, "%s %s %s without %s, which %s holds when it changes it (%s): %s can run in between (%s); take %s before using %s",
		srcname.Func(a.Func), what, field, lt, srcname.Func(w.Func), diag.Where(c.pass.Fset, w.Pos, a.Pos), srcname.Func(w.Func), why, lt, field)
}

// ownLock returns a lock of k's type that the write w holds (not one that
// the function's name or doc only says its callers hold).
func ownLock(w *guards.Access, k guards.Key) (guards.Key, bool) {
	for _, l := range w.Locks {
		if !l.Read && l.Key.Type == k.Type && l.Key.Fields != guards.Some {
			return l.Key, true
		}
	}
	return guards.Key{}, false
}

func heldKey(ls []guards.Lock, k guards.Key) bool {
	for _, l := range ls {
		if l.Key == k || l.Key.Type == k.Type && l.Key.Fields == guards.Some {
			return true
		}
	}
	return false
}

// releaseOutsideLock reports a release of lifetime state made without the
// lock under which the same function then clears it (free(c.h); lock;
// c.h = nil): two calls can both release the handle before either clears
// it.
func (c *checker) releaseOutsideLock() {
	for _, fn := range c.calls.Funcs {
		if c.guards.InOnce(fn) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if _, ok := instr.(*ssa.Go); ok {
					continue
				}
				held := c.guards.Held(instr)
				for _, k := range c.releasedAt(instr) {
					if k.Type == nil || c.conc.Confined(k.Type) || c.reported[fmt.Sprintf("%s/%s", fn, k)] {
						continue
					}
					// a write of k later in fn under a lock not held here
					var clear *guards.Access
					var lock guards.Key
					for _, w := range c.byKey[k] {
						if w.Func != fn || w.Kind != guards.Write || fresh(w) || !reaches(instr, w.Instr) {
							continue
						}
						if l, ok := ownLock(w, k); ok && !heldKey(held, l) {
							clear, lock = w, l
							break
						}
					}
					if clear == nil {
						continue
					}
					why, ok := c.concurrentPair(fn, fn, k)
					if !ok {
						continue
					}
					pos := callPos(c.calls, instr)
					key := fmt.Sprintf("%d/%s", pos, k)
					if c.reported[key] {
						continue
					}
					c.reported[key] = true
					c.reported[fmt.Sprintf("%s/%s", fn, k)] = true
					field := c.text(clear)
					lt := lockText(field, k, lock)
					c.rep.Reportf(pos, "%s releases %s without %s and clears it under the lock only afterwards (%s): two calls can both release it before either clears it (%s); take the handle under %s (h := %s; %s = nil) and release it after unlocking",
						srcname.Func(fn), field, lt, diag.Where(c.pass.Fset, clear.Pos, pos), why, lt, field, field)
				}
			}
		}
	}
}

// reaches reports whether b can run after a in their function.
func reaches(a, b ssa.Instruction) bool {
	if a.Block() == b.Block() {
		return slices.Index(a.Block().Instrs, a) < slices.Index(b.Block().Instrs, b)
	}
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{a.Block()}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range x.Succs {
			if s == b.Block() {
				return true
			}
			if !seen[s] {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return false
}

// A release is a call that releases the handle in a field.
type release struct {
	fn    *ssa.Function
	instr ssa.Instruction
	pos   token.Pos
	locks []guards.Lock
}

// twoReleasers reports one handle released by two different functions
// that goroutines of the package's own (go statements, finalizers, C
// threads) can run at the same time, with no lock common to both: both
// release it.
func (c *checker) twoReleasers() {
	byKey := map[guards.Key][]release{}
	var keys []guards.Key
	for _, fn := range c.calls.Funcs {
		if c.guards.InOnce(fn) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c.calls.Lookup(instr) == nil {
					// a direct release into C: a Go function that
					// releases is counted at its own release
					continue
				}
				for _, k := range c.releasedAt(instr) {
					if k.Type == nil || c.conc.Confined(k.Type) || c.conditional(fn, instr, k) {
						continue
					}
					if _, ok := byKey[k]; !ok {
						keys = append(keys, k)
					}
					byKey[k] = append(byKey[k], release{fn, instr, callPos(c.calls, instr), c.guards.Held(instr)})
				}
			}
		}
	}
	for _, k := range keys {
		rs := byKey[k]
		for i, r1 := range rs {
			if c.reported[fmt.Sprintf("%s/%s", r1.fn, k)] {
				continue
			}
			for _, r2 := range rs[:i] {
				if r1.fn == r2.fn || c.reported[fmt.Sprintf("%s/%s", r2.fn, k)] || commonLock(r1.locks, r2.locks) {
					continue
				}
				c1, c2, ok := c.conc.OverlapOn(r1.fn, r2.fn, k.Type, goroutines...)
				if !ok || c1 == nil && c2 == nil || ownFinalizer(c1, k) || ownFinalizer(c2, k) {
					continue
				}
				key := fmt.Sprintf("%d/%s", r1.pos, k)
				if c.reported[key] {
					continue
				}
				c.reported[key] = true
				c.reported[fmt.Sprintf("%s/%s", r1.fn, k)] = true
				field := k.String()
				c.rep.Reportf(r1.pos, "%s releases %s, and %s releases it too (%s): they can run at once (%s and %s), and both release it; claim it with atomic.Pointer.Swap(nil) in both, or hold one lock across each check and release",
					srcname.Func(r1.fn), field, srcname.Func(r2.fn), diag.Where(c.pass.Fset, r2.pos, r1.pos), c.describe(c1, r1.fn, c2), c.describe(c2, r2.fn, c1))
				break
			}
		}
	}
}

// conditional reports whether a branch on state of k's object (the handle,
// a closed flag, a reference count) decides whether instr runs: that is a
// check-then-act, or a count deciding who releases, not two unconditional
// releases.
func (c *checker) conditional(fn *ssa.Function, instr ssa.Instruction, k guards.Key) bool {
	for _, b := range fn.Blocks {
		iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		decides := false
		for _, s := range b.Succs {
			if len(s.Preds) == 1 && s.Dominates(instr.Block()) {
				decides = true
			}
		}
		if !decides {
			continue
		}
		reads, claimed := c.condReads(iff.Cond)
		if claimed {
			return true
		}
		for _, a := range reads {
			if a.Key.Type == k.Type {
				return true
			}
		}
	}
	return false
}

func commonLock(a, b []guards.Lock) bool {
	for _, l := range a {
		if l.Read {
			continue
		}
		for _, m := range b {
			if !m.Read && l.Key == m.Key {
				return true
			}
		}
	}
	return false
}
