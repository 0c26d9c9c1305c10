package srcname_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/lifetimevet/lifetimevet/internal/srcname"
)

const src = `package p

type T struct{}

func (T) Close() {}

func Map[E any](s []E, f func(E) E) {}

func Outer() {
	func() {
		go func() {}()
	}()
	Map([]int{1}, func(i int) int { return i })
	f := T{}.Close
	f()
}
`

// Func names closures by the function they are written in, generic
// instances by their generic function, wrappers by their method.
func TestFunc(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset,
		types.NewPackage("p", "p"), []*ast.File{f}, ssa.InstantiateGenerics)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for fn := range ssautil.AllFunctions(pkg.Prog) {
		got[fn.Name()] = srcname.Func(fn)
	}
	want := map[string]string{
		"Outer":       "Outer",
		"Outer$1":     "the function literal in Outer",
		"Outer$1$1":   "the function literal in Outer",
		"Outer$2":     "the function literal in Outer",
		"Close":       "Close",
		"Close$bound": "Close",
		"Map[int]":    "Map",
		"Map":         "Map",
		"init":        "init",
	}
	for ssaName, name := range want {
		if got[ssaName] != name {
			t.Errorf("Func(%s) = %q, want %q", ssaName, got[ssaName], name)
		}
	}
	if !slices.Contains(keys(got), "Map[int]") {
		t.Errorf("no instance Map[int] among %v: the test does not test instances", keys(got))
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
