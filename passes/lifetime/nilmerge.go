package lifetime

import "golang.org/x/tools/go/ssa"

// This file keeps, across a merge of path states, the relation between a
// variable and the handle it may hold: on paths where the variable was
// assigned a handle it holds that handle, and on the others, where no
// handle was ever acquired, it is nil (var s *C.char; if v != "" { s =
// C.CString(v) }). Merged, the variable still holds "the handle or nil",
// so that a later test of it (if s != nil { C.free(s) }) releases the
// handle where it exists and tells, on the nil edge, that nothing was
// acquired. Without it the merge forgets what the variable holds, and the
// handle reads as leaked on every path once enough unrelated branches (a
// few flags, a switch) push the paths apart past maxStates.

// nilOrHandle returns, for each key on which the states disagree only in
// that some hold one handle h and the others nil, that handle. get reads a
// key in a state (ok false when the state has no entry for it, which is
// not nil: the entry content). A key qualifies when every state has an
// entry, at least one holds h and one nil, h is held (acquired, not
// released or handed on) on every path that has it, and on every path
// that has nil, h is not held (never acquired there, or an earlier one
// released: a handle of a previous loop iteration, freed then cleared).
// The caller takes h's releases on the nil paths out of the merged state
// (forgetReleased): the variable does not hold that handle there, and the
// one it holds on the other paths is live.
func nilOrHandle[K comparable](states []*state, keys func(*state) []K, get func(*state, K) (*tok, bool)) map[K]*tok {
	var out map[K]*tok
	seen := map[K]bool{}
	for _, st := range states {
		for _, k := range keys(st) {
			if !seen[k] {
				seen[k] = true
				if h, ok := nilOrHandleKey(states, k, get); ok {
					if out == nil {
						out = map[K]*tok{}
					}
					out[k] = h
				}
			}
		}
	}
	return out
}

func nilOrHandleKey[K comparable](states []*state, k K, get func(*state, K) (*tok, bool)) (*tok, bool) {
	{
		var h *tok
		nils, ok := 0, true
		for _, s := range states {
			c, has := get(s, k)
			switch {
			case !has:
				ok = false
			case c.kind == tZero:
				nils++
			case h == nil || h == c:
				h = c
			default:
				ok = false
			}
			if !ok {
				break
			}
		}
		if !ok || h == nil || nils == 0 {
			return nil, false
		}
		for _, s := range states {
			c, _ := get(s, k)
			_, acquired := s.acquired[h]
			_, released := s.released[h]
			_, maybe := s.maybe[h]
			if c == h && (!acquired || released || maybe || s.escaped[h]) || c != h && acquired {
				ok = false
				break
			}
		}
		return h, ok
	}
}

// nilOrHandleContents applies nilOrHandle to the contents of locations. A
// local variable with no entry was not assigned since it was declared
// (var s *C.char): it holds nil.
func nilOrHandleContents(zero *tok, states []*state) map[*tok]*tok {
	return nilOrHandle(states, func(s *state) []*tok {
		ks := make([]*tok, 0, len(s.content))
		for k := range s.content {
			ks = append(ks, k)
		}
		return ks
	}, func(s *state, k *tok) (*tok, bool) {
		c, ok := s.content[k]
		if !ok && k.kind == tRoot {
			if _, alloc := k.v.(*ssa.Alloc); alloc {
				return zero, true
			}
		}
		return c, ok
	})
}

// nilOrHandleVals applies nilOrHandle to the tokens of loads and phis.
func nilOrHandleVals(states []*state) map[valKey]*tok {
	return nilOrHandle(states, func(s *state) []valKey {
		ks := make([]valKey, 0, len(s.vals))
		for k := range s.vals {
			ks = append(ks, k)
		}
		return ks
	}, func(s *state, k valKey) (*tok, bool) {
		c, ok := s.vals[k]
		return c, ok
	})
}

// forgetReleased takes the handles a merge keeps as "the handle or nil"
// out of the merged state's releases: on the paths where the variable is
// nil the released handle was another one (an earlier iteration's), and on
// the others it is held. Precision first: a second release of it through
// another variable on a nil path goes unsaid.
func forgetReleased(out *state, hs map[*tok]bool) {
	for h := range hs {
		delete(out.released, h)
		delete(out.maybe, h)
		delete(out.relStatus, h)
	}
}
