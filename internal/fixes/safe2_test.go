package fixes_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/lifetimevet/lifetimevet/internal/driver"
	"github.com/lifetimevet/lifetimevet/internal/fixes"
	"github.com/lifetimevet/lifetimevet/internal/fixes/fixtest"
)

// The tests of this file are of the second break-it trial of issue 17: a
// //line directive naming another file of the package (or another line of
// the same file), an -overlay, and a fix whose result does not parse. The
// failing writes are in write_unix_test.go.

// A //line directive in a cgo file that names another file of the same
// package, or another line of the same file, does not move the edit: cgo's
// output gives positions through the user's directives, not of the
// file's own lines, so the fix is refused and no file is written.
func TestFixLineDirectiveSibling(t *testing.T) {
	sibling := "package shared\n\nimport \"fmt\"\n\nfunc Hello() {\n\tfmt.Println(\"a\")\n\tfmt.Println(\"b\")\n\tfmt.Println(\"c\")\n}\n"
	for _, tc := range []struct{ name, directive, refusal string }{
		{"other file", "//line a.go:5:1", "is in a.go only by a //line directive in shared.go"},
		{"same file", "//line shared.go:3:1", "shared.go has //line directives of its own"},
		{"block form", "/*line shared.go:3:1*/", "shared.go has //line directives of its own"},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			dir := t.TempDir()
			src := strings.Replace(cgoFile, "func Use(", tc.directive+"\nfunc Use(", 1)
			writeTree(t, dir, map[string]string{"go.mod": goMod, "p1/a.go": sibling, "p1/shared.go": src})
			a := analyse(t, dir)
			if len(a.fixes) != 1 {
				t.Fatalf("%d KeepAlive fixes, want 1", len(a.fixes))
			}
			fs := &fixes.Files{Digest: a.graph.Digest, ReadFile: a.graph.ReadFile}
			mapped, refused := a.mapAll(fs)
			if len(mapped) != 0 || len(refused) != 1 || !strings.Contains(refused[0], tc.refusal) {
				t.Errorf("mapped %+v, refused %q", mapped, refused)
			}
			fs.Apply(mapped, nil)
			if got := readString(t, filepath.Join(dir, "p1", "a.go")); got != sibling {
				t.Errorf("a.go was written:\n%s", got)
			}
			if got := readString(t, filepath.Join(dir, "p1", "shared.go")); got != src {
				t.Errorf("shared.go was written:\n%s", got)
			}
		})
	}
}

// A cgo file without //line directives of its own is still fixed (the
// check above is not a refusal of every cgo file), next to a plain file
// with one, which is edited at its own offsets.
func TestFixLineDirectiveOnlyInPlainFile(t *testing.T) {
	dir := t.TempDir()
	plain := "package shared\n\n//line shared.go:12:1\nfunc Other() {}\n"
	writeTree(t, dir, map[string]string{"go.mod": goMod, "p1/a.go": plain, "p1/shared.go": cgoFile})
	a := analyse(t, dir)
	fs := &fixes.Files{Digest: a.graph.Digest, ReadFile: a.graph.ReadFile}
	mapped, refused := a.mapAll(fs)
	if len(mapped) != 1 || len(refused) != 0 {
		t.Fatalf("mapped %d, refused %q", len(mapped), refused)
	}
	if _, _, err := fs.Apply(mapped, nil); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(dir, "p1", "shared.go")); got != cgoFixed {
		t.Errorf("shared.go:\n%s\nwant:\n%s", got, cgoFixed)
	}
	if got := readString(t, filepath.Join(dir, "p1", "a.go")); got != plain {
		t.Errorf("a.go was written:\n%s", got)
	}
}

