package fixes_test

import (
	"errors"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/lifetimevet/lifetimevet/analyzers/unguardedcounter"
	"github.com/lifetimevet/lifetimevet/internal/driver"
	"github.com/lifetimevet/lifetimevet/internal/fixes"
	"github.com/lifetimevet/lifetimevet/internal/fixes/fixtest"
)

// The tests of this file build a module in a temporary directory, analyse
// it with the test analyzer (which proposes runtime.KeepAlive after each
// call into C, and a rename of the C function that never maps), and check
// the files byte for byte after the fixes.

const cgoFile = `package shared

/*
typedef struct { int live; } obj;
static void obj_use(obj* o) { o->live = 1; }
*/
import "C"

import "runtime"

func Use(p *C.obj) {
	C.obj_use(p)
}

var _ = runtime.KeepAlive
`

const cgoFixed = `package shared

/*
typedef struct { int live; } obj;
static void obj_use(obj* o) { o->live = 1; }
*/
import "C"

import "runtime"

func Use(p *C.obj) {
	C.obj_use(p)
	runtime.KeepAlive(p)
}

var _ = runtime.KeepAlive
`

// writeTree writes files (name → content) under dir; a content of the form
// "-> target" makes a symlink.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, "-> "); ok {
			if err := os.Symlink(target, p); err != nil {
				t.Skipf("symlink: %v", err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// analysed is the outcome of analysing a module with the test analyzer.
type analysed struct {
	graph *driver.Graph
	fset  *token.FileSet
	// the KeepAlive fixes, with the Go files of their packages
	fixes   []analysis.SuggestedFix
	sources [][]string
}

func analyse(t *testing.T, dir string) *analysed {
	t.Helper()
	return analyseWith(t, dir, fixtest.Analyzer, "add runtime.KeepAlive")
}

func analyseWith(t *testing.T, dir string, an *analysis.Analyzer, fixPrefix string) *analysed {
	t.Helper()
	cfg := &packages.Config{Mode: driver.LoadMode, Dir: dir, Fset: token.NewFileSet(), Env: append(os.Environ(), "GOWORK=off", "CGO_ENABLED=1", "GOFLAGS=-mod=mod")}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	g, err := driver.Analyze([]*analysis.Analyzer{an}, cfg.Fset, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := &analysed{graph: g, fset: cfg.Fset}
	for act := range g.All() {
		if act.Err != nil {
			t.Fatalf("%s: %v", act, act.Err)
		}
		if !act.IsRoot {
			continue
		}
		for _, d := range act.Diagnostics {
			for _, sf := range d.SuggestedFixes {
				if strings.HasPrefix(sf.Message, fixPrefix) {
					out.fixes = append(out.fixes, sf)
					out.sources = append(out.sources, act.Package.GoFiles)
				}
			}
		}
	}
	return out
}

// mapAll maps the fixes with the digests of the analysis, and returns the
// mapped fixes and the refusals.
func (a *analysed) mapAll(fs *fixes.Files) (mapped []*fixes.Fix, refused []string) {
	for i, sf := range a.fixes {
		m, err := fs.Map(a.fset, sf, a.sources[i])
		if err != nil {
			refused = append(refused, err.Error())
			continue
		}
		mapped = append(mapped, m)
	}
	return mapped, refused
}

func readString(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

const goMod = "module example.com/shared\n\ngo 1.24\n"

// A file that two packages reach (p2/shared.go is a symlink to
// p1/shared.go) gets its fix once, and is written once.
func TestFixSymlinkedFileOnce(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"go.mod":       goMod,
		"p1/shared.go": cgoFile,
		"p2/shared.go": "-> ../p1/shared.go",
	})
	a := analyse(t, dir)
	if len(a.fixes) != 2 {
		t.Fatalf("%d KeepAlive fixes, want 2 (one per package)", len(a.fixes))
	}
	fs := &fixes.Files{Digest: a.graph.Digest}
	mapped, refused := a.mapAll(fs)
	if len(refused) > 0 {
		t.Fatalf("refused: %q", refused)
	}
	writes := map[string]int{}
	changed, conflicts, err := fs.Apply(mapped, func(name string, data []byte) error {
		writes[name]++
		return os.WriteFile(name, data, 0o666)
	})
	if err != nil || len(conflicts) > 0 || len(changed) != 1 || len(writes) != 1 {
		t.Fatalf("Apply: changed %v, conflicts %v, writes %v, %v", changed, conflicts, writes, err)
	}
	if got := readString(t, filepath.Join(dir, "p1", "shared.go")); got != cgoFixed {
		t.Errorf("p1/shared.go after the fixes:\n%s\nwant:\n%s", got, cgoFixed)
	}
}

// The same for a fix that replaces text in a file without cgo (applied
// twice, the second application used to delete the wrong bytes).
func TestFixSymlinkedFileOncePlain(t *testing.T) {
	src := `package shared

import "sync/atomic"

type Buf struct {
	refs int32
	free func()
}

func (b *Buf) Release() {
	atomic.AddInt32(&b.refs, -1)
	if atomic.LoadInt32(&b.refs) == 0 {
		b.free()
	}
}

func (b *Buf) Other() {}
`
	want := strings.Replace(src, "\tatomic.AddInt32(&b.refs, -1)\n\tif atomic.LoadInt32(&b.refs) == 0 {", "\tif atomic.AddInt32(&b.refs, -1) == 0 {", 1)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"go.mod":       goMod,
		"p1/shared.go": src,
		"p2/shared.go": "-> ../p1/shared.go",
	})
	a := analyseWith(t, dir, unguardedcounter.Analyzer, "test the value atomic Add returns")
	if len(a.fixes) != 2 {
		t.Fatalf("%d fixes, want 2 (one per package)", len(a.fixes))
	}
	fs := &fixes.Files{Digest: a.graph.Digest}
	mapped, refused := a.mapAll(fs)
	if len(refused) > 0 {
		t.Fatalf("refused: %q", refused)
	}
	if _, _, err := fs.Apply(mapped, nil); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(dir, "p1", "shared.go")); got != want {
		t.Errorf("p1/shared.go after the fixes:\n%s\nwant:\n%s", got, want)
	}
}

