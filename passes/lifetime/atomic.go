package lifetime

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// CellKind is what an operation on an atomic cell does.
type CellKind uint8

const (
	CellLoad  CellKind = iota + 1 // reads the cell: x.Load(), atomic.LoadPointer(&x)
	CellStore                     // writes Val: x.Store(v)
	CellSwap                      // reads the cell and writes Val in one step: x.Swap(v)
	CellCAS                       // writes Val if the cell holds the old value: x.CompareAndSwap(old, v)
)

// A CellOp is a call that reads or writes a pointer-sized atomic cell: a
// sync/atomic.Pointer[T] or atomic.Uintptr, or the unsafe.Pointer or
// uintptr whose address atomic.LoadPointer and its kin take. The cell is
// one location and the handle it holds is its content, as for a pointer
// field: s.h.Load() reads s.h, s.h.Store(p) writes it, s.h.Swap(nil)
// reads it and writes nil in one step (sync/atomic's documentation: each
// operation is one atomic access of the cell).
type CellOp struct {
	Kind CellKind
	Addr ssa.Value // the cell's address (&s.h)
	Val  ssa.Value // the value written: Store's and Swap's argument, CompareAndSwap's new value
}

// Reads reports whether the operation reads the cell's content and gives
// it as its result (Load, Swap).
func (op CellOp) Reads() bool { return op.Kind == CellLoad || op.Kind == CellSwap }

// AtomicCellOp returns the cell operation com makes, if it is one.
func AtomicCellOp(com *ssa.CallCommon) (CellOp, bool) {
	if com == nil || com.IsInvoke() {
		return CellOp{}, false
	}
	callee := com.StaticCallee()
	if callee == nil {
		return CellOp{}, false
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != "sync/atomic" {
		return CellOp{}, false
	}
	name := obj.Name()
	if recv := obj.Signature().Recv(); recv != nil {
		// methods of atomic.Pointer[T] and atomic.Uintptr: the receiver
		// is the cell's address
		ptr, ok := types.Unalias(recv.Type()).(*types.Pointer)
		if !ok {
			return CellOp{}, false
		}
		named, ok := types.Unalias(ptr.Elem()).(*types.Named)
		if !ok || named.Obj().Name() != "Pointer" && named.Obj().Name() != "Uintptr" {
			return CellOp{}, false
		}
	} else {
		// atomic.LoadPointer(&p), atomic.SwapUintptr(&u, 0)...
		base, found := strings.CutSuffix(name, "Pointer")
		if !found {
			base, found = strings.CutSuffix(name, "Uintptr")
		}
		if !found {
			return CellOp{}, false
		}
		name = base
	}
	args := com.Args
	switch {
	case name == "Load" && len(args) == 1:
		return CellOp{Kind: CellLoad, Addr: args[0]}, true
	case name == "Store" && len(args) == 2:
		return CellOp{Kind: CellStore, Addr: args[0], Val: args[1]}, true
	case name == "Swap" && len(args) == 2:
		return CellOp{Kind: CellSwap, Addr: args[0], Val: args[1]}, true
	case name == "CompareAndSwap" && len(args) == 3:
		return CellOp{Kind: CellCAS, Addr: args[0], Val: args[2]}, true
	}
	return CellOp{}, false
}

// cellOp applies the cell operation op, made by call, to s: what a load or
// a store of the cell's location would do, without the escape of the
// cell's address that an unknown call of sync/atomic implies.
func (a *fnAnalysis) cellOp(s *state, call *ssa.Call, op CellOp) {
	l := a.tokOf(s, op.Addr)
	switch op.Kind {
	case CellLoad:
		s.vals[a.vnum[call]] = a.content(s, l)
	case CellStore:
		a.assign(s, l, a.tokOf(s, op.Val), call)
	case CellSwap:
		s.vals[a.vnum[call]] = a.content(s, l)
		a.assign(s, l, a.tokOf(s, op.Val), call)
	case CellCAS:
		// written or not: what the cell holds after is unknown
		if !localVar(l) {
			a.escape(s, a.tokOf(s, op.Val))
		}
		a.clobber(s, l, call)
	}
}
