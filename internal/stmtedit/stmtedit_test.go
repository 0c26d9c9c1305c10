package stmtedit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"golang.org/x/tools/go/ast/astutil"
)

// Terminates follows the specification's list of terminating statements,
// without go/types (panic is taken by its name when info is nil).
func TestTerminates(t *testing.T) {
	for src, want := range map[string]bool{
		"return":                                true,
		"panic(1)":                              true,
		"println(1)":                            false,
		"goto L; L:":                            true,
		"{ x++; return }":                       true,
		"if x > 0 { return } else { panic(0) }": true,
		"if x > 0 { return }":                   false,
		"if x > 0 { return } else { x++ }":      false,
		"for {}":                                true,
		"for { break }":                         false,
		"for { for { break } }":                 true,
		"for x > 0 {}":                          false,
		"for range 3 {}":                        false,
		"L: for { for { break L } }":            false,
		"switch x { case 1: return; default: panic(0) }":    true,
		"switch x { case 1: return }":                       false,
		"switch x { case 1: fallthrough; default: return }": true,
		"switch x { case 1: break; default: return }":       false,
		"select { case <-ch: return }":                      true,
		"select { case <-ch: x++ }":                         false,
		"select {}":                                         true,
	} {
		body := parseBody(t, src)
		if got := Terminates(body.List[0], nil); got != want {
			t.Errorf("Terminates(%s) = %v, want %v", src, got, want)
		}
	}
}

// Completes: control may reach the end of the statement; a break or
// continue of an enclosing statement (the statements are parsed alone, as
// a loop's body would hold them) leaves it, one of a statement inside it
// does not.
func TestCompletes(t *testing.T) {
	for src, want := range map[string]bool{
		"return":                                 false,
		"panic(1)":                               false,
		"println(1)":                             true,
		"break":                                  false,
		"continue":                               false,
		"{ x++; break }":                         false,
		"if x > 0 { return }":                    true,
		"if x > 0 { return } else { break }":     false,
		"if x > 0 { break } else { x++ }":        true,
		"for {}":                                 false,
		"for { break }":                          true,
		"for { switch { default: break } }":      false,
		"L: for { switch { default: break L } }": true,
		"for range 3 { return }":                 true,
		"switch x { case 1: return; default: continue }":                   false,
		"switch x { case 1: return }":                                      true,
		"switch x { case 1: break; default: return }":                      true,
		"switch x { case 1: fallthrough; default: return }":                false,
		"switch x { case 1: if x > 0 { break }; return; default: return }": true,
		"L: switch x { case 1: for { break L }; default: return }":         true,
		"switch x { case 1: for { break }; default: return }":              true,
		"select { case <-ch: break }":                                      true,
		"select { case <-ch: continue; default: return }":                  false,
		"select {}": false,
		"if x > 0 { func() { return }() } else { return }": true,
	} {
		body := parseBody(t, src)
		if got := Completes(body.List[0], nil); got != want {
			t.Errorf("Completes(%s) = %v, want %v", src, got, want)
		}
	}
}

// HasContinue: a continue that may take a loop around the statement.
func TestHasContinue(t *testing.T) {
	for src, want := range map[string]bool{
		"continue":                              true,
		"if x > 0 { continue }":                 true,
		"for { continue }":                      false,
		"for range 3 { if x > 0 { continue } }": false,
		"L: for { continue L }":                 true,
		"for { continue L }":                    true,
		"switch { default: continue }":          true,
		"func() { for { continue } }()":         false,
	} {
		body := parseBody(t, src)
		if got := HasContinue(body.List[0]); got != want {
			t.Errorf("HasContinue(%s) = %v, want %v", src, got, want)
		}
	}
}

func parseBody(t *testing.T, src string) *ast.BlockStmt {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", "package p\nfunc f(x int, ch chan int) {\n"+src+"\n}\n", 0)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return f.Decls[0].(*ast.FuncDecl).Body
}

