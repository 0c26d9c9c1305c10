package lifetime

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// processLifetime reports whether what fn acquires lives for the process:
// fn is a package initializer (an init function, the initializer of
// package-level variables), main.main, or a test binary's TestMain. Such a
// function runs once, and the process's exit, not a release, ends what it
// holds: a handle it keeps on some path is not a leak.
func processLifetime(fn *ssa.Function) bool {
	if fn.Parent() != nil || fn.Signature.Recv() != nil || fn.Pkg == nil {
		return false
	}
	name := fn.Name()
	switch {
	case name == "init" || strings.HasPrefix(name, "init#"):
		return true
	case name == "main":
		return fn.Pkg.Pkg.Name() == "main" && fn.Signature.Params().Len() == 0
	case name == "TestMain":
		ps := fn.Signature.Params()
		if ps.Len() != 1 {
			return false
		}
		ptr, ok := ps.At(0).Type().(*types.Pointer)
		if !ok {
			return false
		}
		n, ok := types.Unalias(ptr.Elem()).(*types.Named)
		return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing" && n.Obj().Name() == "M"
	}
	return false
}

// keyedLeak is a leak of a reference keyed by a value of the caller's.
type keyedLeak struct {
	ev  *Event
	key string
	tok *tok
}

// flushKeyedLeaks reports the leaks of references keyed by a value the
// caller holds (cuDevicePrimaryCtxRetain(&c, dev) with dev a parameter)
// only when the function also releases that key, or hands the reference
// on (stores or returns it), on some path: then it manages the reference
// itself and the paths that keep it leak. A
// function that only takes the reference leaves it to whoever holds the
// key (a Retain method whose Release is another method).
func (a *fnAnalysis) flushKeyedLeaks() {
	for _, k := range a.keyedLeaks {
		if a.keyedMoved[k.ev.First] {
			a.event(k.ev, k.key) // stored or returned on another path
			continue
		}
		for _, r := range a.rels {
			if r.tok == k.tok {
				a.event(k.ev, k.key)
				break
			}
		}
	}
}
