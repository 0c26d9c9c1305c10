// Package fixtest holds a test-only analyzer that offers fixes in cgo files.
package fixtest

import (
	"go/ast"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Analyzer is a test-only analyzer that offers fixes in cgo files: for
// each statement that calls a C function with an identifier as its first
// argument, it proposes inserting runtime.KeepAlive of that identifier after
// the statement (an edit that maps cleanly back through cgo's //line
// directives), and a second fix that renames the C function (an edit of text
// that cgo rewrote, which cannot be mapped back). The finalizer analyzer
// will offer the first kind of fix.
var Analyzer = &analysis.Analyzer{
	Name: "testkeepalive",
	Doc:  "test-only: propose runtime.KeepAlive after calls into C",
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				st, ok := n.(*ast.ExprStmt)
				if !ok {
					return true
				}
				call, ok := st.X.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return true
				}
				fun := ast.Unparen(call.Fun)
				var name string
				switch fun := fun.(type) {
				case *ast.Ident:
					name = fun.Name
				case *ast.SelectorExpr:
					if x, ok := fun.X.(*ast.Ident); ok && x.Name == "C" {
						name = "_Cfunc_" + fun.Sel.Name
					}
				}
				arg, ok := call.Args[0].(*ast.Ident)
				if !ok || !strings.HasPrefix(name, "_Cfunc_") {
					return true
				}
				pass.Report(analysis.Diagnostic{
					Pos:     call.Pos(),
					End:     call.End(),
					Message: "keep " + arg.Name + "'s owner alive until the call returns",
					SuggestedFixes: []analysis.SuggestedFix{{
						Message:   "add runtime.KeepAlive(" + arg.Name + ")",
						TextEdits: []analysis.TextEdit{{Pos: st.End(), End: st.End(), NewText: []byte("\n\truntime.KeepAlive(" + arg.Name + ")")}},
					}},
				})
				pass.Report(analysis.Diagnostic{
					Pos:     fun.Pos(),
					Message: "rename the C function",
					SuggestedFixes: []analysis.SuggestedFix{{
						Message:   "call C.renamed instead",
						TextEdits: []analysis.TextEdit{{Pos: fun.Pos(), End: fun.End(), NewText: []byte("C.renamed")}},
					}},
				})
				return true
			})
		}
		return nil, nil
	},
}
