package lifetime

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// This file follows handles after they are acquired: uses after a
// release, releases out of order, and handles that reach a return neither
// released nor handed on.

// escape records that t (and what is stored under it) is handed to code
// the state machine cannot follow, or stored in memory: it is no longer
// only this function's to release.
func (a *fnAnalysis) escape(s *state, t *tok) {
	if t == nil || t.kind == tZero {
		return
	}
	s.escaped[t] = true
	if t.root.kind == tRoot {
		s.escaped[t.root] = true
	}
	if aq, ok := s.acquired[t]; ok && aq.keyed {
		a.keyedMoved[aq.site] = true
	}
	delete(s.acquired, t)
}

// releaseOrder records a release of t at site after the handle t belongs
// to was released, or while another argument of the releasing call (the
// owner it is released through) already was.
func (a *fnAnalysis) releaseOrder(s *state, t *tok, site *Site, args []*tok, releasing map[int]bool) {
	if t != nil {
		if p := s.parents[t]; p != nil {
			if ps, ok := s.released[p]; ok {
				a.event(&Event{Kind: ReleaseOrder, First: ps, Second: site, Handle: site.Handle},
					fmt.Sprint("order", ps.id, "/", site.id))
				return
			}
		}
	}
	for j, at := range args {
		if releasing[j] || at == nil || at.location() {
			continue
		}
		if ps, ok := s.released[at]; ok {
			a.event(&Event{Kind: ReleaseOrder, First: ps, Second: site, Handle: site.Handle},
				fmt.Sprint("order", ps.id, "/", site.id))
			return
		}
	}
}

// useAt checks argument i of a call into C: the handle t used after its
// release (or dereferenced through a released pointer), and a handle read
// from a parameter with no test on the path. releasing says the call
// releases another argument (then a released argument is its owner: a
// release order, reported by releaseOrder).
func (a *fnAnalysis) useAt(s *state, t *tok, instr ssa.CallInstruction, cname string, i int, releasing bool, text func() string) {
	released := func(t *tok) (*Site, bool) {
		first, ok := s.released[t]
		return first, ok
	}
	first, ok := released(t)
	if !ok && t.location() {
		// &p.f of a released C pointer p
		for b := t; b.kind == tFaddr; b = b.base {
			if f, ok2 := released(b.base); ok2 && b.base.kind != tFaddr {
				first, ok = f, true
				break
			}
		}
	}
	if ok && !releasing {
		use := a.site(instr, nil, cname, "use", i, false, text)
		a.event(&Event{Kind: UseAfterRelease, First: first, Second: use, Handle: use.Handle},
			fmt.Sprint("use", first.id, "/", use.id))
	}
	if !t.location() && !s.guards[t] && !s.guards[t.root] {
		if p, ok := t.path(a.fn); ok && len(p.Ops) > 0 && p.Root >= 0 {
			use := a.site(instr, nil, cname, "use", i, false, text)
			a.event(&Event{Kind: UncheckedUse, Second: use, Path: p, Handle: use.Handle},
				fmt.Sprint("unchecked", a.inum[instr], "/", p.Key()))
		}
	}
}

// derefUse checks a read (or a write, store) of C memory through addr, a
// pointer to a C struct or to one of its fields (it.next, *p): after a
// release that frees that memory (model.FreesMemory: free, not close or
// unref, which may leave the struct readable) the next allocation may
// already reuse it. Only a pointer to C memory counts: one whose pointee
// is a C type, not the address of a Go variable, field or element (a
// release through &v clears what v refers to; v is still Go's).
//
// The pointer is C's by its type as the read uses it, which a conversion
// may give after the release ((*C.struct_node)(p) of an unsafe.Pointer p
// that C.free released), or before it.
func (a *fnAnalysis) derefUse(s *state, addr ssa.Value, instr ssa.Instruction, write bool) {
	typed := addr // the pointer as the read uses it
	base := access.StripConv(addr)
	for {
		fa, ok := base.(*ssa.FieldAddr)
		if !ok {
			break
		}
		typed = fa.X
		base = access.StripConv(fa.X)
	}
	switch base.(type) {
	case *ssa.Alloc, *ssa.Global, *ssa.IndexAddr, *ssa.FieldAddr, *ssa.Const:
		return
	}
	if !pointsToC(typed.Type()) && !pointsToC(base.Type()) {
		return
	}
	t := a.tokOf(s, base)
	if t == nil || t.kind == tZero {
		return
	}
	first, ok := s.released[t]
	if !ok || !model.FreesMemory(first.Class) {
		return
	}
	class := "deref"
	if write {
		class = "derefwrite"
	}
	h := first.Handle
	if n := valueName(base); n != "" {
		h = n // the pointer as the read names it (head, not the loop's n that freed it)
	}
	use := &Site{Instr: instr, Pos: instr.Pos(), Class: class, Handle: h, id: -1 - a.inum[instr]}
	if use.Pos == token.NoPos {
		use.Pos = addr.Pos()
	}
	a.event(&Event{Kind: UseAfterRelease, First: first, Second: use, Handle: h},
		fmt.Sprint(class, first.id, "/", a.inum[instr]))
}

