// Package guards is the pass that says, at each access to shared state,
// what guards it: the locks held, whether it runs inside sync.Once, and
// whether the access is atomic.
//
// Locks are named by type, not by instance: st.mu held in a method of
// *Stream is Stream.mu, a package-level mutex is the variable, and a mutex
// reached through a pointer (a package-level *sync.Mutex, a *sync.RWMutex
// field, an embedded *sync.Mutex) is named by where the pointer is loaded
// from, so that every load of it names the same lock. Within a
// function, Lock, RLock and a successful TryLock take a lock and Unlock
// and RUnlock drop it; a deferred Unlock keeps it until the function
// returns. So do the Lock and Unlock of a sync.Locker field, and the
// package's lock helpers: a function that returns holding a lock it took
// (func (w *W) lock() { w.mu.Lock() }, one that returns w.mu.Unlock for a
// defer) takes it for its caller, and one that drops a lock its caller
// holds (unlock()) drops it; a helper that locks what its parameter
// points to (func lock(m *sync.Mutex), a sync.Locker parameter) locks the
// argument's mutex at each call. A function literal passed to a function
// of the package that calls it with a lock held (w.with(func() {...}),
// withLock(&w.mu, func() {...})) runs under that lock. A helper whose
// bool result is a TryLock's (func (w *W) tryLock() bool { return
// w.mu.TryLock() }) takes the lock on the branch where it returned true
// only, as TryLock does. A lock is any value with sync.Locker's methods
// (a go-deadlock Mutex, a lock type of the module), not only sync's, and
// a channel of capacity 1 used as a semaphore (see semOp): empty while
// free, a send on it takes it and a receive drops it; filled with a token
// where it is made, a receive takes it and a send drops it (in a select,
// on the branch of the case that takes). The channel is named by its
// location, c.sem or a package-level variable, and counts only when every
// channel the package stores there is a make(chan T, 1) of one form, and
// some function both sends on it and receives from it (a result channel,
// sent on by workers and received by their spawner, is no lock); a
// channel parameter (the receiver of a method of a channel type) names
// the caller's argument, as a mutex parameter does. A mutex field of a
// struct reached through a pointer (v.box.mu) is named by the struct's
// type and field, box.mu.
// What the helpers of one package do to their caller's locks reaches its
// importers as a LockHelperFact: util.Lock(&s.mu), util.With(&s.mu, f)
// and util.TryLock(&s.mu) of another package of the module guard as the
// package's own helpers do.
//
// Across functions, a function starts with the locks every one of its
// callers holds at the call (Result.EntryLocks), when the package's calls
// are all of its calls: go-nvml's dl.Close, safe only because its only
// caller holds the library's lock, is guarded. That holds for an
// unexported function or method, or a function literal, whose address
// does not escape: code outside the package cannot name it, and the
// package only calls it (statically, as a method value or closure called
// where it is made, through once.Do, or, for a method, through a dynamic
// call of an interface its type implements). A go statement's call holds
// nothing; a deferred call holds the locks still held at the return (those
// whose unlock is deferred before it, the function's own entry locks, and
// the lock a deferred unlock helper drops: defer c.release() runs its
// body holding the lock until it unlocks). A function that is exported, //export'ed, or used as a value
// (stored, passed, returned, a method value or method expression not
// called at once, the function of sync.OnceFunc) may be called from
// anywhere, and starts with none but those its declaration names. Entry
// locks are the greatest fixed point over the package's call graph, so a
// lock held by every caller of every caller reaches the helper two calls
// down. Locks are named by type, so the caller's c.mu is the callee's
// Conn.mu whichever Conn the call passes.
//
// They stay in the package, and are no fact: a package is analysed before
// its importers, so their calls of its exported functions are unknown
// when its findings are made, and any importer, analysed or not, may call
// them without a lock; an unexported function's callers are all in its
// package. gVisor's checklocks
// annotations are read as declarations: "// +checklocks:mu" on a field says
// mu guards it, and on a function that the function runs with the lock held.
//
// The pass records every access to a field of a named struct type or to a
// package-level variable in the package's functions: reads, writes,
// atomic operations, map updates, and handles passed to C. It reports
// nothing.
package guards

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/cfg"
	"github.com/lifetimevet/lifetimevet/internal/srcname"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
)

// Analyzer is the guards pass. Its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "lifetimeguards",
	Doc:        "find the locks, sync.Once bodies and atomic operations that guard each access to shared state (a pass: reports nothing)",
	URL:        "https://github.com/lifetimevet/lifetimevet/tree/main/passes/guards",
	Run:        run,
	Requires:   []*analysis.Analyzer{buildssa.Analyzer, cgocall.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(LockHelperFact)},
}

// A Key names a piece of shared state independent of the instance: a field
// path of a named struct type, or a package-level variable (possibly with a
// field path).
type Key struct {
	Type   *types.TypeName // the struct type, or nil for a global
	Global *types.Var      // the package-level variable, or nil
	Fields string          // field indices from the type or variable: "2" or "2.0"
}

// String renders the key for messages: Stream.s, registry, Conn.state.closed.
func (k Key) String() string {
	if k.Fields == Some && k.Type != nil {
		return k.Type.Name() + "'s lock"
	}
	var b strings.Builder
	var t types.Type
	if k.Type != nil {
		b.WriteString(k.Type.Name())
		t = k.Type.Type()
	} else if k.Global != nil {
		b.WriteString(k.Global.Name())
		t = k.Global.Type()
	}
	if k.Fields == "" {
		return b.String()
	}
	for _, f := range strings.Split(k.Fields, ".") {
		st, ok := types.Unalias(t).Underlying().(*types.Struct)
		if !ok {
			break
		}
		i := atoi(f)
		if i >= st.NumFields() {
			break
		}
		b.WriteString("." + st.Field(i).Name())
		t = st.Field(i).Type()
	}
	return b.String()
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// Some is the Fields of a lock key that stands for some lock of its type:
// the one a function's name (closeLocked) or doc comment ("c.mu must be
// held") says its callers hold, without naming it.
const Some = "*"

// matches reports whether lock keys k and o can name the same lock.
func (k Key) matches(o Key) bool {
	if k == o {
		return true
	}
	return k.Type != nil && k.Type == o.Type && (k.Fields == Some || o.Fields == Some)
}

// A Lock is a lock held at some point.
type Lock struct {
	Key  Key
	Read bool // a read lock (RLock)
}

// AccessKind is what an access does.
type AccessKind uint8

const (
	Read       AccessKind = iota + 1 // a load
	Write                            // a store
	AtomicRead                       // an atomic load
	AtomicRMW                        // an atomic write: Store, Add, Swap, CompareAndSwap, And, Or
	MapWrite                         // a map update or delete
	MapRead                          // a map lookup
	CUse                             // the value is passed to C (a handle)
)

// An Access is one access to shared state.
type Access struct {
	Key   Key
	Kind  AccessKind
	Op    string // the atomic operation ("Add", "CompareAndSwap"), the C function, "delete"
	Instr ssa.Instruction
	Func  *ssa.Function
	Pos   token.Pos
	Ref   access.Ref // the accessed location (or value, for CUse), in Func's frame
	Locks []Lock     // locks held
	Once  bool       // inside a sync.Once body
}

// Locked reports whether the access holds a lock with key k (a read lock
// counts when write is false).
func (a *Access) Locked(k Key, write bool) bool {
	for _, l := range a.Locks {
		if l.Key.matches(k) && (!write || !l.Read) {
			return true
		}
	}
	return false
}

// Result is what the pass found.
type Result struct {
	// Accesses lists the accesses to shared state, in function and
	// instruction order.
	Accesses []*Access
	// GuardedBy holds the checklocks declarations: field -> its lock.
	GuardedBy map[Key]Key

	held  map[ssa.Instruction][]Lock
	once  map[*ssa.Function]bool
	entry map[*ssa.Function][]Lock
	guard map[Key]guardOf
	byKey map[Key][]*Access
	fset  *token.FileSet
}

type guardOf struct {
	lock          Key
	locked, total int
	ok            bool
}

// GuardRatio is the share of a field's uses that must hold a lock for the
// lock to be the field's guard: checklocks' 90%.
const GuardRatio = 0.9

// Guard returns the lock that guards the shared state k, as the code's own
// majority says (principle 4 of DESIGN): a checklocks declaration, or the
// lock that at least 90% of k's uses hold, or all of them but one (below
// ten uses a ratio cannot tell one forgotten lock, the exception a rule
// reports, from a pattern: two uses without the lock are one). A use is a
// source line of a
// function that accesses k (c.n++ reads and writes it: one use), counted
// outside the functions that run before the object is shared: a
// constructor filling in an object it allocated, a package's init, a
// sync.Once body. A lock of k's own type counts for a field, any lock for
// a package-level variable. With no such lock, the type keeps no lock
// contract for k: an access without a lock is no exception to one. It also
// returns how many of the uses hold the lock, and how many there are.
func (r *Result) Guard(k Key) (lock Key, locked, total int, ok bool) {
	if l, ok := r.GuardedBy[k]; ok {
		return l, 0, 0, true
	}
	if g, ok := r.guard[k]; ok {
		return g.lock, g.locked, g.total, g.ok
	}
	type use struct {
		fn   *ssa.Function
		line int
	}
	uses := map[use][]*Access{}
	var order []use
	for _, a := range r.byKey[k] {
		if a.Once || r.once[a.Func] || beforeShared(a) {
			continue
		}
		u := use{a.Func, r.fset.Position(a.Pos).Line}
		if _, ok := uses[u]; !ok {
			order = append(order, u)
		}
		uses[u] = append(uses[u], a)
	}
	var cands []Key
	for _, u := range order {
		for _, a := range uses[u] {
			for _, l := range a.Locks {
				if l.Key.Fields == Some || k.Type != nil && l.Key.Type != k.Type || slices.Contains(cands, l.Key) {
					continue
				}
				cands = append(cands, l.Key)
			}
		}
	}
	var best guardOf
	for _, c := range cands {
		n := 0
		for _, u := range order {
			all := true
			for _, a := range uses[u] {
				if !a.Locked(c, a.Kind != Read && a.Kind != MapRead && a.Kind != AtomicRead && a.Kind != CUse) {
					all = false
					break
				}
			}
			if all {
				n++
			}
		}
		if n > best.locked {
			best = guardOf{lock: c, locked: n}
		}
	}
	best.total = len(order)
	best.ok = best.locked > 0 && (float64(best.locked) >= GuardRatio*float64(best.total) || best.total-best.locked <= 1)
	r.guard[k] = best
	return best.lock, best.locked, best.total, best.ok
}

// beforeShared reports whether the access runs before its object can be
// shared: in a constructor, on an object the function allocated, or in a
// package's init.
func beforeShared(a *Access) bool {
	if al, ok := a.Ref.Root.(*ssa.Alloc); ok && !srcname.IsVar(al) {
		return true
	}
	fn := a.Func
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn.Name() == "init" || strings.HasPrefix(fn.Name(), "init#")
}

// EntryLocks returns the locks held whenever fn starts: those every one of
// its callers holds at the call, when the package's calls are all of
// them (see the package doc), and those its declaration says its callers
// hold.
func (r *Result) EntryLocks(fn *ssa.Function) []Lock { return r.entry[fn] }

// Held returns the locks held at instr (in a user function of the package).
func (r *Result) Held(instr ssa.Instruction) []Lock { return r.held[instr] }

// InOnce reports whether fn is the body of a sync.Once (Do, OnceFunc,
// OnceValue, OnceValues).
func (r *Result) InOnce(fn *ssa.Function) bool { return r.once[fn] }

func run(pass *analysis.Pass) (any, error) {
	calls := pass.ResultOf[cgocall.Analyzer].(*cgocall.Result)
	r := &Result{held: map[ssa.Instruction][]Lock{}, once: map[*ssa.Function]bool{}, entry: map[*ssa.Function][]Lock{}, GuardedBy: map[Key]Key{}, guard: map[Key]guardOf{}, byKey: map[Key][]*Access{}, fset: pass.Fset}
	g := &guardsPass{pass: pass, calls: calls, r: r, entry: map[*ssa.Function]*lockSet{}, pkg: pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).Pkg}
	g.checklocks()
	g.findOnce()
	g.lockHelpers()
	g.exportFacts()
	g.locks(pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).Pkg)
	g.accesses()
	for _, a := range r.Accesses {
		r.byKey[a.Key] = append(r.byKey[a.Key], a)
	}
	return r, nil
}

