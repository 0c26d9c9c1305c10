package lifetime

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
)

// A Summary is what a function does to the handles and locations reachable
// from its parameters (and, for a function literal, its free variables), as
// its callers see it. Paths are relative to parameters in go/ssa's numbering
// (the receiver first); free variable i of a literal is root -1-i.
//
// Summaries come from the function's body (the lifetime state machine run on
// it), from //lifetime:release on the function, and, for functions of other
// packages, from facts.
type Summary struct {
	Releases []*Release
	// Drops are the counted references (clRelease*, g_object_unref) the
	// function drops without knowing the count: a release for whoever
	// holds the last reference, as a finalizer does. Not in Releases: a
	// second drop is no double release.
	Drops []*Release
	// Retains are the handles, reached from parameters, to which the
	// function adds a counted reference it still holds when it returns (a
	// Retain method calling obj_ref or g_object_ref): the caller's handle
	// holds one more, so its releases are counted from then on.
	Retains []access.Path
	// Stores are the locations the function assigns on every path, with
	// Zero set when it always assigns nil or zero (a clear).
	Stores []Store
	// Clobbers are locations the function may change in ways unknown here.
	Clobbers []access.Path
	// Disarms are objects whose finalizer or cleanup the function disarms:
	// runtime.SetFinalizer(x, nil), or Stop on a runtime.Cleanup field of x.
	Disarms []access.Path
	// Globals is set when the function may write package-level variables
	// (directly or through code unknown here).
	Globals bool
	// Uses are the handles, reached from parameters, that the function
	// passes to C (directly or through callees): a function that uses a
	// handle without keeping its owner alive is a borrowing wrapper.
	Uses []access.Path
	// Returns says, for results that are always a parameter path (an
	// accessor such as func (i *Image) ptr() *C.img { return i.p }), which.
	Returns []Returned
	// Wraps lists the fields of results that are new objects holding a
	// parameter path on every return: func (w *Obj) Ref() *Obj {
	// C.g_object_ref(w.o); return &Obj{w.o} }. The caller's handle is
	// then also reached through the result.
	Wraps []Wrap
	// Acquires lists the results that are fresh handles the caller must
	// release (from //lifetime:acquire, or acquired in the function and
	// returned on every path that returns normally).
	Acquires []int
	// Counted lists the results of Acquires that are new counted objects
	// holding one reference on every return (a constructor returning
	// g_bytes_new or g_object_new): the caller counts their references,
	// and its unref is their release.
	Counted []int
	// Escapes lists the parameters the function stores in memory or hands
	// to code that may keep them: the caller's handle is no longer only
	// the caller's to release.
	Escapes []int
	// Status lists the results that map a status argument the way a
	// status check does (nil exactly when the status is success): a branch
	// on such a result tests the acquisition whose status was passed.
	Status []StatusMap
	// AcquiresInto lists the locations, from parameters, into which the
	// function acquires a new handle without testing or releasing the one
	// they hold (an Init method): calling it again on a location that
	// holds a live handle leaks that handle.
	AcquiresInto []access.Path
	// Lends lists the results that are handles lent by a parameter path
	// (a model's borrowed-from=N, through the wrappers that return them:
	// func (m Module) Function(name) Function): nothing for the caller to
	// release, and the lender must stay alive while the result is used.
	Lends []Lend
	// Arms lists the parameter paths whose handle the function stores into
	// an object on which it arms a finalizer that releases the handle (a
	// wrapper's constructor): from then on the finalizer owns it.
	Arms []Arm
}

// A Lend is a result of a function that a parameter path lends.
type Lend struct {
	Result int
	From   access.Path
}

// A Wrap is a field of a result, a new object, that holds a path from a
// parameter.
type Wrap struct {
	Result int
	Field  int
	Path   access.Path
}

