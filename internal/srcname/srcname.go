// Package srcname names go/ssa values as the user's source names them, for
// messages: the variable a value was assigned to, even after go/ssa lifted
// the variable away.
package srcname

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"
)

// Of returns the name of the variable v is (a parameter, a free variable, a
// global, a local variable; for a range-over-func loop body's parameter,
// the loop variable), or the variable it was assigned to where it was
// created (x in x := &T{}); "" when it has none.
func Of(files []*ast.File, v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.Parameter:
		// a range-over-func loop body's parameters are go/ssa's (arg0,
		// arg1): the loop variables they are stored into are the user's
		if v.Parent() == nil || v.Parent().Synthetic != "range-over-func yield" {
			return v.Name()
		}
		if name := loopVar(v); name != "" {
			return name
		}
	case *ssa.FreeVar, *ssa.Global:
		return v.Name()
	case *ssa.Alloc:
		if isVar(v) {
			return v.Comment
		}
	case *ssa.Phi:
		// a variable assigned on several paths: go/ssa names the phi
		// after it
		if token.IsIdentifier(v.Comment) {
			return v.Comment
		}
	}
	// stored once into a named variable
	if refs := v.Referrers(); refs != nil {
		for _, r := range *refs {
			if st, ok := r.(*ssa.Store); ok && st.Val == v {
				if a, ok := st.Addr.(*ssa.Alloc); ok && isVar(a) {
					return a.Comment
				}
			}
		}
	}
	// the left-hand side of the assignment that created it
	pos := v.Pos()
	if !pos.IsValid() {
		return ""
	}
	for _, f := range files {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(f, pos, pos)
		for i, n := range path {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for j, rhs := range n.Rhs {
						if i > 0 && isValue(path[:i], rhs) {
							if id, ok := n.Lhs[j].(*ast.Ident); ok && id.Name != "_" {
								return id.Name
							}
						}
					}
				}
				return ""
			case *ast.ValueSpec:
				for j, rhs := range n.Values {
					if i > 0 && isValue(path[:i], rhs) && j < len(n.Names) {
						return n.Names[j].Name
					}
				}
				return ""
			case ast.Stmt:
				return ""
			}
		}
	}
	return ""
}

// isVar reports whether an Alloc is a variable of the source (its comment
// is the variable's name), not one go/ssa made for a composite literal,
// new(T), variadic arguments and the like.
func isVar(a *ssa.Alloc) bool {
	switch a.Comment {
	case "complit", "new", "slicelit", "varargs", "makeslice", "rangeindex", "":
		return false
	}
	return token.IsIdentifier(a.Comment)
}

// IsVar reports whether a is a source variable; see Of.
func IsVar(a *ssa.Alloc) bool { return isVar(a) }

// isValue reports whether the value created at the innermost node of
// path (innermost first, up to a child of an assignment) is that of the
// right-hand side rhs itself, not of an expression inside it (m[k] in
// x = C.use(m[k].h) is not what x is assigned): the nodes from it up to
// rhs are rhs, parentheses, a selector's name, or the literal of &T{}.
func isValue(path []ast.Node, rhs ast.Expr) bool {
	for k, n := range path {
		switch n := n.(type) {
		case *ast.ParenExpr:
			continue
		case *ast.Ident:
			if k+1 < len(path) {
				if sel, ok := path[k+1].(*ast.SelectorExpr); ok && sel.Sel == n {
					continue
				}
			}
		case *ast.CompositeLit:
			// &T{...}: go/ssa places the allocation at the literal
			if k+1 < len(path) {
				if u, ok := path[k+1].(*ast.UnaryExpr); ok && u.Op == token.AND {
					continue
				}
			}
		}
		return n == rhs || n == ast.Unparen(rhs)
	}
	return false
}

// Func returns the name of fn as the user's source names it, for messages:
// "F" or "Close" for a function or method, "the function literal in F" for
// a closure (F the named function it is written in, however deep), the
// generic function for an instance, the method for a bound-method or
// thunk wrapper (go/ssa names these F$1, F[int], Close$bound).
func Func(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if fn.Parent() == nil {
		name := fn.Name()
		if i := strings.IndexByte(name, '$'); i > 0 {
			name = name[:i]
		}
		return name
	}
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return "the function literal in " + Func(fn)
}

// loopVar returns the name of the range statement's key or value that the
// range-over-func loop body's parameter p is: its first parameter the key,
// its second the value; "" if that is no identifier.
func loopVar(p *ssa.Parameter) string {
	fn := p.Parent()
	i := -1
	for j, q := range fn.Params {
		if q == p {
			i = j
		}
	}
	rs, ok := fn.Syntax().(*ast.RangeStmt)
	if !ok || i < 0 {
		return ""
	}
	var e ast.Expr
	switch i {
	case 0:
		e = rs.Key
	case 1:
		e = rs.Value
	}
	if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
		return id.Name
	}
	return ""
}