type guardsPass struct {
	pass  *analysis.Pass
	calls *cgocall.Result
	r     *Result
	entry map[*ssa.Function]*lockSet // locks held on entry; nil: not computed yet
	// declared entry locks from checklocks annotations on functions
	declared map[*ssa.Function][]Lock
	// helpers are the package's functions that take or drop a lock for
	// their caller (see lockHelpers)
	helpers map[*ssa.Function]*lockEffect
	// imported are the lock effects of other packages' functions, from
	// their LockHelperFacts (nil: none)
	imported map[*ssa.Function]*lockEffect
	// callbacks are, for a function of the package or another, the locks
	// held at every call of its parameter i (see lockedCallbacks)
	callbacks map[*ssa.Function]map[int]*lockSet
	// paramKeys keeps the locks of parameters in the held sets flow
	// records (while a helper's effect is computed)
	paramKeys bool
	// sems are the locations of channels used as locks (semOp); nil:
	// not computed yet
	sems map[Key]semMode
	// chanCalls are the static calls of the package's functions with a
	// channel parameter (see paramSem); nil: not computed yet
	chanCalls map[*ssa.Function][]*ssa.CallCommon
	pkg       *ssa.Package
	// handing are the functions givesBack is computing (a goroutine that
	// starts itself)
	handing map[*ssa.Function]bool
}

// A lockEffect is what a function does to the locks its caller holds:
// the locks held at every return that were not held on entry (a
// func (w *W) lock() { w.mu.Lock() }), and those it drops (unlock()).
type lockEffect struct {
	takes []Lock
	drops []Key
	// tries is the lock a try-lock helper takes when its bool result is
	// true (func (w *W) tryLock() bool { return w.mu.TryLock() }), and
	// does not when it is false
	tries []Lock
}

func (e *lockEffect) equal(o *lockEffect) bool {
	return slices.Equal(e.takes, o.takes) && slices.Equal(e.drops, o.drops) && slices.Equal(e.tries, o.tries)
}

// lockSet is a set of locks held; top (every lock) before a function's
// callers are known.
type lockSet struct {
	top   bool
	locks []Lock
}

func (s *lockSet) has(l Lock) bool { return s.top || slices.Contains(s.locks, l) }

func (s *lockSet) clone() *lockSet {
	return &lockSet{top: s.top, locks: slices.Clone(s.locks)}
}

func (s *lockSet) add(l Lock) {
	if !s.top && !slices.Contains(s.locks, l) {
		s.locks = append(s.locks, l)
	}
}

func (s *lockSet) remove(k Key) {
	s.locks = slices.DeleteFunc(s.locks, func(l Lock) bool { return l.Key.matches(k) })
}

// meet intersects s with o.
func meet(s, o *lockSet) *lockSet {
	if s.top {
		return o.clone()
	}
	if o.top {
		return s.clone()
	}
	out := &lockSet{}
	for _, l := range s.locks {
		if slices.Contains(o.locks, l) {
			out.locks = append(out.locks, l)
		}
	}
	return out
}

func (s *lockSet) equal(o *lockSet) bool {
	if s.top || o.top {
		return s.top == o.top
	}
	if len(s.locks) != len(o.locks) {
		return false
	}
	for _, l := range s.locks {
		if !slices.Contains(o.locks, l) {
			return false
		}
	}
	return true
}

// KeyOf names the shared state at address v (a field address or a global),
// or reports false for local memory.
func KeyOf(v ssa.Value) (Key, bool) {
	return keyOfAny(lifetime.Expand(v))
}

// keyOfAny is keyOfRef, which also sees through variables assigned once.
func keyOfAny(r access.Ref) (Key, bool) {
	if k, ok := keyOfRef(r); ok {
		return k, true
	}
	// a variable assigned once, such as a receiver a function literal
	// captures (&(*x).f, x the captured variable), is its value
	if !r.Valid() {
		return Key{}, false
	}
	if fv, ok := r.Root.(*ssa.FreeVar); ok && len(r.Ops) > 0 && r.Ops[0].Kind == access.Load {
		if v := Captured(fv); v != nil {
			return keyOfRef(lifetime.Expand(v).With(r.Ops[1:]...))
		}
	}
	return keyOfRef(normalize(r))
}

// capturedValue returns the value of the variable a function literal
// captures in fv when its function assigns it once (a parameter, a
// receiver), or nil.
func Captured(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	i := slices.Index(fn.FreeVars, fv)
	if i < 0 || fn.Parent() == nil {
		return nil
	}
	var out ssa.Value
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || mc.Fn != fn || i >= len(mc.Bindings) {
				continue
			}
			var v ssa.Value
			if pfv, ok := mc.Bindings[i].(*ssa.FreeVar); ok {
				v = Captured(pfv) // a literal's, captured again by one in it
			} else {
				v = lifetime.SingleStore(mc.Bindings[i])
			}
			if v == nil || out != nil && out != v {
				return nil
			}
			out = v
		}
	}
	return out
}

// keyOfRef names the location r denotes when r is an address: the ops after
// the last load (or from the root) are the field path of the object the
// last pointer points to.
func keyOfRef(r access.Ref) (Key, bool) {
	if !r.Valid() {
		return Key{}, false
	}
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
			return Key{}, false
		}
		fields = append(fields, itoa(o.Index))
	}
	if last < 0 {
		if g, ok := r.Root.(*ssa.Global); ok {
			v, ok := g.Object().(*types.Var)
			if !ok {
				return Key{}, false
			}
			return Key{Global: v, Fields: strings.Join(fields, ".")}, true
		}
		if len(fields) == 0 {
			return Key{}, false
		}
		// the root is the pointer to the struct
		tn := access.PointeeName(r.Root.Type())
		if tn == nil {
			return Key{}, false
		}
		return Key{Type: tn, Fields: strings.Join(fields, ".")}, true
	}
	if len(fields) == 0 {
		return Key{}, false
	}
	if ops[last].Kind == access.IndexAddr {
		return Key{}, false // an element of a slice or array: not tracked
	}
	t := access.TypeAfter(r.Root.Type(), ops[:last+1])
	tn := access.TypeName(t)
	if tn == nil {
		return Key{}, false
	}
	return Key{Type: tn, Fields: strings.Join(fields, ".")}, true
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for i > 0 {
		b = append([]byte{byte('0' + i%10)}, b...)
		i /= 10
	}
	return string(b)
}

// lockOp classifies a call: Lock, RLock, Unlock, RUnlock, TryLock,
// TryRLock on a sync.Mutex or sync.RWMutex, or on any other lock, and the
// key of the mutex. A lock is a value whose methods keep sync.Locker's
// contract: a type (of another package: go-deadlock's Mutex, a
// syncutil.Mutex) or interface with the methods Lock() and Unlock(),
// which take and drop it; its RLock() and RUnlock() take and drop it for
// reading, and TryLock() bool and TryRLock() bool take it when they
// return true. A type of the package whose Lock wraps a mutex is a lock
// helper as well (see lockHelpers), which the flow tries first.
func lockOp(com *ssa.CallCommon) (string, Key, bool) {
	name, lock, ok := lockCall(com)
	if !ok {
		return "", Key{}, false
	}
	if com.IsInvoke() {
		// a sync.Locker (a field holding a *sync.Mutex): named by where
		// the interface value is loaded from
		if k, ok := LockKeyOf(lock); ok {
			return name, k, true
		}
		if k, ok := paramKey(lock); ok {
			return name, k, true
		}
		return "", Key{}, false
	}
	k, ok := LockKeyOf(lock)
	if !ok {
		if k, ok = paramKey(lock); !ok {
			return "", Key{}, false
		}
	}
	return name, k, true
}

// lockCall reports whether com calls one of a lock's methods (see
// lockOp), with the method's name and the lock it is called on, whether
// or not the lock has a key.
func lockCall(com *ssa.CallCommon) (string, ssa.Value, bool) {
	if com.IsInvoke() {
		if !lockMethod(com.Method) || !isLocker(com.Value.Type()) {
			return "", nil, false
		}
		return com.Method.Name(), com.Value, true
	}
	callee := com.StaticCallee()
	if callee == nil || callee.Signature.Recv() == nil || len(com.Args) == 0 {
		return "", nil, false
	}
	obj, _ := callee.Object().(*types.Func)
	if obj == nil || !lockMethod(obj) {
		return "", nil, false
	}
	recv := callee.Signature.Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	n, ok := types.Unalias(recv).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return "", nil, false
	}
	if n.Obj().Pkg().Path() == "sync" {
		if n.Obj().Name() != "Mutex" && n.Obj().Name() != "RWMutex" {
			return "", nil, false
		}
	} else if !isLocker(types.NewPointer(n)) {
		return "", nil, false
	}
	return callee.Name(), com.Args[0], true
}

// lockMethod reports whether m is one of a lock's methods, by name and
// signature: Lock(), Unlock(), RLock(), RUnlock(), TryLock() bool,
// TryRLock() bool.
func lockMethod(m *types.Func) bool {
	sig, ok := m.Type().(*types.Signature)
	if !ok || sig.Params().Len() != 0 || sig.Variadic() {
		return false
	}
	switch m.Name() {
	case "Lock", "Unlock", "RLock", "RUnlock":
		return sig.Results().Len() == 0
	case "TryLock", "TryRLock":
		return sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool])
	}
	return false
}

// isLocker reports whether t's method set has sync.Locker's methods,
// Lock() and Unlock().
func isLocker(t types.Type) bool {
	ms := types.NewMethodSet(t)
	for _, name := range []string{"Lock", "Unlock"} {
		sel := ms.Lookup(nil, name)
		if sel == nil {
			return false
		}
		m, ok := sel.Obj().(*types.Func)
		if !ok || !lockMethod(m) {
			return false
		}
	}
	return true
}

// paramPrefix marks the Fields of a key that names the lock a function's
// parameter points to (func lock(m *sync.Mutex) { m.Lock() }): a lock
// helper's effect, mapped to its caller's argument at each call.
const paramPrefix = "@param"

// paramKey names the lock parameter v of its function points to.
func paramKey(v ssa.Value) (Key, bool) {
	p, ok := access.StripConv(v).(*ssa.Parameter)
	if !ok || p.Parent() == nil {
		return Key{}, false
	}
	i := slices.Index(p.Parent().Params, p)
	if i < 0 {
		return Key{}, false
	}
	return Key{Fields: paramPrefix + itoa(i)}, true
}

// argKey maps k, a key of a lock helper's effect, to the caller's: a
// parameter's lock to the lock the call's argument names.
func (g *guardsPass) argKey(k Key, com *ssa.CallCommon) (Key, bool) {
	rest, ok := strings.CutPrefix(k.Fields, paramPrefix)
	if !ok || k.Type != nil || k.Global != nil {
		return k, true
	}
	i := atoi(rest)
	if i >= len(com.Args) {
		return Key{}, false
	}
	a := com.Args[i]
	if isChanOrPtr(a.Type()) {
		// a semaphore helper's channel: the semaphore the argument names
		k, mode := g.argSem(a)
		return k, mode != notSem
	}
	if mi, ok := a.(*ssa.MakeInterface); ok {
		a = mi.X // a sync.Locker argument: &w.mu
	}
	if k, ok := LockKeyOf(a); ok {
		return k, true
	}
	return paramKey(a) // passed on by a helper of a helper
}

// isParamKey reports whether k names a parameter's lock (see paramKey).
func isParamKey(k Key) bool {
	return k.Type == nil && k.Global == nil && strings.HasPrefix(k.Fields, paramPrefix)
}

