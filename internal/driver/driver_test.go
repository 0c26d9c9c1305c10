package driver_test

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/lifetimevet/lifetimevet/analyzers"
	"github.com/lifetimevet/lifetimevet/internal/driver"
	"github.com/lifetimevet/lifetimevet/internal/testutil"
)

// marked is the fact of a function whose name starts with "Mark", or that
// calls a marked function (in its own package or an imported one).
type marked struct{}

func (*marked) AFact()         {}
func (*marked) String() string { return "marked" }

// funcs is a prerequisite of markAnalyzer, so that its result travels
// through ResultOf: the package's function declarations.
var funcs = &analysis.Analyzer{
	Name:       "funcs",
	Doc:        "list the function declarations",
	ResultType: reflect.TypeFor[[]*ast.FuncDecl](),
	Run: func(pass *analysis.Pass) (any, error) {
		var out []*ast.FuncDecl
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					out = append(out, fd)
				}
			}
		}
		return out, nil
	},
}

var markAnalyzer = &analysis.Analyzer{
	Name:      "mark",
	Doc:       "report calls of marked functions",
	Requires:  []*analysis.Analyzer{funcs},
	FactTypes: []analysis.Fact{new(marked)},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, fd := range pass.ResultOf[funcs].([]*ast.FuncDecl) {
			fn := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if strings.HasPrefix(fn.Name(), "Mark") {
				pass.ExportObjectFact(fn, new(marked))
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				var id *ast.Ident
				switch f := call.Fun.(type) {
				case *ast.Ident:
					id = f
				case *ast.SelectorExpr:
					id = f.Sel
				}
				if callee, ok := pass.TypesInfo.Uses[id].(*types.Func); ok && pass.ImportObjectFact(callee, new(marked)) {
					pass.ReportRangef(call, "call of marked %s", callee.FullName())
					if callee.Pkg() != pass.Pkg {
						pass.ExportObjectFact(fn, new(marked))
					}
				}
				return true
			})
		}
		return nil, nil
	},
}

// writeModule writes a module m with the given files (path → content)
// into a temporary directory and returns it.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module m\n\ngo 1.22\n"
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func load(t *testing.T, dir string, patterns ...string) (*token.FileSet, []*packages.Package) {
	t.Helper()
	cfg := &packages.Config{Mode: driver.LoadMode, Dir: dir, Fset: token.NewFileSet(), Env: append(os.Environ(), "GOFLAGS=", "GOPROXY=off")}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Fset, pkgs
}

func diagnostics(g *driver.Graph) []string {
	var out []string
	for act := range g.All() {
		for _, d := range act.Diagnostics {
			posn := act.Package.Fset.Position(d.Pos)
			out = append(out, fmt.Sprintf("%s:%d: %s: %s", filepath.Base(posn.Filename), posn.Line, act.Analyzer.Name, d.Message))
		}
	}
	slices.Sort(out)
	return out
}

const (
	cSrc = `package c

func Mark() {}
`
	bSrc = `package b

import "m/c"

func B() { c.Mark() }
`
	aSrc = `package a

import "m/b"

func A() { b.B() }
`
)

// Facts flow along imports, two levels deep; the dependencies are
// analysed (for facts) but only the root's findings are roots; syntax and
// type information are dropped once a package is done.
func TestFactsAcrossPackages(t *testing.T) {
	dir := writeModule(t, map[string]string{"c/c.go": cSrc, "b/b.go": bSrc, "a/a.go": aSrc})
	fset, pkgs := load(t, dir, "./a")
	var done []string // PackageDone: each package once, after its imports
	var mu sync.Mutex
	opts := &driver.Options{PackageDone: func(p *packages.Package) {
		mu.Lock()
		done = append(done, p.PkgPath)
		mu.Unlock()
	}}
	g, err := driver.Analyze([]*analysis.Analyzer{markAnalyzer}, fset, pkgs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"m/c", "m/b", "m/a"}; !slices.Equal(done, want) {
		t.Errorf("packages done: %v, want %v", done, want)
	}
	want := []string{"a.go:5: mark: call of marked m/b.B", "b.go:5: mark: call of marked m/c.Mark"}
	if got := diagnostics(g); !slices.Equal(got, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(g.Roots) != 1 || g.Roots[0].Package.PkgPath != "m/a" || g.Roots[0].Analyzer != markAnalyzer {
		t.Errorf("roots: %v", g.Roots)
	}
	n := 0
	for act := range g.All() {
		n++
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
		}
		p := act.Package
		if p.Syntax != nil || p.TypesInfo != nil {
			t.Errorf("%s: syntax or type information kept after the analysis", p)
		}
		if imported := p.PkgPath != "m/a"; imported != (p.Types != nil) || imported && !p.Types.Complete() {
			t.Errorf("%s: types kept: %v, want them for an imported package only", p, p.Types != nil)
		}
	}
	if n != 6 { // mark and funcs on a, b, c
		t.Errorf("%d actions, want 6", n)
	}
}