// A file edited after it was analysed is not fixed: neither when it
// changed before Map (the digest differs) nor between Map and Apply.
func TestFixRefusesChangedFile(t *testing.T) {
	for _, when := range []string{"before Map", "before Apply"} {
		t.Run(strings.ReplaceAll(when, " ", "_"), func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"go.mod": goMod, "p1/shared.go": cgoFile})
			a := analyse(t, dir)
			name := filepath.Join(dir, "p1", "shared.go")
			edited := "// a line the user added while the run went on\n" + cgoFile
			fs := &fixes.Files{Digest: a.graph.Digest}
			var mapped []*fixes.Fix
			var refused []string
			if when == "before Map" {
				os.WriteFile(name, []byte(edited), 0o666)
				mapped, refused = a.mapAll(fs)
				if len(mapped) != 0 || len(refused) != 1 || !strings.Contains(refused[0], name+" changed since it was analysed") {
					t.Errorf("Map of a changed file: mapped %d, refused %q", len(mapped), refused)
				}
			} else {
				mapped, refused = a.mapAll(fs)
				if len(mapped) != 1 {
					t.Fatalf("mapped %d, refused %q", len(mapped), refused)
				}
				os.WriteFile(name, []byte(edited), 0o666)
				changed, _, err := fs.Apply(mapped, nil)
				if len(changed) != 0 || err == nil || !strings.Contains(err.Error(), name+": not fixed: the file changed since it was analysed") {
					t.Errorf("Apply to a changed file: changed %v, %v", changed, err)
				}
			}
			if got := readString(t, name); got != edited {
				t.Errorf("the edited file was rewritten:\n%s", got)
			}
		})
	}
}

// A //line directive in a cgo file that names another file does not carry
// the edit into that file.
func TestFixLineDirectiveElsewhere(t *testing.T) {
	dir := t.TempDir()
	notes := strings.Repeat("notes, not Go\n", 30)
	src := strings.Replace(cgoFile, "func Use(", "//line "+filepath.Join(dir, "notes.txt")+":20:1\nfunc Use(", 1)
	writeTree(t, dir, map[string]string{"go.mod": goMod, "notes.txt": notes, "p1/shared.go": src})
	a := analyse(t, dir)
	if len(a.fixes) != 1 {
		t.Fatalf("%d KeepAlive fixes, want 1", len(a.fixes))
	}
	fs := &fixes.Files{Digest: a.graph.Digest}
	mapped, refused := a.mapAll(fs)
	if len(mapped) != 0 || len(refused) != 1 || !strings.Contains(refused[0], "notes.txt, which is not a file of the package") {
		t.Errorf("mapped %d, refused %q", len(mapped), refused)
	}
	fs.Apply(mapped, nil)
	if got := readString(t, filepath.Join(dir, "notes.txt")); got != notes {
		t.Errorf("notes.txt was written:\n%s", got)
	}
	if got := readString(t, filepath.Join(dir, "p1", "shared.go")); got != src {
		t.Errorf("shared.go was written:\n%s", got)
	}
}