// LockKeyOf names the mutex at address v. A lock's identity is the mutex
// object, however it is reached: a mutex held by value (mu, s.mu) is named
// by its location, as KeyOf names any state; a mutex reached through a
// pointer (a package-level *sync.Mutex, a *sync.RWMutex field, an embedded
// *sync.Mutex, through any chain of such loads) is named by the location
// the pointer is loaded from, which names the same mutex wherever it is
// loaded, as a field names the same state in every method. A mutex field of
// a struct reached through a pointer (v.box.mu, with box a *box field) is
// named by the struct's type and field, box.mu, as the methods of box name
// it (b.mu). A pointer with no such location (a parameter, a call's result)
// names no lock.
func LockKeyOf(v ssa.Value) (Key, bool) {
	if k, ok := KeyOf(v); ok {
		return k, true
	}
	if k, ok := elemKey(v, LockKeyOf); ok {
		return k, true // devMu[c.dev].Lock()
	}
	r := lifetime.Expand(v)
	if k, ok := fieldThroughPointer(r); ok {
		return k, true
	}
	for r.Valid() {
		// the pointer is loaded (…*), or is a field of a struct value
		// loaded (…*.f), which is a load from the field's address (…&.f*)
		ops := r.Ops
		i := len(ops) - 1
		for i >= 0 && ops[i].Kind == access.Field {
			i--
		}
		if i < 0 || ops[i].Kind != access.Load {
			break
		}
		loc := slices.Clone(ops[:i])
		for _, o := range ops[i+1:] {
			loc = append(loc, access.Op{Kind: access.FieldAddr, Index: o.Index})
		}
		r = access.Ref{Root: r.Root, Ops: loc}
		if k, ok := keyOfAny(r); ok {
			return k, true
		}
		if k, ok := fieldThroughPointer(r); ok {
			return k, true
		}
	}
	return Key{}, false
}

// fieldThroughPointer names the field address r when r's last load yields a
// elemKey names the element of an array or slice that v points to
// (&devMu[c.dev], &s.sems[i]) by the location of the array or slice,
// which key names: the locks of a per-device array are told apart by
// where they are, not by index, as locks of one type are told apart by
// field, not by instance.
func elemKey(v ssa.Value, key func(ssa.Value) (Key, bool)) (Key, bool) {
	ia, ok := access.StripConv(v).(*ssa.IndexAddr)
	if !ok {
		return Key{}, false
	}
	x := ia.X
	if _, isSlice := x.Type().Underlying().(*types.Slice); isSlice {
		ld, ok := x.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			return Key{}, false
		}
		x = ld.X // the slice's location
	}
	return key(x)
}

// chanKey names the location a channel is loaded from (see KeyOf), an
// element of an array or slice of channels by the array's (elemKey).
func chanKey(v ssa.Value) (Key, bool) {
	if k, ok := KeyOf(v); ok {
		return k, true
	}
	return elemKey(v, KeyOf)
}

// pointer to a named struct (reg.mu with reg a package-level *T is T.mu).
func fieldThroughPointer(r access.Ref) (Key, bool) {
	last := -1
	for i, o := range r.Ops {
		if o.Kind == access.Load || o.Kind == access.IndexAddr {
			last = i
		}
	}
	if last < 0 || r.Ops[last].Kind != access.Load || last == len(r.Ops)-1 {
		return Key{}, false
	}
	var fields []string
	for _, o := range r.Ops[last+1:] {
		if o.Kind != access.FieldAddr {
			return Key{}, false
		}
		fields = append(fields, itoa(o.Index))
	}
	tn := access.PointeeName(access.TypeAfter(r.Root.Type(), r.Ops[:last+1]))
	if tn == nil {
		return Key{}, false
	}
	return Key{Type: tn, Fields: strings.Join(fields, ".")}, true
}

// checklocks reads gVisor's checklocks annotations.
func (g *guardsPass) checklocks() {
	g.declared = map[*ssa.Function][]Lock{}
	byObj := map[types.Object]*ssa.Function{}
	for _, fn := range g.calls.Funcs {
		if fn.Parent() == nil && fn.Object() != nil {
			byObj[fn.Object()] = fn
		}
	}
	for _, f := range g.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if fn := byObj[g.pass.TypesInfo.Defs[n.Name]]; fn != nil {
					g.declared[fn] = append(g.declared[fn], g.entryLocks(fn, n)...)
				}
				return false
			case *ast.TypeSpec:
				tn, ok := g.pass.TypesInfo.Defs[n.Name].(*types.TypeName)
				st, ok2 := n.Type.(*ast.StructType)
				if !ok || !ok2 {
					return true
				}
				idx := 0
				names := map[string]int{}
				for _, fld := range st.Fields.List {
					cnt := max(len(fld.Names), 1)
					for j := range cnt {
						if j < len(fld.Names) {
							names[fld.Names[j].Name] = idx + j
						}
					}
					idx += cnt
				}
				idx = 0
				for _, fld := range st.Fields.List {
					cnt := max(len(fld.Names), 1)
					for _, cg := range []*ast.CommentGroup{fld.Doc, fld.Comment} {
						if cg == nil {
							continue
						}
						for _, c := range cg.List {
							mu, ok := checklocksArg(c.Text)
							if !ok {
								continue
							}
							if mi, ok := names[mu]; ok {
								for j := range cnt {
									g.r.GuardedBy[Key{Type: tn, Fields: itoa(idx + j)}] = Key{Type: tn, Fields: itoa(mi)}
								}
							}
						}
					}
					idx += cnt
				}
			}
			return true
		})
	}
}

// heldDoc matches the sentences of a doc comment that state a caller's
// lock contract in one of its documented forms, naming the lock (the
// capture): "c.mu must be held", "must be called with mu held", "called
// while holding l.lk", "the caller must hold the lock", "callers hold
// t.mu", "requires p.mu (to be) held", "assumes mu is locked", "mu is held
// by the caller". A sentence that only mentions holding something ("frees
// the handle while holding mu", "the caller must hold a reference", "the
// handle is held until Close") states no contract.
var heldDoc = func() []*regexp.Regexp {
	const x = `((?:the|its)\s+(?:\w+\s+)?(?:lock|mutex)\b|[A-Za-z_][\w.]*)`
	var out []*regexp.Regexp
	for _, p := range []string{
		`\b(?:must|should)\s+(?:already\s+)?hold\s+` + x,
		`\bcallers?\s+(?:already\s+)?holds?\s+` + x,
		`\b` + x + `\s+(?:must|should)\s+(?:already\s+)?be\s+(?:held|locked|acquired)\b`,
		`\bcalled\s+(?:only\s+)?with\s+` + x + `\s+(?:held|locked|acquired)\b`,
		`\bcalled\s+(?:only\s+)?while\s+holding\s+` + x,
		`\brequires\s+` + x + `\s+(?:to\s+be\s+)?(?:held|locked)\b`,
		`\bassumes\s+(?:that\s+)?` + x + `\s+is\s+(?:held|locked)\b`,
		`\b` + x + `\s+is\s+held\s+by\s+the\s+callers?\b`,
	} {
		out = append(out, regexp.MustCompile(`(?i)`+p))
	}
	return out
}()

// docLocks returns the locks a doc comment says the function's callers
// hold (see heldDoc): a lock named through a parameter (c.mu) is some lock
// of that parameter's type; a bare name (mu) a mutex field of the
// receiver's type, or a package-level mutex; "the lock" some lock of the
// receiver's type (or the first pointer parameter's) when it has a mutex.
// A name that is no mutex (a reference, a handle) is no lock.
func (g *guardsPass) docLocks(doc string, params map[string]*types.Var, first *types.Var) []Lock {
	doc = strings.Join(strings.Fields(doc), " ")
	var out []Lock
	add := func(l Lock) {
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	for _, re := range heldDoc {
		for _, m := range re.FindAllStringSubmatch(doc, -1) {
			x := strings.TrimRight(m[1], ".")
			lower := strings.ToLower(x)
			switch {
			case strings.HasPrefix(lower, "the ") || strings.HasPrefix(lower, "its "):
				if first != nil {
					if tn := access.PointeeName(first.Type()); tn != nil && hasMutex(tn.Type()) {
						add(Lock{Key: Key{Type: tn, Fields: Some}})
					}
				}
			case strings.Contains(x, "."):
				parts := strings.Split(x, ".")
				if p, ok := params[parts[0]]; ok {
					if tn := access.PointeeName(p.Type()); tn != nil && isMutex(fieldPathType(tn.Type(), parts[1:])) {
						add(Lock{Key: Key{Type: tn, Fields: Some}})
					}
				}
			default:
				if first != nil {
					if tn := access.PointeeName(first.Type()); tn != nil && isMutex(fieldPathType(tn.Type(), []string{x})) {
						add(Lock{Key: Key{Type: tn, Fields: Some}})
						continue
					}
				}
				if v, ok := g.pass.Pkg.Scope().Lookup(x).(*types.Var); ok && isMutex(v.Type()) {
					add(Lock{Key: Key{Global: v}})
				}
			}
		}
	}
	return out
}

// fieldPathType returns the type of the field path names from t, or nil.
func fieldPathType(t types.Type, names []string) types.Type {
	for _, name := range names {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return nil
		}
		found := false
		for i := range st.NumFields() {
			if st.Field(i).Name() == name {
				t = st.Field(i).Type()
				found = true
				break
			}
		}
		if !found {
			return nil
		}
	}
	return t
}

// isMutex reports whether t is sync.Mutex or sync.RWMutex (or a pointer to
// one).
func isMutex(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && (n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex")
}

// hasMutex reports whether the struct t has a mutex field.
func hasMutex(t types.Type) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if isMutex(st.Field(i).Type()) {
			return true
		}
	}
	return false
}

// entryLocks returns the locks a function declares its callers hold: a
// checklocks annotation (// +checklocks:c.mu on the function), or, by Go
// convention, a name ending in Locked or a doc comment saying so (some
// lock of the receiver's type, or of the first parameter's).
func (g *guardsPass) entryLocks(fn *ssa.Function, fd *ast.FuncDecl) []Lock {
	var out []Lock
	params := map[string]*types.Var{}
	var first *types.Var
	if fd.Recv != nil && len(fn.Signature.Recv().Name()) > 0 {
		params[fn.Signature.Recv().Name()] = fn.Signature.Recv()
	}
	if r := fn.Signature.Recv(); r != nil {
		first = r
	}
	for i := range fn.Signature.Params().Len() {
		p := fn.Signature.Params().At(i)
		params[p.Name()] = p
		if first == nil && access.PointeeName(p.Type()) != nil {
			first = p
		}
	}
	if fd.Doc != nil {
		for _, c := range fd.Doc.List {
			t := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
			read := strings.HasPrefix(t, "+checklocksread:")
			arg, ok := checklocksArg(c.Text)
			if !ok || strings.HasPrefix(t, "+checklocksacquire") || strings.HasPrefix(t, "+checklocksrelease") {
				continue
			}
			// c.mu: the parameter c, then the field path
			parts := strings.Split(arg, ".")
			p, ok := params[parts[0]]
			if !ok || len(parts) < 2 {
				continue
			}
			tn := access.PointeeName(p.Type())
			if tn == nil {
				continue
			}
			var idx []string
			t2 := tn.Type()
			for _, name := range parts[1:] {
				st, ok := t2.Underlying().(*types.Struct)
				if !ok {
					idx = nil
					break
				}
				found := false
				for i := range st.NumFields() {
					if st.Field(i).Name() == name {
						idx = append(idx, itoa(i))
						t2 = st.Field(i).Type()
						found = true
						break
					}
				}
				if !found {
					idx = nil
					break
				}
			}
			if idx != nil {
				out = append(out, Lock{Key: Key{Type: tn, Fields: strings.Join(idx, ".")}, Read: read})
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	name := fd.Name.Name
	switch {
	case first != nil && (strings.HasSuffix(name, "Locked") || strings.HasSuffix(name, "locked") && name != "locked"):
		if tn := access.PointeeName(first.Type()); tn != nil {
			out = append(out, Lock{Key: Key{Type: tn, Fields: Some}})
		}
	case fd.Doc != nil:
		out = append(out, g.docLocks(fd.Doc.Text(), params, first)...)
	}
	return out
}

// checklocksArg parses "// +checklocks:mu" (and +checklocksread:mu).
func checklocksArg(text string) (string, bool) {
	t := strings.TrimSpace(strings.TrimPrefix(text, "//"))
	for _, p := range []string{"+checklocks:", "+checklocksread:"} {
		if rest, ok := strings.CutPrefix(t, p); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				return f[0], true
			}
		}
	}
	return "", false
}

// findOnce marks the bodies of sync.Once.Do, sync.OnceFunc, OnceValue and
// OnceValues.
func (g *guardsPass) findOnce() {
	for _, fn := range g.calls.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				callee := call.Call.StaticCallee()
				if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "sync" {
					continue
				}
				if o := callee.Origin(); o != nil {
					callee = o
				}
				var arg ssa.Value
				switch callee.Name() {
				case "Do":
					if callee.Signature.Recv() != nil && len(call.Call.Args) == 2 {
						arg = call.Call.Args[1]
					}
				case "OnceFunc", "OnceValue", "OnceValues":
					if len(call.Call.Args) == 1 {
						arg = call.Call.Args[0]
					}
				}
				if f := funcOf(arg); f != nil {
					g.r.once[f] = true
				}
			}
		}
	}
}

