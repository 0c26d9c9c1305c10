// Package access describes values as access paths over go/ssa: a root value
// followed by loads and field selections, such as c.h (load field h of the
// struct c points to). Passes use access paths to name the handle a call
// releases in the frame of the function that makes the call, and in function
// summaries, relative to a parameter.
package access

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// OpKind is the kind of one step of an access path.
type OpKind uint8

const (
	Load      OpKind = iota + 1 // *x: the value stored at address x
	FieldAddr                   // &x.f: the address of field f of the struct x points to
	Field                       // x.f: field f of the struct value x
	IndexAddr                   // &x[i]: the address of an element of the slice or array x (or *x)
)

// An Op is one step of an access path.
type Op struct {
	Kind  OpKind
	Index int // field index, for FieldAddr and Field
}

func (o Op) String() string {
	switch o.Kind {
	case Load:
		return "*"
	case FieldAddr:
		return fmt.Sprintf("&.%d", o.Index)
	case Field:
		return fmt.Sprintf(".%d", o.Index)
	case IndexAddr:
		return "&[]"
	}
	return "?"
}

// A Ref is a value in one function's frame: Root, then Ops applied in order.
type Ref struct {
	Root ssa.Value
	Ops  []Op
}

// Valid reports whether r denotes a value.
func (r Ref) Valid() bool { return r.Root != nil }

func (r Ref) String() string {
	if r.Root == nil {
		return "<invalid>"
	}
	var b strings.Builder
	b.WriteString(r.Root.Name())
	for _, o := range r.Ops {
		b.WriteString(o.String())
	}
	return b.String()
}

// With returns r followed by ops.
func (r Ref) With(ops ...Op) Ref {
	out := Ref{Root: r.Root, Ops: make([]Op, 0, len(r.Ops)+len(ops))}
	out.Ops = append(append(out.Ops, r.Ops...), ops...)
	return out
}

// Of returns the access path of v in its own function's frame. It sees
// through conversions that keep a handle's identity (pointer, unsafe.Pointer
// and integer conversions) and through field selections; loads stay roots,
// because in a function's own frame a load happens where it is written.
func Of(v ssa.Value) Ref {
	v = StripConv(v)
	switch v := v.(type) {
	case *ssa.FieldAddr:
		return Of(v.X).With(Op{FieldAddr, v.Field})
	case *ssa.Field:
		return Of(v.X).With(Op{Field, v.Field})
	case *ssa.IndexAddr:
		return Of(v.X).With(Op{Kind: IndexAddr})
	}
	return Ref{Root: v}
}

// Canon returns ops with each load of a struct followed by selections of
// its fields ([Load, Field f]: (*x).f, the field of the value loaded) as
// the load of the field ([FieldAddr f, Load]: x.f read in place). Both
// read the same memory; go/ssa writes o.in.h either way, depending on
// how the expression was compiled. ops itself is not changed.
func Canon(ops []Op) []Op {
	var out []Op
	for i := 0; i < len(ops); i++ {
		if ops[i].Kind != Load || i+1 >= len(ops) || ops[i+1].Kind != Field {
			out = append(out, ops[i])
			continue
		}
		j := i + 1
		for ; j < len(ops) && ops[j].Kind == Field; j++ {
			out = append(out, Op{Kind: FieldAddr, Index: ops[j].Index})
		}
		out = append(out, Op{Kind: Load})
		i = j - 1
	}
	return out
}

// StripConv returns v without the conversions that keep a handle's identity.
func StripConv(v ssa.Value) ssa.Value {
	for {
		switch c := v.(type) {
		case *ssa.ChangeType:
			v = c.X
			continue
		case *ssa.Convert:
			if handleLike(c.Type()) && handleLike(c.X.Type()) {
				v = c.X
				continue
			}
		}
		return v
	}
}

// handleLike reports whether values of t can carry a handle through a
// conversion: pointers, unsafe.Pointer, uintptr and integers.
func handleLike(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer || u.Info()&types.IsInteger != 0
	}
	return false
}

// A Path is an access path relative to a function's parameter or free
// variable, as used in function summaries: Root is the index of the
// parameter in go/ssa's numbering (the receiver first), or -1-i for free
// variable i of a function literal.
type Path struct {
	Root int
	Ops  []Op
}

// Key returns a string that identifies p.
func (p Path) Key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d", p.Root)
	for _, o := range p.Ops {
		b.WriteString(o.String())
	}
	return b.String()
}

// HasPrefix reports whether q's ops begin with p's (same root).
func (p Path) HasPrefix(q Path) bool {
	if p.Root != q.Root || len(q.Ops) > len(p.Ops) {
		return false
	}
	for i, o := range q.Ops {
		if p.Ops[i] != o {
			return false
		}
	}
	return true
}

