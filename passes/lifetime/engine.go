package lifetime

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/cfg"
	"github.com/lifetimevet/lifetimevet/internal/srcname"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

const (
	maxStates = 8  // paths kept apart per block before merging
	maxVisits = 24 // visits of one block before the analysis stops
	// maxLoopCount: counted references a path takes to one handle in a
	// loop before their number is no longer followed (see retain)
	maxLoopCount = 3
	// prevTag: the tags of the tokens kill gives a previous trip's value
	// held in a location (below those of clobbers and merges)
	prevTag     = -1 << 22
	maxBlocks   = 8000 // larger functions get a single merged state per block
	maxDepthArg = 6    // depth of the expression walk of a branch condition
	// maxWork bounds the work on one function: the entries of the path
	// states it copies and compares. States hold only what a later
	// instruction can reach (prune, live.go) and share their pending
	// defers, so a function of many short-lived handles costs what its
	// length costs; one that holds thousands of handles at once still
	// costs the square of its size. Past it the analysis stops, as at
	// maxVisits: what was found on the paths followed so far stands. One unit costs about a
	// third of a microsecond. The largest function of the cgo corpus
	// (arrow-go's cdata importer) spends 0.93 million; in std, only
	// mime/multipart's readForm (1.6 million) reaches the limit.
	maxWork = 1_500_000
)

// callEffect is what a call does, as far as lifetimes go.
type callEffect struct {
	c          *cgocall.Call // a call into C
	sum        *Summary      // a Go function with a summary
	callee     *ssa.Function
	calleeName string
	unknown    bool // code we know nothing about: it may write what it can reach
	std        bool // unknown, but in the standard library: cannot reach the package's globals
	disarm     bool // runtime.SetFinalizer(x, nil) or (*runtime.Cleanup).Stop
	nparams    int  // arguments before the closure's bindings
	// once: the function literal (*sync.Once).Do runs, whose summary sum
	// is: what it releases is released at most once per Once
	once bool
	// handOff: the arguments, by index, whose ownership the call takes:
	// runtime.AddCleanup's arg, which the runtime keeps and passes to the
	// cleanup once the object is unreachable (the runtime package's
	// documentation of AddCleanup: the resource goes with arg)
	handOff []int
	// arm is the finalizer or cleanup function the call registers
	// (runtime.SetFinalizer, runtime.AddCleanup, a registrar of the
	// package), on the object armObj; for a cleanup, armArg is the
	// argument the runtime passes it.
	arm            *ssa.Function
	armObj, armArg *tok
	armCleanup     bool
}

// fnAnalysis runs the state machine over one function.
type fnAnalysis struct {
	pa   *pkgAnalysis
	fn   *ssa.Function
	ts   *tokens
	vnum map[ssa.Value]valKey
	// values is vnum's inverse; live, per block, the values of other
	// blocks read at or after its entry (live.go)
	values []ssa.Value
	live   map[*ssa.BasicBlock]map[ssa.Value]bool
	inum   map[ssa.Instruction]int
	loop   map[*ssa.BasicBlock]bool
	// loops numbers the loop each block of loop lies on (cfg.Loops);
	// retained, per loop, what its trips retain (loopRetained)
	loops    map[*ssa.BasicBlock]int
	retained map[int][]loopRetain
	local    map[*ssa.BasicBlock][]valKey // loads and phis used only in their own block
	trace    *Trace
	sites    map[siteKey]*Site
	evs      map[string]bool

	rels     []*relRec
	relIndex map[relKey]*relRec
	drops    []*relRec // counted references dropped with the count unknown here
	retains  []*tok    // handles from parameters a retain was applied to with their count unknown
	dropSeen map[relKey]bool
	exits    []*state
	exitRets []*ssa.Return // the return each of exits ends at
	disarms  map[string]access.Path
	uses     map[string]access.Path

	retAcq       map[int]int             // result index -> exits returning a fresh handle (or nil) there
	retUncounted map[int]bool            // result index -> some exit returns a fresh handle not holding exactly one counted reference
	exitsNormal  int                     // returns reached
	escapes      map[*ssa.Parameter]bool // parameters handed on
	globals      bool
	unknowns     bool
	// opaqueTests is set when a branch condition of the function tests
	// what a call computes from state the summaries do not show: a C
	// call's result, a dynamic call's, a Go function's that passes
	// something to C or has no summary. A release may change that state
	// (a C-side handle table), so a test of it may keep a second call out
	// even where the function writes no memory of its own.
	opaqueTests bool
	argExprFn   func(ssa.CallInstruction, int) string
	lent        map[*tok]*Site       // handles lent by an argument of the call that yields them (model borrowed-from=N) -> that call
	derived     map[*tok]*derivation // values derived from an acquisition's status (status.go)
	retReal     map[int]int          // result index -> exits returning a handle acquired on the path
	retLent     map[int][]string     // result index -> per exit returning a lent handle, its lender's parameter path (or "" when not one)
	retZero     map[int]int          // result index -> exits returning nil or zero there
	lentPaths   map[string]access.Path
	failedToks  map[*tok]bool  // handles of acquisitions that failed on some path
	acqToks     map[*tok]bool  // handles the function acquires (overwrite.go)
	keyedLeaks  []keyedLeak    // leaks of references keyed by a parameter, decided after the run
	keyedMoved  map[*Site]bool // keyed acquisitions handed on (stored, returned) on some path
	backers     map[*tok]bool  // handles a slice or string was built over (backing.go)
	deferHeld   map[*tok]bool  // roots of the arguments of deferred calls (pushDefer)
}

// relRec is one release the function performs (on some path), for its summary.
type relRec struct {
	site    *Site
	tok     *tok
	guarded bool    // on every path it happens on, a branch tested the handle or its owner first
	once    bool    // on every path, inside (*sync.Once).Do
	onceOf  OnceRef // with once, that Do's Once
	settled bool    // guarded by a callee's test that changes what it tests (Release.Repeats is not set)
	ownTest bool    // on every path, the test was of the handle itself (or a callee's that repeats)
}

type relKey struct {
	site *Site
	tok  *tok
}

type siteKey struct {
	instr    ssa.Instruction
	rel      *Release
	cfunc    string
	arg      int
	deferred bool
}

func (pa *pkgAnalysis) analyze(fn *ssa.Function) (*Summary, *Trace) {
	a := &fnAnalysis{
		pa:           pa,
		fn:           fn,
		ts:           newTokens(),
		vnum:         map[ssa.Value]valKey{},
		inum:         map[ssa.Instruction]int{},
		loops:        cfg.Loops(fn),
		retained:     map[int][]loopRetain{},
		trace:        &Trace{Func: fn},
		sites:        map[siteKey]*Site{},
		lent:         map[*tok]*Site{},
		evs:          map[string]bool{},
		disarms:      map[string]access.Path{},
		uses:         map[string]access.Path{},
		retAcq:       map[int]int{},
		retUncounted: map[int]bool{},
		escapes:      map[*ssa.Parameter]bool{},
		derived:      map[*tok]*derivation{},
		retReal:      map[int]int{},
		retLent:      map[int][]string{},
		retZero:      map[int]int{},
		lentPaths:    map[string]access.Path{},

		failedToks: map[*tok]bool{},
		acqToks:    map[*tok]bool{},
		keyedMoved: map[*Site]bool{},
		backers:    map[*tok]bool{},
		deferHeld:  map[*tok]bool{},

		relIndex: map[relKey]*relRec{},
		dropSeen: map[relKey]bool{},
	}
	a.loop = map[*ssa.BasicBlock]bool{}
	for b := range a.loops {
		a.loop[b] = true
	}
	n := 0
	a.local = map[*ssa.BasicBlock][]valKey{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			a.inum[instr] = n
			n++
			if v, ok := instr.(ssa.Value); ok {
				a.vnum[v] = valKey(len(a.vnum))
				a.values = append(a.values, v)
				if localUse(b, v) {
					a.local[b] = append(a.local[b], a.vnum[v])
				}
			}
		}
	}
	a.callbackParams()
	a.computeLive()
	a.run()
	a.flushKeyedLeaks()
	arms := a.pa.arms(fn)
	a.callbackArms(arms)
	sum := a.summarize()
	seen := map[string]bool{}
	for _, at := range arms {
		if k := at.arm.Path.Key(); !seen[k] {
			seen[k] = true
			sum.Arms = append(sum.Arms, at.arm)
		}
	}
	return sum, a.trace
}

// run is the fixpoint iteration over the blocks in reverse postorder, with
// up to maxStates separate path states per block.
func (a *fnAnalysis) run() {
	if len(a.fn.Blocks) == 0 {
		return
	}
	order := cfg.ReversePostorder(a.fn)
	limit := maxStates
	if len(a.fn.Blocks) > maxBlocks {
		limit = 1
	}
	in := map[*ssa.BasicBlock][]*state{a.fn.Blocks[0]: {newState()}}
	keys := map[*ssa.BasicBlock]map[string]bool{}
	visits := map[*ssa.BasicBlock]int{}
	work := map[*ssa.BasicBlock]bool{a.fn.Blocks[0]: true}
	spent := 0
	defer func() { a.trace.work = spent }()
	if debugging("work") {
		defer func() { fmt.Fprintf(os.Stderr, "work %s: %d blocks, %d spent\n", a.fn, len(a.fn.Blocks), spent) }()
	}
	for len(work) > 0 {
		progressed := false
		for _, b := range order {
			if !work[b] {
				continue
			}
			delete(work, b)
			progressed = true
			visits[b]++
			if visits[b] > maxVisits {
				a.trace.Incomplete = true
				return
			}
			for _, s := range in[b] {
				if debugVisits {
					fmt.Fprintf(os.Stderr, "visit %s b%d #%d: %s\n", a.fn, b.Index, visits[b], s.key())
					for l, c := range s.content {
						fmt.Fprintf(os.Stderr, "   content %s(%d) = %s(%d)\n", l, l.id, c, c.id)
					}
					for k, v := range s.vals {
						fmt.Fprintf(os.Stderr, "   val %d = %s(%d)\n", k, v, v.id)
					}
					for g := range s.guards {
						fmt.Fprintf(os.Stderr, "   guard %s(%d)\n", g, g.id)
					}
				}
				spent += s.size() * (1 + len(b.Succs))
				if spent > maxWork {
					a.trace.Incomplete = true
					return
				}
				out, ok := a.block(b, s.clone())
				if !ok {
					continue
				}
				for si, succ := range b.Succs {
					if a.infeasible(b, si, out) {
						continue
					}
					ns := a.edge(b, si, succ, out)
					if !noPrune {
						a.prune(ns, succ)
					}
					k := ns.key()
					if keys[succ] == nil {
						keys[succ] = map[string]bool{}
					}
					if keys[succ][k] {
						continue
					}
					keys[succ][k] = true
					in[succ] = append(in[succ], ns)
					if len(in[succ]) > limit {
						m := merge(a.ts, -1-succ.Index, in[succ])
						in[succ] = []*state{m}
						keys[succ] = map[string]bool{m.key(): true}
					}
					work[succ] = true
				}
			}
			// states of this visit are consumed; later visits see only new ones
			in[b] = nil
		}
		if !progressed {
			break
		}
	}
}