// returnedReleased reports, at a return, a result pointer that the path
// (or a deferred call, which runs after the result is taken: defer
// C.free(p); return p) has released by a call into C: the caller gets freed memory, or a
// closed handle. A return that also gives a non-nil error is left alone
// (an error path, whose caller does not use the pointer), as is a result
// of integer type (an address kept as a key).
func (a *fnAnalysis) returnedReleased(s *state, ret *ssa.Return) {
	res := a.fn.Signature.Results()
	for i, r := range ret.Results {
		if isError(res.At(i).Type()) && a.tokOf(s, r).kind != tZero {
			return
		}
	}
	for i, r := range ret.Results {
		switch u := res.At(i).Type().Underlying().(type) {
		case *types.Pointer:
		case *types.Basic:
			if u.Kind() != types.UnsafePointer {
				continue
			}
		default:
			continue
		}
		t := a.tokOf(s, r)
		if t == nil || t.kind == tZero {
			continue
		}
		first, ok := s.released[t]
		if !ok || first.Release != nil {
			// (a release through a Go function, a deferred closure
			// above all, may be conditional on what the path set
			// before the return: if !ok { free(o) } with ok = true,
			// the constructor that cleans up on its error paths)
			continue
		}
		h := first.Handle
		if n := valueName(r); n != "" {
			h = n
		}
		pos := ret.Pos()
		if pos == token.NoPos {
			pos = r.Pos()
		}
		use := &Site{Instr: ret, Pos: pos, Class: "return", Handle: h, id: -1 - a.inum[ret]}
		a.event(&Event{Kind: UseAfterRelease, First: first, Second: use, Handle: h},
			fmt.Sprint("return", first.id, "/", a.inum[ret]))
	}
}

// pointsToC reports whether t is a pointer to a C type (cgo's _Ctype_).
func pointsToC(t types.Type) bool {
	ptr, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(ptr.Elem()).(*types.Named)
	return ok && strings.HasPrefix(n.Obj().Name(), "_Ctype_")
}

// valueName returns how the source names the pointer v: a parameter, a
// variable, a field of one (b.it), rendered as access.Render spells paths;
// "" for anything else.
func valueName(v ssa.Value) string {
	var ops []access.Op // from v back to its root
	for range 8 {
		switch x := access.StripConv(v).(type) {
		case *ssa.Parameter:
			slices.Reverse(ops)
			return access.Render(x.Name(), x.Type(), ops)
		case *ssa.Alloc, *ssa.Global:
			// a variable's address: its loads read the variable
			name := x.Name()
			if al, ok := x.(*ssa.Alloc); ok {
				name = al.Comment
			}
			slices.Reverse(ops)
			if name == "" || len(ops) == 0 || ops[0].Kind != access.Load {
				return ""
			}
			return access.Render(name, access.Deref(x.Type()), ops[1:])
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return ""
			}
			ops, v = append(ops, access.Op{Kind: access.Load}), x.X
		case *ssa.FieldAddr:
			ops, v = append(ops, access.Op{Kind: access.FieldAddr, Index: x.Field}), x.X
		default:
			return ""
		}
	}
	return ""
}

