package sharedglobal

import (
	"fmt"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/diag"
	"github.com/lifetimevet/lifetimevet/internal/scope"
	"github.com/lifetimevet/lifetimevet/internal/srcname"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/concurrency"
	"github.com/lifetimevet/lifetimevet/passes/cpreamble"
	"github.com/lifetimevet/lifetimevet/passes/guards"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// Analyzer reports package-level state mutated where goroutines can overlap.
var Analyzer = &analysis.Analyzer{
	Name: "sharedglobal",
	Doc:  Doc.Compile().Format(false),
	URL:  "https://github.com/lifetimevet/lifetimevet/blob/main/analyzers/sharedglobal/doc.go",
	Requires: []*analysis.Analyzer{cgocall.Analyzer, model.Analyzer, lifetime.Analyzer,
		concurrency.Analyzer, guards.Analyzer, cpreamble.Analyzer},
	Run: run,
}

var includeTests bool

func init() {
	Analyzer.Flags.BoolVar(&includeTests, "tests", false, "report in test files too")
	// the pass reads the C; the flag is the analyzer's, as passes' flags
	// are not offered to users
	Analyzer.Flags.Var(cpreamble.Analyzer.Flags.Lookup("largec").Value, "largec",
		"also read the package's large .c files (over 5000 lines: vendored amalgamations such as go-sqlite3's sqlite3-binding.c)")
}

// kind is what a write does to the variable.
type kind uint8

const (
	rmw        kind = iota + 1 // n++, n += k, x = append(x, v)
	checkSet                   // if v == nil { v = … }
	mapWrite                   // m[k] = v
	mapDelete                  // delete(m, k), clear(m)
	appendKind                 // x = append(x, v) (an rmw on a slice)
)

// A write is one mutation of a package-level variable.
type write struct {
	key   guards.Key
	kind  kind
	fn    *ssa.Function
	instr ssa.Instruction
	pos   token.Pos
	locks []guards.Lock
	once  bool
	check token.Pos // checkSet: the check
	// unheldCheck: a checkSet whose set holds a lock that its check does
	// not, and that is not tested again under it
	unheldCheck bool
	via         *ssa.Function // checkSet: the helper that sets it
}

type checker struct {
	pass   *analysis.Pass
	calls  *cgocall.Result
	lt     *lifetime.Result
	conc   *concurrency.Result
	guards *guards.Result
	rep    *diag.Reporter

	byInstr map[ssa.Instruction][]*guards.Access
	byKey   map[guards.Key][]*guards.Access
	taken   map[*ssa.Function]bool // functions used as values, not only called
	direct  map[*ssa.Function][]*ssa.Function
	initFn  map[*ssa.Function]int8 // memo of initOnly: 1 yes, -1 no, 2 in progress
	onceFn  map[*ssa.Function]int8
	roots   map[token.Pos]string // API roots: position -> name
	cgo     bool                 // the package calls C
}

func run(pass *analysis.Pass) (any, error) {
	c := &checker{
		pass:    pass,
		calls:   pass.ResultOf[cgocall.Analyzer].(*cgocall.Result),
		lt:      pass.ResultOf[lifetime.Analyzer].(*lifetime.Result),
		conc:    pass.ResultOf[concurrency.Analyzer].(*concurrency.Result),
		guards:  pass.ResultOf[guards.Analyzer].(*guards.Result),
		byInstr: map[ssa.Instruction][]*guards.Access{},
		byKey:   map[guards.Key][]*guards.Access{},
		initFn:  map[*ssa.Function]int8{},
		onceFn:  map[*ssa.Function]int8{},
	}
	c.rep = diag.New(pass, pass.ResultOf[model.Analyzer].(*model.Result))
	defer c.rep.ReportUnused()
	c.cgo = scope.UsesCgo(pass)
	for _, a := range c.guards.Accesses {
		c.byInstr[a.Instr] = append(c.byInstr[a.Instr], a)
		if a.Key.Global != nil && a.Key.Global.Pkg() == pass.Pkg {
			c.byKey[a.Key] = append(c.byKey[a.Key], a)
		}
	}
	c.taken = addressTaken(c.calls.Funcs)
	c.direct = directCallers(c.calls.Funcs)
	writes := c.writes()
	writes = append(writes, c.helperSets()...)
	c.reportWrites(writes)
	c.mapReads(writes)
	c.cside()
	return nil, nil
}

// addressTaken returns the functions used as values (stored, passed,
// returned) rather than only called.
func addressTaken(funcs []*ssa.Function) map[*ssa.Function]bool {
	out := map[*ssa.Function]bool{}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var callee ssa.Value
				if ci, ok := instr.(ssa.CallInstruction); ok && !ci.Common().IsInvoke() {
					callee = ci.Common().Value
				}
				var ops [32]*ssa.Value
				for _, op := range instr.Operands(ops[:0]) {
					if op == nil || *op == callee {
						continue
					}
					if f, ok := (*op).(*ssa.Function); ok {
						if _, mc := instr.(*ssa.MakeClosure); mc && op == &instr.(*ssa.MakeClosure).Fn {
							continue // the closure's uses are its own
						}
						out[f] = true
					}
				}
			}
		}
	}
	return out
}