// infeasible reports whether the edge si out of b cannot be taken on the
// path of out: b tests a loop's counter against a constant (for i := 0;
// i < 3; i++), and the counter is zero on this path, entering the loop. The
// test is then decided: a loop whose constant bound its start is below runs
// its first trip, and the path that skips it (which would leave what a
// first trip releases unreleased, or find released what a first trip of
// retains kept) is not one the program takes.
//
// A loop whose body always leaves on its first trip has no counter (no
// back edge, so no phi): its test compares two constants (0 < 3), decided
// the same way.
func (a *fnAnalysis) infeasible(b *ssa.BasicBlock, si int, out *state) bool {
	br := out.br
	if len(b.Succs) != 2 || len(b.Instrs) == 0 {
		return false
	}
	iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	if c, ok := iff.Cond.(*ssa.BinOp); ok {
		x, okx := c.X.(*ssa.Const)
		y, oky := c.Y.(*ssa.Const)
		if okx && oky && x.Value != nil && y.Value != nil && x.Value.Kind() == constant.Int && y.Value.Kind() == constant.Int {
			switch c.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				return (si == 0) != constant.Compare(x.Value, c.Op, y.Value)
			}
		}
	}
	if br == nil || br.x == nil || br.x != a.ts.zero || br.k == nil || br.k.IsNil() || !a.loop[b] {
		return false
	}
	holds, ok := zeroSatisfies(br.op, br.k)
	if !ok {
		return false
	}
	return (si == 0) != (holds != br.negate)
}

// edge returns the state entering succ from b: phis take their operand for
// this edge.
func (a *fnAnalysis) edge(b *ssa.BasicBlock, _ int, succ *ssa.BasicBlock, out *state) *state {
	ns := out.clone()
	a.enterLoop(b, succ, ns)
	if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok && out.br != nil {
		a.refine(ns, out, out.br, slices.Index(b.Succs, succ))
	}
	pi := slices.Index(succ.Preds, b)
	if pi < 0 {
		return ns
	}
	for _, instr := range succ.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		if pi < len(phi.Edges) {
			t := a.tokOf(out, phi.Edges[pi])
			if loadedFrom(phi.Edges[pi], phi) {
				// a value computed from its own previous value around a
				// loop (n = n.next over a linked list): each trip would
				// give a deeper token, and the states would never
				// repeat. It is the phi as computed, another value on
				// each trip: what the previous trip knew of it is
				// forgotten.
				r := a.ts.rootOf(phi)
				a.forget(ns, r)
				t = r
			} else if v := phi.Edges[pi]; t != nil && t.kind == tRoot && t.v == v && !t.location() && a.madeInTrip(v, succ) {
				// a value the trip computes, carried into the next
				// trip (cur = next over a list, prev = o): there it is
				// the previous trip's, and the trip makes a new one
				// under the same name. The phi, as computed, takes
				// over what the path knows of it, so that the new
				// value starts afresh and the old one keeps its state.
				r := a.ts.rootOf(phi)
				a.forget(ns, r)
				a.moveTok(ns, t, r)
				t = r
			}
			ns.vals[a.vnum[phi]] = t
		}
	}
	return ns
}

// loadedFrom reports whether v is loaded from phi through fields and
// pointers (phi.next, (*phi).link.next, phi.next.Load() of an atomic
// cell), with no other call between.
func loadedFrom(v ssa.Value, phi *ssa.Phi) bool {
	for n := 0; n < 16; n++ {
		switch x := access.StripConv(v).(type) {
		case *ssa.Phi:
			return x == phi
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
			v = x.X
		case *ssa.Call:
			op, ok := AtomicCellOp(&x.Call)
			if !ok || !op.Reads() {
				return false
			}
			v = op.Addr
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		default:
			return false
		}
	}
	return false
}

// block runs the instructions of b on s; ok is false when the path ends
// (return, panic).
func (a *fnAnalysis) block(b *ssa.BasicBlock, s *state) (*state, bool) {
	inLoop := a.loop[b]
	for _, instr := range b.Instrs {
		if a.pa.calls.Plumbing(instr) {
			continue
		}
		if inLoop {
			if v, ok := instr.(ssa.Value); ok {
				if _, isPhi := v.(*ssa.Phi); !isPhi {
					a.kill(s, a.ts.rootOf(v))
				}
			}
		}
		switch instr := instr.(type) {
		case *ssa.Alloc:
			// a new variable: nothing is known to be stored in it
		case *ssa.UnOp:
			if instr.Op == token.MUL {
				a.derefUse(s, instr.X, instr, false)
				s.vals[a.vnum[instr]] = a.content(s, a.tokOf(s, instr.X))
			}
		case *ssa.Store:
			a.derefUse(s, instr.Addr, instr, true)
			a.store(s, instr)
		case *ssa.If:
			a.guard(s, instr.Cond, 0)
			s.br = a.branchOf(s, instr.Cond)
		case *ssa.Call:
			if op, ok := AtomicCellOp(&instr.Call); ok {
				a.cellOp(s, instr, op)
				break
			}
			// a take-out's result is what the path held before the
			// call wrote it; an accessor's, what it holds after
			nres := instr.Call.Signature().Results().Len()
			taken := make([]*tok, nres)
			for i := range nres {
				if a.takesOut(instr, i) {
					taken[i] = a.accessed(s, instr, i)
				}
			}
			a.call(s, instr, false)
			for i := range nres {
				if taken[i] == nil {
					taken[i] = a.accessed(s, instr, i)
				}
			}
			a.bindResults(s, instr, taken)
		case *ssa.Defer:
			a.deferCall(s, instr)
		case *ssa.Go:
			a.goCall(s, instr)
		case *ssa.RunDefers:
			a.runDefers(s)
		case *ssa.Panic:
			a.runDefers(s)
			return s, false
		case *ssa.Return:
			a.exits = append(a.exits, s)
			a.exitRets = append(a.exitRets, instr)
			a.exitChecks(s)
			a.armChecks(s, instr)
			a.returnedReleased(s, instr)
			a.leaks(s, instr)
			return s, false
		case *ssa.MapUpdate:
			// a handle stored in a map, as its key or its value, is
			// kept by the map (a registry): whoever owns the map may
			// release it, by its keys as well as by its values
			a.keyUse(s, instr.Key, instr, "map update")
			a.escape(s, a.tokOf(s, instr.Key))
			a.escape(s, a.tokOf(s, instr.Value))
		case *ssa.Lookup:
			if _, ok := instr.X.Type().Underlying().(*types.Map); ok {
				a.keyUse(s, instr.Index, instr, "map lookup")
			}
		case *ssa.Send:
			a.escape(s, a.tokOf(s, instr.X))
		case *ssa.MakeInterface:
			// boxed into an interface: followed no further
			a.escape(s, a.tokOf(s, instr.X))
		case *ssa.MakeClosure:
			// a closure may run later, anywhere: what it captures is handed on
			for _, b := range instr.Bindings {
				bt := a.tokOf(s, b)
				a.escape(s, bt)
				a.escape(s, a.content(s, bt))
			}
		}
	}
	for _, k := range a.local[b] {
		delete(s.vals, k)
	}
	return s, true
}

// localUse reports whether v, a load or a phi, is used only by
// instructions of its own block other than phis: its token need not outlive
// the block.
func localUse(b *ssa.BasicBlock, v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return false
		}
	case *ssa.Phi:
	default:
		return false
	}
	refs := v.Referrers()
	if refs == nil {
		return true
	}
	for _, r := range *refs {
		if _, phi := r.(*ssa.Phi); phi || r.Block() != b {
			return false
		}
	}
	return true
}

// kill forgets what the state knows about values derived from root r, whose
// instruction runs again (a loop): they are new values now.
func (a *fnAnalysis) kill(s *state, r *tok) {
	if r.kind != tRoot {
		return
	}
	// a location the previous trip stored it in (cur = next, with cur a
	// variable the loop keeps in memory) holds the previous trip's
	// value, not the one this run makes: that value, with what the path
	// knows of it (released), becomes a token of its own, the location's
	// previous instance
	if i, ok := r.v.(ssa.Instruction); ok {
		for l, c := range s.content {
			if c == r && l.root != r && !r.location() {
				p := a.ts.fresh(l, prevTag-a.inum[i])
				a.forget(s, p)
				a.moveTok(s, r, p)
				break
			}
		}
	}
	for l, c := range s.content {
		if l.root == r || c.root == r {
			delete(s.content, l)
		}
	}
	other := func(t *tok) bool { return t.root != r }
	dropDead(s.released, other)
	dropDead(s.maybe, other)
	dropDead(s.acquired, other)
	dropDead(s.parents, other)
	// and the references an earlier trip counted were another object's
	dropDead(s.counts, other)
	dropDead(s.open, other)
	dropDead(s.raised, other)
	// pending calls with an argument of r's were registered by an earlier
	// iteration: that argument was another value
	a.renew(s, func(t *tok) bool { return t.root == r })
}

// tokOf returns the token of SSA value v in state s.
func (a *fnAnalysis) tokOf(s *state, v ssa.Value) *tok {
	v = access.StripConv(v)
	switch v := v.(type) {
	case *ssa.Const:
		if isZero(v) {
			return a.ts.zero
		}
	case *ssa.UnOp:
		if v.Op == token.MUL {
			if t, ok := s.vals[a.vnum[v]]; ok {
				return t
			}
		}
	case *ssa.Phi:
		if t, ok := s.vals[a.vnum[v]]; ok {
			return t
		}
	case *ssa.FieldAddr:
		return a.ts.faddr(a.tokOf(s, v.X), v.Field)
	case *ssa.Field:
		return a.ts.field(a.tokOf(s, v.X), v.Field)
	case *ssa.Extract:
		if t, ok := s.vals[a.vnum[v]]; ok {
			return t // an accessor's result (accessed)
		}
		return a.ts.field(a.tokOf(s, v.Tuple), v.Index)
	case *ssa.Call, *ssa.Slice, *ssa.IndexAddr:
		if c, ok := v.(*ssa.Call); ok {
			if t, ok := s.vals[a.vnum[c]]; ok {
				return t // an accessor's result (accessed)
			}
		}
		if t := a.backing(s, v); t != nil {
			return t
		}
	}
	return a.ts.rootOf(v)
}

// bindResults records the tokens of call's results that accessed found:
// the call's own value for one result, the Extracts of a tuple's (p, ok :=
// b.take()).
func (a *fnAnalysis) bindResults(s *state, call *ssa.Call, toks []*tok) {
	if len(toks) == 1 {
		if toks[0] != nil {
			s.vals[a.vnum[call]] = toks[0]
		}
		return
	}
	if !slices.ContainsFunc(toks, func(t *tok) bool { return t != nil }) || call.Referrers() == nil {
		return
	}
	for _, ref := range *call.Referrers() {
		if x, ok := ref.(*ssa.Extract); ok && x.Index < len(toks) && toks[x.Index] != nil {
			s.vals[a.vnum[x]] = toks[x.Index]
		}
	}
}