// keyUse checks a map key: a released handle used as a registry key (the
// address can come back from the next allocation).
func (a *fnAnalysis) keyUse(s *state, key ssa.Value, instr ssa.Instruction, op string) {
	t := a.tokOf(s, key)
	if t == nil || t.kind == tZero {
		return
	}
	a.use(t)
	if first, ok := s.released[t]; ok {
		use := &Site{Instr: instr, Pos: instr.Pos(), CFunc: op, Class: "key", id: -1 - a.inum[instr]}
		a.event(&Event{Kind: UseAfterRelease, First: first, Second: use, Handle: first.Handle},
			fmt.Sprint("key", first.id, "/", a.inum[instr]))
	}
}

// branchOf reads a branch condition in the state where it is evaluated.
func (a *fnAnalysis) branchOf(s *state, cond ssa.Value) *branch {
	br := &branch{op: token.ILLEGAL}
	for {
		if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
			cond, br.negate = u.X, !br.negate
			continue
		}
		break
	}
	// the tokens the condition reads directly (a call's arguments are the
	// call's business: C.strlen(p) == 0 tests a length, not p)
	var walk func(v ssa.Value, depth int)
	walk = func(v ssa.Value, depth int) {
		if v == nil || depth > 6 {
			return
		}
		switch v := v.(type) {
		case *ssa.BinOp:
			walk(v.X, depth+1)
			walk(v.Y, depth+1)
			return
		case *ssa.UnOp:
			if v.Op != token.MUL {
				walk(v.X, depth+1)
				return
			}
		case *ssa.Const:
			return
		}
		t := a.tokOf(s, v)
		br.parts = append(br.parts, t, t.root)
	}
	walk(cond, 0)
	switch c := cond.(type) {
	case *ssa.BinOp:
		x, y, op := c.X, c.Y, c.Op
		k, ok := y.(*ssa.Const)
		if !ok {
			k, ok = x.(*ssa.Const)
			x, op = y, swap(op)
		}
		if ok {
			br.op, br.x, br.k = op, a.tokOf(s, x), k
		}
	default:
		if isBool(cond.Type()) {
			br.x = a.tokOf(s, cond)
		}
	}
	return br
}

// refine narrows the state entering successor si of the If ending a
// block: on the edge where an acquisition failed (its status is non-zero,
// an error is non-nil, a returned handle is nil), the handle was never
// acquired, and on the edge where a release failed, it was not released.
// A status tested in a way this does not read makes the acquisition unsure
// (no leak is reported for it).
func (a *fnAnalysis) refine(ns, out *state, br *branch, si int) {
	if len(out.acquired) == 0 && len(out.relStatus) == 0 {
		return
	}
	truth := si == 0
	if br.negate {
		truth = !truth
	}
	involved := func(t *tok) bool {
		if t == nil {
			return false
		}
		for h, aq := range out.acquired {
			if h == t || aq.status == t || aq.errcode == t {
				return true
			}
		}
		for _, st := range out.relStatus {
			if st == t {
				return true
			}
		}
		return false
	}
	failed := func(st *tok, handle bool) {
		for t, aq := range ns.acquired {
			if aq.status == st || aq.errcode == st || handle && t == st {
				delete(ns.acquired, t)
				a.failedToks[t] = true
				if aq.out != nil {
					a.failedToks[aq.out] = true
				}
			}
		}
		// the release failed: still held (an integer status, or a
		// returned pointer that is nil on failure, as realloc's is)
		for t, rs := range ns.relStatus {
			if rs == st {
				delete(ns.released, t)
				delete(ns.relStatus, t)
			}
		}
	}
	unsure := func() {
		for _, t := range br.parts {
			if src, _, _, ok := a.resolveDerived(t); ok {
				t = src // a value derived from a status (err == ErrBusy)
			}
			for h, aq := range out.acquired {
				if h == t || aq.status == t || aq.errcode == t {
					ns.unsure[aq.status] = true
					ns.unsure[h] = true
				}
			}
		}
	}
	if a.refineDerived(ns, out, br, truth, func(st *tok) { failed(st, false) }) {
		return
	}
	if !involved(br.x) {
		unsure()
		return
	}
	if br.op == token.ILLEGAL {
		// a boolean status: false is failure
		if !truth {
			failed(br.x, false)
		}
		return
	}
	zero, ok := zeroSatisfies(br.op, br.k)
	if !ok {
		unsure()
		return
	}
	zeroHere := zero == truth // can x be zero on this edge?
	if _, isHandle := out.acquired[br.x]; isHandle {
		// a handle compared with nil: where it must be nil, nothing was
		// acquired
		if (br.op == token.EQL || br.op == token.NEQ) && br.k.IsNil() && zeroHere && exactlyZero(br.op, truth) {
			failed(br.x, true)
		}
		return
	}
	if !zeroHere {
		failed(br.x, false) // a non-zero status, a non-nil error: failure
	}
}

