package lifetime

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
)

// A Trace is what the state machine found along the paths of one function.
type Trace struct {
	Func   *ssa.Function
	Events []*Event
	// Incomplete is set when the analysis of the function gave up before a
	// fixpoint (a size or iteration bound); its events are still sound but
	// some may be missing.
	Incomplete bool
	work       int // the work spent on the function, in maxWork's units
}

// EventKind is the kind of an Event.
type EventKind uint8

const (
	// DoubleRelease: a handle released at First is released again at
	// Second on some path (Second may be First itself: a loop, or a defer
	// statement run more than once).
	DoubleRelease EventKind = iota + 1
	// CopyRelease: First released a handle through a copy, with a callee
	// that clears what it releases; on some path the function returns with
	// the handle still in the original location (StaleText), so a later
	// release of the original releases it again.
	CopyRelease
	// ClearOfCopy: Store clears a released handle in a local copy of a
	// parameter passed by value: the caller's copy keeps the handle.
	ClearOfCopy
	// UseAfterRelease: a handle released at First is used at Second (passed
	// to C or to a function that passes it to C, dereferenced, used as a
	// map key).
	UseAfterRelease
	// ReleaseOrder: a handle released at Second belongs to (or needs) a
	// handle already released at First.
	ReleaseOrder
	// Leak: a handle acquired at First reaches the return Return neither
	// released, returned, stored nor handed on.
	Leak
	// UncheckedUse: Second passes C a handle read from a parameter (Path)
	// with no test of the handle or of its owner on the path.
	UncheckedUse
	// Overwrite: a handle acquired at First, still held, is replaced at
	// Second by a call that acquires a new handle into the same location
	// without releasing what is there (an Init method called twice): the
	// first handle leaks. Handle is the location, as written.
	Overwrite
)

// An Event is one finding of the state machine.
type Event struct {
	Kind          EventKind
	First, Second *Site
	Store         *ssa.Store      // ClearOfCopy
	StaleText     string          // CopyRelease: the location that still holds the handle, as written ("pl.zoomed.p")
	Handle        string          // the handle as written at the site that reports it
	Return        ssa.Instruction // Leak: the return
	Path          access.Path     // UncheckedUse: the handle, from a parameter
	// Lent is set for events of a handle lent by another (model
	// borrowed-from=N): for a UseAfterRelease, First is the release of the
	// lender; for a DoubleRelease, First is the call that lent the handle
	// and Second its release by this function (the lender frees it).
	Lent bool
	// Armed is set for a DoubleRelease of a handle C lent to an //export
	// function (First.Class is CallbackClass) that Second, a call, wraps in
	// an object whose finalizer releases it.
	Armed *Arm
	// ArmedAtReturn is set for a DoubleRelease whose Second is the
	// registration of a finalizer (or, with Cleanup, a cleanup) that
	// releases the handle First released: the path returns at Return with
	// it still armed and the handle where it reads it, so the handle is
	// released again once the object is collected.
	ArmedAtReturn *Arm
	Cleanup       bool
}

// A Site is one release, acquisition or use of a handle.
type Site struct {
	// Instr is the instruction of the traced function that releases: the
	// call, or the defer statement of a deferred release.
	Instr ssa.Instruction
	// Pos is where the release is written: the call into C, or the call of
	// the function that releases.
	Pos   token.Pos
	CFunc string // the C function that releases (acquires, uses)
	Class string // what the release releases; see model.Compatible
	// Callee is the Go function through which the release (or acquisition,
	// or use) happens, and Release its summary entry for a release; both
	// nil for a call into C.
	Callee     *ssa.Function
	CalleeName string
	Release    *Release
	Deferred   bool   // runs when the function returns or panics
	Handle     string // the handle as written at this site ("p", "c.h")

	id int
}