// initOnly reports whether fn runs only while the package initialises: an
// init function or the package initialiser, or a function called only from
// such functions (never used as a value, never reached from a context).
func (c *checker) initOnly(fn *ssa.Function) bool {
	return c.onlyFrom(fn, c.initFn, func(fn *ssa.Function) bool {
		return fn.Parent() == nil && (fn.Name() == "init" || strings.HasPrefix(fn.Name(), "init#")) ||
			fn.Synthetic == "package initializer"
	}, true)
}

// onceOnly reports whether fn runs only inside a sync.Once body.
func (c *checker) onceOnly(fn *ssa.Function) bool {
	return c.onlyFrom(fn, c.onceFn, c.guards.InOnce, false)
}

func (c *checker) onlyFrom(fn *ssa.Function, memo map[*ssa.Function]int8, base func(*ssa.Function) bool, noContexts bool) bool {
	switch memo[fn] {
	case 1:
		return true
	case -1, 2:
		return false
	}
	if base(fn) {
		memo[fn] = 1
		return true
	}
	memo[fn] = 2
	ok := false
	callers := c.lt.Callers(fn)
	if len(callers) > 0 && !c.taken[fn] && !(fn.Parent() == nil && fn.Object() != nil && fn.Object().Exported()) &&
		(!noContexts || len(c.conc.Contexts(fn)) == 0) && !c.closureEscapes(fn) {
		ok = true
		for _, caller := range callers {
			if !c.onlyFrom(caller, memo, base, noContexts) {
				ok = false
				break
			}
		}
	}
	if ok {
		memo[fn] = 1
	} else {
		memo[fn] = -1
	}
	return ok
}

// closureEscapes reports whether a function literal is used other than by
// being called where it is made.
func (c *checker) closureEscapes(fn *ssa.Function) bool {
	if fn.Parent() == nil {
		return false
	}
	refs := fn.Referrers()
	_ = refs
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || mc.Fn != fn {
				continue
			}
			for _, u := range *mc.Referrers() {
				ci, ok := u.(ssa.CallInstruction)
				if !ok || ci.Common().Value != mc {
					return true
				}
				if _, isGo := ci.(*ssa.Go); isGo {
					return true
				}
			}
		}
	}
	return false
}

// exempt reports whether writes in fn need no guard: fn runs during
// initialisation or inside sync.Once, or lies in a test file.
func (c *checker) exempt(fn *ssa.Function, pos token.Pos) bool {
	if c.initOnly(fn) || c.onceOnly(fn) {
		return true
	}
	if !includeTests && strings.HasSuffix(c.pass.Fset.Position(pos).Filename, "_test.go") {
		return true
	}
	return false
}

