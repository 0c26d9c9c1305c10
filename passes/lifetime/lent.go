package lifetime

import (
	"fmt"

	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// This file follows handles a library lends (model borrowed-from=N): the
// function of a module (cuModuleGetFunction), a queue of a device
// (vkGetDeviceQueue), the text of a statement's column. They are not the
// caller's to release, and they live as long as the argument that lends
// them: passing one to C after the lender's release is a use after release.

// lend records the handle a borrow entry e yields at the C call instr as
// lent by argument e.From (released notes the out-parameter it writes, so
// that the call's other effects leave it alone).
func (a *fnAnalysis) lend(s *state, instr ssa.CallInstruction, c *cgocall.Call, e *model.Entry, args []*tok, released map[int]bool, deferred bool) {
	if deferred || e.From < 0 || e.From >= len(args) || args[e.From] == nil || args[e.From].location() {
		return
	}
	var h *tok
	switch {
	case e.Out >= 0 && e.Out < len(args) && args[e.Out] != nil && args[e.Out].location():
		released[e.Out] = true
		h = a.ts.fresh(args[e.Out], a.inum[instr])
		a.write(s, args[e.Out], h)
	case e.Out == model.Returned && c.Value != nil:
		h = a.ts.rootOf(c.Value)
	}
	if h == nil {
		return
	}
	a.lent[h] = a.site(instr, nil, c.Name, "lend", e.Out, false, nil)
	s.parents[h] = args[e.From]
}

// lentUse checks a lent handle t passed to C: its lender released on the
// path (the module unloaded before the launch of its function).
func (a *fnAnalysis) lentUse(s *state, t *tok, instr ssa.CallInstruction, cname string, i int, text func() string) {
	if a.lent[t] == nil {
		return
	}
	p := s.parents[t]
	if p == nil {
		return
	}
	first, ok := s.released[p]
	if !ok {
		return
	}
	use := a.site(instr, nil, cname, "use", i, false, text)
	a.event(&Event{Kind: UseAfterRelease, First: first, Second: use, Handle: use.Handle, Lent: true},
		fmt.Sprint("lent", first.id, "/", use.id))
}

// lendResults marks the results of a Go function whose summary says a
// parameter path lends them (Summary.Lends) as lent by the caller's
// argument there, as lend does for the C function.
func (a *fnAnalysis) lendResults(s *state, instr ssa.CallInstruction, c *ssa.Call, eff *callEffect, args []*tok) {
	for _, l := range eff.sum.Lends {
		from := a.evalPath(s, eff, args, l.From)
		if from == nil || from.location() {
			continue
		}
		t := a.ts.rootOf(c)
		if c.Call.Signature().Results().Len() > 1 {
			t = a.ts.field(t, l.Result)
		}
		site := a.site(instr, nil, eff.calleeName, "lend", -1-l.Result, false, nil)
		site.Callee, site.CalleeName = eff.callee, eff.calleeName
		a.lent[t] = site
		s.parents[t] = from
	}
}

// noteLentResult notes, at a return, whether result i is a handle lent
// by a parameter path of the function (for Summary.Lends).
func (a *fnAnalysis) noteLentResult(s *state, i int, t *tok) {
	if t.kind == tZero {
		a.retZero[i]++
		return
	}
	if a.lent[t] == nil {
		return
	}
	key := ""
	if p := s.parents[t]; p != nil {
		if path, ok := p.path(a.fn); ok && path.Root >= 0 {
			key = path.Key()
			a.lentPaths[key] = path
		}
	}
	a.retLent[i] = append(a.retLent[i], key)
}

// lends returns the results that every normal return gives either nil or
// a handle lent by one and the same parameter path.
func (a *fnAnalysis) lends() []Lend {
	var out []Lend
	for i := range a.fn.Signature.Results().Len() {
		keys := a.retLent[i]
		if len(keys) == 0 || len(keys)+a.retZero[i] != a.exitsNormal {
			continue
		}
		same := true
		for _, k := range keys {
			same = same && k != "" && k == keys[0]
		}
		if same {
			out = append(out, Lend{Result: i, From: a.lentPaths[keys[0]]})
		}
	}
	return out
}

// lendsKept reports whether t, a handle acquired on the path, lends a
// handle that outlives the function (returned, stored where the caller can
// reach it, handed on): t must stay alive as long as that borrow, so it is
// not leaked here; the obligation lives as long as the borrow.
func (a *fnAnalysis) lendsKept(s *state, t *tok, results, roots map[*tok]bool) bool {
	for h, p := range s.parents {
		if p != t || a.lent[h] == nil {
			continue
		}
		if results[h] || roots[h.root] || s.escaped[h] || a.heldElsewhere(s, h, roots) {
			return true
		}
	}
	return false
}