// Render spells the path ops from a root named root of type t as Go source
// would: c.h for [FieldAddr h, Load] on c, &c.h for [FieldAddr h]. Fields
// reached through an embedded field are written as promoted (d.ptr rather
// than d.database.ptr).
func Render(root string, t types.Type, ops []Op) string {
	s := root
	addr := false // s names a location whose address the path denotes
	for i := 0; i < len(ops); i++ {
		o := ops[i]
		switch o.Kind {
		case FieldAddr, Field:
			var st *types.Struct
			if o.Kind == FieldAddr {
				st, _ = Deref(t).Underlying().(*types.Struct)
			} else {
				st, _ = t.Underlying().(*types.Struct)
			}
			if st == nil || o.Index >= st.NumFields() {
				return s + "…"
			}
			f := st.Field(o.Index)
			promoted := f.Embedded() && i+1 < len(ops) && selects(ops[i+1:])
			if !promoted {
				s += "." + f.Name()
			}
			t = f.Type()
			addr = o.Kind == FieldAddr
			if addr && i+1 < len(ops) && ops[i+1].Kind == Load {
				i++ // loading the field's address reads the field
				addr = false
				if c, ok := CellContent(t); ok {
					t = c // an atomic cell's Load: what it holds
				}
			}
		case Load:
			if !addr {
				s = "*" + s
			}
			t = loaded(t)
			addr = false
		case IndexAddr:
			s += "[i]"
			t = elem(t)
			addr = true
			if i+1 < len(ops) && ops[i+1].Kind == Load {
				i++
				addr = false
			}
		}
	}
	if addr {
		s = "&" + s
	}
	return s
}

// selects reports whether ops continue with a field selection (possibly
// after loading an embedded pointer).
func selects(ops []Op) bool {
	for _, o := range ops {
		switch o.Kind {
		case FieldAddr, Field:
			return true
		case Load:
			continue
		}
	}
	return false
}

// Deref returns the element type of a pointer type, and t otherwise.
func Deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// PointeeName returns the name of the named type t points to (T for *T;
// the generic type's for *T[int]; through a named pointer type), or nil
// when t is not a pointer to a named type.
func PointeeName(t types.Type) *types.TypeName {
	if t == nil {
		return nil
	}
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	return TypeName(p.Elem())
}

// TypeName returns the name of the named type t (the generic type's for
// an instance), or nil when t is not a named type.
func TypeName(t types.Type) *types.TypeName {
	if t == nil {
		return nil
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}

// CellContent returns, for t a pointer-sized atomic cell of sync/atomic
// (Pointer[T], Uintptr), the type of what the cell holds (*T, uintptr): a
// Load of the cell's address reads that, as its Load method does.
func CellContent(t types.Type) (types.Type, bool) {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync/atomic" {
		return nil, false
	}
	switch n.Obj().Name() {
	case "Pointer":
		if args := n.TypeArgs(); args != nil && args.Len() == 1 {
			return types.NewPointer(args.At(0)), true
		}
	case "Uintptr":
		return types.Typ[types.Uintptr], true
	}
	return nil, false
}

// loaded returns the type a Load of an address of type t gives.
func loaded(t types.Type) types.Type {
	t = Deref(t)
	if c, ok := CellContent(t); ok {
		return c
	}
	return t
}

// TypeAfter returns the type of the value reached from a root of type t by
// ops (a Load of an atomic cell's address gives the cell's content).
func TypeAfter(t types.Type, ops []Op) types.Type {
	for _, o := range ops {
		switch o.Kind {
		case Load:
			t = loaded(t)
		case FieldAddr:
			st, ok := Deref(t).Underlying().(*types.Struct)
			if !ok || o.Index >= st.NumFields() {
				return nil
			}
			t = types.NewPointer(st.Field(o.Index).Type())
		case Field:
			st, ok := t.Underlying().(*types.Struct)
			if !ok || o.Index >= st.NumFields() {
				return nil
			}
			t = st.Field(o.Index).Type()
		case IndexAddr:
			e := elem(t)
			if e == nil {
				return nil
			}
			t = types.NewPointer(e)
		}
		if t == nil {
			return nil
		}
	}
	return t
}

// elem returns the element type of a slice, an array, or a pointer to an
// array; nil for other types.
func elem(t types.Type) types.Type {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	case *types.Pointer:
		if a, ok := u.Elem().Underlying().(*types.Array); ok {
			return a.Elem()
		}
	}
	return nil
}