// writes collects the mutations of the package's variables that need a
// guard.
func (c *checker) writes() []*write {
	var out []*write
	for _, fn := range c.calls.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				for _, a := range c.byInstr[instr] {
					if a.Key.Global == nil || a.Key.Global.Pkg() != c.pass.Pkg {
						continue
					}
					switch a.Kind {
					case guards.Write:
						st, ok := instr.(*ssa.Store)
						if !ok {
							continue
						}
						w := &write{key: a.Key, fn: fn, instr: instr, pos: a.Pos, locks: a.Locks, once: a.Once}
						if k := c.selfDerived(st.Val, a.Key); k != 0 {
							w.kind = k
						} else if chk, held := c.checkedAt(fn, b, a.Key); chk.IsValid() {
							w.kind, w.check = checkSet, chk
							// the set under a lock that the check does
							// not hold, with no test again under it: both
							// pass the check, then set in turn
							if w.locked() && !c.checkedUnder(fn, b, a.Key, w.locks, held) {
								w.unheldCheck = true
							}
						} else {
							continue
						}
						out = append(out, w)
					case guards.MapWrite:
						out = append(out, &write{key: a.Key, kind: mapWrite, fn: fn, instr: instr, pos: a.Pos, locks: a.Locks, once: a.Once})
					}
				}
				// delete(m, k) and clear(m): builtins the guards pass does
				// not record
				if call, ok := instr.(*ssa.Call); ok {
					if bi, ok := call.Call.Value.(*ssa.Builtin); ok && (bi.Name() == "delete" || bi.Name() == "clear") && len(call.Call.Args) > 0 {
						if _, isMap := call.Call.Args[0].Type().Underlying().(*types.Map); !isMap {
							continue
						}
						if k, ok := mapKey(call.Call.Args[0]); ok && k.Global != nil && k.Global.Pkg() == c.pass.Pkg {
							out = append(out, &write{key: k, kind: mapDelete, fn: fn, instr: instr, pos: call.Pos(),
								locks: c.guards.Held(instr), once: c.guards.InOnce(fn)})
						}
					}
				}
			}
		}
	}
	return out
}

// helperSets finds check-then-set split over a call: a function tests a
// package-level variable and, in the branch the test decides, calls a
// function of the package that sets it without a lock (if lib == nil {
// initLib() }).
func (c *checker) helperSets() []*write {
	// the variables each function stores plainly without a lock
	sets := map[*ssa.Function][]guards.Key{}
	for _, a := range c.guards.Accesses {
		if a.Kind == guards.Write && a.Key.Global != nil && a.Key.Global.Pkg() == c.pass.Pkg && len(a.Locks) == 0 && !slices.Contains(sets[a.Func], a.Key) {
			sets[a.Func] = append(sets[a.Func], a.Key)
		}
	}
	var out []*write
	for _, fn := range c.calls.Funcs {
		for _, b := range fn.Blocks {
			iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
			if !ok {
				continue
			}
			for _, s := range b.Succs {
				if len(s.Preds) != 1 {
					continue
				}
				for _, bb := range fn.Blocks {
					if !s.Dominates(bb) {
						continue
					}
					for _, instr := range bb.Instrs {
						call, ok := instr.(*ssa.Call)
						if !ok {
							continue
						}
						callee := call.Call.StaticCallee()
						if callee == nil || callee == fn {
							continue
						}
						for _, k := range sets[callee] {
							pos := c.condReads(iff.Cond, k)
							if !pos.IsValid() || len(c.guards.Held(iff)) > 0 {
								continue
							}
							out = append(out, &write{key: k, kind: checkSet, fn: fn, instr: call, pos: call.Pos(),
								locks: c.guards.Held(call), once: c.guards.InOnce(fn), check: pos, via: callee})
						}
					}
				}
			}
		}
	}
	return out
}

func mapKey(m ssa.Value) (guards.Key, bool) {
	if u, ok := m.(*ssa.UnOp); ok && u.Op == token.MUL {
		return guards.KeyOf(u.X)
	}
	return guards.Key{}, false
}

