package lifetime

import (
	"fmt"
	"slices"
	"strings"
)

// A state is the abstract state of one path (or of a few merged paths)
// through a function at one point.
type state struct {
	content  map[*tok]*tok   // location -> its content, where known to differ from the canonical one
	vals     map[valKey]*tok // tokens of loads and phis, which depend on the path
	released map[*tok]*Site  // handles released on this path -> first release
	defers   []*pending      // deferred calls registered, in order
	guards   map[*tok]bool   // roots (and handles) a branch condition on this path tested
	unknown  bool            // an unknown call happened (globals may have changed)
}

// valKey identifies an SSA value of the function (loads and phis) by number.
type valKey int

// A pending deferred call.
type pending struct {
	site  *Site
	call  *callEffect // what the call does when it runs
	args  []*tok      // arguments, evaluated at the defer statement
	count int         // 2 when the defer statement ran more than once (a loop)
	stale bool        // an argument was redefined since (a later loop iteration)
}

func newState() *state {
	return &state{
		content:  map[*tok]*tok{},
		vals:     map[valKey]*tok{},
		released: map[*tok]*Site{},
		guards:   map[*tok]bool{},
	}
}

func (s *state) clone() *state {
	c := &state{
		content:  make(map[*tok]*tok, len(s.content)),
		vals:     make(map[valKey]*tok, len(s.vals)),
		released: make(map[*tok]*Site, len(s.released)),
		guards:   make(map[*tok]bool, len(s.guards)),
		unknown:  s.unknown,
	}
	for k, v := range s.content {
		c.content[k] = v
	}
	for k, v := range s.vals {
		c.vals[k] = v
	}
	for k, v := range s.released {
		c.released[k] = v
	}
	for k, v := range s.guards {
		c.guards[k] = v
	}
	c.defers = make([]*pending, len(s.defers))
	for i, p := range s.defers {
		cp := *p
		c.defers[i] = &cp
	}
	return c
}

// key returns a canonical string of the state, to tell states apart.
func (s *state) key() string {
	var b strings.Builder
	ids := func(m map[*tok]*tok) {
		var ks []string
		for k, v := range m {
			ks = append(ks, fmt.Sprintf("%d=%d", k.id, v.id))
		}
		slices.Sort(ks)
		b.WriteString(strings.Join(ks, ","))
		b.WriteByte('|')
	}
	ids(s.content)
	var vs []string
	for k, v := range s.vals {
		vs = append(vs, fmt.Sprintf("%d=%d", k, v.id))
	}
	slices.Sort(vs)
	b.WriteString(strings.Join(vs, ","))
	b.WriteByte('|')
	var rs []string
	for k, v := range s.released {
		rs = append(rs, fmt.Sprintf("%d@%d", k.id, v.id))
	}
	slices.Sort(rs)
	b.WriteString(strings.Join(rs, ","))
	b.WriteByte('|')
	for _, p := range s.defers {
		fmt.Fprintf(&b, "%d:%d:%v:", p.site.id, p.count, p.stale)
		for _, a := range p.args {
			if a != nil {
				fmt.Fprintf(&b, "%d.", a.id)
			}
		}
		b.WriteByte(';')
	}
	b.WriteByte('|')
	var gs []string
	for k := range s.guards {
		gs = append(gs, fmt.Sprint(k.id))
	}
	slices.Sort(gs)
	b.WriteString(strings.Join(gs, ","))
	fmt.Fprintf(&b, "|%v", s.unknown)
	return b.String()
}

// merge combines states of several paths into one that over-approximates
// them: contents they disagree on become unknown (fresh at the merge), and
// releases, pending defers and tested guards are kept if any path has them.
func merge(ts *tokens, tag int, states []*state) *state {
	out := states[0].clone()
	for _, s := range states[1:] {
		for l, c := range out.content {
			if s.content[l] != c {
				out.content[l] = ts.fresh(l, tag)
			}
		}
		for l := range s.content {
			if _, ok := out.content[l]; !ok {
				out.content[l] = ts.fresh(l, tag)
			}
		}
		for k, v := range out.vals {
			if s.vals[k] != v {
				delete(out.vals, k)
			}
		}
		for t, site := range s.released {
			if old, ok := out.released[t]; !ok || site.id < old.id {
				out.released[t] = site
			}
		}
		for _, p := range s.defers {
			found := false
			for _, q := range out.defers {
				if q.site == p.site && slices.Equal(q.args, p.args) && q.stale == p.stale {
					q.count = max(q.count, p.count)
					found = true
				}
			}
			if !found {
				cp := *p
				out.defers = append(out.defers, &cp)
			}
		}
		for g := range s.guards {
			out.guards[g] = true
		}
		out.unknown = out.unknown || s.unknown
	}
	return out
}