// A generated file gets no fix.
func TestFixNotInGeneratedFile(t *testing.T) {
	dir := t.TempDir()
	src := "// Code generated by hand for this test. DO NOT EDIT.\n\n" + cgoFile
	writeTree(t, dir, map[string]string{"go.mod": goMod, "p1/shared.go": src})
	a := analyse(t, dir)
	fs := &fixes.Files{Digest: a.graph.Digest}
	mapped, refused := a.mapAll(fs)
	if len(mapped) != 0 || len(refused) != 1 || !strings.Contains(refused[0], "is generated") {
		t.Errorf("mapped %d, refused %q", len(mapped), refused)
	}
}

// A CRLF file keeps CRLF on the lines a fix adds.
func TestFixKeepsCRLF(t *testing.T) {
	dir := t.TempDir()
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	writeTree(t, dir, map[string]string{"go.mod": goMod, "p1/shared.go": crlf(cgoFile)})
	a := analyse(t, dir)
	fs := &fixes.Files{Digest: a.graph.Digest}
	mapped, refused := a.mapAll(fs)
	if len(mapped) != 1 {
		t.Fatalf("mapped %d, refused %q", len(mapped), refused)
	}
	// the mapped edits themselves carry CRLF, for the language server's
	// and SARIF's clients, which apply them as given
	for _, e := range mapped[0].Edits {
		if strings.Contains(strings.ReplaceAll(e.New, "\r\n", ""), "\n") {
			t.Errorf("mapped edit %q has a bare LF in a CRLF file", e.New)
		}
	}
	if _, _, err := fs.Apply(mapped, nil); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(dir, "p1", "shared.go")); got != crlf(cgoFixed) {
		t.Errorf("after the fix: %q\nwant %q", got, crlf(cgoFixed))
	}
}

// Two insertions at one point are both made, in order; a file that cannot
// be written is an error naming it, and the other files are still written.
func TestApplyMergesInsertionsAndGoesOn(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("one\ntwo\n"), 0o666)
	os.WriteFile(b, []byte("x\n"), 0o666)
	fs := &fixes.Files{}
	ins := func(file string, at int, text string) *fixes.Fix {
		return &fixes.Fix{Message: text, Edits: []fixes.Edit{{File: file, Start: at, End: at, New: text}}}
	}
	all := []*fixes.Fix{ins(a, 4, "first\n"), ins(a, 4, "second\n"), ins(a, 4, "first\n"), ins(b, 0, "y\n")}
	failB := errors.New("no space left on device")
	changed, conflicts, err := fs.Apply(all, func(name string, data []byte) error {
		if name == b {
			return failB
		}
		return os.WriteFile(name, data, 0o666)
	})
	if len(conflicts) != 0 {
		t.Errorf("conflicts: %v", conflicts)
	}
	if len(changed) != 1 || changed[0] != a || !errors.Is(err, failB) {
		t.Errorf("changed %v, err %v", changed, err)
	}
	if got := readString(t, a); got != "one\nfirst\nsecond\ntwo\n" {
		t.Errorf("a.txt: %q", got)
	}
	if got := readString(t, b); got != "x\n" {
		t.Errorf("b.txt: %q", got)
	}
}

// A //line directive in a Go file the user has (not cgo's output) names
// where the code came from; the fix is of the file itself, never of the
// file the directive names.
func TestFixLineDirectiveInGoFile(t *testing.T) {
	dir := t.TempDir()
	grammar := strings.Repeat("a grammar, not Go\n", 40)
	src := `package shared

import "sync/atomic"

type Buf struct {
	refs int32
	free func()
}

//line ` + filepath.Join(dir, "buf.y") + `:30
func (b *Buf) Release() {
	atomic.AddInt32(&b.refs, -1)
	if atomic.LoadInt32(&b.refs) == 0 {
		b.free()
	}
}
`
	want := strings.Replace(src, "\tatomic.AddInt32(&b.refs, -1)\n\tif atomic.LoadInt32(&b.refs) == 0 {", "\tif atomic.AddInt32(&b.refs, -1) == 0 {", 1)
	writeTree(t, dir, map[string]string{"go.mod": goMod, "buf.y": grammar, "p1/buf.go": src})
	a := analyseWith(t, dir, unguardedcounter.Analyzer, "test the value atomic Add returns")
	fs := &fixes.Files{Digest: a.graph.Digest}
	mapped, refused := a.mapAll(fs)
	if len(mapped) != 1 {
		t.Fatalf("mapped %d, refused %q", len(mapped), refused)
	}
	if _, _, err := fs.Apply(mapped, nil); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(dir, "buf.y")); got != grammar {
		t.Errorf("buf.y was written:\n%s", got)
	}
	if got := readString(t, filepath.Join(dir, "p1", "buf.go")); got != want {
		t.Errorf("buf.go after the fix:\n%s\nwant:\n%s", got, want)
	}
}