// selfDerived reports whether v is computed from a load of k: n+1,
// append(x, …), x[1:].
func (c *checker) selfDerived(v ssa.Value, k guards.Key) kind {
	found := kind(0)
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value, depth int, inAppend bool)
	walk = func(v ssa.Value, depth int, inAppend bool) {
		if v == nil || depth > 8 || seen[v] || found != 0 {
			return
		}
		seen[v] = true
		if instr, ok := v.(ssa.Instruction); ok {
			for _, a := range c.byInstr[instr] {
				if a.Key == k && a.Kind == guards.Read {
					found = rmw
					if inAppend {
						found = appendKind
					}
					return
				}
			}
		}
		switch v := v.(type) {
		case *ssa.BinOp:
			walk(v.X, depth+1, inAppend)
			walk(v.Y, depth+1, inAppend)
		case *ssa.UnOp:
			if v.Op != token.MUL && v.Op != token.ARROW {
				walk(v.X, depth+1, inAppend)
			}
		case *ssa.Convert:
			walk(v.X, depth+1, inAppend)
		case *ssa.ChangeType:
			walk(v.X, depth+1, inAppend)
		case *ssa.Slice:
			walk(v.X, depth+1, inAppend)
		case *ssa.Call:
			if bi, ok := v.Call.Value.(*ssa.Builtin); ok && bi.Name() == "append" && len(v.Call.Args) > 0 {
				walk(v.Call.Args[0], depth+1, true)
			}
		}
	}
	walk(v, 0, false)
	return found
}

// checked returns the position of a test of k that decides whether block b
// runs (b is dominated by one branch of an If whose condition reads k).
func (c *checker) checked(fn *ssa.Function, b *ssa.BasicBlock, k guards.Key) token.Pos {
	pos, _ := c.checkedAt(fn, b, k)
	return pos
}

// checkedAt is checked, with the locks held at the check.
func (c *checker) checkedAt(fn *ssa.Function, b *ssa.BasicBlock, k guards.Key) (token.Pos, []guards.Lock) {
	for _, ib := range fn.Blocks {
		iff, ok := ib.Instrs[len(ib.Instrs)-1].(*ssa.If)
		if !ok || ib == b {
			continue
		}
		decides := false
		for _, s := range ib.Succs {
			if len(s.Preds) == 1 && s.Dominates(b) {
				decides = true
			}
		}
		if !decides {
			continue
		}
		if pos := c.condReads(iff.Cond, k); pos.IsValid() {
			return pos, c.guards.Held(iff)
		}
	}
	return token.NoPos, nil
}

// checkedUnder reports whether a test of k that decides block b holds one
// of the write's locks (the check itself, or a test again under the lock:
// double-checked locking).
func (c *checker) checkedUnder(fn *ssa.Function, b *ssa.BasicBlock, k guards.Key, locks, atCheck []guards.Lock) bool {
	holds := func(ls []guards.Lock) bool {
		for _, l := range locks {
			if !l.Read && slices.ContainsFunc(ls, func(m guards.Lock) bool { return m.Key == l.Key && !m.Read }) {
				return true
			}
		}
		return false
	}
	if holds(atCheck) {
		return true
	}
	for _, ib := range fn.Blocks {
		iff, ok := ib.Instrs[len(ib.Instrs)-1].(*ssa.If)
		if !ok || ib == b || !holds(c.guards.Held(iff)) {
			continue
		}
		for _, s := range ib.Succs {
			if len(s.Preds) == 1 && s.Dominates(b) && c.condReads(iff.Cond, k).IsValid() {
				return true
			}
		}
	}
	return false
}

