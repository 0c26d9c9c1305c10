package lifetime

import (
	"slices"
	"strconv"
)

// A deferList is the pending deferred calls of a path, newest first: a
// persistent list, shared by the states of every path that registered the
// same calls, never modified (a change builds a new list). Lists are
// hash-consed per function, so that equal lists are the same pointer: a
// state is copied, keyed and compared in constant time however many calls
// it has pending, and a function of thousands of defer statements costs
// what its length costs.
type deferList struct {
	p    *pending // not modified once in a list
	next *deferList
	id   int // 1, 2, ...: the list's identity (equal lists, equal ids)
}

// push returns the list of p followed by next, interned.
func (ts *tokens) push(next *deferList, p *pending) *deferList {
	b := make([]byte, 0, 32)
	b = strconv.AppendInt(b, int64(p.site.id), 36)
	b = append(b, ':', byte('0'+p.count))
	if p.stale {
		b = append(b, 's')
	}
	for _, t := range p.args {
		if t != nil {
			b = strconv.AppendInt(b, int64(t.id), 36)
		}
		b = append(b, '.')
	}
	b = append(b, ';')
	if next != nil {
		b = strconv.AppendInt(b, int64(next.id), 36)
	}
	k := string(b)
	if l, ok := ts.lists[k]; ok {
		return l
	}
	if ts.lists == nil {
		ts.lists = map[string]*deferList{}
	}
	l := &deferList{p: p, next: next, id: len(ts.lists) + 1}
	ts.lists[k] = l
	return l
}

// pendings returns the calls of l in the order they were registered.
func (l *deferList) pendings() []*pending {
	var out []*pending
	for ; l != nil; l = l.next {
		out = append(out, l.p)
	}
	slices.Reverse(out)
	return out
}

// build returns the list of ps (in registration order), interned.
func (ts *tokens) build(ps []*pending) *deferList {
	var l *deferList
	for _, p := range ps {
		l = ts.push(l, p)
	}
	return l
}

// mergeDefers returns the calls pending on either path: one of each call
// (site, arguments, staleness), run twice if it is on either.
func mergeDefers(ts *tokens, x, y *deferList) *deferList {
	if x == y {
		return x
	}
	out := x.pendings()
	for _, p := range y.pendings() {
		found := false
		for i, q := range out {
			if q.site == p.site && slices.Equal(q.args, p.args) && q.stale == p.stale {
				if p.count > q.count {
					cp := *q
					cp.count = p.count
					out[i] = &cp
				}
				found = true
			}
		}
		if !found {
			out = append(out, p)
		}
	}
	return ts.build(out)
}

// renew records, on s, that the values of which old reports true are
// computed again (a loop's next iteration): a deferred call registered with
// one of them as an argument was registered by an earlier iteration, with
// another value there. Its argument becomes nil (that value is forgotten
// with everything else the state knew of it, so its release is nobody's
// to report) and its other arguments stay: a call that releases the same
// handle on every iteration still releases it once per iteration.
//
// The calls of one defer statement registered by earlier iterations are
// then one entry, "one or more calls of site S" (count 2: it runs at
// least twice when there are two), placed where the first of them was
// registered: the list a loop's header sees stops growing once the loop
// has run twice, and the path states at the header reach a fixpoint, as
// they do for a loop without defer.
func (a *fnAnalysis) renew(s *state, old func(*tok) bool) {
	has := func(p *pending) bool {
		return slices.ContainsFunc(p.args, func(t *tok) bool { return t != nil && old(t) })
	}
	ps := s.defers.pendings()
	if !slices.ContainsFunc(ps, has) {
		return
	}
	out := ps[:0]
	for _, p := range ps {
		if has(p) {
			cp := *p
			cp.args = slices.Clone(p.args)
			for i, t := range cp.args {
				if t != nil && old(t) {
					cp.args[i] = nil
				}
			}
			cp.stale = true
			p = &cp
		}
		if p.stale {
			if i := slices.IndexFunc(out, func(q *pending) bool { return q.stale && q.site == p.site && slices.Equal(q.args, p.args) }); i >= 0 {
				cp := *out[i]
				cp.count = 2
				out[i] = &cp
				continue
			}
		}
		out = append(out, p)
	}
	s.defers = a.ts.build(out)
}