// With an -overlay, the analysis is of the overlay's content: the digest
// is of that content, and the file on disk, which is not what was
// analysed, gets no fix (the overlay's content has the call on another
// line: an edit at its offsets would land elsewhere on disk).
func TestFixOverlaidFile(t *testing.T) {
	dir := t.TempDir()
	overlaid := strings.Replace(cgoFile, "import \"runtime\"\n", "import \"runtime\"\n\n// two lines the disk file does not have\n", 1)
	ovDir := t.TempDir() // outside the module
	writeTree(t, dir, map[string]string{"go.mod": goMod, "p1/shared.go": cgoFile, "p1/plain.go": "package shared\n\nfunc OnDisk() {}\n"})
	writeTree(t, ovDir, map[string]string{"shared.go": overlaid, "plain.go": "package shared\n\nfunc InTheOverlay() {}\n"})
	cfgFile := filepath.Join(ovDir, "overlay.json")
	data, _ := json.Marshal(map[string]any{"Replace": map[string]string{
		filepath.Join(dir, "p1", "shared.go"): filepath.Join(ovDir, "shared.go"),
		filepath.Join(dir, "p1", "plain.go"):  filepath.Join(ovDir, "plain.go"),
	}})
	os.WriteFile(cfgFile, data, 0o666)
	goflags := "-mod=mod -overlay=" + cfgFile
	ov, err := driver.OverlayFlag(goflags, nil, dir)
	if err != nil || len(ov) != 2 {
		t.Fatalf("overlay %v: %v", ov, err)
	}
	cfg := &packages.Config{Mode: driver.LoadMode, Dir: dir, Fset: token.NewFileSet(), Env: append(os.Environ(), "GOWORK=off", "CGO_ENABLED=1", "GOFLAGS="+goflags)}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	// funcs reports the functions of the package's files: the plain
	// file is read through the overlay too, as the build reads it
	funcs := &analysis.Analyzer{Name: "funcs", Doc: "report functions", Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					pass.Reportf(fd.Pos(), "func %s", fd.Name.Name)
				}
			}
		}
		return nil, nil
	}}
	g, err := driver.Analyze([]*analysis.Analyzer{fixtest.Analyzer, funcs}, cfg.Fset, pkgs, &driver.Options{Overlay: ov})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for act := range g.All() {
		for _, d := range act.Diagnostics {
			if act.Analyzer == funcs {
				names = append(names, d.Message)
			}
		}
	}
	if !slices.Contains(names, "func InTheOverlay") || slices.Contains(names, "func OnDisk") {
		t.Errorf("the plain file was not read through the overlay: %q", names)
	}
	if !g.Overlaid(filepath.Join(dir, "p1", "plain.go")) || g.Overlaid(filepath.Join(dir, "go.mod")) {
		t.Errorf("Overlaid is wrong")
	}
	for _, withOverlaid := range []bool{true, false} {
		fs := &fixes.Files{Digest: g.Digest, ReadFile: g.ReadFile}
		want := "changed since it was analysed"
		if withOverlaid {
			fs.Overlaid = g.Overlaid
			want = "is replaced by an -overlay"
		}
		var mapped []*fixes.Fix
		var refused []string
		for act := range g.All() {
			for _, d := range act.Diagnostics {
				for _, sf := range d.SuggestedFixes {
					if !strings.HasPrefix(sf.Message, "add runtime.KeepAlive") {
						continue
					}
					m, err := fs.Map(cfg.Fset, sf, act.Package.GoFiles)
					if err != nil {
						refused = append(refused, err.Error())
						continue
					}
					mapped = append(mapped, m)
				}
			}
		}
		if len(mapped) != 0 || len(refused) != 1 || !strings.Contains(refused[0], want) {
			t.Errorf("Overlaid given %v: mapped %d, refused %q", withOverlaid, len(mapped), refused)
		}
		fs.Apply(mapped, nil)
		if got := readString(t, filepath.Join(dir, "p1", "shared.go")); got != cgoFile {
			t.Errorf("the overlaid file was written on disk:\n%s", got)
		}
	}
}

// A fix whose result does not parse is never made: Map refuses it (so
// that neither -fix nor SARIF nor the language server offers it), and
// Apply, given it anyway, does not write the file.
func TestFixThatDoesNotParse(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nfunc f(n int) {\n\tn++; /* c */ println(n)\n}\n"
	name := filepath.Join(dir, "p.go")
	os.WriteFile(name, []byte(src), 0o666)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	// "on the next line, after the comment": before println, without a
	// separator
	at := f.Comments[0].End()
	bad := analysis.SuggestedFix{Message: "add a statement", TextEdits: []analysis.TextEdit{{Pos: at, End: at, NewText: []byte("\n\tprintln(0)")}}}
	var fs fixes.Files
	if m, err := fs.Map(fset, bad, []string{name}); err == nil || !strings.Contains(err.Error(), "the fixed p.go would not parse") {
		t.Errorf("Map: %+v, %v", m, err)
	}
	off := fset.File(at).Offset(at)
	fix := &fixes.Fix{Message: "add a statement", Edits: []fixes.Edit{{File: name, Start: off, End: off, New: "\n\tprintln(0)"}}}
	changed, _, err := fs.Apply([]*fixes.Fix{fix}, nil)
	if len(changed) != 0 || err == nil || !strings.Contains(err.Error(), "p.go: not fixed: the fixed p.go would not parse") {
		t.Errorf("Apply: changed %v, %v", changed, err)
	}
	if got := readString(t, name); got != src {
		t.Errorf("p.go was written:\n%s", got)
	}
	// the same insertion with a separator is made
	good := analysis.SuggestedFix{Message: "add a statement", TextEdits: []analysis.TextEdit{{Pos: at, End: at, NewText: []byte(" println(0);")}}}
	var fs2 fixes.Files
	m, err := fs2.Map(fset, good, []string{name})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := fs2.Apply([]*fixes.Fix{m}, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := readString(t, name), strings.Replace(src, "/* c */", "/* c */ println(0);", 1); got != want {
		t.Errorf("p.go:\n%s\nwant:\n%s", got, want)
	}
}