// condReads returns the position of a plain read of k in a branch
// condition.
func (c *checker) condReads(cond ssa.Value, k guards.Key) token.Pos {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value, depth int) token.Pos
	walk = func(v ssa.Value, depth int) token.Pos {
		if v == nil || depth > 6 || seen[v] {
			return token.NoPos
		}
		seen[v] = true
		if instr, ok := v.(ssa.Instruction); ok {
			for _, a := range c.byInstr[instr] {
				if a.Key == k && (a.Kind == guards.Read || a.Kind == guards.MapRead) {
					return a.Pos
				}
			}
		}
		var next []ssa.Value
		switch v := v.(type) {
		case *ssa.BinOp:
			next = []ssa.Value{v.X, v.Y}
		case *ssa.UnOp:
			next = []ssa.Value{v.X}
		case *ssa.Extract:
			next = []ssa.Value{v.Tuple}
		case *ssa.Convert:
			next = []ssa.Value{v.X}
		case *ssa.ChangeType:
			next = []ssa.Value{v.X}
		case *ssa.Lookup:
			next = []ssa.Value{v.X}
		case *ssa.Call:
			if _, ok := v.Call.Value.(*ssa.Builtin); ok {
				next = v.Call.Args
			}
		}
		for _, n := range next {
			if p := walk(n, depth+1); p.IsValid() {
				return p
			}
		}
		return token.NoPos
	}
	return walk(cond, 0)
}

func (w *write) locked() bool {
	for _, l := range w.locks {
		if !l.Read {
			return true
		}
	}
	return false
}

// reportWrites reports the unguarded mutations that can run at the same
// time as themselves or as another mutation of the same variable.
func (c *checker) reportWrites(writes []*write) {
	byKey := map[guards.Key][]*write{}
	for _, w := range writes {
		if c.exempt(w.fn, w.pos) {
			continue
		}
		byKey[w.key] = append(byKey[w.key], w)
	}
	for _, w := range writes {
		if w.locked() && !w.unheldCheck || w.once || c.exempt(w.fn, w.pos) {
			continue
		}
		why, ok := c.overlap(w.fn, byKey[w.key], w.kind == checkSet)
		if !ok {
			continue
		}
		c.report(w, why)
	}
}

// overlap says why fn can run at the same time as itself or as another
// function among ws. weak is set for plain stores (check-then-set, C
// assignments): set-up and teardown API does not count for them.
func (c *checker) overlap(fn *ssa.Function, ws []*write, weak bool) (string, bool) {
	if why, ok := c.selfWhy(fn, weak); ok {
		return why, true
	}
	for _, o := range ws {
		if o.fn == fn {
			continue
		}
		if c1, c2, ok := c.overlapPair(fn, o.fn, weak); ok && (c1 != nil || c2 != nil) {
			return fmt.Sprintf("%s can run at the same time as %s, which also changes it (%s and %s)",
				srcname.Func(fn), srcname.Func(o.fn), describe(c1, fn), describe(c2, o.fn)), true
		}
	}
	return "", false
}

// lifecycle matches the names of set-up and teardown functions (InitializeEnvironment,
// Shutdown, SetLibraryPath): library API that its documentation asks callers
// to call once, before or after concurrent use.
var lifecycle = regexp.MustCompile(`^(Init|Initialize|Initialise|Setup|SetUp|Shutdown|Destroy|Cleanup|CleanUp|Terminate|Teardown|TearDown|Finalize|Deinit|DeInit|Uninit|Uninitialize|Load|Unload|Set|Configure)([A-Z_0-9]|$)`)

// contexts returns the contexts that reach fn; for weak evidence, without
// the callers of set-up and teardown API.
// Exported functions of test files (Test…, Benchmark…) are not library
// API either.
func (c *checker) contexts(fn *ssa.Function, weak bool) []*concurrency.Context {
	cs := c.conc.Contexts(fn)
	var out []*concurrency.Context
	for _, ctx := range cs {
		if ctx.Kind == concurrency.API {
			if weak && lifecycle.MatchString(c.rootName(ctx)) ||
				strings.HasSuffix(c.pass.Fset.Position(ctx.Pos).Filename, "_test.go") {
				continue
			}
		}
		out = append(out, ctx)
	}
	return out
}

// rootName returns the name of the exported function an API context
// starts at.
func (c *checker) rootName(ctx *concurrency.Context) string {
	if c.roots == nil {
		c.roots = map[token.Pos]string{}
		for _, fn := range c.calls.Funcs {
			if fn.Parent() == nil {
				c.roots[fn.Pos()] = srcname.Func(fn)
			}
		}
	}
	return c.roots[ctx.Pos]
}

