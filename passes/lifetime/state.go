package lifetime

import (
	"go/token"
	"maps"
	"slices"
	"strconv"

	"golang.org/x/tools/go/ssa"
)

// A state is the abstract state of one path (or of a few merged paths)
// through a function at one point.
type state struct {
	content  map[*tok]*tok   // location -> its content, where known to differ from the canonical one
	vals     map[valKey]*tok // tokens of loads and phis, which depend on the path
	released map[*tok]*Site  // handles released on this path -> first release
	maybe    map[*tok]*Site  // handles a guarded (idempotent) release may have released
	defers   *deferList      // deferred calls registered, newest first (shared)
	guards   map[*tok]bool   // roots (and handles) a branch condition on this path tested
	counts   map[*tok]int    // counted references taken on this path and not yet dropped, by key
	// open holds the handles a retain added a reference to while their
	// count was unknown (a handle of the package's own C, a parameter): they
	// hold references besides those counted, so a release that finds none
	// counted drops one of those, and none is known to be the last
	open map[*tok]bool
	// raised holds, for the handles a retain in a loop raised the count
	// of on this path, the count before that trip's first retain: until a
	// drop in the loop brings the count back to it, the trips (which the
	// states do not count) may have raised it any number of times
	raised    map[*tok]int
	acquired  map[*tok]*acq // handles acquired on this path, not released, returned or handed on
	parents   map[*tok]*tok // handle -> the handle it belongs to (model parent=N)
	escaped   map[*tok]bool // roots handed to code we cannot follow, or stored in memory
	unsure    map[*tok]bool // acquisition statuses tested in ways the state machine does not read
	relStatus map[*tok]*tok // released handle -> the releasing call's status (a failed release releases nothing)
	unknown   bool          // an unknown call happened (globals may have changed)

	// br is the branch condition ending the block just run, read before
	// the block's local values are forgotten (not part of the state).
	br *branch
}

// branch is a block's If condition, in tokens.
type branch struct {
	op     token.Token // a comparison, or ILLEGAL for a boolean value
	x      *tok        // the compared (or boolean) value
	k      *ssa.Const  // the constant compared with
	negate bool        // the condition is !x
	parts  []*tok      // every token the condition reads (for unsure)
}

// acq is one acquisition of a handle.
type acq struct {
	site   *Site
	status *tok // the acquiring call's result, whose test tells success from failure
	// errcode is the content, after the call, of an errcode_ret
	// out-parameter (an acquisition that returns its handle and reports its
	// status through a pointer to an integer): a second status.
	errcode *tok
	// out is, for a counted reference keyed by another argument (a
	// primary context retained by device), the handle the call wrote: the
	// caller who receives it owes the release.
	out *tok
	// into is set for a handle a callee acquired into a location of this
	// function's (an Init method): it is followed to tell an overwrite, and
	// not reported as a leak (precision first).
	into bool
	// keyed is set for a counted reference identified by another
	// argument (the key, the token it is held under).
	keyed bool
}

// valKey identifies an SSA value of the function (loads and phis) by number.
type valKey int

// A pending deferred call.
type pending struct {
	site  *Site
	call  *callEffect // what the call does when it runs
	args  []*tok      // arguments, evaluated at the defer statement
	count int         // 2 when it stands for two or more calls (a loop): it runs twice
	stale bool        // registered by an earlier iteration of a loop: the arguments redefined since are nil (renew)
	arm   *armRec     // not a deferred call: a finalizer or cleanup the path armed (pushArm)
}

func newState() *state {
	return &state{
		content:   map[*tok]*tok{},
		vals:      map[valKey]*tok{},
		released:  map[*tok]*Site{},
		maybe:     map[*tok]*Site{},
		guards:    map[*tok]bool{},
		counts:    map[*tok]int{},
		open:      map[*tok]bool{},
		raised:    map[*tok]int{},
		acquired:  map[*tok]*acq{},
		parents:   map[*tok]*tok{},
		escaped:   map[*tok]bool{},
		unsure:    map[*tok]bool{},
		relStatus: map[*tok]*tok{},
	}
}

// size is the number of entries of s, the cost of copying or comparing it
// (the pending defers are shared: they cost nothing to copy).
func (s *state) size() int {
	return 1 + len(s.content) + len(s.vals) + len(s.released) + len(s.maybe) + len(s.guards) + len(s.counts) + len(s.open) + len(s.raised) +
		len(s.acquired) + len(s.parents) + len(s.escaped) + len(s.unsure) + len(s.relStatus)
}