// accessed returns what call's result i is when its callee is an accessor
// (func (m *Module) inner() *C.module { return m._inner }, or (*C.res,
// bool) with the handle first): the parameter path its summary says it
// always returns, read in s; nil otherwise.
func (a *fnAnalysis) accessed(s *state, call *ssa.Call, i int) *tok {
	callee := call.Call.StaticCallee()
	if callee == nil || call.Call.IsInvoke() || i >= call.Call.Signature().Results().Len() {
		return nil
	}
	sum := a.pa.summaryOf(callee)
	if sum == nil || len(sum.Releases) > 0 || len(sum.Acquires) > 0 || len(sum.Drops) > 0 {
		return nil
	}
	p, ok := sum.ReturnOf(i)
	if !ok {
		return nil
	}
	base := CallOperand(&call.Call, p.Root)
	if base == nil {
		return nil
	}
	// (a result that is the parameter itself, converted, is the same
	// handle: func (w *Window) cptr() *C.SDL_Window { return
	// (*C.SDL_Window)(unsafe.Pointer(w)) } for a type defined as the C
	// type)
	return a.apply(s, a.tokOf(s, base), p.Ops)
}

// CallOperand returns the value a summary's path root names at a call:
// argument root, or for a negative root the free variable -1-root of the
// function literal called (take := func() *C.res { … b.h … }; take()),
// bound where the literal is made; nil if there is none.
func CallOperand(com *ssa.CallCommon, root int) ssa.Value {
	if root >= 0 {
		if root < len(com.Args) {
			return com.Args[root]
		}
		return nil
	}
	if mc, ok := com.Value.(*ssa.MakeClosure); ok && -1-root < len(mc.Bindings) {
		return mc.Bindings[-1-root]
	}
	return nil
}

// takesOut reports whether call's callee returns, as result i, what a path
// of its arguments held on entry and writes that path after reading it (see
// Returned.Entry).
func (a *fnAnalysis) takesOut(call *ssa.Call, i int) bool {
	callee := call.Call.StaticCallee()
	if callee == nil || call.Call.IsInvoke() {
		return false
	}
	sum := a.pa.summaryOf(callee)
	if sum == nil {
		return false
	}
	r := sum.returned(i)
	return r != nil && r.Entry
}

// content returns what location l holds in s.
func (a *fnAnalysis) content(s *state, l *tok) *tok {
	if c, ok := s.content[l]; ok {
		return c
	}
	if l.kind == tFaddr {
		return a.ts.field(a.content(s, l.base), l.idx)
	}
	if s.unknown && l.root.kind == tRoot {
		if _, ok := l.root.v.(*ssa.Global); ok {
			// an unknown call may have changed any global
			return a.ts.fresh(l, -1<<20)
		}
	}
	return a.ts.canon(l)
}

// eval evaluates an access path of the function's frame in s.
func (a *fnAnalysis) eval(s *state, r access.Ref) *tok {
	if !r.Valid() {
		return nil
	}
	t, ops := a.tokOf(s, r.Root), r.Ops
	if len(ops) > 0 && ops[0].Kind == access.IndexAddr && a.backed(r.Root, t) {
		ops = ops[1:] // &s[0] of a slice over a handle: the handle
	}
	return a.apply(s, t, ops)
}

func (a *fnAnalysis) apply(s *state, t *tok, ops []access.Op) *tok {
	for i, o := range ops {
		if t == nil {
			return nil
		}
		switch o.Kind {
		case access.Load:
			t = a.content(s, t)
		case access.FieldAddr:
			t = a.ts.faddr(t, o.Index)
		case access.Field:
			t = a.ts.field(t, o.Index)
		case access.IndexAddr:
			// &s[i] of a slice built over a handle's memory
			// (unsafe.Slice((**C.char)(C.malloc(n)), k), evaluated in
			// cgo's wrapper: C.free(unsafe.Pointer(&argv[0]))) points
			// into the handle, as backing reads the same in the frame;
			// what an element holds (argv[i]) is not tracked
			if !a.backers[t] || t.location() || i != len(ops)-1 {
				return nil // elements are not tracked
			}
		default:
			return nil // elements are not tracked
		}
	}
	return t
}

// write records that location l now holds c.
func (a *fnAnalysis) write(s *state, l, c *tok) {
	if l == nil || l.kind == tZero {
		return
	}
	// what was stored in l's fields, or in l as a part of a larger store,
	// no longer holds
	for k := range s.content {
		if k != l && within(k, l) {
			delete(s.content, k)
		}
	}
	for anc := l.base; l.kind == tFaddr && anc != nil; anc = anc.base {
		if _, ok := s.content[anc]; ok {
			s.content[anc] = a.ts.fresh(anc, a.inumOrZero(nil))
		}
		if anc.kind != tFaddr {
			break
		}
	}
	s.content[l] = c
	if l.outliving() && l.root.kind == tRoot {
		if _, ok := l.root.v.(*ssa.Global); ok {
			a.globals = true
		}
	}
}

func (a *fnAnalysis) inumOrZero(instr ssa.Instruction) int {
	if instr == nil {
		return 0
	}
	return a.inum[instr]
}

// within reports whether location k lies inside location l (a field of it).
func within(k, l *tok) bool {
	for t := k; t != nil && t.kind == tFaddr; t = t.base {
		if t.base == l {
			return true
		}
	}
	return false
}

// clobber records an unknown write to location l at instr.
func (a *fnAnalysis) clobber(s *state, l *tok, instr ssa.Instruction) {
	if l == nil || !l.location() && l.kind != tLoad && l.kind != tFresh {
		return
	}
	f := a.ts.fresh(l, a.inum[instr])
	a.madeAgain(s, f)
	a.write(s, l, f)
}

// madeAgain records that the instruction whose token is f (what it leaves
// in a location) runs again: in a loop, the value it left in the previous
// iteration (and may have released since, as the callee that replaces it
// does) is another value, and a deferred call registered with it by an
// earlier iteration was registered with that other value (see renew).
func (a *fnAnalysis) madeAgain(s *state, f *tok) {
	for _, m := range []map[*tok]*Site{s.released, s.maybe} {
		for t := range m {
			if derivesFrom(t, f) {
				delete(m, t)
			}
		}
	}
	a.renew(s, func(t *tok) bool { return derivesFrom(t, f) })
}

// derivesFrom reports whether t is f or a value reached from it (a field
// of it, a load through it).
func derivesFrom(t, f *tok) bool {
	for ; t != nil; t = t.base {
		if t == f {
			return true
		}
	}
	return false
}

func (a *fnAnalysis) store(s *state, st *ssa.Store) {
	l := a.tokOf(s, st.Addr)
	v := a.tokOf(s, st.Val)
	if v.kind == tZero && l.root.kind == tRoot {
		if _, local := l.root.v.(*ssa.Alloc); local {
			old := a.content(s, l)
			if first, ok := s.released[old]; ok && old.root.kind == tRoot {
				if p, ok := old.root.v.(*ssa.Parameter); ok && !isPointer(p.Type()) {
					a.event(&Event{Kind: ClearOfCopy, First: first, Store: st, Handle: first.Handle},
						fmt.Sprint("copy", a.inum[st]))
				}
			}
		}
	}
	a.assign(s, l, v, st)
}

// assign records that instr writes v to location l: a store, or an atomic
// cell's Store or Swap.
func (a *fnAnalysis) assign(s *state, l, v *tok, instr ssa.Instruction) {
	old := a.content(s, l)
	if !localVar(l) {
		a.escape(s, v)
	}
	if v != old && old != nil && v.derivesFrom(old) {
		// a location given a value loaded from its own content (n =
		// n.next over a linked list, in a loop): each trip would give a
		// deeper token, and the states would never repeat. It holds
		// the content this store writes, one token whatever the trip:
		// what an earlier trip knew of that content is forgotten.
		v = a.ts.fresh(l, a.inum[instr])
		a.forget(s, v)
	}
	a.write(s, l, v)
}

// forget removes what the state knows of t and of the tokens derived from
// it (its fields, what it points to, what has t as its root), which now
// stand for another value: all that kill forgets of a root, and its
// guards.
func (a *fnAnalysis) forget(s *state, t *tok) {
	of := func(x *tok) bool { return x.root == t || x.derivesFrom(t) }
	for l, c := range s.content {
		if of(l) || of(c) {
			delete(s.content, l)
		}
	}
	for _, m := range []map[*tok]*Site{s.released, s.maybe} {
		for x := range m {
			if of(x) {
				delete(m, x)
			}
		}
	}
	for x := range s.acquired {
		if of(x) {
			delete(s.acquired, x)
		}
	}
	for x := range s.parents {
		if of(x) {
			delete(s.parents, x)
		}
	}
	for x := range s.guards {
		if of(x) {
			delete(s.guards, x)
		}
	}
	a.renew(s, of)
}

// localVar reports whether location l is a local variable of the function
// itself (not a field of a struct, not memory behind a pointer).
func localVar(l *tok) bool {
	return l.kind == tRoot && localAlloc(l.v)
}