// Returned is a result of a function that is a path from a parameter.
type Returned struct {
	Result int
	Path   access.Path
	// Entry is set when the result is what the path held when the
	// function was called, and the function writes the path after it
	// read it: a take-out (p := b.h; b.h = nil; return p, or return
	// b.h.Swap(nil)). Its Stores and Clobbers say what the path holds
	// afterwards. When it is not set, nothing writes the path after the
	// read, and the result is what the path holds when the function
	// returns.
	Entry bool
	// Clears is set, with Entry, when every return that gives the handle
	// (not a nil constant) leaves the path holding nil or zero: the
	// handle has been taken out of it (if b.h == nil { return nil }; p
	// := b.h; b.h = nil; return p).
	Clears bool
}

// A Release is one handle a function releases.
type Release struct {
	Path  access.Path // the released handle
	Text  string      // the handle as the function writes it: "c.h"
	CFunc string      // the C function that releases it, possibly in a callee ("cuMemFree")
	Class string      // what is released (model.Entry.Class, or "declared"); see model.Compatible
	Posn  string      // file:line of that C call
	Func  string      // the function the release belongs to, for messages ("(*Ctx).Close")
	// Guarded is set when the release happens only after a test of the
	// handle or of its owner's state (a nil check, a closed flag, a
	// reference count, a compare-and-swap): a second call may find nothing
	// to release.
	Guarded bool
	// Repeats is set, with Guarded, when the function changes nothing its
	// test reads: it writes no memory its caller sees (it neither clears
	// the handle nor sets a flag, a count or a claim) and tests no call's
	// result that could read state the release changes (a C call's). A
	// second call makes the same test with the same outcome, and releases
	// the handle again if the first call did.
	Repeats bool
	// Once is set when the release happens inside (*sync.Once).Do (the
	// function's own, or a callee's): at most once per Once, which keeps
	// a second call out but not a finalizer that releases it too.
	Once bool
	// OnceOf is, with Once, the sync.Once the release happens under, in
	// this function's frame (see OnceRef)
	OnceOf OnceRef
	// Clears is set when no path leaves the released handle in the location
	// it was read from: the function clears or replaces it.
	Clears bool
	// Declared is set for releases stated by //lifetime:release.
	Declared bool

	pos   token.Pos     // position of the release in this package; invalid for facts
	via   *Release      // the callee's release this one happens through, if any
	viaFn *ssa.Function // that callee
	sites bool          // the function releases the handle at more than one place: via is one of them
}

// A OnceRef names the sync.Once a release happens under (Release.Once), in
// the frame of the function whose summary holds the release, as a
// release's Path does: two releases share a Once, and so happen at most
// once between them, when their OnceRefs have one non-empty Key. A caller
// translates a callee's OnceRef through the call's arguments, as it does
// the callee's release paths: closeWith(tag, d) running d.once.Do names,
// in the caller, the once field of the caller's d, whichever parameter
// closeWith has it as.
type OnceRef struct {
	// Path is, with Param, the Once as a location reached from a
	// parameter or closure binding of the function: [FieldAddr once]
	// from parameter 0 is a method's d.once
	Param bool
	Path  access.Path
	// Global is the package-level variable the Once is or lies in, with
	// the ops from it ("example.com/p.state.once"): the same Once in
	// every frame
	Global string
	// At is the file:line of the (*sync.Once).Do call. For a Once
	// neither a parameter nor a global reaches (a local variable's, an
	// element's), it is the Once's name: only releases at that Do call
	// share it
	At string
}

// Key returns a string that identifies the Once o names; "" for none.
func (o OnceRef) Key() string {
	switch {
	case o.Param:
		return "param" + o.Path.Key()
	case o.Global != "":
		return "global " + o.Global
	case o.At != "":
		return "at " + o.At
	}
	return ""
}

