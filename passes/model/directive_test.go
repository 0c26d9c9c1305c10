package model

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// FuzzDirectives checks that no //lifetime: directive, in any place a
// directive can stand (a type, a function, a statement, a trailing comment,
// a cgo preamble, a stray declaration), makes the directive collector
// panic, and that every problem it finds has a position in the file. Its
// seeds run in every go test.
func FuzzDirectives(f *testing.F) {
	for _, s := range []string{
		"handle", "threadsafe", "confined", "release", "release p", "release nosuch",
		"acquire", "borrow p", "ignore doublerelease reason", "ignore", "ignore nosuch x",
		"ignore doublerelease,finalizer reviewed // a note", "acquire f out=1 parent=0",
		"release f arg=9", "transfer g arg=-1", "release f arg=", "acquire f out=x",
		"frobnicate", "", " ", "override release free", "borrow f arg=0", "acquire f out=0 borrowed-from=1", "\u00e9\u00e9", strings.Repeat("x", 5000), "release f kind=k counted indirect clears global",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, d string) {
		if strings.ContainsAny(d, "\n\r") || strings.Contains(d, "*/") {
			return // one line of a line comment, and of the preamble's block comment
		}
		src := `package p

/*
//lifetime:` + d + `
#include <stdlib.h>
*/
import "C"

//lifetime:` + d + `
type T struct{ p *int }

//lifetime:` + d + `
type (
	A int
	B int
)

//lifetime:` + d + `
var v int

//lifetime:` + d + `
func (t *T) M(p *int) {
	//lifetime:` + d + `
	_ = p
	_ = t //lifetime:` + d + `
}
`
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
		if err != nil {
			return // not Go: not the collector's input
		}
		info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
		conf := types.Config{Importer: importer.Default(), Error: func(error) {}}
		conf.Check("p", fset, []*ast.File{file}, info) // import "C" fails without cgo: the collector must cope
		res := &Result{Model: New(), Types: map[*types.TypeName]TypeDirectives{}, Funcs: map[*types.Func]*FuncDirectives{}}
		c := &collector{fset: fset, info: info, res: res, preamble: New()}
		c.collect([]*ast.File{file}, nil)
		if d == "frobnicate" && len(res.Problems) == 0 {
			t.Error("an unknown verb was not reported")
		}
		for _, p := range res.Problems {
			if !p.Pos.IsValid() || fset.File(p.Pos) == nil {
				t.Errorf("problem without a position: %s", p.Msg)
			}
		}
	})
}

func TestNearMiss(t *testing.T) {
	for text, want := range map[string]string{
		"//LIFETIME:release p":     "//lifetime:release p",
		"//liftime:handle":         "//lifetime:handle",
		"//lfietime:handle":        "//lifetime:handle",
		"//lifetime-handle":        "//lifetime:handle",
		"//lifetime.confined":      "//lifetime:confined",
		"//lifetime\uff1ahandle":   "//lifetime:handle",
		"/*lifetime:handle*/":      "//lifetime:handle",
		"// lifetime:ignore x y":   "//lifetime:ignore x y",
		"//lifetime-relase p":      "//lifetime:release p",
		"//Lifetime:borrow p // x": "//lifetime:borrow p",
		"//lifetime_release p":     "//lifetime:release p",
		"//lifetime/release p":     "//lifetime:release p",
		"//+lifetime:release p":    "//lifetime:release p",
		"// +lifetime:release p":   "//lifetime:release p",
		"//lint:lifetime:release":  "//lifetime:release",
		"//nolint:liftime:handle":  "//lifetime:handle",
		"//lifetimevet:release p":  "//lifetime:release p",
		"//LifetimeVet:handle":     "//lifetime:handle",
		"//life-time:release p":    "//lifetime:release p",
		"//life_time:handle":       "//lifetime:handle",
		// not directives
		"//lifetime:handle":                          "",
		"// Lifetime: the buffer lives on":           "",
		"//lifetimes:differ":                         "",
		"// lifecycle: see Close":                    "",
		"//go:generate lifetime":                     "",
		"/* lifetime of the handle */":               "",
		"//lifetime-of-a-handle":                     "",
		"// liftime is misspelt here, in prose":      "",
		"// Note: lifetime of the handle":            "",
		"//todo:lifetimes differ":                    "",
		"// path/lifetime/release.go":                "",
		"//+build lifetime":                          "",
		"// lifetime_release is called from C":       "",
		"// lifetime/handle.go holds the rest":       "",
		"// lifetime-handle of the context":          "",
		"// lifetime.release happens in Close":       "",
		"// Lifetime: release the handle in Close":   "",
		"// lifetime: release the handle with Close": "",
		"// lifetime: handles live until Close":      "",
		"// life-time of the handle":                 "",
		"// lifetimevet reports this":                "",
	} {
		got, ok := nearMiss(text)
		if ok != (want != "") || got != want {
			t.Errorf("nearMiss(%q) = %q, %v; want %q", text, got, ok, want)
		}
	}
}

// TestTrailingCDirective: a //lifetime: directive after C code on a line
// of a /* */ preamble is reported at its column, as in a // preamble and a
// .h file (analysistest cannot hold a want inside a /* */ preamble); one
// inside a C string is not a comment, and is left alone.
func TestTrailingCDirective(t *testing.T) {
	src := "package p\n\n/*\n#include <stdlib.h>\nstatic void f(int *p) { free(p); } //lifetime:release f arg=0\nstatic const char *s = \"//lifetime:release f\";\n*/\nimport \"C\"\n"
	src = strings.Replace(src, "/*\n#include", "/*static int y; //lifetime:acquire y\n#include", 1)
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}}
	res := &Result{Model: New(), Types: map[*types.TypeName]TypeDirectives{}, Funcs: map[*types.Func]*FuncDirectives{}}
	c := &collector{fset: fset, info: info, res: res, preamble: New()}
	c.collect([]*ast.File{file}, nil)
	var got []string
	for _, p := range res.Problems {
		got = append(got, fmt.Sprintf("%d:%d %s", fset.Position(p.Pos).Line, fset.Position(p.Pos).Column, p.Msg))
	}
	want := []string{
		"3:17 //lifetime:acquire after code on the same line is not read: a //lifetime: directive must be on a line of its own; move it to its own line before or after the declaration",
		"5:36 //lifetime:release after code on the same line is not read: a //lifetime: directive must be on a line of its own; move it to its own line before or after the declaration",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(res.Model.Entries("f")) > 0 || len(c.preamble.Entries("f")) > 0 {
		t.Error("a trailing directive was applied")
	}
}