// localAlloc reports whether v is the address of a local variable of its
// function (see localVar).
func localAlloc(v ssa.Value) bool {
	al, ok := v.(*ssa.Alloc)
	return ok && !al.Heap || ok && al.Comment != "" && al.Comment != "complit" && al.Comment != "new"
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// guard records the roots a branch condition tests.
func (a *fnAnalysis) guard(s *state, v ssa.Value, depth int) {
	if depth > maxDepthArg || v == nil {
		return
	}
	switch v := v.(type) {
	case *ssa.BinOp:
		a.guard(s, v.X, depth+1)
		a.guard(s, v.Y, depth+1)
		return
	case *ssa.UnOp:
		if v.Op != token.MUL {
			a.guard(s, v.X, depth+1)
			return
		}
		// a load of a count the function itself decremented (r.n--;
		// if r.n == 0 {...}): the location tested is its owner's
		// state, as a field tested as it came is. A field the path
		// set to something else (w.err = w.flush(), w.state = 2) says
		// nothing of the owner's state before the call.
		if l := a.tokOf(s, v.X); l != nil && a.updatedFrom(s, l) {
			s.guards[l] = true
			s.guards[l.root] = true
		}
	case *ssa.Call:
		if a.opaqueCall(v) {
			a.opaqueTests = true
		}
		if v.Call.IsInvoke() {
			a.guard(s, v.Call.Value, depth+1) // the receiver: d.ctx.Err()
		}
		for _, arg := range v.Call.Args {
			a.guard(s, arg, depth+1)
		}
		if c := a.pa.calls.Lookup(v); c != nil {
			for _, r := range c.Args {
				if t := a.eval(s, r); t != nil {
					s.guards[t] = true
					s.guards[t.root] = true
				}
			}
		}
	case *ssa.Extract:
		a.guard(s, v.Tuple, depth+1)
		return
	case *ssa.Select:
		// a select's channels: a done channel is a closed flag
		for _, st := range v.States {
			a.guard(s, st.Chan, depth+1)
		}
		return
	case *ssa.Lookup:
		// a map entry (closed[d.id]): what the key is read from
		a.guard(s, v.X, depth+1)
		a.guard(s, v.Index, depth+1)
	case *ssa.MakeInterface:
		a.guard(s, v.X, depth+1)
	case *ssa.ChangeType:
		a.guard(s, v.X, depth+1)
	case *ssa.Convert:
		a.guard(s, v.X, depth+1)
	case *ssa.Const:
		return
	}
	t := a.tokOf(s, v)
	s.guards[t] = true
	s.guards[t.root] = true
}

// opaqueCall reports whether call computes its result from state a summary
// does not show (see fnAnalysis.opaqueTests).
func (a *fnAnalysis) opaqueCall(call *ssa.Call) bool {
	if a.pa.calls.Lookup(call) != nil {
		return true // a C call
	}
	callee := call.Call.StaticCallee()
	if callee == nil {
		return true
	}
	sum := a.pa.summaryOf(callee)
	return sum == nil || len(sum.Uses) > 0 || sum.Globals
}

// updatedFrom reports whether location l holds, in s, a value computed
// from what l held before (r.n--, r.n -= 1, r.n = r.n - 1): a
// read-modify-write of the location.
func (a *fnAnalysis) updatedFrom(s *state, l *tok) bool {
	c, ok := s.content[l]
	if !ok || c.kind != tRoot {
		return false
	}
	bo, ok := c.v.(*ssa.BinOp)
	if !ok {
		return false
	}
	for _, x := range []ssa.Value{bo.X, bo.Y} {
		if ld, ok := access.StripConv(x).(*ssa.UnOp); ok && ld.Op == token.MUL && a.tokOf(s, ld.X) == l {
			return true
		}
	}
	return false
}

// resolve says what a call instruction does.
func (a *fnAnalysis) resolve(s *state, instr ssa.CallInstruction) (*callEffect, []*tok) {
	if c := a.pa.calls.Lookup(instr); c != nil {
		args := make([]*tok, len(c.Args))
		for i, r := range c.Args {
			args[i] = a.eval(s, r)
		}
		return &callEffect{c: c}, args
	}
	com := instr.Common()
	var args []*tok
	for _, v := range com.Args {
		args = append(args, a.tokOf(s, v))
	}
	if com.IsInvoke() {
		return &callEffect{unknown: true}, append([]*tok{a.tokOf(s, com.Value)}, args...)
	}
	if _, ok := com.Value.(*ssa.Builtin); ok {
		return &callEffect{}, args // len, append, println...: nothing a handle's life depends on
	}
	callee := com.StaticCallee()
	if callee == nil {
		return &callEffect{unknown: true}, args
	}
	if lit, mc := onceLiteral(com); lit != nil {
		// once.Do(func() { ... }): the literal runs now, at most once
		// per Once; its free variables are its arguments
		if sum := a.pa.summaryOf(lit); sum != nil {
			var bound []*tok
			for _, b := range mc.Bindings {
				bound = append(bound, a.tokOf(s, b))
			}
			return &callEffect{sum: sum, callee: lit, calleeName: funcName(lit), once: true}, bound
		}
	}
	eff := &callEffect{callee: callee, calleeName: funcName(callee), nparams: len(args)}
	if mc, ok := com.Value.(*ssa.MakeClosure); ok {
		// free variables follow the parameters, as roots -1-i
		for _, b := range mc.Bindings {
			args = append(args, a.tokOf(s, b))
		}
	}
	// (an instance of a generic function, such as AddCleanup's, has no
	// package: its origin has)
	generic := callee
	if o := callee.Origin(); o != nil {
		generic = o
	}
	if pkg := generic.Package(); pkg != nil && pkg.Pkg.Path() == "runtime" {
		name := generic.Name()
		switch name {
		case "SetFinalizer":
			if len(com.Args) == 2 {
				if c, ok := com.Args[1].(*ssa.Const); ok && c.Value == nil {
					eff.disarm = true
				}
				if mi, ok := com.Args[0].(*ssa.MakeInterface); ok {
					args[0] = a.tokOf(s, mi.X) // the object, not the interface
				}
				if f := funcValue(unwrapIface(com.Args[1])); f != nil && !eff.disarm {
					eff.arm, eff.armObj = f, args[0]
				}
			}
			return eff, args
		case "AddCleanup":
			if len(args) == 3 {
				eff.handOff = []int{2}
				if f := funcValue(com.Args[1]); f != nil {
					eff.arm, eff.armObj, eff.armArg, eff.armCleanup = f, args[0], args[2], true
				}
			}
			return eff, args
		case "KeepAlive", "GC":
			return eff, args
		case "Stop":
			if callee.Signature.Recv() != nil {
				eff.disarm = true
				if len(com.Args) > 0 && len(args) > 0 {
					if fa := cleanupsField(com.Args[0]); fa != nil {
						args[0] = a.tokOf(s, fa) // for _, c := range t.cleanups { c.Stop() }
					}
				}
				return eff, args
			}
		}
	}
	if generic.Pkg != nil && generic.Pkg.Pkg == a.pa.pass.Pkg {
		// a helper of the package that registers its argument's
		// finalizer (func track[T any](p *T, f func(*T)))
		if reg, ok := a.pa.registrar(generic, map[*ssa.Function]bool{}); ok {
			if obj, f := reg.at(com.Args); obj != nil {
				if fn := funcValue(unwrapIface(f)); fn != nil {
					eff.arm, eff.armObj = fn, a.tokOf(s, unwrapIface(obj))
				}
			}
		}
	}
	if sum := a.pa.summaryOf(callee); sum != nil {
		eff.sum = sum
		return eff, args
	}
	if atomicLoad(callee) {
		return eff, args
	}
	eff.unknown = true
	if pkg := callee.Package(); pkg != nil && isStd(pkg.Pkg.Path()) {
		eff.std = true
	}
	return eff, args
}

// atomicLoad reports whether fn is one of sync/atomic's loads: LoadInt32,
// LoadPointer, … and the Load methods of its types. They read the word
// they are given and write nothing; the functions' bodies are in assembly,
// so nothing else says so.
func atomicLoad(fn *ssa.Function) bool {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	pkg := fn.Package()
	return pkg != nil && pkg.Pkg.Path() == "sync/atomic" && strings.HasPrefix(fn.Name(), "Load")
}

func (a *fnAnalysis) call(s *state, instr ssa.CallInstruction, deferred bool) {
	eff, args := a.resolve(s, instr)
	a.apply1(s, instr, eff, args, deferred)
}

// apply1 applies the effect of a call on s (now, or when a deferred call runs).
func (a *fnAnalysis) apply1(s *state, instr ssa.CallInstruction, eff *callEffect, args []*tok, deferred bool) {
	if eff.arm != nil && !deferred {
		a.pushArm(s, instr, eff)
	}
	for _, i := range eff.handOff {
		if t := args[i]; t != nil {
			a.escape(s, t)
			a.escape(s, a.content(s, t))
		}
	}
	switch {
	case eff.c != nil:
		c := eff.c
		if !deferred {
			a.nestedAcquires(s, instr, c, args)
		}
		released := map[int]bool{}
		rels := a.pa.model.Model.Releases(c.Name, c.Sig)
		for _, e := range rels {
			if !e.Global && e.Arg >= 0 {
				released[e.Arg] = true
			}
		}
		for _, e := range rels {
			var t *tok
			switch {
			case e.Global:
				t = a.ts.global(e.Library)
			case e.Arg < 0 || e.Arg >= len(args):
				continue
			case e.Indirect:
				released[e.Arg] = true
				if args[e.Arg] != nil {
					t = a.content(s, args[e.Arg])
				}
			default:
				released[e.Arg] = true
				t = args[e.Arg]
				if t == nil && !c.Args[e.Arg].Valid() {
					// a release of a handle the call's argument does not
					// name (computed in cgo's wrapper: C.x_free(w.cptr())
					// for a pointer to an incomplete type): it may be any
					// the function was given, so its parameters are
					// handed on, not leaked by its callers
					for _, p := range a.fn.Params {
						if isPointerLike(p.Type()) {
							a.escape(s, a.tokOf(s, p))
						}
					}
				}
			}
			if (e.Counted || s.open[t]) && t != nil {
				// Drop one counted reference. Only references taken on
				// this path are known: with none, the caller may hold any
				// number, and nothing is said. A handle a retain was
				// applied to is counted from then on, whatever releases
				// it (obj_unref, read as a release by its name).
				if a.dropCounted(s, t, e.Global, a.acrossTrips(t, instr), func() *Site {
					return a.site(instr, nil, c.Name, e.Class(), e.Arg, deferred, func() string {
						return releasedText(e, cgocall.Text(a.pa.pass.TypesInfo, c.ArgExpr(e.Arg)))
					})
				}) {
					continue
				}
			}
			arg := e.Arg
			site := a.site(instr, nil, c.Name, e.Class(), arg, deferred, func() string {
				if e.Global {
					return "the " + e.Library + " library state"
				}
				return releasedText(e, cgocall.Text(a.pa.pass.TypesInfo, c.ArgExpr(arg)))
			})
			a.releaseOrder(s, t, site, args, released)
			a.release(s, t, site)
			if t != nil && c.Value != nil && !deferred {
				// the status: the result, or the first of the pair an
				// errno-returning call gives (rc, err := C.x_close(h))
				st := a.ts.rootOf(c.Value)
				if _, tuple := c.Value.Type().(*types.Tuple); tuple {
					st = a.ts.field(st, 0)
				}
				s.relStatus[t] = st
			}
			if e.Clears && arg >= 0 && arg < len(args) && args[arg] != nil {
				a.write(s, args[arg], a.ts.zero)
			}
		}
		a.destructorTransfers(s, instr, c, args, released, deferred)
		var errcodes []errcodeAt
		for _, e := range a.pa.model.Model.Acquires(c.Name) {
			if e.Global {
				s.counts[a.ts.global(e.Library)]++
				continue
			}
			if e.Role != model.Acquire {
				// borrowed: not the caller's to release; a lent handle
				// lives as long as the argument that lends it
				a.lend(s, instr, c, e, args, released, deferred)
				continue
			}
			var fresh, status *tok
			if c.Value != nil && !deferred {
				status = a.ts.rootOf(c.Value)
				if _, tuple := c.Value.Type().(*types.Tuple); tuple {
					status = a.ts.field(status, 0)
				}
			}
			switch {
			case e.Out >= 0 && e.Out < len(args) && args[e.Out] != nil:
				released[e.Out] = true
				fresh = a.ts.fresh(args[e.Out], a.inum[instr])
				if !deferred {
					a.overwrite(s, args[e.Out], instr, c.Name, true, cgocall.Text(a.pa.pass.TypesInfo, c.ArgExpr(e.Out)))
				}
				a.madeAgain(s, fresh)
				a.write(s, args[e.Out], fresh)
			case e.Out == model.Returned && c.Value != nil:
				fresh = status
			}
			asite := a.site(instr, nil, c.Name, "acquire", e.Out, deferred, nil)
			if e.Key >= 0 && e.Key < len(args) && args[e.Key] != nil {
				if a.retain(s, instr, args[e.Key], a.pa.model.Model.RetainsExisting(e)) {
					s.acquired[args[e.Key]] = &acq{site: asite, status: status, out: fresh, keyed: true}
				} else {
					delete(s.acquired, args[e.Key])
				}
			} else if fresh != nil && e.Key < 0 {
				// (a keyed retain of a handle the call's arguments do
				// not name, computed inside cgo's wrapper, as
				// C.g_variant_ref(v.native()) with an incomplete C type
				// is: a reference added to something unknown here,
				// nothing to follow)
				if a.pa.model.Model.Counted(e) {
					s.counts[fresh] = 1 // a new counted object holds one reference
					delete(s.open, fresh)
				}
				aq := &acq{site: asite, status: status}
				if !a.pa.model.Model.FreedWithParent(e) {
					s.acquired[fresh] = aq
					a.acqToks[fresh] = true
				}
				if i := errcodeArg(c.Sig, args); i >= 0 && i != e.Out {
					errcodes = append(errcodes, errcodeAt{aq, i})
				}
				if e.Parent >= 0 && e.Parent < len(args) && args[e.Parent] != nil {
					s.parents[fresh] = args[e.Parent]
				}
				if e.ByName && e.Role == model.Acquire {
					// a constructor known by its name alone may make
					// the new handle the owner of an object it is
					// given (rd_kafka_new takes its configuration), or
					// its child: which, no model says, and such a
					// handle (of a type the package releases) is no
					// longer only the caller's to release. A string
					// or a buffer it copies.
					for i, t := range args {
						if i != e.Out && t != nil && !t.location() && i < c.Sig.Params().Len() && a.pa.model.Model.IsHandleType(c.Sig.Params().At(i).Type()) {
							a.escape(s, t)
						}
					}
				}
			}
		}
		// A function of the package's own C that no model describes may
		// keep what it is given (go-sqlite3's _sqlite3_result_text hands
		// its string to SQLite with free as the destructor): handed on,
		// unless the argument is the function's subject (enc_set_level(e,
		// 9): a method of the object its name names) and its body uses
		// it only during the call (cpreamble's MayKeep: it reads or
		// writes through it, hands it to nothing that may keep it).
		// (borrow NAME arg=N speaks of argument N only: the others may
		// still be kept)
		// (a release read in its body, Inferred, says nothing of the
		// other arguments)
		ownC := a.pa.calls.DefinedInC(c.Name) &&
			!slices.ContainsFunc(a.pa.model.Model.Entries(c.Name), func(e *model.Entry) bool { return e.Role != model.Uses && !e.Inferred })
		for i, t := range args {
			if t != nil && !t.location() {
				a.use(t)
			}
			// borrow NAME arg=N: C uses the argument without keeping it
			uses := a.pa.model.Model.Uses(c.Name, i)
			if t != nil && !uses && (ownC && !released[i] && !a.pa.calls.ConstPointerParam(c.Name, i) && (!model.IsSubject(c.Name, c.Sig, i) || a.pa.cres.MayKeep(c.Name, i)) || t.location() && !released[i]) {
				// the address of a variable given to C: C may replace
				// (or take) what it holds
				if t.location() {
					a.escape(s, a.content(s, t))
				} else {
					a.escape(s, t)
				}
			}
			if !released[i] && t != nil {
				text := func() string { return cgocall.Text(a.pa.pass.TypesInfo, c.ArgExpr(i)) }
				a.useAt(s, t, instr, c.Name, i, len(released) > 0, text)
				a.lentUse(s, t, instr, c.Name, i, text)
			}
			if !released[i] && t != nil && t.location() {
				a.clobber(s, t, instr)
			}
		}
		for _, ec := range errcodes {
			ec.aq.errcode = a.content(s, args[ec.arg])
		}
	case eff.disarm:
		if len(args) > 0 && args[0] != nil {
			t := args[0]
			if eff.callee != nil && eff.callee.Name() == "Stop" {
				// the object holding the runtime.Cleanup: the one whose
				// storage the Cleanup was read from (o.cl, o.cl.c, *o.pcl,
				// o.cleanups[i]), or, for a Cleanup that is a parameter
				// or a free variable or is reached from one (stopIt(c
				// *runtime.Cleanup), a method value's bound receiver, a
				// method of a struct holding it), what the caller's
				// argument names
				t = cleanupOwner(t)
			}
			if t != nil {
				if p, ok := t.path(a.fn); ok {
					a.disarms[p.Key()] = p
				}
			}
			stop := eff.callee != nil && eff.callee.Name() == "Stop"
			a.dropArms(s, func(ar *armRec, obj *tok) bool { return ar.cleanup && stop || !ar.cleanup && !stop && obj == t })
		}
	case eff.sum != nil:
		sum := eff.sum
		if !deferred {
			a.deriveStatus(s, instr, sum, args)
		}
		// Uses first (a function uses its argument, then may release it),
		// leaving out what the callee itself releases or drops a
		// reference of: that is its release (after a release, a double
		// one, below).
		for _, u := range sum.Uses {
			if sum.ReleaseOf(u) != nil || sum.DropOf(u) != nil {
				continue
			}
			if t := a.evalPath(s, eff, args, u); t != nil {
				a.use(t)
				if first, ok := s.released[t]; ok {
					use := a.site(instr, nil, eff.calleeName, "use", u.Root, deferred, func() string {
						return a.pathText(instr, eff.callee, u)
					})
					use.Callee, use.CalleeName = eff.callee, eff.calleeName
					a.event(&Event{Kind: UseAfterRelease, First: first, Second: use, Handle: first.Handle},
						fmt.Sprint("use", first.id, "/", use.id))
				}
			}
		}
		for _, r := range sum.Releases {
			t := a.evalPath(s, eff, args, r.Path)
			site := a.site(instr, r, r.CFunc, r.Class, r.Path.Root, deferred, func() string {
				return a.pathText(instr, eff.callee, r.Path)
			})
			if r.Guarded || eff.once {
				// A second call may find nothing to release: no double
				// release, but a release through a copy all the same, and
				// a (guarded) release of this function's parameter.
				if t != nil && t.kind != tZero {
					if prev, ok := s.maybe[t]; ok && r.Repeats && !eff.once && prev.Release == r {
						// the same test, passed again: a second call
						// releases the handle again if the first did
						a.event(&Event{Kind: DoubleRelease, First: prev, Second: site, Handle: site.Handle},
							fmt.Sprint("repeat", prev.id, "/", site.id))
					}
					if _, ok := s.maybe[t]; !ok {
						s.maybe[t] = site
					}
					a.record(site, t, true)
					if !r.Repeats {
						// the callee's test keeps a second call out by
						// itself: it changes what it tests
						a.relIndex[relKey{site, t}].settled = true
					}
					if eff.once || r.Once {
						rec := a.relIndex[relKey{site, t}]
						rec.once = true
						// the Do call's Once: this one's receiver, or
						// the callee's Once seen through the arguments
						if eff.once {
							rec.onceOf = a.onceRef(a.doReceiver(s, instr), posn(a.pa.pass.Fset, instr.Pos()))
						} else {
							rec.onceOf = a.translateOnce(s, eff, args, r.OnceOf)
						}
					}
					delete(s.acquired, t)
				}
				continue
			}
			if t != nil && s.open[t] {
				// a handle retained on this path: the release drops one
				// of its references (a Release method calling obj_unref)
				if a.dropCounted(s, t, false, a.acrossTrips(t, instr), func() *Site { return site }) {
					continue
				}
			}
			a.release(s, t, site)
		}
		for _, r := range sum.Drops {
			if t := a.evalPath(s, eff, args, r.Path); t != nil {
				site := a.site(instr, r, r.CFunc, r.Class, r.Path.Root, deferred, func() string {
					return a.pathText(instr, eff.callee, r.Path)
				})
				if s.open[t] {
					// as a drop the C call makes here (above): past the
					// path's references, one is a release
					if !a.dropCounted(s, t, false, a.acrossTrips(t, instr), func() *Site { return site }) {
						a.release(s, t, site)
					}
					continue
				}
				if _, ok := s.released[t]; ok {
					a.release(s, t, site) // a drop after that release: a double release
					continue
				}
				a.drop(site, t)
			}
		}
		for _, p := range sum.Retains {
			if t := a.evalPath(s, eff, args, p); t != nil && t.kind != tZero {
				a.retain(s, instr, t, true) // the callee's reference: whoever holds the handle owes its release
			}
		}
		a.closureRetains(s, args[:min(eff.nparams, len(args))])
		if !deferred {
			for _, p := range sum.AcquiresInto {
				if l := a.evalPath(s, eff, args, p); l != nil {
					a.overwrite(s, l, instr, eff.calleeName, false, a.pathText(instr, eff.callee, access.Path{Root: p.Root, Ops: append(slices.Clip(p.Ops), access.Op{Kind: access.Load})}))
				}
			}
		}
		// The callee's paths name locations as they are when it is
		// called: all are found before any is written, so that a clear
		// of Q.link does not hide the write to Q.link.h the callee makes
		// through the pointer it read first (c := q.link; q.link = nil;
		// c.Close()).
		stores := make([]*tok, len(sum.Stores))
		for i, st := range sum.Stores {
			stores[i] = a.evalPath(s, eff, args, st.Path)
		}
		clobbers := make([]*tok, len(sum.Clobbers))
		for i, p := range sum.Clobbers {
			clobbers[i] = a.evalPath(s, eff, args, p)
		}
		for i, st := range sum.Stores {
			l := stores[i]
			if l == nil {
				continue
			}
			if st.Zero {
				a.write(s, l, a.ts.zero)
			} else {
				a.clobber(s, l, instr)
			}
		}
		for _, l := range clobbers {
			a.clobber(s, l, instr)
		}
		for _, i := range sum.Escapes {
			if i < len(args) {
				a.escape(s, args[i])
			}
		}
		if c, ok := instr.(*ssa.Call); ok && !deferred {
			a.lendResults(s, instr, c, eff, args)
			for _, w := range sum.Wraps {
				// the new object's field holds the argument's handle
				if h := a.evalPath(s, eff, args, w.Path); h != nil {
					t := a.ts.rootOf(c)
					if c.Call.Signature().Results().Len() > 1 {
						t = a.ts.field(t, w.Result)
					}
					a.write(s, a.ts.faddr(t, w.Field), h)
				}
			}
			for _, i := range sum.Acquires {
				t := a.ts.rootOf(c)
				if c.Call.Signature().Results().Len() > 1 {
					t = a.ts.field(t, i)
				}
				asite := a.site(instr, nil, eff.calleeName, "acquire", -1-i, false, nil)
				asite.Callee, asite.CalleeName = eff.callee, eff.calleeName
				if slices.Contains(sum.Counted, i) {
					s.counts[t] = 1 // a new counted object, one reference
					delete(s.open, t)
				}
				// the status: the last result when it is an error or a bool
				// (p, err := alloc()), else the handle itself
				status := t
				if res := c.Call.Signature().Results(); res.Len() > 1 {
					if lt := res.At(res.Len() - 1).Type(); isError(lt) || isBool(lt) {
						status = a.ts.field(a.ts.rootOf(c), res.Len()-1)
					}
				}
				s.acquired[t] = &acq{site: asite, status: status}
			}
		}
		if !deferred {
			a.acquiredInto(s, instr, eff, args, sum)
		}
		for _, d := range sum.Disarms {
			if t := a.evalPath(s, eff, args, d); t != nil {
				if cleanupPath(eff.callee, d) {
					// the callee stops a Cleanup it was given (stopIt(&o.cl),
					// stopV(o.cl), a method value's receiver): the
					// object the caller read it from
					if t.kind == tRoot {
						// a value read in another block (a method
						// value's receiver, bound where it was made)
						if u, ok := t.v.(*ssa.UnOp); ok && u.Op == token.MUL {
							if fa, ok := u.X.(*ssa.FieldAddr); ok {
								t = a.tokOf(s, fa.X)
							}
						}
					}
					t = cleanupOwner(t)
				}
				for t != nil && t.kind == tFaddr {
					// a disarm of a part of the object (o.cl, a struct
					// of Cleanups with a stop method): the object's
					t = t.base
				}
				if p, ok := t.path(a.fn); ok {
					a.disarms[p.Key()] = p
				}
				a.dropArms(s, func(ar *armRec, obj *tok) bool { return ar.cleanup || obj == t })
			}
		}
		if sum.Globals {
			s.unknown = true
			a.globals = true
		}
	case eff.unknown:
		if !deferred {
			a.deriveStatus(s, instr, nil, args)
		}
		// code that may disarm what it is given: the object, or a
		// runtime.Cleanup
		cl := slices.ContainsFunc(instr.Common().Args, func(v ssa.Value) bool { return isCleanup(v.Type()) })
		a.dropArms(s, func(ar *armRec, obj *tok) bool { return ar.cleanup && cl || slices.Contains(args, obj) })
		for _, t := range args {
			if t != nil {
				a.escape(s, t)
				a.clobber(s, t, instr)
				if t.kind == tRoot {
					if mc, ok := t.v.(*ssa.MakeClosure); ok {
						for _, b := range mc.Bindings {
							bt := a.tokOf(s, b)
							a.escape(s, bt)
							a.escape(s, a.content(s, bt))
							a.clobber(s, bt, instr)
						}
					}
				}
			}
		}
		if !eff.std {
			s.unknown = true
			a.unknowns = true
			for l := range s.content {
				if l.root.kind == tRoot {
					if _, ok := l.root.v.(*ssa.Global); ok {
						delete(s.content, l)
					}
				}
			}
		}
	}
}

// use records that the handle t, when it comes from a parameter, is passed to C.
func (a *fnAnalysis) use(t *tok) {
	if p, ok := t.path(a.fn); ok {
		a.uses[p.Key()] = p
	}
}

// evalPath evaluates a callee's path with the call's argument tokens: the
// parameters, then, for a closure, its bindings (free variable i is root -1-i).
func (a *fnAnalysis) evalPath(s *state, eff *callEffect, args []*tok, p access.Path) *tok {
	i := p.Root
	if i < 0 {
		i = eff.nparams + (-1 - i)
	}
	if i >= len(args) || args[i] == nil {
		return nil
	}
	return a.apply(s, args[i], p.Ops)
}

func (a *fnAnalysis) deferCall(s *state, d *ssa.Defer) {
	eff, args := a.resolve(s, d)
	if eff.c == nil && eff.sum == nil && !eff.disarm {
		if eff.unknown {
			// an unknown deferred call may write what it reaches, at exit
			a.pushDefer(s, &pending{site: a.site(d, nil, "", "", -1, true, nil), call: eff, args: args, count: 1})
		}
		return
	}
	site := a.site(d, nil, "", "", -2, true, nil)
	if a.loop[d.Block()] {
		// run again (a loop): the same call with the same arguments runs twice
		ps := s.defers.pendings()
		for i, p := range ps {
			if p.site == site && !p.stale && slices.Equal(p.args, args) {
				cp := *p
				cp.count = 2
				ps[i] = &cp
				s.defers = a.ts.build(ps)
				return
			}
		}
	}
	a.pushDefer(s, &pending{site: site, call: eff, args: args, count: 1})
	if eff.c != nil && !a.loop[d.Block()] {
		// a deferred C release of a handle acquired on the path runs at
		// every exit from here on (a return or a panic): the handle
		// cannot leak, and the states need not carry its acquisition to
		// the end (a function of thousands of acquire-and-defer pairs
		// stays linear)
		for _, e := range a.pa.model.Model.Releases(eff.c.Name, eff.c.Sig) {
			if e.Arg >= 0 && e.Arg < len(args) && args[e.Arg] != nil && !e.Indirect && !e.Global && e.Key == model.None {
				delete(s.acquired, args[e.Arg])
			}
		}
	}
}

// pushDefer registers p on s. Its arguments' roots stay in the states
// until the function's end (prune).
func (a *fnAnalysis) pushDefer(s *state, p *pending) {
	for _, t := range p.args {
		if t != nil {
			a.deferHeld[t.root] = true
		}
	}
	s.defers = a.ts.push(s.defers, p)
}

func (a *fnAnalysis) goCall(s *state, g *ssa.Go) {
	// Whatever a new goroutine does happens concurrently; lifetimes along
	// this path are not affected, except that it may write what it reaches.
	eff, args := a.resolve(s, g)
	if eff.c != nil {
		return
	}
	for _, t := range args {
		if t != nil && t.location() {
			a.clobber(s, t, g)
		}
	}
}

func (a *fnAnalysis) runDefers(s *state) {
	for l := s.defers; l != nil; l = l.next {
		p := l.p
		if p.arm != nil {
			continue
		}
		d := p.site.Instr.(*ssa.Defer)
		for range p.count {
			a.apply1(s, d, p.call, p.args, true)
		}
	}
	// what stays pending is the arms the deferred calls left armed (a
	// deferred error path may disarm: dropArms)
	var arms []*pending
	for _, p := range s.defers.pendings() {
		if p.arm != nil {
			arms = append(arms, p)
		}
	}
	s.defers = a.ts.build(arms)
}

// An armRec is a finalizer or cleanup a path registered, kept with the
// path's pending defers (pending.arm): at a return, a handle it releases
// that the path released too, and left where the finalizer reads it (or,
// for a cleanup, that was its argument's), is released again once the
// object is collected.
type armRec struct {
	fin     string // the finalizer's function, for messages
	posn    string // file:line of the registration
	cleanup bool
	// ops are, for a finalizer, the paths from the object (pending.args[0])
	// to each handle it releases; a cleanup's pending.args are the handles
	// themselves, as they were when it was added
	ops    [][]access.Op
	cfuncs []string // the C function of each release
}

// pushArm records, on s, the finalizer or cleanup the call registers.
// Only releases that run whenever the finalizer does count: not one
// inside sync.Once.Do, nor one after a test of anything but the handle
// (a closed flag the path may have set).
func (a *fnAnalysis) pushArm(s *state, instr ssa.CallInstruction, eff *callEffect) {
	fsum := a.pa.summaryOf(eff.arm)
	if fsum == nil || eff.armObj == nil || eff.armCleanup && eff.armArg == nil {
		return
	}
	ar := &armRec{fin: finalizerName(eff.arm), posn: posn(a.pa.pass.Fset, instr.Pos()), cleanup: eff.armCleanup}
	var args []*tok
	for _, r := range fsum.Releases {
		if r.Path.Root != 0 || r.Once || r.Guarded && !r.Clears || r.Declared || len(r.Path.Ops) == 0 && !eff.armCleanup {
			continue // (a cleanup's argument may be the handle itself)
		}
		if eff.armCleanup {
			if t := a.apply(s, eff.armArg, r.Path.Ops); t != nil && t.kind != tZero {
				args = append(args, t)
				ar.cfuncs = append(ar.cfuncs, r.CFunc)
			}
			continue
		}
		ar.ops = append(ar.ops, r.Path.Ops)
		ar.cfuncs = append(ar.cfuncs, r.CFunc)
	}
	if !eff.armCleanup {
		args = []*tok{eff.armObj}
	}
	if len(ar.cfuncs) == 0 {
		return
	}
	site := a.site(instr, nil, "", "arm", -3, false, nil)
	s.defers = a.ts.push(s.defers, &pending{site: site, args: args, count: 1, arm: ar})
}

// isCleanup reports whether t is runtime.Cleanup or a pointer to one.
func isCleanup(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "runtime" && n.Obj().Name() == "Cleanup"
}

// dropArms removes from s the arms drop reports true for (given the
// record and, for a finalizer, its object).
func (a *fnAnalysis) dropArms(s *state, drop func(ar *armRec, obj *tok) bool) {
	ps := s.defers.pendings()
	out := ps[:0]
	changed := false
	for _, p := range ps {
		if p.arm != nil {
			var obj *tok
			if !p.arm.cleanup && len(p.args) > 0 {
				obj = p.args[0]
			}
			if drop(p.arm, obj) {
				changed = true
				continue
			}
		}
		out = append(out, p)
	}
	if changed {
		s.defers = a.ts.build(out)
	}
}

// armChecks reports, at the return ret, each handle a finalizer or cleanup
// armed on the path releases that the path released and left in place.
func (a *fnAnalysis) armChecks(s *state, ret *ssa.Return) {
	for l := s.defers; l != nil; l = l.next {
		p := l.p
		if p.arm == nil {
			continue
		}
		hs := p.args
		if !p.arm.cleanup {
			hs = nil
			if len(p.args) > 0 && p.args[0] != nil {
				for _, ops := range p.arm.ops {
					hs = append(hs, a.apply(s, p.args[0], ops))
				}
			}
		}
		for i, t := range hs {
			if t == nil || i >= len(p.arm.cfuncs) {
				continue
			}
			first, ok := s.released[t]
			if !ok {
				continue
			}
			arm := &Arm{Fin: p.arm.fin, Posn: p.arm.posn, CFunc: p.arm.cfuncs[i]}
			a.event(&Event{Kind: DoubleRelease, First: first, Second: p.site, Handle: first.Handle, Return: ret, ArmedAtReturn: arm, Cleanup: p.arm.cleanup},
				fmt.Sprint("armret", first.id, "/", p.site.id))
		}
	}
}

// record notes, for the summary, that the function releases t at site.
func (a *fnAnalysis) record(site *Site, t *tok, guarded bool) {
	if r := a.relIndex[relKey{site, t}]; r != nil {
		r.guarded = r.guarded && guarded
	} else {
		r := &relRec{site: site, tok: t, guarded: guarded, ownTest: true}
		a.relIndex[relKey{site, t}] = r
		a.rels = append(a.rels, r)
	}
}

// retain adds a counted reference to t (a retain's key). existing says
// the retain adds to a handle made elsewhere (g_object_ref, obj_ref): when
// its count is not known here, it holds references besides those this
// path takes, and t is open from then on. Otherwise (a registration, a
// device's primary context) the path counts from zero.
//
// In a loop, a count that keeps growing (a retain per trip) would give a
// new state on every trip: past maxLoopCount it is no longer counted, and
// t holds references besides those counted (open), as after a retain of a
// handle of unknown count.
//
// It reports whether the path owes the release of the reference it took,
// which is not said of an open handle retained in a loop: how many
// references it took then depends on a trip count, and the releases that
// balance them (a loop of releases) on another, which paths do not follow.
func (a *fnAnalysis) retain(s *state, instr ssa.Instruction, t *tok, existing bool) (owed bool) {
	if _, known := s.counts[t]; !known && existing {
		s.open[t] = true
		if _, ok := t.path(a.fn); ok {
			a.retains = append(a.retains, t)
		}
	}
	inLoop := instr != nil && a.acrossTrips(t, instr)
	if _, ok := s.raised[t]; inLoop && s.open[t] && !ok {
		// a retain in a loop, whose trips the path states do not count,
		// of a handle that held references before: until a drop in the
		// loop balances it, the trips may have raised the count any
		// number of times, and no release past it can be proved (for
		// i < 3 { ref }, then four unrefs, balances)
		s.raised[t] = s.counts[t]
	}
	s.counts[t]++
	if s.counts[t] > maxLoopCount && inLoop {
		delete(s.counts, t)
		s.open[t] = true
	}
	return !(inLoop && s.open[t])
}

// closureRetains raises (see raise) the handles that the closures among
// args, passed to a Go callee, retain: the callee may call a function
// value any number of times, none included (each(kids, func() {
// C.obj_ref(o) })), and its summary does not say how many.
func (a *fnAnalysis) closureRetains(s *state, args []*tok) {
	for _, t := range args {
		if t == nil || t.kind != tRoot {
			continue
		}
		mc, ok := t.v.(*ssa.MakeClosure)
		if !ok {
			continue
		}
		fn, ok := mc.Fn.(*ssa.Function)
		if !ok {
			continue
		}
		sum := a.pa.summaryOf(fn)
		if sum == nil {
			continue
		}
		for _, p := range sum.Retains {
			if i := -1 - p.Root; i >= 0 && i < len(mc.Bindings) {
				if h := a.apply(s, a.tokOf(s, mc.Bindings[i]), p.Ops); h != nil && h.kind != tZero {
					a.raise(s, h)
				}
			}
		}
	}
}

// loopRetain is a retain a loop's trips make: the handle is root reached
// by ops, evaluated as a C call's argument (c) or as a Go callee's path.
type loopRetain struct {
	root ssa.Value
	ops  []access.Op
	c    bool
}

// loopRetained returns the retains made in loop l of handles that hold
// references before them (RetainsExisting, a Go callee's retain).
func (a *fnAnalysis) loopRetained(l int) []loopRetain {
	if rs, ok := a.retained[l]; ok {
		return rs
	}
	var rs []loopRetain
	for _, b := range a.fn.Blocks {
		if m, ok := a.loops[b]; !ok || m != l {
			continue
		}
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if c := a.pa.calls.Lookup(call); c != nil {
				for _, e := range a.pa.model.Model.Acquires(c.Name) {
					if e.Key >= 0 && e.Key < len(c.Args) && a.pa.model.Model.RetainsExisting(e) && c.Args[e.Key].Valid() {
						rs = append(rs, loopRetain{root: c.Args[e.Key].Root, ops: c.Args[e.Key].Ops, c: true})
					}
				}
				continue
			}
			com := call.Common()
			callee := com.StaticCallee()
			if com.IsInvoke() || callee == nil {
				continue
			}
			if sum := a.pa.summaryOf(callee); sum != nil {
				for _, p := range sum.Retains {
					if p.Root >= 0 && p.Root < len(com.Args) {
						rs = append(rs, loopRetain{root: com.Args[p.Root], ops: p.Ops})
					}
				}
			}
		}
	}
	a.retained[l] = rs
	return rs
}

