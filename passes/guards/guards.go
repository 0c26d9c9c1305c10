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
// returns. Across functions, an unexported function (or a function literal
// called where it is made) starts with the locks every one of its callers in
// the package holds at the call: go-nvml's dl.Close, safe only because its
// only caller holds the library's lock, is guarded. gVisor's checklocks
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
	"go/token"
	"go/types"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/cfg"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
)

// Analyzer is the guards pass. Its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "lifetimeguards",
	Doc:        "find the locks, sync.Once bodies and atomic operations that guard each access to shared state (a pass: reports nothing)",
	URL:        "https://github.com/lifetimevet/lifetimevet/tree/main/passes/guards",
	Run:        run,
	Requires:   []*analysis.Analyzer{cgocall.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
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

	held map[ssa.Instruction][]Lock
	once map[*ssa.Function]bool
}

// Held returns the locks held at instr (in a user function of the package).
func (r *Result) Held(instr ssa.Instruction) []Lock { return r.held[instr] }

// InOnce reports whether fn is the body of a sync.Once (Do, OnceFunc,
// OnceValue, OnceValues).
func (r *Result) InOnce(fn *ssa.Function) bool { return r.once[fn] }

func run(pass *analysis.Pass) (any, error) {
	calls := pass.ResultOf[cgocall.Analyzer].(*cgocall.Result)
	r := &Result{held: map[ssa.Instruction][]Lock{}, once: map[*ssa.Function]bool{}, GuardedBy: map[Key]Key{}}
	g := &guardsPass{pass: pass, calls: calls, r: r, entry: map[*ssa.Function]*lockSet{}}
	g.checklocks()
	g.findOnce()
	g.locks()
	g.accesses()
	return r, nil
}

type guardsPass struct {
	pass  *analysis.Pass
	calls *cgocall.Result
	r     *Result
	entry map[*ssa.Function]*lockSet // locks held on entry; nil: not computed yet
	// declared entry locks from checklocks annotations on functions
	declared map[*ssa.Function][]Lock
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
			v := lifetime.SingleStore(mc.Bindings[i])
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
		tn := pointee(r.Root.Type())
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
	tn := named(t)
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

func pointee(t types.Type) *types.TypeName {
	p, ok := types.Unalias(t).Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	return named(p.Elem())
}

func named(t types.Type) *types.TypeName {
	if t == nil {
		return nil
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}

// lockOp classifies a call: Lock, RLock, Unlock, RUnlock, TryLock,
// TryRLock on a sync.Mutex or sync.RWMutex, and the key of the mutex.
func lockOp(com *ssa.CallCommon) (string, Key, bool) {
	callee := com.StaticCallee()
	if callee == nil || callee.Signature.Recv() == nil || len(com.Args) == 0 {
		return "", Key{}, false
	}
	recv := callee.Signature.Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	n, ok := types.Unalias(recv).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync" || (n.Obj().Name() != "Mutex" && n.Obj().Name() != "RWMutex") {
		return "", Key{}, false
	}
	k, ok := LockKeyOf(com.Args[0])
	if !ok {
		return "", Key{}, false
	}
	return callee.Name(), k, true
}

// LockKeyOf names the mutex at address v. A lock's identity is the mutex
// object, however it is reached: a mutex held by value (mu, s.mu) is named
// by its location, as KeyOf names any state; a mutex reached through a
// pointer (a package-level *sync.Mutex, a *sync.RWMutex field, an embedded
// *sync.Mutex, through any chain of such loads) is named by the location
// the pointer is loaded from, which names the same mutex wherever it is
// loaded, as a field names the same state in every method. A pointer with
// no such location (a parameter, a call's result) names no lock.
func LockKeyOf(v ssa.Value) (Key, bool) {
	if k, ok := KeyOf(v); ok {
		return k, true
	}
	r := lifetime.Expand(v)
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
	tn := pointee(access.TypeAfter(r.Root.Type(), r.Ops[:last+1]))
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

// heldDoc matches a doc comment that says callers hold a lock: "c.mu must
// be held", "called with mu held", "the caller must hold t.mu", "requires
// p.mu", "while holding l.lk".
var heldDoc = regexp.MustCompile(`(?i)\b(must be held|must hold|must already hold|caller holds|callers hold|called with [\w.]+ (held|locked)|with [\w.]+ (held|locked)|while holding|requires [\w.]+ (to be )?(held|locked)|assumes [\w.]+ is (held|locked)|[\w.]+ is held)\b`)

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
		if first == nil && pointee(p.Type()) != nil {
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
			tn := pointee(p.Type())
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
	if len(out) > 0 || first == nil {
		return out
	}
	name := fd.Name.Name
	switch {
	case strings.HasSuffix(name, "Locked") || strings.HasSuffix(name, "locked") && name != "locked":
		if tn := pointee(first.Type()); tn != nil {
			out = append(out, Lock{Key: Key{Type: tn, Fields: Some}})
		}
	case fd.Doc != nil && heldDoc.MatchString(fd.Doc.Text()):
		// "c.mu must be held": the lock of parameter c's type; a lock
		// named through something else (a variable of the caller) says
		// nothing about this function's parameters; "mu must be held"
		// names the receiver's field.
		refs := lockRef.FindAllStringSubmatch(fd.Doc.Text(), -1)
		if len(refs) == 0 {
			if r := fn.Signature.Recv(); r != nil {
				if tn := pointee(r.Type()); tn != nil {
					out = append(out, Lock{Key: Key{Type: tn, Fields: Some}})
				}
			}
		}
		for _, ref := range refs {
			if p, ok := params[ref[1]]; ok {
				if tn := pointee(p.Type()); tn != nil {
					out = append(out, Lock{Key: Key{Type: tn, Fields: Some}})
					break
				}
			}
		}
	}
	return out
}

// lockRef matches a lock named through a variable in a doc comment: c.mu,
// s.lock, db.closeMu.
var lockRef = regexp.MustCompile(`\b([A-Za-z_]\w*)\.\w*(?i:mu|lock|mutex)\w*\b`)

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
// with entry locks flowing from callers to unexported callees until
// nothing changes.
func (g *guardsPass) locks() {
	funcs := g.calls.Funcs
	callers := map[*ssa.Function][]ssa.CallInstruction{}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				ci, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if _, isGo := ci.(*ssa.Go); isGo {
					continue
				}
				if d, isDefer := ci.(*ssa.Defer); isDefer {
					// a deferred function literal runs at the return,
					// with the locks it inherits (deferredHeld)
					if f := funcOf(d.Call.Value); f != nil && f.Parent() == fn {
						callers[f] = append(callers[f], ci)
					}
					continue
				}
				if c := ci.Common().StaticCallee(); c != nil {
					callers[c] = append(callers[c], ci)
				}
				// once.Do(f): f runs with the locks held at the call
				for _, a := range ci.Common().Args {
					if f := funcOf(a); f != nil && g.r.once[f] {
						callers[f] = append(callers[f], ci)
					}
				}
			}
		}
	}
	// Entry sets: nothing known about exported functions' callers, nor
	// about functions whose address escapes (used other than as a callee).
	for _, fn := range funcs {
		if len(callers[fn]) == 0 || exported(fn) || escapes(fn, callers[fn]) {
			g.entry[fn] = &lockSet{locks: slices.Clone(g.declared[fn])}
		} else {
			g.entry[fn] = &lockSet{top: true}
		}
	}
	for iter := 0; iter < 20; iter++ {
		changed := false
		for _, fn := range funcs {
			g.flow(fn)
		}
		for _, fn := range funcs {
			if g.entry[fn].top || len(callers[fn]) > 0 && !exported(fn) && !escapes(fn, callers[fn]) {
				var in *lockSet
				for _, site := range callers[fn] {
					h, ok := g.r.held[site]
					if !ok {
						continue // caller not a user function, or unreachable
					}
					if d, isDefer := site.(*ssa.Defer); isDefer {
						h = g.deferredHeld(d, h)
					}
					s := &lockSet{locks: h}
					if in == nil {
						in = s
					} else {
						in = meet(in, s)
					}
				}
				if in == nil {
					in = &lockSet{}
				}
				for _, l := range g.declared[fn] {
					in.add(l)
				}
				if !in.equal(g.entry[fn]) {
					g.entry[fn] = in
					changed = true
				}
			}
		}
		if !changed {
			break
		}
	}
	for _, fn := range funcs {
		g.flow(fn)
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
		if entry != nil && !entry.top && entry.has(l) || unlockDeferredBefore(fn, l.Key, d) {
			out = append(out, l)
		}
	}
	return out
}