func funcOf(v ssa.Value) *ssa.Function {
	switch v := v.(type) {
	case *ssa.Function:
		return v
	case *ssa.MakeClosure:
		f, _ := v.Fn.(*ssa.Function)
		return f
	}
	return nil
}

// locks computes the locks held at each instruction of each user function,
// with entry locks flowing from callers to callees whose callers are all
// known (see callGraph) until nothing changes: the greatest fixed point,
// each such function starting with every lock and keeping, at each round,
// those held at every one of its sites.
func (g *guardsPass) locks(pkg *ssa.Package) {
	// the functions of the package, with the literals cgo writes around a
	// call into C (a helper called for an argument of C.f is called in
	// one) and the package initializer
	callers, open, funcs := g.callGraph(pkg)
	closed := func(fn *ssa.Function) bool { return len(callers[fn]) > 0 && !open[fn] }
	for _, fn := range funcs {
		if closed(fn) {
			g.entry[fn] = &lockSet{top: true}
		} else {
			g.entry[fn] = &lockSet{locks: slices.Clone(g.declared[fn])}
		}
	}
	for iter := 0; iter < 20; iter++ {
		changed := false
		for _, fn := range funcs {
			g.flow(fn)
		}
		for _, fn := range funcs {
			if !closed(fn) {
				continue
			}
			var in *lockSet
			for _, site := range callers[fn] {
				var s *lockSet
				switch site := site.(type) {
				case *ssa.Go:
					// the new goroutine holds the locks its spawner hands
					// it (see givesBack), and nothing else
					if e := g.entry[site.Parent()]; e != nil && e.top {
						continue // its spawner's locks are not known yet
					}
					s = &lockSet{}
					for _, l := range g.r.held[site] {
						if g.givesBack(fn, l.Key) {
							s.locks = append(s.locks, l)
						}
					}
				default:
					if e := g.entry[site.Parent()]; e != nil && e.top {
						continue // its caller's locks are not known yet
					}
					h, ok := g.r.held[site]
					if !ok {
						if g.entry[site.Parent()] != nil {
							continue // unreachable in its function
						}
						h = nil // a function the pass does not flow: nothing known
					}
					if d, isDefer := site.(*ssa.Defer); isDefer {
						h = g.deferredHeld(d, h)
					}
					s = &lockSet{locks: h}
				}
				if in == nil {
					in = s
				} else {
					in = meet(in, s)
				}
			}
			if in == nil {
				in = &lockSet{top: true}
			}
			for _, l := range g.declared[fn] {
				in.add(l)
			}
			if !in.equal(g.entry[fn]) {
				g.entry[fn] = in
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	// a function whose sites are never reached with known locks (a cycle
	// nothing outside calls) holds nothing on entry
	for _, fn := range funcs {
		if g.entry[fn].top {
			g.entry[fn] = &lockSet{locks: slices.Clone(g.declared[fn])}
		}
	}
	for _, fn := range funcs {
		g.flow(fn)
	}
	for _, fn := range funcs {
		if e := g.entry[fn]; len(e.locks) > 0 {
			g.r.entry[fn] = slices.Clone(e.locks)
		}
	}
}

// deferredHeld returns the locks, of those held at the defer statement d,
// that are still held when its call runs at the function's return: those
// its function's callers hold across the call, and those whose unlock is
// deferred before d (deferred calls run last in, first out). A lock
// unlocked explicitly before the return is not among them.
func (g *guardsPass) deferredHeld(d *ssa.Defer, held []Lock) []Lock {
	fn := d.Parent()
	entry := g.entry[fn]
	var out []Lock
	for _, l := range held {
		if entry != nil && !entry.top && entry.has(l) || g.unlockDeferredBefore(fn, l.Key, d) || g.drops(&d.Call, l.Key) {
			out = append(out, l)
		}
	}
	return out
}

// drops reports whether the call com is a helper that drops lock k
// (defer c.release(), whose body reads state under the lock before it
// unlocks): it runs holding k until it drops it.
func (g *guardsPass) drops(com *ssa.CallCommon, k Key) bool {
	e := g.helperOf(com)
	return e != nil && slices.ContainsFunc(e.drops, func(dk Key) bool {
		ak, ok := g.argKey(dk, com)
		return ok && ak.matches(k)
	})
}

// unlockDeferredBefore reports whether fn defers the unlock of k before d
// on every path to d (so that the unlock runs after d's call).
func (g *guardsPass) unlockDeferredBefore(fn *ssa.Function, k Key, d *ssa.Defer) bool {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			u, ok := in.(*ssa.Defer)
			if !ok || u == d {
				continue
			}
			if !g.unlocks(&u.Call, k) {
				continue
			}
			if u.Block() == d.Block() && slices.Index(b.Instrs, in) < slices.Index(b.Instrs, ssa.Instruction(d)) || u.Block() != d.Block() && u.Block().Dominates(d.Block()) {
				return true
			}
		}
	}
	return false
}

// unlocks reports whether the call com unlocks k (see unlockedKeys).
func (g *guardsPass) unlocks(com *ssa.CallCommon, k Key) bool {
	return slices.ContainsFunc(g.unlockedKeys(com, nil), func(u Key) bool { return u.matches(k) })
}

// unlockedKeys returns the locks the call com unlocks: the lock of an
// Unlock or RUnlock, or those a lock helper drops, named in the caller's
// frame. self, when not nil, is the lock effect being computed for com's
// caller: a recursive call says nothing of it.
func (g *guardsPass) unlockedKeys(com *ssa.CallCommon, self *lockEffect) []Key {
	if op, k, ok := lockOp(com); ok {
		if op == "Unlock" || op == "RUnlock" {
			return []Key{k}
		}
		return nil
	}
	e := g.helperOf(com)
	if e == nil || e == self {
		return nil
	}
	var out []Key
	for _, dk := range e.drops {
		if ak, ok := g.argKey(dk, com); ok {
			out = append(out, ak)
		}
	}
	return out
}

// givesBack reports whether fn, started by a go statement while its
// spawner holds k, gives k back: it unlocks k where it does not hold k
// itself (an unlock before any lock of its own, or a deferred unlock
// while it holds no k of its own at its returns). Such a spawner hands
// the lock to the goroutine (a background compaction that takes its one
// slot before the go statement, and frees it when it ends): the
// goroutine runs in the critical section, since the lock happens before
// the go statement, which happens before the goroutine starts, and its
// accesses happen before its own unlock, which happens before the next
// lock (the Go memory model: the nth Unlock of a sync.Mutex is
// synchronized before the (n+1)th Lock returns, whichever goroutine calls
// it, and the kth receive from a channel of capacity 1 before the
// (k+1)th send completes). The spawner no longer holds k after the go
// statement. A goroutine that takes k and unlocks it (go func() {
// mu.Lock(); …; mu.Unlock() }()) gives nothing back: it waits for the
// spawner's own unlock.
func (g *guardsPass) givesBack(fn *ssa.Function, k Key) bool {
	if fn == nil || len(fn.Blocks) == 0 || g.handing[fn] {
		return false
	}
	if g.handing == nil {
		g.handing = map[*ssa.Function]bool{}
	}
	g.handing[fn] = true
	defer delete(g.handing, fn)
	held := g.heldFrom(fn, &lockSet{})
	holds := func(instr ssa.Instruction) bool {
		return slices.ContainsFunc(held[instr], func(l Lock) bool { return l.Key.matches(k) })
	}
	deferred := false
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if sk, take, ok := g.semOp(instr); ok {
				if !take && sk.matches(k) && !holds(instr) {
					return true
				}
				continue
			}
			ci, ok := instr.(ssa.CallInstruction)
			if !ok || !g.unlocks(ci.Common(), k) {
				continue
			}
			switch ci.(type) {
			case *ssa.Defer:
				deferred = true
			case *ssa.Call:
				if !holds(instr) {
					return true
				}
			}
		}
	}
	if !deferred {
		return false
	}
	// a deferred unlock, at returns where fn holds no k of its own
	at := g.atReturns(fn, &lockSet{})
	return at != nil && !at.top && !slices.ContainsFunc(at.locks, func(l Lock) bool { return l.Key.matches(k) })
}

// givenBack returns the locks fn unlocks, directly, in a deferred call,
// or through a helper that drops them: those a goroutine running fn may
// give back for its spawner (see givesBack).
func (g *guardsPass) givenBack(fn *ssa.Function) []Key {
	if fn == nil {
		return nil
	}
	var out []Key
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if k, take, ok := g.semOp(instr); ok {
				if !take {
					out = append(out, k)
				}
				continue
			}
			if ci, ok := instr.(ssa.CallInstruction); ok {
				out = append(out, g.unlockedKeys(ci.Common(), nil)...)
			}
		}
	}
	return out
}

