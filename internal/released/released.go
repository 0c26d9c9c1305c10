// Package released says which values an instruction releases, for the
// analyzers that follow shared state to its release (checkthendestroy,
// unguardedcounter): the one reading of a release they share.
package released

import (
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// Refs returns the values instr releases, as paths in its function's frame
// (read through a variable assigned once): the arguments a call into C
// releases by the model (the location an indirect release frees, loaded),
// and the paths of its arguments a Go function's summary releases. Nil for
// any other instruction.
func Refs(calls *cgocall.Result, m *model.Model, lt *lifetime.Result, instr ssa.Instruction) []access.Ref {
	ci, ok := instr.(ssa.CallInstruction)
	if !ok {
		return nil
	}
	var out []access.Ref
	if cc := calls.Lookup(instr); cc != nil {
		for _, e := range m.Releases(cc.Name, cc.Sig) {
			if e.Global || e.Arg < 0 || e.Arg >= len(cc.Args) || !cc.Args[e.Arg].Valid() {
				continue
			}
			r := Normalize(cc.Args[e.Arg])
			if e.Indirect {
				r = r.With(access.Op{Kind: access.Load})
			}
			out = append(out, r)
		}
		return out
	}
	com := ci.Common()
	callee := com.StaticCallee()
	if callee == nil || com.IsInvoke() {
		return nil
	}
	sum := lt.SummaryOf(callee)
	if sum == nil {
		return nil
	}
	for _, rel := range sum.Releases {
		if rel.Path.Root < 0 || rel.Path.Root >= len(com.Args) {
			continue
		}
		out = append(out, Normalize(lifetime.Expand(com.Args[rel.Path.Root]).With(rel.Path.Ops...)))
	}
	return out
}

// Normalize reads a variable assigned once (a spilled parameter) as its
// value.
func Normalize(r access.Ref) access.Ref {
	e := lifetime.Expand(r.Root).With(r.Ops...)
	if a, ok := e.Root.(*ssa.Alloc); ok && len(e.Ops) > 0 && e.Ops[0].Kind == access.Load {
		if v := lifetime.SingleStore(a); v != nil {
			return lifetime.Expand(v).With(e.Ops[1:]...)
		}
	}
	return e
}