// overlapPair is concurrency.Result.Overlap over c.contexts: contexts in
// which f and g can run at the same time.
func (c *checker) overlapPair(f, g *ssa.Function, weak bool) (c1, c2 *concurrency.Context, ok bool) {
	fs, gs := c.contexts(f, weak), c.contexts(g, weak)
	for _, a := range fs {
		if a.Multi && slices.Contains(gs, a) {
			return a, a, true
		}
		if len(gs) == 0 {
			return a, nil, true
		}
		for _, b := range gs {
			if b != a && !(a.Kind == concurrency.Finalizer && b.Kind == concurrency.Finalizer) {
				return a, b, true
			}
		}
	}
	if len(fs) == 0 && len(gs) > 0 {
		return nil, gs[0], true
	}
	return nil, nil, false
}

// selfWhy says why two activations of fn can run at once: a context that
// runs it several times at once, two contexts that both reach it, or a
// context and a caller that runs on no goroutine of the package's own (the
// caller's goroutine).
func (c *checker) selfWhy(fn *ssa.Function, weak bool) (string, bool) {
	cs := c.contexts(fn, weak)
	if ctx := selfOverlap(cs); ctx != nil {
		return fmt.Sprintf("two goroutines can run %s at once (%s)", srcname.Func(fn), ctx.Desc), true
	}
	if c1, c2, ok := c.overlapPair(fn, fn, weak); ok && c1 != nil && c2 != nil && c1 != c2 {
		return fmt.Sprintf("%s and %s both run %s", c1.Desc, c2.Desc, srcname.Func(fn)), true
	}
	if len(cs) > 0 {
		for _, g := range c.direct[fn] {
			if len(c.contexts(g, weak)) == 0 && !c.initOnly(g) {
				return fmt.Sprintf("%s and the caller of %s both run %s", cs[0].Desc, srcname.Func(g), srcname.Func(fn)), true
			}
		}
	}
	return "", false
}

// directCallers returns, for each function, the functions that call it
// where they run (not through a go statement).
func directCallers(funcs []*ssa.Function) map[*ssa.Function][]*ssa.Function {
	out := map[*ssa.Function][]*ssa.Function{}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var com *ssa.CallCommon
				switch instr := instr.(type) {
				case *ssa.Call:
					com = &instr.Call
				case *ssa.Defer:
					com = &instr.Call
				default:
					continue
				}
				callee := com.StaticCallee()
				if callee == nil {
					continue
				}
				if o := callee.Origin(); o != nil {
					callee = o
				}
				if !slices.Contains(out[callee], fn) {
					out[callee] = append(out[callee], fn)
				}
			}
		}
	}
	return out
}

// selfOverlap returns a context among cs in which two activations of a
// function can run at once, preferring the package's own goroutines to its
// callers'.
func selfOverlap(cs []*concurrency.Context) *concurrency.Context {
	var api *concurrency.Context
	for _, ctx := range cs {
		if !ctx.Multi {
			continue
		}
		if ctx.Kind != concurrency.API {
			return ctx
		}
		if api == nil {
			api = ctx
		}
	}
	return api
}

func describe(ctx *concurrency.Context, fn *ssa.Function) string {
	if ctx == nil {
		return "the caller of " + srcname.Func(fn)
	}
	return ctx.Desc
}

// inScope reports whether findings on the package-level variable of k are
// lifetimevet's to make: in a package that calls C (every cgo call is a
// synchronization point for the race detector, which then misses these
// races), or on a variable that holds C handles or C memory. Go globals of
// pure-Go packages are the race detector's.
func (c *checker) inScope(k guards.Key) bool {
	return c.cgo || k.Global != nil && cgocall.HoldsC(k.Global.Type())
}