// callGraph finds, for each function of the package, the sites it is called
// from, and the functions whose callers are not all such sites: open ones.
// A function is open when code outside the package can call it (an
// exported function or method, an //export function that C calls), or when
// its address escapes: it is used as a value other than by calling it where
// it is made (stored, passed, returned, converted, a method value or method
// expression not called at once, the function of sync.OnceFunc). An
// unexported method is also called by every dynamic call of a method of
// that name in the package (outside the package, its name cannot be
// written): those calls are its sites.
func (g *guardsPass) callGraph(pkg *ssa.Package) (map[*ssa.Function][]ssa.CallInstruction, map[*ssa.Function]bool, []*ssa.Function) {
	callers := map[*ssa.Function][]ssa.CallInstruction{}
	open := map[*ssa.Function]bool{}
	openIDs := map[string]bool{}                  // method ids used as values
	invokes := map[string][]ssa.CallInstruction{} // method id -> dynamic calls
	origin := func(fn *ssa.Function) *ssa.Function {
		if o := fn.Origin(); o != nil {
			return o
		}
		return fn
	}
	methods := map[*types.Func]*ssa.Function{}
	for _, fn := range g.calls.Funcs {
		if m, ok := fn.Object().(*types.Func); ok && fn.Parent() == nil {
			methods[m] = fn
		}
	}
	// boundMethod returns the method a bound-method wrapper or a method
	// expression's thunk calls.
	boundMethod := func(fn *ssa.Function) (*types.Func, bool) {
		if fn.Synthetic == "" || fn.Origin() != nil {
			return nil, false
		}
		if m, ok := fn.Object().(*types.Func); ok && m.Type().(*types.Signature).Recv() != nil {
			return m, true
		}
		return nil, false
	}
	// calledOnly reports whether the closure v is only called (or run by
	// once.Do at the call), not stored or passed on.
	calledOnly := func(v ssa.Value) bool {
		refs := v.Referrers()
		if refs == nil {
			return false
		}
		for _, r := range *refs {
			ci, ok := r.(ssa.CallInstruction)
			if !ok || ci.Common().IsInvoke() || ci.Common().Value != v && !g.onceDo(ci, v) {
				return false
			}
		}
		return true
	}
	var scan []*ssa.Function
	var addAnon func(fn *ssa.Function)
	seen := map[*ssa.Function]bool{}
	addAnon = func(fn *ssa.Function) {
		if fn == nil || seen[fn] {
			return
		}
		seen[fn] = true
		scan = append(scan, fn)
		for _, a := range fn.AnonFuncs {
			addAnon(a)
		}
	}
	for _, fn := range g.calls.Funcs {
		addAnon(fn)
	}
	if pkg != nil {
		// package-level variables' initializers: a function stored in one
		// escapes
		addAnon(pkg.Func("init"))
	}
	// openMethod marks the method m used as a value: a method of an
	// interface stands for every method of that name.
	openMethod := func(m *types.Func) {
		if recv := m.Type().(*types.Signature).Recv(); recv != nil && types.IsInterface(recv.Type()) {
			openIDs[m.Id()] = true
		} else if mf := methods[m.Origin()]; mf != nil {
			open[mf] = true
		}
	}
	escape := func(v ssa.Value) {
		switch v := v.(type) {
		case *ssa.Function:
			if m, ok := boundMethod(v); ok {
				openMethod(m)
				return
			}
			open[origin(v)] = true
		case *ssa.MakeClosure:
			if fn, ok := v.Fn.(*ssa.Function); ok {
				if m, ok := boundMethod(fn); ok {
					openMethod(m)
					return
				}
				open[fn] = true
			}
		}
	}
	for _, fn := range scan {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					// a closure made and only called: its calls are its
					// sites (recorded below); otherwise it escapes
					if !calledOnly(mc) {
						escape(mc)
					}
					for _, bd := range mc.Bindings {
						escape(bd)
					}
					continue
				}
				ci, isCall := instr.(ssa.CallInstruction)
				var ops []*ssa.Value
				ops = instr.Operands(ops)
				for i, op := range ops {
					if op == nil || *op == nil {
						continue
					}
					if isCall && i == 0 && !ci.Common().IsInvoke() {
						continue // the callee (operand 0 of a call)
					}
					if isCall && g.onceDo(ci, *op) {
						continue // once.Do(f): f runs at the call
					}
					escape(*op)
				}
				if !isCall {
					continue
				}
				com := ci.Common()
				if com.IsInvoke() {
					invokes[com.Method.Id()] = append(invokes[com.Method.Id()], ci)
					continue
				}
				var callee *ssa.Function
				switch v := com.Value.(type) {
				case *ssa.Function:
					callee = v
				case *ssa.MakeClosure:
					callee, _ = v.Fn.(*ssa.Function)
				}
				if callee == nil {
					continue
				}
				if callee.Origin() == nil {
					if m, ok := boundMethod(callee); ok {
						// a method value called where it is made: a call
						// of the method
						if recv := m.Type().(*types.Signature).Recv(); recv != nil && types.IsInterface(recv.Type()) {
							invokes[m.Id()] = append(invokes[m.Id()], ci)
						} else if mf := methods[m.Origin()]; mf != nil {
							callers[mf] = append(callers[mf], ci)
						}
						continue
					}
				}
				callers[origin(callee)] = append(callers[origin(callee)], ci)
				// once.Do(f): f runs at the call, with its locks
				if len(com.Args) == 2 && g.onceDo(ci, com.Args[1]) {
					if f := funcOf(com.Args[1]); f != nil {
						callers[f] = append(callers[f], ci)
					}
				}
			}
		}
	}
	for _, fn := range scan {
		obj, _ := fn.Object().(*types.Func)
		switch {
		case fn.Parent() != nil:
		case obj == nil:
			open[fn] = true
		case obj.Exported() || g.calls.ExportedToC(obj):
			open[fn] = true
		case obj.Type().(*types.Signature).Recv() != nil:
			recv := obj.Type().(*types.Signature).Recv().Type()
			for _, ci := range invokes[obj.Id()] {
				if !mayInvoke(ci, recv) {
					continue
				}
				callers[fn] = append(callers[fn], ci)
			}
			if openIDs[obj.Id()] {
				open[fn] = true
			}
		}
	}
	return callers, open, scan
}

// flow computes the locks held at each instruction of fn from its entry set.
func (g *guardsPass) flow(fn *ssa.Function) {
	if len(fn.Blocks) == 0 {
		return
	}
	entry := g.entry[fn]
	if entry == nil {
		entry = &lockSet{}
	}
	in := map[*ssa.BasicBlock]*lockSet{fn.Blocks[0]: entry.clone()}
	order := cfg.ReversePostorder(fn)
	for iter := 0; iter < 3*len(order)+3; iter++ {
		changed := false
		for _, b := range order {
			s := in[b]
			if s == nil {
				continue
			}
			s = s.clone()
			var tryLock *Lock
			var tryVal ssa.Value
			for _, instr := range b.Instrs {
				g.r.held[instr] = slices.Clone(s.locks)
				if !g.paramKeys {
					// a parameter's lock is no lock of the function's
					// own accesses (it names the caller's)
					g.r.held[instr] = slices.DeleteFunc(g.r.held[instr], func(l Lock) bool { return isParamKey(l.Key) })
				}
				if s.top {
					g.r.held[instr] = nil
				}
				if k, take, ok := g.semOp(instr); ok {
					if take {
						s.add(Lock{Key: k})
					} else {
						s.remove(k)
					}
					continue
				}
				if gi, ok := instr.(*ssa.Go); ok && !s.top {
					// the locks it hands to the goroutine (givesBack)
					for _, l := range slices.Clone(s.locks) {
						if g.givesBack(gi.Call.StaticCallee(), l.Key) {
							s.remove(l.Key)
						}
					}
					continue
				}
				if sel, ok := instr.(*ssa.Select); ok {
					// select { case c.sem <- x: …; case <-ctx.Done(): … }
					if k, cond, ok := g.selectTake(sel); ok {
						tryLock, tryVal = &Lock{Key: k}, cond
					}
					continue
				}
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				if inner, ok := call.Call.Value.(*ssa.Call); ok {
					// the func a helper returns, called: its Unlock
					// (w.lock()() drops the lock at once)
					if e := g.helperOf(&inner.Call); e != nil {
						for _, l := range e.takes {
							if k, ok := g.argKey(l.Key, &inner.Call); ok {
								s.remove(k)
							}
						}
						continue
					}
				}
				if e := g.helperOf(&call.Call); e != nil {
					if len(e.tries) == 1 {
						if k, ok := g.argKey(e.tries[0].Key, &call.Call); ok {
							tryLock, tryVal = &Lock{Key: k, Read: e.tries[0].Read}, call
						}
					}
					for _, k := range e.drops {
						if k, ok := g.argKey(k, &call.Call); ok {
							s.remove(k)
						}
					}
					for _, l := range e.takes {
						if k, ok := g.argKey(l.Key, &call.Call); ok {
							s.add(Lock{Key: k, Read: l.Read})
						}
					}
					continue
				}
				op, k, ok := lockOp(&call.Call)
				if !ok {
					continue
				}
				switch op {
				case "Lock":
					s.add(Lock{Key: k})
				case "RLock":
					s.add(Lock{Key: k, Read: true})
				case "Unlock", "RUnlock":
					s.remove(k)
				case "TryLock", "TryRLock":
					tryLock, tryVal = &Lock{Key: k, Read: op == "TryRLock"}, call
				}
			}
			for i, succ := range b.Succs {
				out := s
				if tryLock != nil && i == 0 {
					if iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok && iff.Cond == tryVal {
						out = s.clone()
						out.add(*tryLock)
					}
				}
				if old, ok := in[succ]; !ok {
					in[succ] = out.clone()
					changed = true
				} else if m := meet(old, out); !m.equal(old) {
					in[succ] = m
					changed = true
				}
			}
		}
		if !changed {
			break
		}
	}
}

// A semMode is how a channel of capacity 1 is used as a lock (see semOp).
type semMode uint8

const (
	notSem semMode = iota
	// sendTakes: the slot is empty while the lock is free; a send takes
	// the lock (it waits until the previous holder's receive), a receive
	// gives it back
	sendTakes
	// recvTakes: the slot holds a token while the lock is free (the
	// channel is filled where it is made); a receive takes the token, a
	// send gives it back
	recvTakes
)

// semOp reports whether instr takes or drops a channel used as a lock. A
// channel of capacity 1 excludes as a mutex does, in either of its two
// forms (the Go memory model: a send is synchronized before the
// completion of the corresponding receive, and the kth receive from a
// channel of capacity C is synchronized before the (k+C)th send
// completes). Empty while free, a send takes it and a receive drops it;
// filled with one token where it is made, a receive takes the token and
// a send gives it back. The channel is named by the location it is
// loaded from (c.sem, a package-level variable), and counts as a lock only
// when every value the package stores there is a make(chan T, 1), made
// there or by a function of the package that returns one, all are of one
// form, and a function of the package takes and gives it back (see
// pairedChans): a counting semaphore of more slots, or a channel of unknown
// capacity, excludes nothing. A channel parameter (the receiver of
// func (s sema) acquire() { s <- struct{}{} }) is a lock helper's: it
// names its caller's argument, and has the form of the semaphores the
// calls of the package pass it (a call that passes another channel
// takes nothing).
func (g *guardsPass) semOp(instr ssa.Instruction) (Key, bool, bool) {
	ch, send, ok := chanOp(instr)
	if !ok {
		return Key{}, false, false
	}
	k, mode := g.chanSem(ch)
	switch mode {
	case sendTakes:
		return k, send, true
	case recvTakes:
		return k, !send, true
	}
	return Key{}, false, false
}

// chanOp returns the channel a send or a receive (outside a select)
// acts on, and whether it is a send.
func chanOp(instr ssa.Instruction) (ch ssa.Value, send, ok bool) {
	switch instr := instr.(type) {
	case *ssa.Send:
		return instr.Chan, true, true
	case *ssa.UnOp:
		if instr.Op == token.ARROW {
			return instr.X, false, true
		}
	}
	return nil, false, false
}

// chanSem names the channel ch and gives its form, when it is a
// semaphore: loaded from a location that holds one, or a parameter of a
// helper (paramKey) every call of which passes one of the same form.
func (g *guardsPass) chanSem(ch ssa.Value) (Key, semMode) {
	return g.chanSemAt(ch, 0)
}

func (g *guardsPass) chanSemAt(ch ssa.Value, depth int) (Key, semMode) {
	switch src := chanSource(ch, depth).(type) {
	case nil:
		return Key{}, notSem
	case *ssa.Parameter:
		// a helper's channel (func (s sema) acquire() { s <- x }, or
		// func (s *sema) acquire() { *s <- x })
		if k, ok := paramKey(src); ok {
			return k, g.paramSem(src, 0)
		}
		return Key{}, notSem
	default:
		k, ok := chanKey(src)
		if !ok {
			return Key{}, notSem
		}
		return k, g.semAt(k)
	}
}

// chanSource returns where the channel value ch comes from: the parameter
// it is (or whose pointee it is loaded from), or the address of the
// location it is loaded from (&c.sem, a package-level variable); nil for
// anything else. A variable assigned once, or captured by a closure
// (defer func() { <-s }()), holds the channel it was assigned: s :=
// e.sem, or a parameter spilled for the closure.
func chanSource(ch ssa.Value, depth int) ssa.Value {
	ch = access.StripConv(ch)
	if p, ok := ch.(*ssa.Parameter); ok {
		return p
	}
	ld, ok := ch.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL || depth > 4 {
		return nil
	}
	var v ssa.Value
	switch x := access.StripConv(ld.X).(type) {
	case *ssa.Alloc:
		v = lifetime.SingleStore(x)
	case *ssa.FreeVar:
		v = Captured(x)
	case *ssa.Parameter:
		return x
	}
	if v != nil {
		return chanSource(v, depth+1)
	}
	return ld.X
}

// semAt returns the form of the semaphore at location k, notSem if it
// holds none.
func (g *guardsPass) semAt(k Key) semMode {
	if g.sems == nil {
		g.sems = g.semaphores()
	}
	return g.sems[k]
}