// entryTok returns the token v will have in loop l, read in s as the path
// enters it: v itself when it is computed outside l, and what v loads
// through fields and pointers of such a value when l computes it (h.o,
// loaded on every trip); nil otherwise.
func (a *fnAnalysis) entryTok(s *state, v ssa.Value, l int) *tok {
	return a.entryTokDepth(s, v, l, 0)
}

func (a *fnAnalysis) entryTokDepth(s *state, v ssa.Value, l, depth int) *tok {
	v = access.StripConv(v)
	if i, ok := v.(ssa.Instruction); !ok || i.Block() == nil {
		return a.tokOf(s, v)
	} else if m, ok := a.loops[i.Block()]; !ok || m != l {
		return a.tokOf(s, v)
	}
	if depth >= maxDepthArg {
		return nil
	}
	var x *tok
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.MUL {
			if x = a.entryTokDepth(s, v.X, l, depth+1); x != nil {
				return a.content(s, x)
			}
		}
	case *ssa.FieldAddr:
		if x = a.entryTokDepth(s, v.X, l, depth+1); x != nil {
			return a.ts.faddr(x, v.Field)
		}
	case *ssa.Field:
		if x = a.entryTokDepth(s, v.X, l, depth+1); x != nil {
			return a.ts.field(x, v.Field)
		}
	}
	return nil
}