func (c *checker) report(w *write, why string) {
	if !c.inScope(w.key) {
		return
	}
	name := w.key.String()
	fn := srcname.Func(w.fn)
	switch w.kind {
	case rmw:
		c.rep.Reportf(w.pos, "%s updates the package-level variable %s (read-modify-write) without a lock: %s, and one update can overwrite the other; make it a sync/atomic type (atomic.Int64) or hold a mutex around the update",
			fn, name, why)
	case appendKind:
		c.rep.Reportf(w.pos, "%s appends to the package-level slice %s without a lock: %s, and one append can overwrite the other; hold a mutex around every access",
			fn, name, why)
	case checkSet:
		switch {
		case w.unheldCheck:
			lock := w.locks[0].Key.String()
			c.rep.Reportf(w.pos, "%s checks the package-level variable %s (%s) without %s and then sets it under %s: %s, and both can pass the check and set it in turn; test it again under the lock, or use sync.Once",
				fn, name, diag.Where(c.pass.Fset, w.check, w.pos), lock, lock, why)
		case w.via != nil:
			c.rep.Reportf(w.pos, "%s checks the package-level variable %s (%s) and then has %s set it without a lock: %s, and both can pass the check; hold a mutex across the check and the set, or use sync.Once or CompareAndSwap",
				fn, name, diag.Where(c.pass.Fset, w.check, w.pos), srcname.Func(w.via), why)
		default:
			c.rep.Reportf(w.pos, "%s checks the package-level variable %s (%s) and then sets it without a lock: %s, and both can pass the check; hold a mutex across the check and the set, or use sync.Once or CompareAndSwap",
				fn, name, diag.Where(c.pass.Fset, w.check, w.pos), why)
		}
	case mapWrite:
		c.rep.Reportf(w.pos, "%s writes the package-level map %s without a lock: %s (concurrent map writes crash the program); hold a mutex around every access, or use sync.Map",
			fn, name, why)
	case mapDelete:
		c.rep.Reportf(w.pos, "%s deletes from the package-level map %s without a lock: %s (concurrent map writes crash the program); hold a mutex around every access, or use sync.Map",
			fn, name, why)
	}
}

// mapReads reports reads of a map without the lock that its writes hold.
func (c *checker) mapReads(writes []*write) {
	guarded := map[guards.Key][]*write{}
	for _, w := range writes {
		if (w.kind == mapWrite || w.kind == mapDelete) && w.locked() && !c.exempt(w.fn, w.pos) {
			guarded[w.key] = append(guarded[w.key], w)
		}
	}
	if len(guarded) == 0 {
		return
	}
	keys := make([]guards.Key, 0, len(guarded))
	for k := range guarded {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b guards.Key) int { return int(a.Global.Pos()) - int(b.Global.Pos()) })
	for _, k := range keys {
		for _, fn := range c.calls.Funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					pos, ok := c.mapRead(instr, k)
					if !ok || len(c.guards.Held(instr)) > 0 || c.guards.InOnce(fn) || c.exempt(fn, pos) || !c.inScope(k) {
						continue
					}
					for _, w := range guarded[k] {
						if w.fn == fn {
							continue
						}
						why := ""
						if c1, c2, ok := c.overlapPair(fn, w.fn, false); ok && (c1 != nil || c2 != nil) {
							why = fmt.Sprintf("%s and %s", describe(c1, fn), describe(c2, w.fn))
						} else if ctx := selfOverlap(c.contexts(w.fn, false)); ctx != nil {
							why = ctx.Desc
						} else {
							continue
						}
						lock := w.locks[0].Key.String()
						c.rep.Reportf(pos, "%s reads the package-level map %s without %s, which %s holds when it changes the map (%s): they can run at once (%s), and a map read during a write crashes the program; hold %s (RLock) around the read",
							srcname.Func(fn), k.String(), lock, srcname.Func(w.fn), diag.Where(c.pass.Fset, w.pos, pos), why, lock)
						break
					}
				}
			}
		}
	}
}