// argSem names the semaphore argument a of a call passes for a channel
// parameter (a channel loaded from its location, or the location's
// address), and gives its form.
func (g *guardsPass) argSem(a ssa.Value) (Key, semMode) {
	a = access.StripConv(a)
	if p, ok := a.(*ssa.Parameter); ok {
		k, _ := paramKey(p)
		return k, g.paramSem(p, 0)
	}
	if _, isChan := a.Type().Underlying().(*types.Chan); isChan {
		return g.chanSem(a)
	}
	k, ok := chanKey(a) // &c.sem, for a *sema parameter
	if !ok {
		return Key{}, notSem
	}
	return k, g.semAt(k)
}

// paramSem returns the form of the semaphores the static calls of the
// package pass for channel parameter p (through a chain of a few
// helpers), notSem if two pass semaphores of two forms or none passes
// one. A call that passes another channel takes no lock: argKey names
// no semaphore there.
func (g *guardsPass) paramSem(p *ssa.Parameter, depth int) semMode {
	fn := p.Parent()
	i := slices.Index(fn.Params, p)
	if i < 0 || depth > 3 || !isChanOrPtr(p.Type()) {
		return notSem
	}
	if g.chanCalls == nil {
		g.chanCalls = g.staticCalls()
	}
	mode := notSem
	for _, com := range g.chanCalls[fn] {
		if i >= len(com.Args) {
			return notSem
		}
		var m semMode
		if q, ok := access.StripConv(com.Args[i]).(*ssa.Parameter); ok {
			m = g.paramSem(q, depth+1)
		} else {
			_, m = g.argSem(com.Args[i])
		}
		if m == notSem {
			continue // a call that passes no semaphore takes no lock (argKey)
		}
		if mode != notSem && m != mode {
			return notSem
		}
		mode = m
	}
	return mode
}

// isChanOrPtr reports whether t is a channel or a pointer to one.
func isChanOrPtr(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

// staticCalls returns, for each function of the package with a channel
// parameter, its static calls in the package.
func (g *guardsPass) staticCalls() map[*ssa.Function][]*ssa.CallCommon {
	out := map[*ssa.Function][]*ssa.CallCommon{}
	for _, fn := range g.calls.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				ci, ok := instr.(ssa.CallInstruction)
				if !ok || ci.Common().IsInvoke() {
					continue
				}
				callee := ci.Common().StaticCallee()
				if callee == nil || !slices.ContainsFunc(callee.Params, func(p *ssa.Parameter) bool { return isChanOrPtr(p.Type()) }) {
					continue
				}
				out[callee] = append(out[callee], ci.Common())
			}
		}
	}
	return out
}

// selectTake returns, for a select one of whose cases takes a semaphore
// (a send on one empty while free, a receive of a token), the condition
// that is true where that case ran (the select's index == i): the branch
// it decides holds the lock, as a TryLock's does.
func (g *guardsPass) selectTake(sel *ssa.Select) (Key, ssa.Value, bool) {
	for i, st := range sel.States {
		k, mode := g.chanSem(st.Chan)
		if !(mode == sendTakes && st.Dir == types.SendOnly || mode == recvTakes && st.Dir == types.RecvOnly) {
			continue
		}
		for _, r := range *sel.Referrers() {
			ex, ok := r.(*ssa.Extract)
			if !ok || ex.Index != 0 {
				continue
			}
			for _, rr := range *ex.Referrers() {
				if bin, ok := rr.(*ssa.BinOp); ok && bin.Op == token.EQL && bin.X == ssa.Value(ex) {
					if c, ok := bin.Y.(*ssa.Const); ok && c.Value != nil && c.Int64() == int64(i) {
						return k, bin, true
					}
				}
			}
		}
	}
	return Key{}, nil, false
}

// semaphores returns the locations of channels every store of the package
// fills with a make(chan T, 1) of one form, and the form.
func (g *guardsPass) semaphores() map[Key]semMode {
	modes, other := map[Key]semMode{}, map[Key]bool{}
	funcs := slices.Clone(g.calls.Funcs)
	if g.pkg != nil {
		if init := g.pkg.Func("init"); init != nil && !slices.Contains(funcs, init) {
			funcs = append(funcs, init) // var libSem = make(chan struct{}, 1)
		}
	}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				note := func(k Key, src chanSrc) {
					m := notSem
					if src.v != nil {
						m = g.madeSem(src, 0)
					}
					if m == sendTakes && fillsAt(funcs, fn, k) {
						m = recvTakes
					}
					if m == notSem || modes[k] != notSem && modes[k] != m {
						other[k] = true
						return
					}
					modes[k] = m
				}
				if _, isChan := st.Val.Type().Underlying().(*types.Chan); isChan {
					if k, ok := chanKey(st.Addr); ok {
						note(k, chanSrc{v: st.Val})
					}
					continue
				}
				// a struct value with channels in it (&A{in: inner{lock:
				// make(chan struct{}, 1)}}, or in: newInner())
				paths := chanPaths(st.Val.Type(), 0)
				if len(paths) == 0 {
					continue
				}
				base, ok := KeyOf(st.Addr)
				if !ok {
					tn := access.PointeeName(st.Addr.Type())
					if tn == nil {
						continue
					}
					base = Key{Type: tn}
				}
				held := g.structChans(chanSrc{v: st.Val}, 0)
				for _, path := range paths {
					k := base
					if k.Fields == "" {
						k.Fields = path
					} else {
						k.Fields += "." + path
					}
					vs := held[path]
					if len(vs) == 0 {
						note(k, chanSrc{}) // a channel the pass does not see
					}
					for _, v := range vs {
						note(k, v)
					}
				}
			}
		}
	}
	for k := range other {
		delete(modes, k)
	}
	paired := g.pairedChans(funcs, modes)
	for k := range modes {
		if !paired[k] {
			delete(modes, k) // a result channel: sent on here, received there
		}
	}
	return modes
}

// chanPaths returns the field paths (indices joined by ".") of the
// channel fields of struct type t, nested structs' included.
func chanPaths(t types.Type, depth int) []string {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || depth > 3 {
		return nil
	}
	var out []string
	for i := range st.NumFields() {
		ft := st.Field(i).Type()
		if _, isChan := ft.Underlying().(*types.Chan); isChan {
			out = append(out, itoa(i))
			continue
		}
		for _, p := range chanPaths(ft, depth+1) {
			out = append(out, itoa(i)+"."+p)
		}
	}
	return out
}

// structChans returns the channel values the struct value v holds, by
// field path (see chanPaths): v loaded from a composite literal the
// function builds (inner{lock: make(chan struct{}, 1)}), or returned by a
// function of the package whose returns are such values (newInner()). A
// path it cannot follow is absent, or holds nil for a return it cannot.
func (g *guardsPass) structChans(src chanSrc, depth int) map[string][]chanSrc {
	out := map[string][]chanSrc{}
	if depth > 3 {
		return out
	}
	add := func(prefix string, m map[string][]chanSrc) {
		for p, vs := range m {
			if prefix != "" {
				p = prefix + "." + p
			}
			out[p] = append(out[p], vs...)
		}
	}
	switch v := src.v.(type) {
	case *ssa.UnOp:
		al, ok := v.X.(*ssa.Alloc)
		if v.Op != token.MUL || !ok {
			return out
		}
		// the stores into the variable and its fields
		var walk func(addr ssa.Value, prefix string, d int)
		walk = func(addr ssa.Value, prefix string, d int) {
			if d > 3 {
				return
			}
			for _, r := range *addr.Referrers() {
				switch r := r.(type) {
				case *ssa.Store:
					if r.Addr != addr {
						continue
					}
					if _, isChan := r.Val.Type().Underlying().(*types.Chan); isChan {
						out[prefix] = append(out[prefix], chanSrc{r.Val, src.at})
					} else {
						add(prefix, g.structChans(chanSrc{r.Val, src.at}, depth+1))
					}
				case *ssa.FieldAddr:
					p := itoa(r.Field)
					if prefix != "" {
						p = prefix + "." + p
					}
					walk(r, p, d+1)
				}
			}
		}
		walk(al, "", 0)
	case *ssa.Call:
		callee := v.Call.StaticCallee()
		if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg != g.pass.Pkg || len(callee.Blocks) == 0 {
			return out
		}
		for _, r := range cfg.Returns(callee) {
			if len(r.Results) != 1 {
				return map[string][]chanSrc{}
			}
			m := g.structChans(chanSrc{r.Results[0], append(slices.Clip(src.at), &v.Call)}, depth+1)
			for _, p := range chanPaths(v.Type(), 0) {
				if len(m[p]) == 0 {
					m[p] = []chanSrc{{}} // a return the pass cannot follow
				}
			}
			add("", m)
		}
	}
	return out
}

// goStarted reports whether the function literal fn is started by a go
// statement of its parent: it runs on a goroutine of its own.
func goStarted(fn *ssa.Function) bool {
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || mc.Fn != fn {
				continue
			}
			for _, r := range *mc.Referrers() {
				if g, ok := r.(*ssa.Go); ok && g.Call.Value == ssa.Value(mc) {
					return true
				}
			}
		}
	}
	return false
}

// chanDirs are the directions in which a function uses a channel.
type chanDirs struct{ send, recv bool }

// pairedChans returns the locations of channels that some function of
// the package both sends on and receives from: itself, in its closures
// (a deferred func() { <-c.sem }()), in the functions it calls (lock() and
// unlock() methods), or in helpers it passes the channel to
// (acquireOn(c.sem)). Only such a channel is a lock its holder gives
// back; one that a function sends on and another receives from (each
// worker's r.res <- v, the spawner's <-r.res) carries values, and its
// send excludes nothing once the value is received. What a goroutine does
// is its own, but for giving back a lock its spawner may have taken
// before the go statement (a receive, for a channel of mode sendTakes in
// modes; a send, for recvTakes): the lock hand-off of givesBack.
func (g *guardsPass) pairedChans(funcs []*ssa.Function, modes map[Key]semMode) map[Key]bool {
	// gives keeps of the directions d those that give back a lock at k
	gives := func(k Key, d chanDirs) chanDirs {
		return chanDirs{send: d.send && modes[k] == recvTakes, recv: d.recv && modes[k] == sendTakes}
	}
	outer := func(fn *ssa.Function) *ssa.Function {
		for fn.Parent() != nil && !goStarted(fn) {
			fn = fn.Parent()
		}
		return fn
	}
	locOps := map[*ssa.Function]map[Key]chanDirs{}
	paramOps := map[*ssa.Parameter]chanDirs{}
	note := func(fn *ssa.Function, ch ssa.Value, send bool) {
		switch src := chanSource(ch, 0).(type) {
		case nil:
		case *ssa.Parameter:
			d := paramOps[src]
			d.send, d.recv = d.send || send, d.recv || !send
			paramOps[src] = d
		default:
			k, ok := chanKey(src)
			if !ok {
				return
			}
			o := outer(fn)
			if locOps[o] == nil {
				locOps[o] = map[Key]chanDirs{}
			}
			d := locOps[o][k]
			d.send, d.recv = d.send || send, d.recv || !send
			locOps[o][k] = d
		}
	}
	var calls []*ssa.CallCommon
	var callers []*ssa.Function
	started := map[*ssa.CallCommon]bool{} // the calls of go statements
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if ch, send, ok := chanOp(instr); ok {
					note(fn, ch, send)
					continue
				}
				switch instr := instr.(type) {
				case *ssa.Select:
					for _, st := range instr.States {
						note(fn, st.Chan, st.Dir == types.SendOnly)
					}
				case *ssa.Go:
					// another goroutine's: what it does is not the
					// spawner's (go r.work() sends, Run receives), but
					// for giving back what the spawner took
					if instr.Call.StaticCallee() != nil {
						calls = append(calls, &instr.Call)
						callers = append(callers, outer(fn))
						started[&instr.Call] = true
					}
				case ssa.CallInstruction:
					if !instr.Common().IsInvoke() && instr.Common().StaticCallee() != nil {
						calls = append(calls, instr.Common())
						callers = append(callers, outer(fn))
					}
				}
			}
		}
	}
	// a few rounds: what callees do to the caller's locations, and what
	// helpers do to the channels they are passed
	for round := 0; round < 4; round++ {
		changed := false
		for i, com := range calls {
			caller, callee := callers[i], com.StaticCallee()
			if o := callee.Origin(); o != nil {
				callee = o
			}
			add := func(k Key, d chanDirs) {
				if locOps[caller] == nil {
					locOps[caller] = map[Key]chanDirs{}
				}
				old := locOps[caller][k]
				nd := chanDirs{old.send || d.send, old.recv || d.recv}
				if nd != old {
					locOps[caller][k] = nd
					changed = true
				}
			}
			if callee != caller {
				for k, d := range locOps[callee] {
					if started[com] {
						d = gives(k, d)
					}
					add(k, d)
				}
			}
			for j, a := range com.Args {
				if j >= len(callee.Params) || !isChanOrPtr(a.Type()) {
					continue
				}
				d, ok := paramOps[callee.Params[j]]
				if !ok || started[com] {
					continue // (a goroutine's helper: rare, left out)
				}
				var k Key
				switch src := chanSource(a, 0).(type) {
				case *ssa.Parameter:
					// passed on by a helper of a helper
					pd := paramOps[src]
					nd := chanDirs{pd.send || d.send, pd.recv || d.recv}
					if nd != pd {
						paramOps[src] = nd
						changed = true
					}
					continue
				case nil:
					k, ok = chanKey(a) // &c.sem, for a *sema parameter
				default:
					k, ok = chanKey(src)
				}
				if ok {
					add(k, d)
				}
			}
		}
		if !changed {
			break
		}
	}
	out := map[Key]bool{}
	for _, ops := range locOps {
		for k, d := range ops {
			if d.send && d.recv {
				out[k] = true
			}
		}
	}
	return out
}