// enterLoop marks, on the edge from b into the loop of succ, the handles
// whose references the loop's trips retain. Trips are not counted (the
// paths through a loop stop being told apart by their trips), so however
// many references the path held on entering, it may leave the loop with
// more, on every path out of it, the one that makes no trip included: for
// range kids { ref(o) }, then as many unrefs as kids has, balances, and
// no release after the loop can be proved one too many. Each such handle
// is raised at the count it enters with: a drop in the loop that brings the count back to it (a
// trip that releases what it retained) makes the count exact again (see
// retain and dropCounted).
func (a *fnAnalysis) enterLoop(b, succ *ssa.BasicBlock, s *state) {
	l, ok := a.loops[succ]
	if !ok {
		return
	}
	if m, ok := a.loops[b]; ok && m == l {
		return
	}
	for _, r := range a.loopRetained(l) {
		root := a.entryTok(s, r.root, l)
		if root != nil && r.c && len(r.ops) > 0 && r.ops[0].Kind == access.IndexAddr && a.backed(r.root, root) {
			root = a.apply(s, root, r.ops[1:]) // as eval
		} else if root != nil {
			root = a.apply(s, root, r.ops)
		}
		t := root
		if t != nil && t.kind != tZero {
			a.raise(s, t)
		}
	}
}

