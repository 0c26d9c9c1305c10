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