// A chanSrc is a channel value, and the calls through which the
// function that makes it was entered, innermost last (newSem(1) for
// func newSem(n int) chan struct{} { return make(chan struct{}, n) }).
type chanSrc struct {
	v  ssa.Value
	at []*ssa.CallCommon
}

// sizeOne reports whether the capacity size of a make, in the function
// src's calls entered last, is 1: a constant, or a parameter every one of
// those calls gives 1 for.
func sizeOne(size ssa.Value, at []*ssa.CallCommon) bool {
	for range 4 {
		switch v := access.StripConv(size).(type) {
		case *ssa.Const:
			return v.Value != nil && v.Int64() == 1
		case *ssa.Parameter:
			if len(at) == 0 {
				return false
			}
			call := at[len(at)-1]
			i := slices.Index(v.Parent().Params, v)
			if i < 0 || i >= len(call.Args) || call.StaticCallee() == nil {
				return false
			}
			size, at = call.Args[i], at[:len(at)-1]
		default:
			return false
		}
	}
	return false
}

// madeSem returns the form of the channel src: a make(chan T, 1), or the
// result of a function of the package whose every return is one
// (newSema(), or newSem(1) of a make(chan struct{}, n)); recvTakes when
// the function that makes it sends on it (t := make(chan struct{}, 1);
// t <- struct{}{}).
func (g *guardsPass) madeSem(src chanSrc, depth int) semMode {
	switch v := access.StripConv(src.v).(type) {
	case *ssa.MakeChan:
		if !sizeOne(v.Size, src.at) {
			return notSem
		}
		for _, r := range *v.Referrers() {
			if s, ok := r.(*ssa.Send); ok && access.StripConv(s.Chan) == ssa.Value(v) {
				return recvTakes
			}
		}
		return sendTakes
	case *ssa.Call:
		callee := v.Call.StaticCallee()
		if callee == nil || depth > 3 || callee.Pkg == nil || callee.Pkg.Pkg != g.pass.Pkg || len(callee.Blocks) == 0 {
			return notSem
		}
		mode := notSem
		for _, r := range cfg.Returns(callee) {
			if len(r.Results) != 1 {
				return notSem
			}
			m := g.madeSem(chanSrc{r.Results[0], append(slices.Clip(src.at), &v.Call)}, depth+1)
			if m == notSem || mode != notSem && m != mode {
				return notSem
			}
			mode = m
		}
		return mode
	}
	return notSem
}

// fillsAt reports whether the channel at location k is filled where it is
// stored: fn, the function that stores it, or an init function of the
// package, sends on it and never receives from it (h := &H{tok:
// make(chan struct{}, 1)}; h.tok <- struct{}{}).
func fillsAt(funcs []*ssa.Function, fn *ssa.Function, k Key) bool {
	check := func(f *ssa.Function) (sends, recvs bool) {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				ch, send, ok := chanOp(instr)
				if !ok {
					continue
				}
				ld, ok := access.StripConv(ch).(*ssa.UnOp)
				if !ok || ld.Op != token.MUL {
					continue
				}
				if lk, ok := chanKey(ld.X); ok && lk == k {
					if send {
						sends = true
					} else {
						recvs = true
					}
				}
			}
		}
		return
	}
	if s, r := check(fn); s && !r {
		return true
	}
	if k.Global == nil {
		return false
	}
	// var tok = make(chan struct{}, 1); func init() { tok <- struct{}{} }
	for _, f := range funcs {
		if f.Parent() == nil && (f.Name() == "init" || strings.HasPrefix(f.Name(), "init#")) {
			if s, r := check(f); s && !r {
				return true
			}
		}
	}
	return false
}

// helperOf returns the lock effect of the function com calls, when it is
// one of the package's lock helpers.
func (g *guardsPass) helperOf(com *ssa.CallCommon) *lockEffect {
	if com.IsInvoke() {
		return nil
	}
	if _, _, ok := lockCall(com); ok {
		// a lock's own method (sync.Mutex.Lock, whose body is a helper
		// too, of the mutex's inner lock): the lock it takes is the one it
		// is called on, named by lockOp or not at all
		return nil
	}
	fn := com.StaticCallee()
	if fn == nil {
		return nil
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if e, ok := g.helpers[fn]; ok {
		return e
	}
	if fn.Pkg != nil && fn.Pkg.Pkg == g.pass.Pkg {
		return nil
	}
	g.importFact(fn)
	return g.imported[fn]
}

// lockHelpers finds the package's functions that take a lock and return
// holding it, or drop one their caller holds: func (w *W) lock() {
// w.mu.Lock() } and unlock(), a package-level func lock() { mu.Lock() },
// func (w *W) lock() func() { w.mu.Lock(); return w.mu.Unlock }. Their
// callers hold the lock from the call on (or no longer), as if the call
// were the Lock: locks are named by type (or variable), so the callee's
// W.mu is the caller's. A lock the helper unlocks in a deferred call is not
// taken. Helpers of helpers are found too (a few rounds).
func (g *guardsPass) lockHelpers() {
	g.helpers = map[*ssa.Function]*lockEffect{}
	for round := 0; round < 3; round++ {
		changed := false
		for _, fn := range g.calls.Funcs {
			if len(fn.Blocks) == 0 {
				continue
			}
			e := g.lockEffectOf(fn)
			old := g.helpers[fn]
			switch {
			case e == nil && old == nil:
				continue
			case e != nil && old != nil && e.equal(old):
				continue
			}
			changed = true
			if e == nil {
				delete(g.helpers, fn)
			} else {
				g.helpers[fn] = e
			}
		}
		if !changed {
			break
		}
	}
	g.lockedCallbacks()
}

// lockedCallbacks gives a function literal (or function) passed to a
// function of the package that calls that parameter with a lock held, on
// every such call, the lock as a lock its callers hold: func (w *W)
// with(f func()) { w.mu.Lock(); defer w.mu.Unlock(); f() }, called as
// w.with(func() { w.n++ }), runs the literal under W.mu.
func (g *guardsPass) lockedCallbacks() {
	// (those of other packages' functions, imported by helperOf, are
	// there already)
	if g.callbacks == nil {
		g.callbacks = map[*ssa.Function]map[int]*lockSet{}
	}
	underLock := g.callbacks
	for _, fn := range g.calls.Funcs {
		var sites []*ssa.Call
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(*ssa.Call); ok && !c.Call.IsInvoke() {
					if _, ok := c.Call.Value.(*ssa.Parameter); ok {
						sites = append(sites, c)
					}
				}
			}
		}
		if len(sites) == 0 {
			continue
		}
		held := g.heldFrom(fn, &lockSet{})
		for _, c := range sites {
			i := slices.Index(fn.Params, c.Call.Value.(*ssa.Parameter))
			h, ok := held[c]
			if i < 0 || !ok {
				continue
			}
			if underLock[fn] == nil {
				underLock[fn] = map[int]*lockSet{}
			}
			if old, ok := underLock[fn][i]; ok {
				underLock[fn][i] = meet(old, &lockSet{locks: h})
			} else {
				underLock[fn][i] = &lockSet{locks: h}
			}
		}
	}
	for _, fn := range g.calls.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(*ssa.Call); ok && !c.Call.IsInvoke() {
					if callee := c.Call.StaticCallee(); callee != nil && callee.Pkg != nil && callee.Pkg.Pkg != g.pass.Pkg {
						g.importFact(callee)
					}
				}
			}
		}
	}
	if len(underLock) == 0 {
		return
	}
	for _, fn := range g.calls.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(*ssa.Call)
				if !ok || c.Call.IsInvoke() {
					continue
				}
				callee := c.Call.StaticCallee()
				if callee == nil {
					continue
				}
				if o := callee.Origin(); o != nil {
					callee = o
				}
				for i, ls := range underLock[callee] {
					// the callee's parameter i (the receiver first) is
					// argument i of a static call
					if i >= len(c.Call.Args) {
						continue
					}
					// a literal made for this call alone: a named
					// function, or a literal also called or kept
					// elsewhere, runs without the lock there too
					if f := funcOf(c.Call.Args[i]); f != nil && f.Parent() != nil && onlyPassed(c.Call.Args[i], c) {
						for _, l := range ls.locks {
							k, ok := g.argKey(l.Key, &c.Call)
							if !ok || isParamKey(k) {
								continue
							}
							l = Lock{Key: k, Read: l.Read}
							if !slices.Contains(g.declared[f], l) {
								g.declared[f] = append(g.declared[f], l)
							}
						}
					}
				}
			}
		}
	}
}

// onlyPassed reports whether v, a function literal, is used only as an
// argument of call.
func onlyPassed(v ssa.Value, call *ssa.Call) bool {
	if _, ok := v.(*ssa.Function); ok {
		// a literal that captures nothing: its uses are not listed;
		// it is a value only where it is written
		return true
	}
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if r != call {
			return false
		}
	}
	return true
}

// lockEffectOf computes fn's effect on its caller's locks: the locks held
// at every normal return, fn starting with none, less those whose unlock
// fn defers; and the locks fn unlocks (directly or through a helper) that
// are no longer held at any return when fn starts holding them. nil for a
// function that does neither.
func (g *guardsPass) lockEffectOf(fn *ssa.Function) *lockEffect {
	var unlocked []Key
	var deferred []Key
	touches := false // fn locks or unlocks, directly or through a helper
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if k, take, ok := g.semOp(instr); ok {
				touches = true
				if !take {
					unlocked = append(unlocked, k)
				}
				continue
			}
			if gi, ok := instr.(*ssa.Go); ok {
				// a goroutine that gives back what fn holds (a hand-off
				// in a helper: func (d *DB) startCompaction() { go
				// func() { defer d.release(); … }() })
				if ks := g.givenBack(gi.Call.StaticCallee()); len(ks) > 0 {
					touches = true
					unlocked = append(unlocked, ks...)
				}
				continue
			}
			ci, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			e := g.helperOf(ci.Common())
			_, _, isLock := lockOp(ci.Common())
			touches = touches || isLock || e != nil && e != g.helpers[fn]
			ks := g.unlockedKeys(ci.Common(), g.helpers[fn])
			if inner, ok := ci.Common().Value.(*ssa.Call); ok {
				// the func a helper returns, called: its Unlock
				// (defer w.lock()() drops at the return what the
				// helper took)
				if ie := g.helperOf(&inner.Call); ie != nil && ie != g.helpers[fn] {
					for _, l := range ie.takes {
						if ak, ok := g.argKey(l.Key, &inner.Call); ok {
							ks = append(ks, ak)
						}
					}
				}
			}
			if _, isDefer := ci.(*ssa.Defer); isDefer {
				deferred = append(deferred, ks...)
			} else if _, isCall := ci.(*ssa.Call); isCall {
				unlocked = append(unlocked, ks...)
			}
		}
	}
	if !touches {
		return nil // (the flow below would find nothing: no need to run it)
	}
	e := &lockEffect{}
	if at := g.atReturns(fn, &lockSet{}); at != nil && !at.top {
		for _, l := range at.locks {
			if !slices.ContainsFunc(deferred, func(k Key) bool { return l.Key.matches(k) }) {
				e.takes = append(e.takes, l)
			}
		}
	}
	for _, k := range unlocked {
		if slices.Contains(e.drops, k) {
			continue
		}
		held := &lockSet{locks: []Lock{{Key: k}, {Key: k, Read: true}}}
		if at := g.atReturns(fn, held); at != nil && !at.top && !slices.ContainsFunc(at.locks, func(l Lock) bool { return l.Key.matches(k) }) {
			e.drops = append(e.drops, k)
		}
	}
	if len(e.takes) == 0 && len(e.drops) == 0 {
		e.tries = g.triesOf(fn)
	}
	if len(e.takes) == 0 && len(e.drops) == 0 && len(e.tries) == 0 {
		return nil
	}
	return e
}