// carried is a fact with a field gob leaves out.
type carried struct {
	Name string
	own  *ast.FuncDecl // the analysis' own, as a pointer into the syntax
}

func (*carried) AFact() {}

var carryAnalyzer = &analysis.Analyzer{
	Name:      "carry",
	Doc:       "report what the facts of called functions carry",
	FactTypes: []analysis.Fact{new(carried)},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok {
					continue
				}
				pass.ExportObjectFact(pass.TypesInfo.Defs[fd.Name], &carried{Name: fd.Name.Name, own: fd})
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if sel, ok := n.(*ast.SelectorExpr); ok {
						var fact carried
						if obj := pass.TypesInfo.Uses[sel.Sel]; obj != nil && pass.ImportObjectFact(obj, &fact) {
							pass.ReportRangef(sel, "%s: own %v", fact.Name, fact.own != nil)
						}
					}
					return true
				})
			}
		}
		return nil, nil
	},
}

// Once a package is done, the driver keeps only its declarations' types
// (no objects of function bodies), and its facts reach importers as they
// would under go vet: through gob, without unexported fields.
func TestLightTypes(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"c/c.go": "package c\n\nfunc Mark() int { local := 1; return local }\n",
		"b/b.go": bSrc,
	})
	fset, pkgs := load(t, dir, "./b")
	g, err := driver.Analyze([]*analysis.Analyzer{carryAnalyzer}, fset, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"b.go:5: carry: Mark: own false"}
	if got := diagnostics(g); !slices.Equal(got, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for act := range g.All() {
		if act.Package.PkgPath != "m/c" {
			continue
		}
		var find func(s *types.Scope) bool
		find = func(s *types.Scope) bool {
			if s.Lookup("local") != nil {
				return true
			}
			for i := range s.NumChildren() {
				if find(s.Child(i)) {
					return true
				}
			}
			return false
		}
		if find(act.Package.Types.Scope()) {
			t.Errorf("%s: the types kept have the objects of function bodies", act.Package)
		}
		if act.Package.Types.Scope().Lookup("Mark") == nil {
			t.Errorf("%s: the types kept lack Mark", act.Package)
		}
	}
}

// A panic costs its action and the actions that need it, with an error
// that says so; the other packages are still analysed.
func TestPanic(t *testing.T) {
	dir := writeModule(t, map[string]string{"c/c.go": cSrc, "b/b.go": bSrc, "a/a.go": aSrc})
	fset, pkgs := load(t, dir, "./a", "./c")
	boom := &analysis.Analyzer{
		Name:      "boom",
		Doc:       "panic on package b",
		FactTypes: []analysis.Fact{new(marked)},
		Run: func(pass *analysis.Pass) (any, error) {
			if pass.Pkg.Name() == "b" {
				var m map[string]int
				m["x"] = 1
			}
			if pass.Pkg.Name() == "c" {
				pass.Reportf(pass.Files[0].Package, "c analysed")
			}
			return nil, nil
		},
	}
	g, err := driver.Analyze([]*analysis.Analyzer{boom}, fset, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	errs := map[string]string{}
	for act := range g.All() {
		if act.Err != nil {
			errs[act.Package.PkgPath] = act.Err.Error()
		}
	}
	if !strings.Contains(errs["m/b"], "analyzer boom panicked on package m/b: assignment to entry in nil map") {
		t.Errorf("error on b: %q", errs["m/b"])
	}
	if errs["m/a"] != "failed prerequisites: boom@m/b" {
		t.Errorf("error on a: %q", errs["m/a"])
	}
	if got := diagnostics(g); !slices.Equal(got, []string{"c.go:1: boom: c analysed"}) {
		t.Errorf("diagnostics: %q", got)
	}
}

// A package with a type error is not analysed, nor are its importers; its
// errors are in Errors, with their kind.
func TestIllTyped(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"c/c.go": "package c\n\nfunc Mark() { undefined() }\n",
		"b/b.go": bSrc,
	})
	fset, pkgs := load(t, dir, "./b")
	g, err := driver.Analyze([]*analysis.Analyzer{markAnalyzer}, fset, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	// As in the checker: the first action on a package is skipped, the
	// ones that need it fail with it.
	want := map[string]string{
		"funcs@m/c": "analysis skipped due to errors in package",
		"mark@m/c":  "failed prerequisites: funcs@m/c",
		"funcs@m/b": "analysis skipped due to errors in package",
		"mark@m/b":  "failed prerequisites: funcs@m/b, mark@m/c",
	}
	for act := range g.All() {
		if act.Err == nil || act.Err.Error() != want[act.String()] {
			t.Errorf("%s: err = %v, want %s", act, act.Err, want[act.String()])
		}
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, fmt.Sprintf("%s %v %s", p.PkgPath, e.Kind, e.Msg))
		}
	})
	if want := []string{"m/c 3 undefined: undefined"}; !slices.Equal(errs, want) {
		t.Errorf("errors %q, want %q", errs, want)
	}
	if !pkgs[0].IllTyped {
		t.Errorf("b is not IllTyped, but it imports an ill-typed package")
	}
}