func (s *state) clone() *state {
	c := &state{
		content:   copyOf(s.content),
		vals:      copyOf(s.vals),
		released:  copyOf(s.released),
		maybe:     copyOf(s.maybe),
		guards:    copyOf(s.guards),
		counts:    copyOf(s.counts),
		open:      copyOf(s.open),
		raised:    copyOf(s.raised),
		acquired:  copyOf(s.acquired),
		parents:   copyOf(s.parents),
		escaped:   copyOf(s.escaped),
		unsure:    copyOf(s.unsure),
		relStatus: copyOf(s.relStatus),
		unknown:   s.unknown,
		defers:    s.defers,
	}
	c.defers = s.defers
	return c
}

// key returns a canonical string of the state, to tell states apart.
func (s *state) key() string {
	b := make([]byte, 0, 16*(len(s.content)+len(s.vals)+len(s.released)+len(s.guards)+1))
	pairs := make([][2]int, 0, max(len(s.content), len(s.vals), len(s.released), len(s.guards)))
	flush := func() {
		slices.SortFunc(pairs, func(x, y [2]int) int {
			if x[0] != y[0] {
				return x[0] - y[0]
			}
			return x[1] - y[1]
		})
		for _, p := range pairs {
			b = strconv.AppendInt(b, int64(p[0]), 36)
			b = append(b, '=')
			b = strconv.AppendInt(b, int64(p[1]), 36)
			b = append(b, ',')
		}
		b = append(b, '|')
		pairs = pairs[:0]
	}
	for k, v := range s.content {
		pairs = append(pairs, [2]int{k.id, v.id})
	}
	flush()
	for k, v := range s.vals {
		pairs = append(pairs, [2]int{int(k), v.id})
	}
	flush()
	for k, v := range s.released {
		pairs = append(pairs, [2]int{k.id, v.id})
	}
	flush()
	for k, v := range s.maybe {
		pairs = append(pairs, [2]int{k.id, v.id})
	}
	flush()
	for k := range s.guards {
		pairs = append(pairs, [2]int{k.id, 0})
	}
	flush()
	for k, v := range s.counts {
		pairs = append(pairs, [2]int{k.id, v})
	}
	flush()
	for k := range s.open {
		pairs = append(pairs, [2]int{k.id, 0})
	}
	flush()
	for k, v := range s.raised {
		pairs = append(pairs, [2]int{k.id, v})
	}
	flush()
	for k, v := range s.acquired {
		pairs = append(pairs, [2]int{k.id, v.site.id})
	}
	flush()
	for k, v := range s.parents {
		pairs = append(pairs, [2]int{k.id, v.id})
	}
	flush()
	for k := range s.escaped {
		pairs = append(pairs, [2]int{k.id, 0})
	}
	flush()
	for k := range s.unsure {
		pairs = append(pairs, [2]int{k.id, 0})
	}
	flush()
	for k, v := range s.relStatus {
		pairs = append(pairs, [2]int{k.id, v.id})
	}
	flush()
	if s.defers != nil {
		b = strconv.AppendInt(b, int64(s.defers.id), 36)
	}
	if s.unknown {
		b = append(b, 'u')
	}
	return string(b)
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
		for t, site := range s.maybe {
			if old, ok := out.maybe[t]; !ok || site.id < old.id {
				out.maybe[t] = site
			}
		}
		out.defers = mergeDefers(ts, out.defers, s.defers)
		for g := range s.guards {
			out.guards[g] = true
		}
		for k, v := range out.counts {
			if s.counts[k] != v {
				delete(out.counts, k) // unknown: stay silent about this key
			}
		}
		for k := range s.open {
			out.open[k] = true // counted on some path: its releases are counted
		}
		for k, v := range s.raised {
			if old, ok := out.raised[k]; !ok || v < old {
				out.raised[k] = v // raised on some path
			}
		}
		// a handle still held on one path is held after the merge
		for k, v := range s.acquired {
			if _, ok := out.acquired[k]; !ok {
				out.acquired[k] = v
			}
		}
		for k, v := range s.parents {
			out.parents[k] = v
		}
		for k := range s.escaped {
			out.escaped[k] = true
		}
		for k := range s.unsure {
			out.unsure[k] = true
		}
		for k, v := range s.relStatus {
			if out.relStatus[k] != v {
				delete(out.relStatus, k)
			}
		}
		out.unknown = out.unknown || s.unknown
	}
	// a variable that holds a handle on some paths and nil on the others
	// (where none was acquired) holds "the handle or nil" (nilmerge.go)
	kept := map[*tok]bool{}
	for l, h := range nilOrHandleContents(ts.zero, states) {
		out.content[l] = h
		kept[h] = true
	}
	for k, h := range nilOrHandleVals(states) {
		out.vals[k] = h
		kept[h] = true
	}
	forgetReleased(out, kept)
	return out
}

// copyOf returns a copy of m that can be written to (an empty map for nil).
func copyOf[M ~map[K]V, K comparable, V any](m M) M {
	if m == nil {
		return make(M)
	}
	return maps.Clone(m)
}