// triesOf returns the lock fn takes when it returns true, for a function
// whose only result is a bool that each return takes from a TryLock (or a
// try-lock helper) of one lock, or gives as false: the caller holds the
// lock on the branch where the result is true, as after TryLock itself.
func (g *guardsPass) triesOf(fn *ssa.Function) []Lock {
	res := fn.Signature.Results()
	if res.Len() != 1 || !types.Identical(res.At(0).Type(), types.Typ[types.Bool]) {
		return nil
	}
	var tried *Lock
	for _, r := range cfg.Returns(fn) {
		if len(r.Results) != 1 {
			return nil
		}
		if c, ok := r.Results[0].(*ssa.Const); ok && c.Value != nil && constant.BoolVal(c.Value) == false {
			continue
		}
		call, ok := r.Results[0].(*ssa.Call)
		if !ok {
			return nil
		}
		var l Lock
		if e := g.helperOf(&call.Call); e != nil {
			if len(e.tries) != 1 {
				return nil
			}
			k, ok := g.argKey(e.tries[0].Key, &call.Call)
			if !ok {
				return nil
			}
			l = Lock{Key: k, Read: e.tries[0].Read}
		} else {
			op, k, ok := lockOp(&call.Call)
			if !ok || op != "TryLock" && op != "TryRLock" {
				return nil
			}
			l = Lock{Key: k, Read: op == "TryRLock"}
		}
		if tried != nil && *tried != l {
			return nil
		}
		tried = &l
	}
	if tried == nil {
		return nil
	}
	return []Lock{*tried}
}

// atReturns returns the locks held at every normal return of fn when it
// starts with entry (nil when it never returns), as flow computes them,
// without recording them.
func (g *guardsPass) atReturns(fn *ssa.Function, entry *lockSet) *lockSet {
	held := g.heldFrom(fn, entry)
	var out *lockSet
	for _, ret := range cfg.Returns(fn) {
		h, ok := held[ret]
		if !ok {
			continue // unreachable
		}
		s := &lockSet{locks: h}
		if out == nil {
			out = s
		} else {
			out = meet(out, s)
		}
	}
	return out
}

// heldFrom returns the locks held at each instruction of fn when it starts
// with entry, as flow computes them, without recording them.
func (g *guardsPass) heldFrom(fn *ssa.Function, entry *lockSet) map[ssa.Instruction][]Lock {
	saved, savedHeld, savedKeys := g.entry[fn], g.r.held, g.paramKeys
	g.entry[fn] = entry
	g.r.held = map[ssa.Instruction][]Lock{}
	g.paramKeys = true
	g.flow(fn)
	g.paramKeys = savedKeys
	held := g.r.held
	g.entry[fn], g.r.held = saved, savedHeld
	if saved == nil {
		delete(g.entry, fn)
	}
	return held
}

// accesses records the package's accesses to shared state.
func (g *guardsPass) accesses() {
	for _, fn := range g.calls.Funcs {
		once := g.r.once[fn]
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				g.access(fn, instr, once)
			}
		}
	}
}

func (g *guardsPass) add(fn *ssa.Function, instr ssa.Instruction, once bool, k Key, kind AccessKind, op string, ref access.Ref, pos token.Pos) {
	if !pos.IsValid() {
		pos = instr.Pos()
	}
	g.r.Accesses = append(g.r.Accesses, &Access{Key: k, Kind: kind, Op: op, Instr: instr, Func: fn, Pos: pos, Ref: ref, Locks: g.r.held[instr], Once: once})
}

func (g *guardsPass) access(fn *ssa.Function, instr ssa.Instruction, once bool) {
	switch instr := instr.(type) {
	case *ssa.UnOp:
		if instr.Op == token.MUL {
			if k, ok := KeyOf(instr.X); ok {
				g.add(fn, instr, once, k, Read, "", lifetime.Expand(instr.X), instr.Pos())
			}
		}
	case *ssa.Store:
		if k, ok := KeyOf(instr.Addr); ok {
			g.add(fn, instr, once, k, Write, "", lifetime.Expand(instr.Addr), instr.Pos())
		}
	case *ssa.MapUpdate:
		if k, ok := mapKey(instr.Map); ok {
			g.add(fn, instr, once, k, MapWrite, "", lifetime.Expand(instr.Map), instr.Pos())
		}
	case *ssa.Lookup:
		if k, ok := mapKey(instr.X); ok && isMap(instr.X.Type()) {
			g.add(fn, instr, once, k, MapRead, "", lifetime.Expand(instr.X), instr.Pos())
		}
	case *ssa.Call:
		g.callAccess(fn, instr, once)
	case *ssa.Defer:
		g.callAccess(fn, instr, once)
	}
}

// mapKey names the map value m when it was loaded from a field or a global.
func mapKey(m ssa.Value) (Key, bool) {
	if u, ok := m.(*ssa.UnOp); ok && u.Op == token.MUL {
		return KeyOf(u.X)
	}
	return Key{}, false
}

func isMap(t types.Type) bool {
	_, ok := t.Underlying().(*types.Map)
	return ok
}

var atomicFuncs = map[string]AccessKind{
	"Load": AtomicRead, "Store": AtomicRMW, "Add": AtomicRMW, "Swap": AtomicRMW,
	"CompareAndSwap": AtomicRMW, "And": AtomicRMW, "Or": AtomicRMW,
}

func (g *guardsPass) callAccess(fn *ssa.Function, ci ssa.CallInstruction, once bool) {
	com := ci.Common()
	if c := g.calls.Lookup(ci); c != nil {
		for _, r := range c.Args {
			if !r.Valid() {
				continue
			}
			r = normalize(r)
			// a handle loaded from a field and passed to C
			if n := len(r.Ops); n > 0 && r.Ops[n-1].Kind == access.Load {
				if k, ok := keyOfAny(access.Ref{Root: r.Root, Ops: r.Ops[:n-1]}); ok {
					g.add(fn, ci, once, k, CUse, c.Name, r, c.Pos)
					// the handle was read where it was loaded when the
					// function claimed it there: one taken under a lock
					// and cleared under it (h := c.h; c.h = nil; unlock;
					// free(h)) is the function's own, and was read with
					// the lock held. One only copied out under the lock
					// (d := c.h; unlock; C.use(d)) is still the field's,
					// which another goroutine can release in between: its
					// use holds the locks held at the call.
					if load := loadOf(com.Args, k); load != nil {
						if h, ok := g.r.held[load]; ok && g.claimedUnder(fn, k, h) {
							g.r.Accesses[len(g.r.Accesses)-1].Locks = h
						}
					}
				}
			}
		}
		return
	}
	callee := com.StaticCallee()
	if callee == nil {
		return
	}
	if o := callee.Origin(); o != nil {
		callee = o // (*atomic.Pointer[T]).Load: the instance has no Pkg
	}
	if callee.Pkg == nil || callee.Pkg.Pkg.Path() != "sync/atomic" || len(com.Args) == 0 {
		return
	}
	// (*atomic.Int32).Add(&x.f, …) or atomic.AddInt32(&x.f, …): the address
	// is the first argument either way
	addr := com.Args[0]
	name := callee.Name()
	if callee.Signature.Recv() == nil {
		for _, p := range []string{"CompareAndSwap", "Load", "Store", "Add", "Swap", "And", "Or"} {
			if strings.HasPrefix(name, p) {
				name = p
				break
			}
		}
	}
	kind, ok := atomicFuncs[name]
	if !ok || addr == nil {
		return
	}
	if k, ok := KeyOf(addr); ok {
		g.add(fn, ci, once, k, kind, name, lifetime.Expand(addr), ci.Pos())
	}
}

// loadOf returns the load of the field k among a call's arguments (seen
// through conversions and a variable assigned once), or nil.
// claimedUnder reports whether fn stores to k (clears or replaces the
// handle it holds) somewhere with every lock of locks held: the claim of
// a take-under-the-lock. With no lock held at the load, there is nothing
// to claim under, and the load's locks are the call's anyway.
func (g *guardsPass) claimedUnder(fn *ssa.Function, k Key, locks []Lock) bool {
	if len(locks) == 0 {
		return true
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			if kk, ok := KeyOf(st.Addr); !ok || kk != k {
				continue
			}
			held := g.r.held[st]
			all := true
			for _, l := range locks {
				if !slices.Contains(held, l) {
					all = false
					break
				}
			}
			if all {
				return true
			}
		}
	}
	return false
}

func loadOf(args []ssa.Value, k Key) *ssa.UnOp {
	for _, a := range args {
		for range 6 {
			switch x := a.(type) {
			case *ssa.Convert:
				a = x.X
				continue
			case *ssa.ChangeType:
				a = x.X
				continue
			case *ssa.UnOp:
				if x.Op == token.MUL {
					if al, ok := x.X.(*ssa.Alloc); ok {
						if v := lifetime.SingleStore(al); v != nil {
							a = v
							continue
						}
					}
				}
			}
			break
		}
		if u, ok := a.(*ssa.UnOp); ok && u.Op == token.MUL {
			if kk, ok := KeyOf(u.X); ok && kk == k {
				return u
			}
		}
	}
	return nil
}

// normalize expands the root of a call-into-C argument path in its frame
// and reads a variable assigned once as its value.
func normalize(r access.Ref) access.Ref {
	e := lifetime.Expand(r.Root).With(r.Ops...)
	if a, ok := e.Root.(*ssa.Alloc); ok && len(e.Ops) > 0 && e.Ops[0].Kind == access.Load {
		if v := lifetime.SingleStore(a); v != nil {
			return lifetime.Expand(v).With(e.Ops[1:]...)
		}
	}
	return e
}

// onceDo reports whether ci is (*sync.Once).Do(f) with f the value v: f
// runs during the call, with the locks held there.
func (g *guardsPass) onceDo(ci ssa.CallInstruction, v ssa.Value) bool {
	com := ci.Common()
	if len(com.Args) != 2 || com.Args[1] != v {
		return false
	}
	callee := com.StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "sync" || callee.Name() != "Do" || callee.Signature.Recv() == nil {
		return false
	}
	return true
}

// mayInvoke reports whether the dynamic call ci (a call of an interface
// method, or of a type parameter's) may call a method of recv: recv, or a
// pointer to it, implements the interface.
func mayInvoke(ci ssa.CallInstruction, recv types.Type) bool {
	com := ci.Common()
	var t types.Type
	if com.IsInvoke() {
		t = com.Value.Type()
	} else if fn, ok := com.Value.(*ssa.MakeClosure); ok && len(fn.Bindings) == 1 {
		t = fn.Bindings[0].Type()
	}
	if t == nil {
		return true
	}
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return true // a type parameter's method: any type may be its argument
	}
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return true
	}
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	return types.Implements(recv, iface) || types.Implements(types.NewPointer(recv), iface)
}