// raise marks t as a handle whose count code the paths do not count (a
// loop's trips, a closure some callee runs) may raise any number of
// times: it is open from here (references besides those the path counts,
// as a retain leaves a handle of unknown count), and raised at the count
// it has now. A handle the path has released is left as it is: a retain
// of it is a use after release.
func (a *fnAnalysis) raise(s *state, t *tok) {
	if _, ok := s.raised[t]; ok {
		return
	}
	if _, ok := s.released[t]; ok {
		return
	}
	n, known := s.counts[t]
	switch {
	case s.open[t] || !known:
		s.open[t] = true
		s.raised[t] = n
	case n >= 1:
		// the path's n references: open, the last of them is the one
		// whatever gave the handle gave with it
		s.open[t] = true
		s.counts[t] = n - 1
		s.raised[t] = n - 1
	}
}

// madeInTrip reports whether v is computed by the trips of the loop of
// block b (an instruction of that loop, not a phi).
func (a *fnAnalysis) madeInTrip(v ssa.Value, b *ssa.BasicBlock) bool {
	if _, phi := v.(*ssa.Phi); phi {
		return false
	}
	def, ok := v.(ssa.Instruction)
	if !ok || def.Block() == nil {
		return false
	}
	l, ok := a.loops[b]
	m, ok2 := a.loops[def.Block()]
	return ok && ok2 && l == m
}

// moveTok makes to what the state knows of from (released, acquired,
// counted, stored), and forgets from.
func (a *fnAnalysis) moveTok(s *state, from, to *tok) {
	for _, m := range []map[*tok]*Site{s.released, s.maybe} {
		if v, ok := m[from]; ok {
			m[to] = v
			delete(m, from)
		}
	}
	if v, ok := s.acquired[from]; ok {
		s.acquired[to] = v
		delete(s.acquired, from)
	}
	if v, ok := s.counts[from]; ok {
		s.counts[to] = v
		delete(s.counts, from)
	}
	if s.open[from] {
		s.open[to] = true
		delete(s.open, from)
	}
	if v, ok := s.raised[from]; ok {
		s.raised[to] = v
		delete(s.raised, from)
	}
	if v, ok := s.parents[from]; ok {
		s.parents[to] = v
		delete(s.parents, from)
	}
	for k, v := range s.parents {
		if v == from {
			s.parents[k] = to
		}
	}
	for _, m := range []map[*tok]bool{s.escaped, s.unsure, s.guards} {
		if m[from] {
			m[to] = true
			delete(m, from)
		}
	}
	for l, c := range s.content {
		if c == from {
			s.content[l] = to
		}
	}
}

// acrossTrips reports whether instr, a retain or a drop of t, is in a loop
// whose trips may find t as an earlier trip left it: t is not a value
// the trip computes (o := C.obj_new() in the loop's body; a phi is
// carried by the trips), whose count the trip's path follows from its
// start.
func (a *fnAnalysis) acrossTrips(t *tok, instr ssa.Instruction) bool {
	if !a.loop[instr.Block()] {
		return false
	}
	if t == nil {
		return true
	}
	if t.kind == tField && t.base != nil && t.base.kind == tRoot {
		t = t.base // a result of a call with several
	}
	return t.kind != tRoot || !a.madeInTrip(t.v, instr.Block())
}

// dropCounted drops one counted reference to t, and reports whether that
// is all the release does: the count is unknown (the caller may hold any
// number), t is open (references besides those counted), or another of
// the references the path counts remains. Otherwise it has dropped the
// last reference the path counts (or found none left), and the release
// goes on as a release of t.
func (a *fnAnalysis) dropCounted(s *state, t *tok, global, inLoop bool, site func() *Site) bool {
	n, known := s.counts[t]
	if base, ok := s.raised[t]; ok && inLoop && known && n-1 <= base {
		delete(s.raised, t) // the trip dropped what it retained
	}
	if s.open[t] {
		// a handle that held references before the retain: at most one
		// of them is this path's to drop (whatever gives a handle gives
		// at most one reference with it). The references the path took
		// are dropped first; the next drop is that one, the last, a
		// release: a use after it, or one more drop, is a use after
		// release, or a double release (ref, unref, unref, unref).
		if known && n > 0 {
			s.counts[t] = n - 1
			if n == 1 {
				delete(s.acquired, t) // the references this path took are dropped
			}
			return true
		}
		if _, raised := s.raised[t]; known && n == 0 && !inLoop && !raised {
			// (in a loop, whose trips the path states do not count,
			// a drop past the path's references says nothing; nor one
			// after a loop whose trips raised the count)
			delete(s.open, t)
			delete(s.acquired, t)
			return false // a release, once
		}
		delete(s.acquired, t)
		a.drop(site(), t)
		return true
	}
	if !known && !global {
		// Still a release for whoever holds the last reference (a
		// finalizer's clRelease*): noted apart.
		a.drop(site(), t)
		return true
	}
	if !known {
		return true
	}
	if n > 1 {
		// another of the references this path took remains: not the
		// last, and the handle is still live (a use of it is no use
		// after release). Whether the path still owes a release is
		// not said: a retain may add nothing (g_object_ref_sink of a
		// floating object takes over the reference it had).
		s.counts[t] = n - 1
		delete(s.acquired, t)
		return true
	}
	if n == 1 {
		s.counts[t] = 0
		delete(s.released, t)
	}
	return false
}

// drop notes, for the summary, that the function drops a counted reference
// to t at site whose count it does not know.
func (a *fnAnalysis) drop(site *Site, t *tok) {
	if t == nil || t.kind == tZero || a.dropSeen[relKey{site, t}] {
		return
	}
	a.dropSeen[relKey{site, t}] = true
	a.drops = append(a.drops, &relRec{site: site, tok: t})
}

// release records the release of t at site, and a double release when t
// was released before on this path.
func (a *fnAnalysis) release(s *state, t *tok, site *Site) {
	if t == nil || t.kind == tZero {
		return
	}
	a.record(site, t, s.guards[t] || s.guards[t.root])
	a.relIndex[relKey{site, t}].ownTest = a.relIndex[relKey{site, t}].ownTest && s.guards[t]
	delete(s.acquired, t)
	if lend := a.lent[t]; lend != nil && (site.Release == nil || lend.Class == CallbackClass) && site.Class != model.Transferred {
		// a lent handle is its lender's to free (the signature of a
		// commit, the text of a statement's column): released here, it is
		// freed twice
		a.event(&Event{Kind: DoubleRelease, First: lend, Second: site, Handle: site.Handle, Lent: true},
			fmt.Sprint("lentrel", lend.id, "/", site.id))
		return
	}
	if first, ok := s.released[t]; ok {
		if !model.Compatible(first.Class, site.Class) {
			// two releases of different things through one pointer
			// (ArrowSchemaRelease frees a struct's contents, free its memory)
			return
		}
		a.event(&Event{Kind: DoubleRelease, First: first, Second: site, Handle: site.Handle},
			fmt.Sprint("double", first.id, "/", site.id))
		return
	}
	s.released[t] = site
}