// On every testdata package, with every analyzer of the suite, the driver
// finds what the x/tools checker finds, and fails where it fails.
func TestSameAsChecker(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the testdata packages and their dependencies twice")
	}
	src := filepath.Join(testutil.Testdata(), "src")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, e := range entries {
		if e.IsDir() {
			patterns = append(patterns, e.Name()+"/...")
		}
	}
	env := append(os.Environ(), "GOPATH="+testutil.Testdata(), "GO111MODULE=off", "GOPROXY=off", "GOFLAGS=")

	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: src, Env: env, Tests: true}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	cg, err := checker.Analyze(analyzers.All, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for act := range cg.All() {
		for _, d := range act.Diagnostics {
			want = append(want, fmt.Sprintf("%s: %s: %s", act.Package.Fset.Position(d.Pos), act.Analyzer.Name, d.Message))
		}
		if act.Err != nil {
			want = append(want, fmt.Sprintf("%s: %s: error: %v", act.Package.ID, act.Analyzer.Name, act.Err))
		}
	}

	// without a cache, with a cold one, with a warm one (every package
	// that has no errors loaded from it)
	c := openCache(t)
	for _, opts := range []*driver.Options{nil, {Cache: c}, {Cache: c}} {
		dcfg := &packages.Config{Mode: driver.LoadMode, Dir: src, Env: env, Tests: true, Fset: token.NewFileSet()}
		dpkgs, err := packages.Load(dcfg, patterns...)
		if err != nil {
			t.Fatal(err)
		}
		dg, err := driver.Analyze(analyzers.All, dcfg.Fset, dpkgs, opts)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for act := range dg.All() {
			for _, d := range act.Diagnostics {
				got = append(got, fmt.Sprintf("%s: %s: %s", act.Package.Fset.Position(d.Pos), act.Analyzer.Name, d.Message))
			}
			if act.Err != nil {
				got = append(got, fmt.Sprintf("%s: %s: error: %v", act.Package.ID, act.Analyzer.Name, act.Err))
			}
		}
		slices.Sort(want)
		slices.Sort(got)
		if len(want) < 100 {
			t.Fatalf("the checker found only %d things: the comparison would mean little", len(want))
		}
		if !slices.Equal(got, want) {
			for _, s := range want {
				if !slices.Contains(got, s) {
					t.Errorf("cache %v: missed: %s", opts != nil, s)
				}
			}
			for _, s := range got {
				if !slices.Contains(want, s) {
					t.Errorf("cache %v: extra: %s", opts != nil, s)
				}
			}
		}
	}
}

// An error in a dependency's function body makes it, and its importers,
// ill-typed even when no analyzer runs on the dependency (none has facts):
// the go command would not build it either.
func TestBodyErrorInDependency(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"c/c.go": "package c\n\nfunc Mark() { var x int = \"s\"; _ = x }\n",
		"b/b.go": bSrc,
	})
	fset, pkgs := load(t, dir, "./b")
	g, err := driver.Analyze([]*analysis.Analyzer{funcs}, fset, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(slices.Collect(g.All())); n != 1 {
		t.Fatalf("%d actions, want 1 (funcs has no facts: it runs on b only)", n)
	}
	if err := g.Roots[0].Err; err == nil || err.Error() != "analysis skipped due to errors in package" {
		t.Errorf("b: err = %v, want the analysis skipped", err)
	}
	c := pkgs[0].Imports["m/c"]
	if len(c.TypeErrors) != 1 || !strings.Contains(c.TypeErrors[0].Msg, `cannot use "s"`) {
		t.Errorf("c's type errors: %v", c.TypeErrors)
	}
}

// Metadata with an import cycle (which go/packages never gives: it breaks
// cycles) is an error, not a hang, even when some packages can be done.
func TestImportCycle(t *testing.T) {
	c := &packages.Package{ID: "c", PkgPath: "c", Name: "c"}
	a := &packages.Package{ID: "a", PkgPath: "a", Name: "a"}
	b := &packages.Package{ID: "b", PkgPath: "b", Name: "b", Imports: map[string]*packages.Package{"a": a}}
	a.Imports = map[string]*packages.Package{"b": b, "c": c}
	done := make(chan error)
	go func() {
		_, err := driver.Analyze(nil, token.NewFileSet(), []*packages.Package{a}, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || err.Error() != "import cycle among b, a" && err.Error() != "import cycle among a, b" {
			t.Errorf("err = %v, want an import cycle among a and b", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Analyze hangs on an import cycle")
	}
}