// Enclosing finds the statement of a list that holds an expression: in a
// block, a case clause, a comm clause, under labels; not a comm clause's
// own receive.
func TestEnclosing(t *testing.T) {
	for _, tc := range []struct {
		src, inner string // inner: the kind of statement under the labels
		depth      int
	}{
		{"CALL()", "*ast.ExprStmt", 1},
		{"switch x { case 1: return CALL() }", "*ast.ReturnStmt", 2},
		{"select { case <-ch: return CALL() }", "*ast.ReturnStmt", 2},
		{"select { case ch <- CALL(): }", "*ast.SelectStmt", 1},
		{"switch x { case CALL(): }", "*ast.SwitchStmt", 1},
		{"goto L; L: M: return CALL()", "*ast.ReturnStmt", 1},
		{"if CALL() > 0 { return 1 }", "*ast.IfStmt", 1},
		{"func() { CALL() }()", "*ast.ExprStmt", 2},
	} {
		src := "package p\nfunc CALL() int { return 0 }\nfunc f(x int, ch chan int) int {\n" + tc.src + "\nreturn 0\n}\n"
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", src, 0)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		var call ast.Node
		ast.Inspect(f.Decls[1], func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && call == nil {
				if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "CALL" {
					call = c
				}
			}
			return true
		})
		path, _ := astutil.PathEnclosingInterval(f, call.Pos(), call.Pos())
		_, inner, depth, ok := Enclosing(path)
		if !ok || typeName(inner) != tc.inner || depth != tc.depth {
			t.Errorf("%s: %v %s depth %d, want %s depth %d", tc.src, ok, typeName(inner), depth, tc.inner, tc.depth)
		}
	}
}

func typeName(n ast.Node) string {
	switch n.(type) {
	case *ast.ExprStmt:
		return "*ast.ExprStmt"
	case *ast.ReturnStmt:
		return "*ast.ReturnStmt"
	case *ast.SelectStmt:
		return "*ast.SelectStmt"
	case *ast.IfStmt:
		return "*ast.IfStmt"
	case *ast.SwitchStmt:
		return "*ast.SwitchStmt"
	case *ast.AssignStmt:
		return "*ast.AssignStmt"
	}
	return "other"
}

// LineEnd goes past the comments that end a statement's line, and stops
// at the statement when code follows on the line.
func TestLineEnd(t *testing.T) {
	for _, tc := range []struct {
		rest string // what follows the statement
		at   int    // where an insertion goes, from the statement's end; -1: at it, code follows
	}{
		{"\n", 0},
		{" // c\n", 5},
		{" // c\r\n", 5},
		{" /* c */\n", 8},
		{"; /* c */ next()\n", -1},
		{"; next()\n", -1},
		{" }\n", -1},
		{";\n", 1},
		{"; // c\n", 6},
		{" /* a\nb */ next()", -1},
		{"", 0},
	} {
		src := []byte("stmt" + tc.rest)
		at, ok := LineEnd(src, 4)
		want := 4 + tc.at
		if tc.at < 0 {
			want = 4
		}
		if at != want || ok != (tc.at >= 0) {
			t.Errorf("LineEnd after %q = %d, %v; want %d, %v", tc.rest, at, ok, want, tc.at >= 0)
		}
	}
}

// A position at a function literal's signature (cgo's wrapper of a call
// with pointer arguments, func() T { ... }(), is at the call's position)
// is held by the statement the literal is in.
func TestEnclosingWrapper(t *testing.T) {
	src := "package p\nfunc f() (x int) {\n\tx = func() int { return 0 }()\n\treturn\n}\n"
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var lit *ast.FuncLit
	ast.Inspect(f, func(n ast.Node) bool {
		if l, ok := n.(*ast.FuncLit); ok {
			lit = l
		}
		return true
	})
	path, _ := astutil.PathEnclosingInterval(f, lit.Pos(), lit.Pos())
	stmt, _, depth, ok := Enclosing(path)
	if _, assign := stmt.(*ast.AssignStmt); !ok || !assign || depth != 1 {
		t.Errorf("Enclosing at the literal: %T depth %d, %v", stmt, depth, ok)
	}
}

func TestWidenDeletion(t *testing.T) {
	for _, tc := range []struct{ src, del, want string }{
		// [ and ] mark the deletion
		{"\t/* c */ [x()]\n", "", "\t/* c */\n"},
		{"\t/* c */ [x()]\r\n", "", "\t/* c */\r\n"},
		{"\t/* c */ [x()]  ", "", "\t/* c */"},
		{"\tL: [x()]\n", "", "\tL:\n"},
		{"\t[x()] // c\n", "", "\t // c\n"}, // a comment follows: the blanks before it stay
		{"\t[x()]; y()\n", "", "\t; y()\n"},
	} {
		start := strings.Index(tc.src, "[")
		end := strings.Index(tc.src, "]") - 1
		src := strings.NewReplacer("[", "", "]", "").Replace(tc.src)
		s, e := WidenDeletion([]byte(src), start, end)
		if got := src[:s] + src[e:]; got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.src, got, tc.want)
		}
	}
}