// releasedText names the handle a release of entry e releases, given
// the text of its argument: the argument, or, for a release of what the
// argument points to (e.Indirect), the variable whose address it is (f
// for av_frame_free(&f)) or the dereference (*pp).
func releasedText(e *model.Entry, arg string) string {
	if !e.Indirect || arg == "" {
		return arg
	}
	if v, ok := strings.CutPrefix(arg, "&"); ok {
		return v
	}
	return "*" + arg
}

func (a *fnAnalysis) event(e *Event, key string) {
	if a.evs[key] {
		return
	}
	a.evs[key] = true
	a.trace.Events = append(a.trace.Events, e)
}

// site returns the (interned) site of a release at instr.
func (a *fnAnalysis) site(instr ssa.CallInstruction, rel *Release, cfunc, class string, arg int, deferred bool, text func() string) *Site {
	k := siteKey{instr: instr, rel: rel, cfunc: cfunc, arg: arg, deferred: deferred}
	if s, ok := a.sites[k]; ok {
		return s
	}
	s := &Site{Instr: instr, Pos: instr.Pos(), CFunc: cfunc, Class: class, Release: rel, Deferred: deferred, id: len(a.sites)}
	if c := a.pa.calls.Lookup(instr); c != nil {
		s.Pos = c.Pos
	}
	if rel != nil {
		s.Callee = instr.Common().StaticCallee()
		if s.Callee != nil {
			s.CalleeName = funcName(s.Callee)
		}
	}
	if text != nil {
		s.Handle = text()
	}
	a.sites[k] = s
	return s
}

// pathText renders a callee's path in the caller's terms: the argument as
// written, followed by the path's selections.
func (a *fnAnalysis) pathText(instr ssa.CallInstruction, callee *ssa.Function, p access.Path) string {
	if callee == nil {
		return ""
	}
	if j := -1 - p.Root; j >= 0 && j < len(callee.FreeVars) {
		// a function literal's captured variable: the variable its
		// caller (or an enclosing function) declared, by that name
		return freeVarText(callee.FreeVars[j], p.Ops)
	}
	if p.Root < 0 {
		return ""
	}
	t := paramType(callee.Signature, p.Root)
	arg := cgocall.Text(a.pa.pass.TypesInfo, a.pa.calls.ArgExpr(instr, p.Root))
	if arg == "" || t == nil {
		return ""
	}
	return access.Render(arg, t, p.Ops)
}

// paramType returns the type of parameter i in go/ssa's numbering (the
// receiver first), or nil.
func paramType(sig *types.Signature, i int) types.Type {
	if r := sig.Recv(); r != nil {
		if i == 0 {
			return r.Type()
		}
		i--
	}
	if i < sig.Params().Len() {
		return sig.Params().At(i).Type()
	}
	return nil
}

// exitChecks looks, at a return, for released handles the function leaves
// in memory its caller sees, after releasing them through a copy.
func (a *fnAnalysis) exitChecks(s *state) {
	for _, m := range []map[*tok]*Site{s.released, s.maybe} {
		for t, site := range m {
			if site.Release == nil || !site.Release.Clears {
				continue
			}
			if l := a.staleIn(s, t); l != nil {
				a.event(&Event{Kind: CopyRelease, First: site, Handle: site.Handle, StaleText: a.locText(l)},
					fmt.Sprint("copy", site.id))
			}
		}
	}
}

// staleIn returns an outliving location that still holds the released t in
// s, or nil.
func (a *fnAnalysis) staleIn(s *state, t *tok) *tok {
	if l := origin(a.ts, t); l != nil && l.outliving() && a.content(s, l) == t {
		return l
	}
	for l, c := range s.content {
		if c == t && l.outliving() {
			return l
		}
	}
	return nil
}

// origin returns the location whose entry content t is, or nil.
func origin(ts *tokens, t *tok) *tok {
	switch t.kind {
	case tLoad:
		return t.base
	case tField:
		if b := origin(ts, t.base); b != nil {
			return ts.faddr(b, t.idx)
		}
	}
	return nil
}

// locText renders a location rooted at a parameter, free variable or global
// as source would: pl.zoomed.p.
func (a *fnAnalysis) locText(l *tok) string {
	p, ok := l.path(a.fn)
	if ok {
		var name string
		var typ types.Type
		if p.Root >= 0 {
			name, typ = a.fn.Params[p.Root].Name(), a.fn.Params[p.Root].Type()
		} else {
			return freeVarText(a.fn.FreeVars[-1-p.Root], append(p.Ops, access.Op{Kind: access.Load}))
		}
		return access.Render(name, typ, append(p.Ops, access.Op{Kind: access.Load}))
	}
	if l.root.kind == tRoot {
		if g, ok := l.root.v.(*ssa.Global); ok {
			ops, _ := l.ops()
			return access.Render(g.Name(), g.Type(), append(ops, access.Op{Kind: access.Load}))
		}
	}
	return l.String()
}

// funcName names a function for messages: (*T).M for methods, and the
// method itself for go/ssa's synthetic wrappers (bound method values, method
// expressions, promoted methods).
func funcName(fn *ssa.Function) string {
	if fn.Synthetic != "" {
		if m, ok := fn.Object().(*types.Func); ok {
			return methodName(m)
		}
	}
	if fn.Signature.Recv() != nil {
		if m, ok := fn.Object().(*types.Func); ok {
			return methodName(m)
		}
	}
	if fn.Parent() != nil {
		// a function literal, not go/ssa's name for it (F$1)
		return srcname.Func(fn)
	}
	return fn.Name()
}

func methodName(m *types.Func) string {
	recv := m.Signature().Recv()
	if recv == nil {
		return m.Name()
	}
	t := types.Unalias(recv.Type())
	if p, ok := t.(*types.Pointer); ok {
		if n, ok := types.Unalias(p.Elem()).(*types.Named); ok {
			return "(*" + n.Obj().Name() + ")." + m.Name()
		}
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name() + "." + m.Name()
	}
	return m.Name()
}

func isStd(path string) bool {
	for i := 0; i < len(path); i++ {
		if path[i] == '/' {
			break
		}
		if path[i] == '.' {
			return false
		}
	}
	return true
}

// onceLiteral returns the function literal a call of (*sync.Once).Do
// runs (once.Do(func() { ... })), and the closure that binds its free
// variables; nil for any other call.
func onceLiteral(com *ssa.CallCommon) (*ssa.Function, *ssa.MakeClosure) {
	callee := com.StaticCallee()
	if callee == nil || len(com.Args) != 2 {
		return nil, nil
	}
	if obj, ok := callee.Object().(*types.Func); !ok || obj.FullName() != "(*sync.Once).Do" {
		return nil, nil
	}
	mc, ok := com.Args[1].(*ssa.MakeClosure)
	if !ok {
		return nil, nil
	}
	lit, _ := mc.Fn.(*ssa.Function)
	if lit == nil {
		return nil, nil
	}
	if m := boundMethod(lit); m != nil {
		// once.Do(d.free): the method runs, with the bound receiver
		// as its parameter 0
		return m, mc
	}
	return lit, mc
}

// boundMethod returns the method a bound method wrapper (d.free as a
// value) calls with its bound receiver, or nil if fn is no such wrapper.
func boundMethod(fn *ssa.Function) *ssa.Function {
	if !strings.HasPrefix(fn.Synthetic, "bound method wrapper") || len(fn.FreeVars) != 1 {
		return nil
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ci, ok := instr.(ssa.CallInstruction); ok {
				if callee := ci.Common().StaticCallee(); callee != nil {
					return callee
				}
			}
		}
	}
	return nil
}

// doReceiver returns the token of the Once a (*sync.Once).Do call runs
// on: its receiver, &d.once.
func (a *fnAnalysis) doReceiver(s *state, instr ssa.Instruction) *tok {
	ci, ok := instr.(ssa.CallInstruction)
	if !ok || len(ci.Common().Args) == 0 {
		return nil
	}
	return a.tokOf(s, ci.Common().Args[0])
}

// onceRef names the Once at location t, run by the Do call at file:line
// at, in fn's frame: a path from a parameter or binding, a global, or
// else the Do call.
func (a *fnAnalysis) onceRef(t *tok, at string) OnceRef {
	o := OnceRef{At: at}
	if t == nil || t.kind == tZero {
		return o
	}
	if p, ok := t.path(a.fn); ok {
		o.Param, o.Path = true, p
		return o
	}
	if t.root == nil || t.root.kind != tRoot {
		return o
	}
	if g, ok := t.root.v.(*ssa.Global); ok {
		if ops, ok := t.ops(); ok {
			o.Global = access.Path{Ops: ops}.Key() + " of " + g.RelString(nil)
		}
	}
	return o
}

// translateOnce returns a callee's Once o in the caller's frame: a path
// evaluated with the call's arguments (a helper's g.once is the once of
// whatever the caller passes as g), a global as it is.
func (a *fnAnalysis) translateOnce(s *state, eff *callEffect, args []*tok, o OnceRef) OnceRef {
	if !o.Param {
		return o
	}
	return a.onceRef(a.evalPath(s, eff, args, o.Path), o.At)
}

// cleanupPath reports whether path p of fn's parameters or free variables
// is a runtime.Cleanup, or a pointer to one.
func cleanupPath(fn *ssa.Function, p access.Path) bool {
	if fn == nil {
		return false
	}
	var rt types.Type
	switch {
	case p.Root >= 0 && p.Root < len(fn.Params):
		rt = fn.Params[p.Root].Type()
	case p.Root < 0 && -1-p.Root < len(fn.FreeVars):
		rt = fn.FreeVars[-1-p.Root].Type()
	default:
		return false
	}
	t := access.TypeAfter(rt, p.Ops)
	return t != nil && isCleanup(t)
}

// cleanupsField returns, for recv a runtime.Cleanup loaded from an element
// of a slice or array kept in a field (t.cleanups[i]), the address of that
// field: the Cleanups are the object's; nil otherwise.
func cleanupsField(recv ssa.Value) ssa.Value {
	ld, ok := access.StripConv(recv).(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil
	}
	ia, ok := ld.X.(*ssa.IndexAddr)
	if !ok {
		return nil
	}
	x := ia.X
	if sl, ok := x.(*ssa.UnOp); ok && sl.Op == token.MUL {
		x = sl.X // a slice loaded from the field
	}
	if fa, ok := x.(*ssa.FieldAddr); ok {
		return fa
	}
	return nil
}

// cleanupOwner returns, for t a runtime.Cleanup value or a token it was
// read through, the object whose storage holds it: the base of the
// outermost field address along t's bases (o for o.cl, o.cl.c, *o.pcl),
// else the root t derives from (a parameter or free variable holding the
// Cleanup or pointing to it); nil when there is neither.
func cleanupOwner(t *tok) *tok {
	for x := t; x != nil; x = x.base {
		switch x.kind {
		case tFaddr:
			for x.kind == tFaddr {
				x = x.base
			}
			return x
		case tRoot:
			return x
		case tLoad, tField:
			continue
		}
		return nil
	}
	return nil
}
