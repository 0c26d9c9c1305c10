package lifetime

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"golang.org/x/tools/go/ssa"
)

// This file follows handles acquired into a location a caller passes (an
// Init method: func (h *Handle) Init() error { return st(C.create(&h.h)) })
// so that acquiring into that location again, while it holds a live
// handle, is a leak of the old one. Only handles known live on the path
// count: acquired earlier in the same function, or by a call of such a
// method; the method must replace the handle without testing or releasing
// what the location holds.

// overwrite reports, before instr acquires a new handle into location l,
// the live handle l holds, which nothing releases any more. fromC says the
// new acquisition is the function's own call into C: then only a handle a
// callee acquired into l counts (one the function acquired itself may
// still be held in a copy, and its leak is found at the return).
func (a *fnAnalysis) overwrite(s *state, l *tok, instr ssa.CallInstruction, name string, fromC bool, text string) {
	if l == nil || !l.location() && l.kind != tFaddr {
		return
	}
	old := a.content(s, l)
	aq, ok := s.acquired[old]
	if !ok || fromC && !aq.into || s.escaped[old] || s.unsure[old] || aq.status != nil && s.unsure[aq.status] {
		return
	}
	site := a.site(instr, nil, name, "acquire", -200, false, nil)
	text = strings.TrimPrefix(text, "&")
	a.event(&Event{Kind: Overwrite, First: aq.site, Second: site, Handle: text},
		fmt.Sprint("overwrite", aq.site.id, "/", a.inum[instr]))
	delete(s.acquired, old)
}

// acquiredInto records, after a call of a function that acquires into
// locations of its arguments (its summary's AcquiresInto), the handles it
// left there: live on this path, followed to tell an overwrite.
func (a *fnAnalysis) acquiredInto(s *state, instr ssa.CallInstruction, eff *callEffect, args []*tok, sum *Summary) {
	if len(sum.AcquiresInto) == 0 {
		return
	}
	var status *tok
	if c, ok := instr.(*ssa.Call); ok {
		res := c.Call.Signature().Results()
		switch {
		case res.Len() == 1:
			status = a.ts.rootOf(c)
		case res.Len() > 1:
			status = a.ts.field(a.ts.rootOf(c), res.Len()-1)
		}
	}
	for _, p := range sum.AcquiresInto {
		l := a.evalPath(s, eff, args, p)
		if l == nil {
			continue
		}
		t := a.content(s, l)
		if t.kind == tZero {
			continue
		}
		site := a.site(instr, nil, eff.calleeName, "acquire", -300, false, nil)
		site.Callee, site.CalleeName = eff.callee, eff.calleeName
		s.acquired[t] = &acq{site: site, status: status, into: true}
		a.acqToks[t] = true
	}
}

// acquiresInto returns the locations from the function's parameters that,
// on some return, hold a handle the function acquired, where the function
// neither tested nor released the handle the location held on entry.
func (a *fnAnalysis) acquiresInto() []access.Path {
	seen := map[string]bool{}
	var out []access.Path
	for _, s := range a.exits {
		for l, c := range s.content {
			if !a.acqToks[c] || !l.outliving() {
				continue
			}
			if _, ok := s.released[c]; ok {
				continue
			}
			if _, held := s.acquired[c]; !held && !s.escaped[c] {
				continue // failed on this path, or handed on
			}
			entry := a.ts.canon(l)
			if s.guards[entry] || s.unsure[entry] {
				continue
			}
			if _, ok := s.released[entry]; ok {
				continue
			}
			if _, ok := s.maybe[entry]; ok {
				continue
			}
			p, ok := l.path(a.fn)
			if !ok || p.Root < 0 {
				continue
			}
			if k := p.Key(); !seen[k] {
				seen[k] = true
				out = append(out, p)
			}
		}
	}
	slices.SortFunc(out, func(x, y access.Path) int { return strings.Compare(x.Key(), y.Key()) })
	return out
}