// mapRead reports whether instr reads the map k (a lookup or a range)
// with no lock held where the map is loaded from the variable either: a
// map loaded under the lock and then swapped out (m := reg.m; reg.m =
// newMap()) is the function's own.
func (c *checker) mapRead(instr ssa.Instruction, k guards.Key) (token.Pos, bool) {
	var m ssa.Value
	pos := instr.Pos()
	switch instr := instr.(type) {
	case *ssa.Lookup:
		found := false
		for _, a := range c.byInstr[instr] {
			if a.Key == k && a.Kind == guards.MapRead {
				found, pos = true, a.Pos
			}
		}
		if !found {
			return token.NoPos, false
		}
		m = instr.X
	case *ssa.Range:
		if mk, ok := mapKey(instr.X); !ok || mk != k {
			return token.NoPos, false
		}
		m = instr.X
		if p := instr.X.Pos(); p.IsValid() {
			pos = p
		}
	default:
		return token.NoPos, false
	}
	if load, ok := m.(*ssa.UnOp); ok && len(c.guards.Held(load)) > 0 {
		return token.NoPos, false
	}
	return pos, pos.IsValid()
}

// A cWrite is a write of a C variable that a Go call into C can perform.
type cWrite struct {
	fn    *ssa.Function // the Go function that calls C
	call  *cgocall.Call
	reach cpreamble.Reach
}

// cside reports the package's C variables written by C functions that Go
// calls where goroutines can overlap.
func (c *checker) cside() {
	res := c.pass.ResultOf[cpreamble.Analyzer].(*cpreamble.Result)
	if len(res.Funcs) == 0 {
		return
	}
	byVar := map[*cpreamble.Var][]cWrite{}
	var order []*cpreamble.Var
	for _, fn := range c.calls.Funcs {
		for _, call := range c.calls.Calls(fn) {
			if c.exempt(fn, call.Pos) || c.guards.InOnce(fn) || locked(c.guards.Held(call.Instr)) {
				continue
			}
			cf := res.Lookup(call.Name, c.pass.Fset.Position(call.Pos).Filename)
			if cf == nil {
				continue
			}
			for _, r := range res.Reach(cf) {
				v := r.Write.Var
				if !v.Shared() {
					continue
				}
				if _, ok := byVar[v]; !ok {
					order = append(order, v)
				}
				byVar[v] = append(byVar[v], cWrite{fn: fn, call: call, reach: r})
			}
		}
	}
	for _, v := range order {
		ws := byVar[v]
		for _, w := range ws {
			// a plain assignment in C needs the evidence a check-then-set
			// needs; an update (+=, ++) the evidence of an update
			weak := w.reach.Write.Op == "="
			why, ok := c.selfWhy(w.fn, weak)
			if !ok {
				for _, o := range ws {
					if o.fn == w.fn {
						continue
					}
					if c1, c2, ok := c.overlapPair(w.fn, o.fn, weak); ok && (c1 != nil || c2 != nil) {
						why = fmt.Sprintf("%s can run at the same time as %s, which calls C.%s (%s and %s)",
							srcname.Func(w.fn), srcname.Func(o.fn), o.call.Name, describe(c1, w.fn), describe(c2, o.fn))
						break
					}
				}
			}
			if why == "" {
				continue
			}
			c.reportC(v, w, why)
			break
		}
	}
}

func locked(ls []guards.Lock) bool {
	for _, l := range ls {
		if !l.Read {
			return true
		}
	}
	return false
}

func (c *checker) reportC(v *cpreamble.Var, w cWrite, why string) {
	what := "the file-scope C variable " + v.Name
	if v.Func != nil {
		what = fmt.Sprintf("the static variable %s of the C function %s", v.Name, v.Func.Name)
	}
	chain := w.reach.Chain
	writer := chain[len(chain)-1]
	by := fmt.Sprintf("%s (%s)", writer.Name, c.where(w.reach.Write.Pos, v.Pos))
	if len(chain) > 1 {
		by += ", which " + chain[0].Name + " calls"
	}
	c.rep.Reportf(v.Pos, "%s is written without a lock by %s, and Go calls C.%s from %s (%s): %s, and the C code races on %s; make it _Atomic or _Thread_local, or take a lock around its updates",
		what, by, chain[0].Name, srcname.Func(w.fn), c.where(w.call.Pos, v.Pos), why, v.Name)
}

// where describes pos for a finding at at, with the file's name when it
// is another file.
func (c *checker) where(pos, at token.Pos) string {
	return diag.Where(c.pass.Fset, pos, at)
}
