package driver_test

import (
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/lifetimevet/lifetimevet/internal/cgofile"
	"github.com/lifetimevet/lifetimevet/internal/driver"
)

// outsideAnalyzer marks the functions named Mark* of a package when the
// file "flag" beside the package's directory, none of its files, says
// "yes" (read with cgofile.ReadOutside, as the C reading reads a header
// of an -I directory), and reports calls of marked functions of other
// packages.
var outsideAnalyzer = &analysis.Analyzer{
	Name:      "outside",
	Doc:       "mark functions as a file outside the package says",
	FactTypes: []analysis.Fact{new(marked)},
	Run: func(pass *analysis.Pass) (any, error) {
		dir := filepath.Dir(pass.Fset.Position(pass.Files[0].Package).Filename)
		data, _ := cgofile.ReadOutside(pass, filepath.Join(dir, "..", "flag"))
		yes := strings.TrimSpace(string(data)) == "yes"
		for _, f := range pass.Files {
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok {
					continue
				}
				if fn := pass.TypesInfo.Defs[fd.Name].(*types.Func); yes && strings.HasPrefix(fn.Name(), "Mark") {
					pass.ExportObjectFact(fn, new(marked))
				}
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if sel, ok := n.(*ast.SelectorExpr); ok {
						if callee, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func); ok && pass.ImportObjectFact(callee, new(marked)) {
							pass.Reportf(sel.Pos(), "call of marked %s", callee.FullName())
						}
					}
					return true
				})
			}
		}
		return nil, nil
	},
}

// A file that an analysis read outside its package's files is in the
// package's key, and so in its importers': when it changes, appears or
// goes away, the package is analysed again and so is every importer whose
// facts come from it; when it does not, both are hits.
func TestCacheOutsideFiles(t *testing.T) {
	dir := writeModule(t, map[string]string{"c/c.go": cSrc, "b/b.go": bSrc})
	flagFile := filepath.Join(dir, "flag")
	opts := &driver.Options{Cache: openCache(t), CacheKey: []byte("k")}
	as := []*analysis.Analyzer{outsideAnalyzer}
	want := []string{"b.go:5: outside: call of marked m/c.Mark"}
	run := func(step string, wantDiags []string, wantMisses int) {
		t.Helper()
		fset, pkgs := load(t, dir, "./b")
		g, err := driver.Analyze(as, fset, pkgs, opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := diagnostics(g); !slices.Equal(got, wantDiags) {
			t.Errorf("%s: %v, want %v", step, got, wantDiags)
		}
		if wantMisses >= 0 && g.CacheMisses != wantMisses {
			t.Errorf("%s: %d misses (%v), want %d", step, g.CacheMisses, g.Missed, wantMisses)
		}
	}
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(flagFile, []byte(s), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	run("cold, no flag file", nil, -1)
	run("warm, no flag file", nil, 0)
	write("yes\n")
	run("flag file created", want, 2)
	run("warm", want, 0)
	write("no\n")
	run("flag file changed", nil, 2)
	write("yes\n")
	run("changed back", want, 0) // the entries of the first "yes" run
	if err := os.Remove(flagFile); err != nil {
		t.Fatal(err)
	}
	run("flag file removed", nil, 0) // as in the first runs
}