// unlockDeferredBefore reports whether fn defers the unlock of k before d
// on every path to d (so that the unlock runs after d's call).
func unlockDeferredBefore(fn *ssa.Function, k Key, d *ssa.Defer) bool {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			u, ok := in.(*ssa.Defer)
			if !ok || u == d {
				continue
			}
			op, uk, ok := lockOp(&u.Call)
			if !ok || op != "Unlock" && op != "RUnlock" || !uk.matches(k) {
				continue
			}
			if u.Block() == d.Block() && slices.Index(b.Instrs, in) < slices.Index(b.Instrs, ssa.Instruction(d)) || u.Block() != d.Block() && u.Block().Dominates(d.Block()) {
				return true
			}
		}
	}
	return false
}

func exported(fn *ssa.Function) bool {
	return fn.Parent() == nil && fn.Object() != nil && fn.Object().Exported()
}

// escapes reports whether fn is used other than by the calls listed.
func escapes(fn *ssa.Function, sites []ssa.CallInstruction) bool {
	refs := fn.Referrers()
	if refs == nil {
		// package-level functions have no referrers list: conservatively
		// escaping unless every use is a call
		return fn.Parent() == nil && fn.Object() == nil
	}
	for _, r := range *refs {
		if ci, ok := r.(ssa.CallInstruction); ok && slices.Contains(sites, ci) {
			continue
		}
		if mc, ok := r.(*ssa.MakeClosure); ok {
			// a closure called where it is made
			called := false
			if mc.Referrers() != nil {
				for _, u := range *mc.Referrers() {
					if ci, ok := u.(ssa.CallInstruction); ok && slices.Contains(sites, ci) {
						called = true
					}
				}
			}
			if called {
				continue
			}
		}
		return true
	}
	return false
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
			var tryKey *Key
			var tryVal ssa.Value
			for _, instr := range b.Instrs {
				g.r.held[instr] = slices.Clone(s.locks)
				if s.top {
					g.r.held[instr] = nil
				}
				call, ok := instr.(*ssa.Call)
				if !ok {
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
					kk := k
					tryKey, tryVal = &kk, call
				}
			}
			for i, succ := range b.Succs {
				out := s
				if tryKey != nil && i == 0 {
					if iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok && iff.Cond == tryVal {
						out = s.clone()
						out.add(Lock{Key: *tryKey})
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
	if callee == nil || callee.Pkg == nil {
		return
	}
	if o := callee.Origin(); o != nil {
		callee = o
	}
	if callee.Pkg.Pkg.Path() != "sync/atomic" || len(com.Args) == 0 {
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
