package lifetime

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// This file reads ownership handed to C with a destructor: a C function
// given a pointer together with a pointer to a function that releases
// such pointers (sqlite3_bind_text(stmt, i, s, n, free),
// g_object_set_data_full(o, key, p, g_free)) keeps the pointer and calls
// the function on it when done. The pointer is the library's from then
// on: a transfer, as a model's transfer entry says. A destructor argument
// that is not a known release (SQLITE_STATIC, NULL, a function the model
// and the name rule say nothing about) keeps Go's ownership.

// cFuncPointer returns the C function v points to when v is cgo's pointer
// to a C function (C.free used as a value is _Cgo_ptr(_Cfpvar_fp_free)),
// or "".
func cFuncPointer(v ssa.Value) string {
	call, ok := access.StripConv(v).(*ssa.Call)
	if !ok || len(call.Call.Args) != 1 {
		return ""
	}
	if callee := call.Call.StaticCallee(); callee == nil || callee.Name() != "_Cgo_ptr" {
		return ""
	}
	u, ok := access.StripConv(call.Call.Args[0]).(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return ""
	}
	g, ok := u.X.(*ssa.Global)
	if !ok {
		return ""
	}
	name, _ := strings.CutPrefix(g.Name(), "_Cfpvar_fp_")
	if name == g.Name() {
		return ""
	}
	return name
}

// destructorKinds reports whether the C function name, called back on a
// pointer, releases it, and the kinds of handle it releases ("" for a kind
// unknown): a release in the model, a name the destructor-name rule reads
// as one, or a function of the package's own C that hands its parameter to
// one (void cfree(void *p) { free(p); }).
func (a *fnAnalysis) destructorKinds(name string, depth int) ([]string, bool) {
	var kinds []string
	for _, e := range a.pa.model.Model.Releases(name, nil) {
		if !e.Global {
			kinds = append(kinds, e.Kind)
		}
	}
	if len(kinds) > 0 {
		return kinds, true
	}
	if len(a.pa.model.Model.Entries(name)) > 0 {
		return nil, false // modelled, and not as a release
	}
	if model.IsDestructorName(name) {
		return []string{""}, true
	}
	if depth < 4 {
		for _, f := range a.pa.calls.Forwards(name) {
			if k, ok := a.destructorKinds(f, depth+1); ok {
				return k, true
			}
		}
	}
	return nil, false
}

// destructorArg says whether t, an argument of a call into C, is a pointer
// to a releasing C function: certainly (its value on this path), or maybe
// (a variable that holds one on some paths and nil on the others, when the
// paths were merged).
func (a *fnAnalysis) destructorArg(t *tok) (kinds []string, certain, maybe bool) {
	if t == nil || t.kind != tRoot {
		return nil, false, false
	}
	if name := cFuncPointer(t.v); name != "" {
		k, ok := a.destructorKinds(name, 0)
		return k, ok, false
	}
	phi, ok := access.StripConv(t.v).(*ssa.Phi)
	if !ok {
		return nil, false, false
	}
	for _, e := range phi.Edges {
		if c, ok := access.StripConv(e).(*ssa.Const); ok && c.IsNil() {
			continue
		}
		name := cFuncPointer(e)
		if name == "" {
			return nil, false, false
		}
		k, ok := a.destructorKinds(name, 0)
		if !ok {
			return nil, false, false
		}
		kinds = append(kinds, k...)
	}
	return kinds, false, len(kinds) > 0
}

// destructorTransfers applies, at a call into C, the transfer of a handle
// given with a releasing destructor. The destructor is called on the
// pointer it follows: the nearest pointer argument before it, past lengths
// and flags (sqlite3_bind_text(stmt, i, s, n, free),
// g_object_set_data_full(o, key, data, g_free)); the other pointers (the
// statement, the key) stay the caller's. That argument, when it is a
// handle held on this path (of a kind the destructor releases) or one the
// caller passed in (for the function's summary: a wrapper that binds its
// parameter with free takes its caller's handle), and not one the model
// says the call only borrows, becomes C's: a release of
// class Transferred (Go's own release of it after is a double release). A
// destructor that is one only on some merged paths hands the handle on
// (no leak is reported, nor a transfer). It marks what it transfers in
// released.
func (a *fnAnalysis) destructorTransfers(s *state, instr ssa.CallInstruction, c *cgocall.Call, args []*tok, released map[int]bool, deferred bool) {
	type dtor struct {
		kinds   []string
		certain bool
	}
	dtors := map[int]dtor{}
	for j, t := range args {
		if released[j] {
			continue
		}
		k, cer, may := a.destructorArg(t)
		if !cer && !may && j < len(c.Raw) {
			// computed in cgo's wrapper, where Args cannot name it
			if name := cFuncPointer(c.Raw[j]); name != "" {
				k, cer = a.destructorKinds(name, 0)
			}
		}
		if cer || may {
			dtors[j] = dtor{k, cer}
		}
	}
	for j, d := range dtors {
		i := j - 1
		for ; i >= 0; i-- {
			if _, isDtor := dtors[i]; !isDtor && c.Sig != nil && i < c.Sig.Params().Len() && isPointerLike(c.Sig.Params().At(i).Type()) {
				break
			}
		}
		if i < 0 || i >= len(args) {
			continue
		}
		t := args[i]
		if t == nil || released[i] || a.pa.model.Model.Uses(c.Name, i) {
			continue
		}
		if aq, ok := s.acquired[t]; ok {
			if !a.kindFits(aq, d.kinds) {
				continue
			}
		} else if _, param := t.path(a.fn); !param || t.location() {
			continue // not a handle of this path or of the caller's
		}
		if !d.certain {
			a.escape(s, t)
			continue
		}
		arg := i
		site := a.site(instr, nil, c.Name, model.Transferred, arg, deferred, func() string {
			return cgocall.Text(a.pa.pass.TypesInfo, c.ArgExpr(arg))
		})
		a.release(s, t, site)
		released[i] = true
	}
}

// isPointerLike reports whether a parameter of type t passes a pointer: a
// pointer or unsafe.Pointer.
func isPointerLike(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	}
	return false
}

// kindFits reports whether the handle acquired by aq is of one of kinds
// (a kind unknown on either side fits).
func (a *fnAnalysis) kindFits(aq *acq, kinds []string) bool {
	var have []string
	for _, e := range a.pa.model.Model.Acquires(aq.site.CFunc) {
		if e.Role == model.Acquire {
			have = append(have, e.Kind)
		}
	}
	if len(have) == 0 {
		return true
	}
	for _, k := range kinds {
		for _, h := range have {
			if k == "" || h == "" || k == h {
				return true
			}
		}
	}
	return false
}