// Rebase returns, for o in the frame of a function whose parameter 0 is an
// object (a finalizer, a method), o in a frame where that object is at
// obj: d.once of the finalizer's d is x.inner.once where obj is x.inner.
func (o OnceRef) Rebase(obj access.Path) OnceRef {
	if !o.Param {
		return o
	}
	if o.Path.Root != 0 {
		return OnceRef{At: o.At}
	}
	return OnceRef{Param: true, Path: access.Path{Root: obj.Root, Ops: slices.Concat(obj.Ops, o.Path.Ops)}, At: o.At}
}

// Via returns the release of a callee through which this release happens,
// and the callee; nil when the function releases the handle itself.
func (r *Release) Via() (*Release, *ssa.Function) { return r.via, r.viaFn }

// Pos returns the position of the release (the C call, or the call of the
// releasing function) in the package that computed the summary; NoPos for a
// summary read from a fact.
func (r *Release) Pos() token.Pos { return r.pos }

// A Store is a location a function assigns.
type Store struct {
	Path access.Path // the location (an address path)
	Zero bool        // the value assigned is always nil or zero
}

// SummaryFact carries a function's summary to importing packages.
type SummaryFact struct{ Summary }

func (*SummaryFact) AFact() {}

func (f *SummaryFact) String() string { return "lifetime summary" }

func (s *Summary) empty() bool {
	return s == nil || len(s.Releases) == 0 && len(s.Drops) == 0 && len(s.Retains) == 0 && len(s.Stores) == 0 && len(s.Clobbers) == 0 && len(s.Disarms) == 0 && !s.Globals &&
		len(s.Uses) == 0 && len(s.Returns) == 0 && len(s.Wraps) == 0 && len(s.Acquires) == 0 && len(s.Escapes) == 0 && len(s.Status) == 0 && len(s.AcquiresInto) == 0 && len(s.Lends) == 0 && len(s.Arms) == 0
}

// ReleaseOf returns the release of path p, or nil.
func (s *Summary) ReleaseOf(p access.Path) *Release {
	for _, r := range s.Releases {
		if r.Path.Key() == p.Key() {
			return r
		}
	}
	return nil
}

// DropOf returns the counted-reference drop of path p the summary
// records, or nil.
func (s *Summary) DropOf(p access.Path) *Release {
	for _, r := range s.Drops {
		if r.Path.Key() == p.Key() {
			return r
		}
	}
	return nil
}

// StoresTo reports whether the summary stores to p or to a location that
// contains it (a field of p), or clobbers it.
func (s *Summary) StoresTo(p access.Path) bool {
	for _, st := range s.Stores {
		if p.HasPrefix(st.Path) || st.Path.HasPrefix(p) {
			return true
		}
	}
	for _, c := range s.Clobbers {
		if p.HasPrefix(c) {
			return true
		}
	}
	return false
}

// DisarmsPath reports whether the summary disarms the finalizer of the
// object at p.
func (s *Summary) DisarmsPath(p access.Path) bool {
	for _, d := range s.Disarms {
		if d.Key() == p.Key() {
			return true
		}
	}
	return false
}

// UsesPath reports whether the function passes the handle at p, or a value
// derived from it, to C.
func (s *Summary) UsesPath(p access.Path) bool {
	for _, u := range s.Uses {
		if u.HasPrefix(p) {
			return true
		}
	}
	return false
}

// ReturnOf returns the parameter path result i always is.
func (s *Summary) ReturnOf(i int) (access.Path, bool) {
	if r := s.returned(i); r != nil {
		return r.Path, true
	}
	return access.Path{}, false
}

// TakesOut reports whether result i is what a parameter path held when the
// function was called, and the function clears that path, after reading
// it, on every return that gives the handle (p := b.h; b.h = nil; return
// p): its caller's handle has been taken out of the path.
func (s *Summary) TakesOut(i int) (access.Path, bool) {
	r := s.returned(i)
	if r == nil || !r.Entry || !r.Clears {
		return access.Path{}, false
	}
	return r.Path, true
}

func (s *Summary) returned(i int) *Returned {
	for k := range s.Returns {
		if s.Returns[k].Result == i {
			return &s.Returns[k]
		}
	}
	return nil
}
