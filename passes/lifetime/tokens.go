package lifetime

import (
	"fmt"
	"go/constant"

	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
)

// A tok is an abstract value of one function: a handle, a pointer, a
// location. Tokens are hash-consed per function, so equal tokens are equal
// pointers: two releases of the same tok release the same handle.
type tok struct {
	kind tkind
	v    ssa.Value // tRoot: the value
	base *tok      // tLoad, tFaddr, tFresh: the location; tField: the struct value
	idx  int       // tField, tFaddr: field index
	tag  int       // tFresh: what made it (instruction number, or -1-block for merges)
	id   int       // creation order, for determinism
	root *tok      // the root the token derives from (itself for roots)
}

type tkind uint8

const (
	tRoot   tkind = iota // an SSA value as computed (a parameter, a call result, an allocation)
	tZero                // nil or zero: releasing it is a no-op
	tLoad                // the content of location base on entry (before any store)
	tField               // field idx of the struct value base
	tFaddr               // the address of field idx of the struct at location base
	tFresh               // the content of location base after an unknown write at tag
	tGlobal              // a C library's own state (nvmlInit's reference), by library name
)

type tkey struct {
	kind tkind
	v    ssa.Value
	base *tok
	idx  int
	tag  int
	name string // tGlobal: the library
}

type tokens struct {
	m     map[tkey]*tok
	zero  *tok
	lists map[string]*deferList // interned lists of pending defers (defers.go)
}

func newTokens() *tokens {
	ts := &tokens{m: map[tkey]*tok{}}
	ts.zero = ts.get(tkey{kind: tZero})
	return ts
}

func (ts *tokens) get(k tkey) *tok {
	if t, ok := ts.m[k]; ok {
		return t
	}
	t := &tok{kind: k.kind, v: k.v, base: k.base, idx: k.idx, tag: k.tag, id: len(ts.m)}
	if k.base != nil {
		t.root = k.base.root
	} else {
		t.root = t
	}
	ts.m[k] = t
	return t
}

func (ts *tokens) rootOf(v ssa.Value) *tok { return ts.get(tkey{kind: tRoot, v: v}) }

// global returns the token of a C library's own state.
func (ts *tokens) global(library string) *tok { return ts.get(tkey{kind: tGlobal, name: library}) }

func (ts *tokens) field(t *tok, i int) *tok {
	if t.kind == tZero {
		return t
	}
	return ts.get(tkey{kind: tField, base: t, idx: i})
}

func (ts *tokens) faddr(l *tok, i int) *tok { return ts.get(tkey{kind: tFaddr, base: l, idx: i}) }

func (ts *tokens) fresh(l *tok, tag int) *tok { return ts.get(tkey{kind: tFresh, base: l, tag: tag}) }

// canon returns the content of location l when nothing was stored along its
// path: the field of the loaded struct for a field address, so that loading
// x.f and selecting .f from a loaded x agree.
func (ts *tokens) canon(l *tok) *tok {
	if l.kind == tFaddr {
		return ts.field(ts.canon(l.base), l.idx)
	}
	return ts.get(tkey{kind: tLoad, base: l})
}

// isZero reports whether c is a nil or zero constant.
func isZero(c *ssa.Const) bool {
	if c.Value == nil {
		return true
	}
	switch c.Value.Kind() {
	case constant.Int:
		return constant.Sign(c.Value) == 0
	case constant.Bool:
		return !constant.BoolVal(c.Value)
	}
	return false
}

// location reports whether t denotes Go memory a callee can write through:
// a field address, a variable, a global, an element address.
// derivesFrom reports whether t is p or is reached from p through its
// bases (a load of a field of p, a field of that, …).
func (t *tok) derivesFrom(p *tok) bool {
	for x, n := t, 0; x != nil && n < 64; x, n = x.base, n+1 {
		if x == p {
			return true
		}
	}
	return false
}

func (t *tok) location() bool {
	switch t.kind {
	case tFaddr:
		return true
	case tRoot:
		switch t.v.(type) {
		case *ssa.Alloc, *ssa.Global, *ssa.IndexAddr, *ssa.FreeVar:
			return true
		}
	}
	return false
}

// outliving reports whether the location l is memory the function's caller
// can see after it returns: behind a pointer parameter, a captured variable,
// or a global. (A location rooted at a parameter is always behind its
// pointer: a struct parameter's fields are values, not locations.)
func (l *tok) outliving() bool {
	if l.root.kind != tRoot {
		return false
	}
	switch l.root.v.(type) {
	case *ssa.Global, *ssa.FreeVar, *ssa.Parameter:
		return true
	}
	return false
}

// path converts a token rooted at a parameter or free variable of fn into an
// access path relative to it. Field selections of loaded structs become
// loads of field addresses, so that a caller evaluates them through its own
// stores.
func (t *tok) path(fn *ssa.Function) (access.Path, bool) {
	root := -1 << 30
	switch v := t.root.v.(type) {
	case *ssa.Parameter:
		for i, p := range fn.Params {
			if p == v {
				root = i
			}
		}
	case *ssa.FreeVar:
		for i, fv := range fn.FreeVars {
			if fv == v {
				root = -1 - i
			}
		}
	}
	if root == -1<<30 || t.root.kind != tRoot {
		return access.Path{}, false
	}
	ops, ok := t.ops()
	return access.Path{Root: root, Ops: ops}, ok
}

func (t *tok) ops() ([]access.Op, bool) {
	switch t.kind {
	case tRoot:
		return nil, true
	case tLoad:
		o, ok := t.base.ops()
		return append(o, access.Op{Kind: access.Load}), ok
	case tFaddr:
		o, ok := t.base.ops()
		return append(o, access.Op{Kind: access.FieldAddr, Index: t.idx}), ok
	case tField:
		if t.base.kind == tLoad {
			o, ok := t.base.base.ops()
			return append(o, access.Op{Kind: access.FieldAddr, Index: t.idx}, access.Op{Kind: access.Load}), ok
		}
		o, ok := t.base.ops()
		return append(o, access.Op{Kind: access.Field, Index: t.idx}), ok
	}
	return nil, false
}

func (t *tok) String() string {
	switch t.kind {
	case tRoot:
		return t.v.Name()
	case tZero:
		return "0"
	case tLoad:
		return "*" + t.base.String()
	case tField:
		return t.base.String() + fmt.Sprintf(".%d", t.idx)
	case tFaddr:
		return "&" + t.base.String() + fmt.Sprintf(".%d", t.idx)
	case tFresh:
		return fmt.Sprintf("*%s@%d", t.base, t.tag)
	case tGlobal:
		return "<global>"
	}
	return "?"
}