// exactlyZero reports whether, on the edge where the comparison with nil is
// truth, the value is nil (x == nil true, x != nil false).
func exactlyZero(op token.Token, truth bool) bool {
	return op == token.EQL && truth || op == token.NEQ && !truth
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

func swap(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// zeroSatisfies evaluates "0 op k" (nil for nil constants).
func zeroSatisfies(op token.Token, k *ssa.Const) (bool, bool) {
	if k.IsNil() {
		switch op {
		case token.EQL:
			return true, true
		case token.NEQ:
			return false, true
		}
		return false, false
	}
	if k.Value == nil || k.Value.Kind() != constant.Int {
		return false, false
	}
	zero := constant.MakeInt64(0)
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return constant.Compare(zero, op, k.Value), true
	}
	return false, false
}

// leaks reports, at a return, the handles acquired on the path and still
// held: not released, not returned, not stored where the caller can reach
// them, not handed on. It also notes, for the summary, which results are
// fresh handles.
func (a *fnAnalysis) leaks(s *state, ret *ssa.Return) {
	results := map[*tok]bool{}
	roots := map[*tok]bool{}
	for i, r := range ret.Results {
		t := a.tokOf(s, r)
		results[t] = true
		roots[t.root] = true
		if _, ok := s.acquired[t]; ok {
			a.retAcq[i]++
			a.retReal[i]++
			if n, known := s.counts[t]; !known || n != 1 || s.open[t] {
				a.retUncounted[i] = true
			}
		} else if t.kind == tZero || a.failedToks[t] {
			a.retAcq[i]++ // nil, or what a failed acquisition left
		}
		a.noteLentResult(s, i, t)
	}
	a.exitsNormal++
	for _, p := range a.fn.Params {
		if s.escaped[a.ts.rootOf(p)] {
			a.escapes[p] = true
		}
	}
	if processLifetime(a.fn) {
		return // held until the process exits
	}
	for t, aq := range s.acquired {
		switch {
		case results[t], roots[t.root], s.escaped[t], s.escaped[t.root],
			s.unsure[aq.status], s.unsure[t]:
			continue
		}
		if _, ok := s.maybe[t]; ok || aq.into {
			continue
		}
		if a.heldElsewhere(s, t, roots) || a.lendsKept(s, t, results, roots) {
			continue
		}
		if o := aq.out; o != nil && (results[o] || roots[o.root] || s.escaped[o] || a.heldElsewhere(s, o, roots)) {
			a.keyedMoved[aq.site] = true
			continue // the retained handle goes to the caller, and the reference with it
		}
		ev := &Event{Kind: Leak, First: aq.site, Return: ret, Handle: aq.site.Handle}
		key := fmt.Sprint("leak", aq.site.id, "/", a.inum[ret])
		if aq.keyed {
			if _, ok := t.path(a.fn); ok {
				// a reference keyed by a value the caller holds (a device
				// passed in): the caller's, unless this function releases
				// it or hands it on on another path (decided once all
				// paths are seen)
				a.keyedLeaks = append(a.keyedLeaks, keyedLeak{ev: ev, key: key, tok: t})
				continue
			}
		}
		a.event(ev, key)
	}
}

// heldElsewhere reports whether t is stored in memory the caller can
// reach: under a returned value, a parameter, a global, a captured
// variable, or an object handed on.
func (a *fnAnalysis) heldElsewhere(s *state, t *tok, roots map[*tok]bool) bool {
	for l, c := range s.content {
		if c != t {
			continue
		}
		if l.outliving() || roots[l.root] || s.escaped[l.root] || s.escaped[l] {
			return true
		}
	}
	return false
}
