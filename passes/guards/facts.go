package guards

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// LockHelperFact is what a function does to the locks its caller holds,
// for the packages that import it: util.Lock(&s.mu) takes s.mu for its
// caller, util.Unlock drops it, util.TryLock(&s.mu) takes it when it
// returns true, and util.With(&s.mu, f) calls f with s.mu held. The
// knowledge comes from the function's body, as lockHelpers and
// lockedCallbacks find it in its own package; locks are named as there:
// the lock a parameter points to, or a type's field or a package-level
// variable of the function's own package.
type LockHelperFact struct {
	Takes     []FactLock
	Drops     []FactLock
	Tries     []FactLock
	Callbacks []FactCallback
}

// A FactLock names a lock in a LockHelperFact: Type or Var, a type or
// package-level variable of the function's package, with the path of
// field indices Fields (as a Key's); or, with neither, the lock the
// function's parameter names (Fields "@paramN", parameters counted from
// the receiver).
type FactLock struct {
	Type, Var string
	Fields    string
	Read      bool
}

// A FactCallback says that the function calls its parameter Param (counted
// from the receiver) only with Locks held.
type FactCallback struct {
	Param int
	Locks []FactLock
}

func (*LockHelperFact) AFact() {}

func (f *LockHelperFact) String() string {
	var b strings.Builder
	b.WriteString("lock helper")
	for _, part := range []struct {
		name  string
		locks []FactLock
	}{{"takes", f.Takes}, {"drops", f.Drops}, {"tries", f.Tries}} {
		for _, l := range part.locks {
			b.WriteString(" " + part.name + " " + l.String())
		}
	}
	for _, c := range f.Callbacks {
		b.WriteString(" calls @param" + itoa(c.Param) + " holding")
		for _, l := range c.Locks {
			b.WriteString(" " + l.String())
		}
	}
	return b.String()
}

func (l FactLock) String() string {
	s := l.Type + l.Var
	if l.Fields != "" {
		if s != "" {
			s += "."
		}
		s += l.Fields
	}
	if l.Read {
		s += "(read)"
	}
	return s
}

// exportFacts gives the package's functions that take, drop or try a lock
// for their caller, or call a parameter with a lock held, a
// LockHelperFact. A lock of another package (a field of a type it
// declares) is left out: it has no name here.
func (g *guardsPass) exportFacts() {
	for _, fn := range g.calls.Funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil || fn.Origin() != nil || obj.Pkg() != g.pass.Pkg {
			continue
		}
		var f LockHelperFact
		if e := g.helpers[fn]; e != nil {
			f.Takes = factLocks(g.pass.Pkg, e.takes)
			f.Drops = factLocks(g.pass.Pkg, keyLocks(e.drops))
			f.Tries = factLocks(g.pass.Pkg, e.tries)
		}
		cb := g.callbacks[fn]
		for _, i := range sortedKeys(cb) {
			if ls := factLocks(g.pass.Pkg, cb[i].locks); len(ls) > 0 {
				f.Callbacks = append(f.Callbacks, FactCallback{Param: i, Locks: ls})
			}
		}
		if len(f.Takes)+len(f.Drops)+len(f.Tries)+len(f.Callbacks) > 0 {
			g.pass.ExportObjectFact(obj, &f)
		}
	}
}

// importFact reads the LockHelperFact of fn, a function of another
// package, into g.imported and g.callbacks.
func (g *guardsPass) importFact(fn *ssa.Function) {
	if _, ok := g.imported[fn]; ok {
		return
	}
	if g.imported == nil {
		g.imported = map[*ssa.Function]*lockEffect{}
	}
	g.imported[fn] = nil
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil {
		return
	}
	var f LockHelperFact
	if !g.pass.ImportObjectFact(obj, &f) {
		return
	}
	pkg := obj.Pkg()
	e := &lockEffect{takes: locksOf(pkg, f.Takes), tries: locksOf(pkg, f.Tries)}
	for _, l := range locksOf(pkg, f.Drops) {
		e.drops = append(e.drops, l.Key)
	}
	if len(e.takes)+len(e.drops)+len(e.tries) > 0 {
		g.imported[fn] = e
	}
	for _, c := range f.Callbacks {
		if ls := locksOf(pkg, c.Locks); len(ls) > 0 {
			if g.callbacks == nil {
				g.callbacks = map[*ssa.Function]map[int]*lockSet{}
			}
			if g.callbacks[fn] == nil {
				g.callbacks[fn] = map[int]*lockSet{}
			}
			g.callbacks[fn][c.Param] = &lockSet{locks: ls}
		}
	}
}

func keyLocks(ks []Key) []Lock {
	var ls []Lock
	for _, k := range ks {
		ls = append(ls, Lock{Key: k})
	}
	return ls
}

// factLocks names locks for a fact of package pkg; those of other
// packages are left out.
func factLocks(pkg *types.Package, ls []Lock) []FactLock {
	var out []FactLock
	for _, l := range ls {
		f := FactLock{Fields: l.Key.Fields, Read: l.Read}
		switch {
		case l.Key.Type != nil:
			if l.Key.Type.Pkg() != pkg || l.Key.Type.Parent() != pkg.Scope() {
				continue
			}
			f.Type = l.Key.Type.Name()
		case l.Key.Global != nil:
			if l.Key.Global.Pkg() != pkg {
				continue
			}
			f.Var = l.Key.Global.Name()
		case !isParamKey(l.Key):
			continue
		}
		out = append(out, f)
	}
	return out
}

// locksOf resolves the locks of a fact of package pkg; a name pkg's
// export data does not hold is left out.
func locksOf(pkg *types.Package, fs []FactLock) []Lock {
	var out []Lock
	for _, f := range fs {
		k := Key{Fields: f.Fields}
		switch {
		case f.Type != "":
			tn, ok := pkg.Scope().Lookup(f.Type).(*types.TypeName)
			if !ok {
				continue
			}
			k.Type = tn
		case f.Var != "":
			v, ok := pkg.Scope().Lookup(f.Var).(*types.Var)
			if !ok {
				continue
			}
			k.Global = v
		case !strings.HasPrefix(f.Fields, paramPrefix):
			continue
		}
		if !slices.Contains(out, Lock{Key: k, Read: f.Read}) {
			out = append(out, Lock{Key: k, Read: f.Read})
		}
	}
	return out
}

func sortedKeys(m map[int]*lockSet) []int {
	var ks []int
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
