package cgocall

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// indexCalls records every call expression of the user's files by the
// position go/ssa gives its call instruction (the left parenthesis).
func (r *Result) indexCalls(files []*ast.File) {
	r.callExprs = map[token.Pos]*ast.CallExpr{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				r.callExprs[call.Lparen] = call
			}
			return true
		})
	}
}

// CallExpr returns the call expression of a call instruction, or nil.
func (r *Result) CallExpr(instr ssa.CallInstruction) *ast.CallExpr {
	return r.callExprs[instr.Common().Pos()]
}

// ArgExpr returns the expression the user wrote for argument i of a call
// instruction of a Go function (go/ssa numbering: a method's receiver is
// argument 0), or nil.
func (r *Result) ArgExpr(instr ssa.CallInstruction, i int) ast.Expr {
	call := r.CallExpr(instr)
	if call == nil {
		return nil
	}
	com := instr.Common()
	if callee := com.StaticCallee(); callee != nil && callee.Signature.Recv() != nil {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && r.info != nil {
			if s, ok := r.info.Selections[sel]; ok && s.Kind() == types.MethodVal {
				if i == 0 {
					return sel.X
				}
				i--
			}
		}
	}
	if i < len(call.Args) {
		return call.Args[i]
	}
	return nil
}

// ArgExpr returns the expression the user wrote for argument i of a call
// into C, or nil.
func (c *Call) ArgExpr(i int) ast.Expr {
	if i < len(c.argExprs) {
		return c.argExprs[i]
	}
	return nil
}

// argExprs recovers the user's argument expressions of a call into C from
// the rewritten call: the arguments of _Cfunc_f(…), or the right-hand sides
// of the _cgoN bindings of a wrapper.
func (r *Result) argExprs(inner *ssa.Call, wrapper *ssa.Function) []ast.Expr {
	call := r.callExprs[inner.Call.Pos()]
	if call == nil {
		return nil
	}
	if wrapper == nil {
		return call.Args
	}
	bind := map[string]ast.Expr{}
	var lits []*ast.FuncLit
	for fn := wrapper; fn != nil; fn = fn.Parent() {
		if lit, ok := fn.Syntax().(*ast.FuncLit); ok && r.wrappers[fn] {
			lits = append(lits, lit)
		}
	}
	for _, lit := range lits {
		for _, st := range lit.Body.List {
			switch st := st.(type) {
			case *ast.AssignStmt:
				for i, l := range st.Lhs {
					if id, ok := l.(*ast.Ident); ok && i < len(st.Rhs) {
						bind[id.Name] = st.Rhs[i]
					}
				}
			case *ast.DeclStmt:
				if gd, ok := st.Decl.(*ast.GenDecl); ok {
					for _, s := range gd.Specs {
						if vs, ok := s.(*ast.ValueSpec); ok {
							for i, n := range vs.Names {
								if i < len(vs.Values) {
									bind[n.Name] = vs.Values[i]
								}
							}
						}
					}
				}
			}
		}
	}
	var out []ast.Expr
	for _, a := range call.Args {
		e := a
		for range 4 { // _cgo0 -> _cgoBase0 -> &x
			id, ok := ast.Unparen(e).(*ast.Ident)
			if !ok || !strings.HasPrefix(id.Name, "_cgo") || bind[id.Name] == nil {
				break
			}
			e = bind[id.Name]
		}
		out = append(out, e)
	}
	return out
}

var cgoName = regexp.MustCompile(`\b_C(?:func|2func|type|var|iconst|fconst|sconst|macro)_(\w+)|\b_CMalloc\b`)

// Text renders an expression of the user's code as the user wrote it: cgo's
// names (_Cfunc_f, _Ctype_int) read as C.f, C.int, and conversions that keep
// a handle's identity (unsafe.Pointer(p), C.CUdeviceptr(x)) are dropped.
func Text(info *types.Info, e ast.Expr) string {
	if e == nil {
		return ""
	}
	for {
		e = ast.Unparen(e)
		call, ok := e.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || info == nil {
			break
		}
		if tv, ok := info.Types[call.Fun]; !ok || !tv.IsType() {
			break
		}
		e = call.Args[0]
	}
	s := types.ExprString(e)
	s = cgoName.ReplaceAllStringFunc(s, func(m string) string {
		name := cgoName.FindStringSubmatch(m)[1]
		if m == "_CMalloc" || name == "_CMalloc" {
			return "C.malloc"
		}
		return "C." + name
	})
	return s
}
