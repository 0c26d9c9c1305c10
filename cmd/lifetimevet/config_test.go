package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sarif "github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/lifetimevet/lifetimevet/passes/cpreamble"
)

// retirePackage is a cgo package that releases a handle twice through a C
// function whose name says nothing and whose body frees nothing (it hands
// t to a pool the C side keeps, as far as the analysis can tell): only a
// model makes it a release.
func retirePackage(name string) string {
	return `package ` + name + `

/*
#include <stdlib.h>
typedef struct { int x; } thing;
static thing *thing_make(void) { return malloc(sizeof(thing)); }
static thing *retired; static void thing_retire(thing *t) { t->x = 0; retired = t; }
*/
import "C"

func Twice() {
	t := C.thing_make()
	C.thing_retire(t)
	C.thing_retire(t)
}
`
}

const (
	acquireOnly = "library mine\nacquire thing_make result\n"
	withRelease = acquireOnly + "release thing_retire arg=0\n"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// configModule writes a module whose root configuration names a model
// file and whose gen directory turns every analyzer off.
func configModule(t *testing.T) string {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":               "module example.com/configured\n\ngo 1.22\n",
		"lifetimevet.toml":     "models = [\"lifetime/mine.model\"]\n\n[severity]\ndoublerelease = \"error\"\n",
		"lifetime/mine.model":  withRelease,
		"a/a.go":               retirePackage("a"),
		"gen/gen.go":           retirePackage("gen"),
		"gen/lifetimevet.toml": "# generated code\nanalyzers = []\n",
		"b/b.go":               retirePackage("b"),
		"b/lifetimevet.toml":   "[severity]\ndoublerelease = \"note\"\n",
	})
	return dir
}

func TestConfigFileStandalone(t *testing.T) {
	t.Setenv("LIFETIMEVET_CACHE", t.TempDir())
	bin := build(t)
	dir := configModule(t)
	// The model of the root's file reaches a and b, gen reports nothing;
	// the SARIF levels are the root's error and b's own note.
	out, stderr, code := run(t, dir, bin, "-format=sarif", "./...")
	if code != 0 {
		t.Fatalf("-format=sarif: status %d; stderr %s", code, stderr)
	}
	report, err := sarif.FromString(out)
	if err != nil {
		t.Fatal(err)
	}
	levels := map[string]string{}
	for _, r := range report.Runs[0].Results {
		levels[*r.Locations[0].PhysicalLocation.ArtifactLocation.URI] = r.Level
	}
	if levels["a/a.go"] != "error" || levels["b/b.go"] != "note" || len(levels) != 2 {
		t.Errorf("SARIF levels %v, want a/a.go error and b/b.go note (and nothing in gen)", levels)
	}

	// with the analysis cache of that run, a change of b's configuration
	// file is seen at once (the files' digest is in the cache's key)
	writeFiles(t, dir, map[string]string{"b/lifetimevet.toml": "analyzers = [\"all\", \"-doublerelease\"]\n"})
	out, stderr, code = run(t, dir, bin, "./...")
	if strings.Contains(out, "b/b.go") || !strings.Contains(out, "a/a.go") {
		t.Errorf("after b's configuration turned doublerelease off: status %d, stdout %q, stderr %q", code, out, stderr)
	}
	writeFiles(t, dir, map[string]string{"b/lifetimevet.toml": "[severity]\ndoublerelease = \"note\"\n"})

	// `lifetimevet models` shows the configuration's models, from below
	// the file too
	out, stderr, code = run(t, filepath.Join(dir, "a"), bin, "models")
	if code != 0 || !strings.Contains(out, "thing_retire") {
		t.Errorf("lifetimevet models in a: status %d, no thing_retire in its table; stderr %s", code, stderr)
	}

	// a malformed file stops the run, naming file and line
	writeFiles(t, dir, map[string]string{"b/lifetimevet.toml": "# b\nanalyzers = [\"all\",\n  \"-nosuch\"]\n"})
	_, stderr, code = run(t, dir, bin, "./...")
	if want := filepath.Join(dir, "b", "lifetimevet.toml") + `:3: unknown analyzer "nosuch"`; code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("malformed configuration: status %d, stderr %q; want 1 and %q", code, stderr, want)
	}
}

// TestVetCacheSeesInputs runs go vet twice around a change of a model file
// (given with -model, and named by a configuration file) or of a
// configuration file: go vet caches results by the tool's -V=full
// identity, so without the inputs' digest in it the second run would
// print the first one's result.
func TestVetCacheSeesInputs(t *testing.T) {
	bin := build(t)
	vet := func(dir string, args ...string) (string, int) {
		t.Helper()
		_, stderr, code := run(t, dir, "go", append([]string{"vet", "-vettool=" + bin}, args...)...)
		return stderr, code
	}

	t.Run("model flag", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			"go.mod":     "module example.com/flagged\n\ngo 1.22\n",
			"mine.model": acquireOnly,
			"a/a.go":     retirePackage("a"),
		})
		model := "-model=" + filepath.Join(dir, "mine.model")
		if out, code := vet(dir, model, "./..."); code != 0 {
			t.Fatalf("first run: status %d, want 0 (thing_retire is not yet a release):\n%s", code, out)
		}
		writeFiles(t, dir, map[string]string{"mine.model": withRelease})
		if out, code := vet(dir, model, "./..."); code == 0 || !strings.Contains(out, "a/a.go:14:") {
			t.Errorf("after the model file changed: status %d, want the double release:\n%s", code, out)
		}
	})

	t.Run("configuration", func(t *testing.T) {
		dir := configModule(t)
		writeFiles(t, dir, map[string]string{"lifetime/mine.model": acquireOnly})
		if out, code := vet(dir, "./..."); code != 0 {
			t.Fatalf("first run: status %d, want 0:\n%s", code, out)
		}
		// the model file a configuration file names
		writeFiles(t, dir, map[string]string{"lifetime/mine.model": withRelease})
		out, code := vet(dir, "./...")
		if code == 0 || !strings.Contains(out, "a/a.go:14:") || !strings.Contains(out, "b/b.go:14:") || strings.Contains(out, "gen/") {
			t.Errorf("after the model file changed: status %d, want findings in a and b only:\n%s", code, out)
		}
		// a configuration file: b off too
		writeFiles(t, dir, map[string]string{"b/lifetimevet.toml": "analyzers = [\"-doublerelease\"]\n"})
		out, _ = vet(dir, "./...")
		if !strings.Contains(out, "a/a.go:14:") || strings.Contains(out, "b/b.go") {
			t.Errorf("after b's configuration changed: want a finding in a only:\n%s", out)
		}
		// a malformed one: go vet stops at once, naming it
		writeFiles(t, dir, map[string]string{"b/lifetimevet.toml": "analyzers = [\"-doublerelease\"\n"})
		out, code = vet(dir, "./...")
		if want := filepath.Join(dir, "b", "lifetimevet.toml") + ":"; code == 0 || !strings.Contains(out, want) {
			t.Errorf("malformed configuration: status %d, want an error naming %s:\n%s", code, want, out)
		}
	})
}

// TestBudgetSaid: a function whose lifetime analysis stops at its work
// budget is named on standard error (standalone and go vet) and in SARIF,
// never left silent.
func TestBudgetSaid(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(`package big

/*
#include <stdlib.h>
typedef struct { int x; } obj;
static obj* obj_new(void) { return (obj*)calloc(1, sizeof(obj)); }
static void obj_free(obj* o) { free(o); }
*/
import "C"

// Small has nothing to say.
func Small() { C.obj_free(C.obj_new()) }

// Big holds hundreds of handles at once, with a branch between each two
// allocations, and releases them all at the end: every path state carries
// them all (allocate/release pairs no longer reach the budget).
func Big(x int) int {
	r := 0
`)
	for i := range 300 {
		fmt.Fprintf(&b, "\tp%d := C.malloc(8)\n\tif x == %d {\n\t\tr++\n\t}\n", i, i)
	}
	for i := range 300 {
		fmt.Fprintf(&b, "\tC.free(p%d)\n", i)
	}
	b.WriteString("\treturn r\n}\n")
	writeFiles(t, dir, map[string]string{
		"go.mod":     "module example.com/big\n\ngo 1.22\n",
		"big/big.go": b.String(),
	})
	t.Setenv("LIFETIMEVET_CACHE", t.TempDir())
	out, stderr, _ := run(t, dir, bin, "-format=sarif", "./...")
	want := "analysis of big/big.go:17:6: Big stopped at its work budget"
	if strings.Count(stderr, want) != 1 || strings.Contains(stderr, "Small") {
		t.Errorf("stderr %q, want one line saying %q", stderr, want)
	}
	// again, with the analysis cache of the first run: the package comes
	// from the cache (nothing is analysed), with the notice
	t.Setenv("LIFETIMEVET_DEBUG", "cache")
	if _, stderr, _ := run(t, dir, bin, "./..."); strings.Count(stderr, want) != 1 || !strings.Contains(stderr, " 0 analysed") {
		t.Errorf("second run: stderr %q, want one line saying %q, and nothing analysed", stderr, want)
	}
	t.Setenv("LIFETIMEVET_DEBUG", "")
	report, err := sarif.FromString(out)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, inv := range report.Runs[0].Invocations {
		for _, n := range inv.ToolExecutionNotifications {
			found = found || strings.Contains(*n.Message.Text, want) && n.Level == "warning"
		}
	}
	if !found {
		t.Errorf("no SARIF warning notification %q:\n%s", want, out)
	}
	// under go vet, on the unit's standard error
	_, stderr, _ = run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	if strings.Count(stderr, want) != 1 {
		t.Errorf("go vet: stderr %q, want one line saying %q", stderr, want)
	}
	// in the LSP, as a warning through window/logMessage, and a note
	// (information) at the function
	logs, ds := lspLogDiagnostics(t, bin, dir, filepath.Join(dir, "big", "big.go"))
	if !strings.Contains(logs, "Big stopped at its work budget") || strings.Contains(logs, "Small") {
		t.Errorf("lsp: log %q, want a line saying Big stopped at its work budget", logs)
	}
	if len(ds) != 1 || ds[0].Severity != 3 || ds[0].Range.Start.Line != 16 || ds[0].Message != "lifetimevet: Big stopped at its work budget: findings in it may be missing" {
		t.Errorf("lsp: diagnostics %+v, want a note at big.go:17 that Big stopped at its work budget", ds)
	}
	// in a dependency of the packages named: its facts, which its
	// importers' findings need, are incomplete; said, marked as such
	writeFiles(t, dir, map[string]string{"app/app.go": "package app\n\nimport \"example.com/big/big\"\n\nfunc F() int { return big.Big(1) }\n"})
	dep := want + ": findings in it may be missing; it is in example.com/big/big, a dependency of the packages named"
	if _, stderr, _ := run(t, dir, bin, "./app"); strings.Count(stderr, dep) != 1 {
		t.Errorf("dependency: stderr %q, want one line saying %q", stderr, dep)
	}
	// (in a tree of its own: go vet answers big's facts from its cache,
	// silently, once it has analysed big)
	dir2 := t.TempDir()
	big, _ := os.ReadFile(filepath.Join(dir, "big", "big.go"))
	app, _ := os.ReadFile(filepath.Join(dir, "app", "app.go"))
	writeFiles(t, dir2, map[string]string{"go.mod": "module example.com/big\n\ngo 1.22\n", "big/big.go": string(big), "app/app.go": string(app)})
	if _, stderr, _ := run(t, dir2, "go", "vet", "-vettool="+bin, "./app"); strings.Count(stderr, dep) != 1 {
		t.Errorf("go vet, dependency: stderr %q, want one line saying %q", stderr, dep)
	}
	// a module whose path has no dot is no standard library package
	dir3 := t.TempDir()
	writeFiles(t, dir3, map[string]string{"go.mod": "module m\n\ngo 1.22\n", "big/big.go": string(big), "app/app.go": strings.ReplaceAll(string(app), "example.com/big/big", "m/big")})
	dep3 := want + ": findings in it may be missing; it is in m/big, a dependency of the packages named"
	if _, stderr, _ := run(t, dir3, "go", "vet", "-vettool="+bin, "./app"); strings.Count(stderr, dep3) != 1 {
		t.Errorf("go vet, dependency in module m: stderr %q, want one line saying %q", stderr, dep3)
	}
}

// TestUnreadSaid: a file of the package's C left unread for its size (a
// header of more than cpreamble.MaxHeaderLines lines, after whose #include
// the C is no evidence, and a .c file of more than cpreamble.MaxLines) is
// named on standard error (standalone, from the cache too, and go vet) and
// in the LSP's log, never left silent; -sharedglobal.largec reads them, and
// the race the header hid is reported.
func TestUnreadSaid(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/big\n\ngo 1.22\n",
		"big/big.go": `// Package big counts.
package big

/*
#include "big.h"
static long racy;
static long bump(void) { return ++racy; }
*/
import "C"

// Bump is safe for concurrent use by multiple goroutines.
func Bump() int { return int(C.bump()) }
`,
		"big/big.h":  strings.Repeat("#define BIG 1\n", cpreamble.MaxHeaderLines+1),
		"big/huge.c": "int huge_x;\n" + strings.Repeat("\n", cpreamble.MaxLines),
	})
	t.Setenv("LIFETIMEVET_CACHE", t.TempDir())
	wants := []string{
		fmt.Sprintf("big/big.h was not read (%d lines, more than %d): the C after its #include is not analysed; -sharedglobal.largec reads it", cpreamble.MaxHeaderLines+1, cpreamble.MaxHeaderLines),
		fmt.Sprintf("big/huge.c was not read (%d lines, more than %d): its C is not analysed; -sharedglobal.largec reads it", cpreamble.MaxLines+2, cpreamble.MaxLines),
	}
	check := func(how, stderr string) {
		t.Helper()
		for _, want := range wants {
			if strings.Count(stderr, want) != 1 {
				t.Errorf("%s: stderr %q, want one line saying %q", how, stderr, want)
			}
		}
	}
	out, stderr, _ := run(t, dir, bin, "./...")
	check("standalone", stderr)
	if strings.Contains(out, "racy") {
		t.Errorf("standalone: a finding in C the run says it did not read:\n%s", out)
	}
	_, stderr, _ = run(t, dir, bin, "./...") // from the analysis cache
	check("second run", stderr)
	_, stderr, _ = run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	check("go vet", stderr)
	out, stderr, _ = run(t, dir, bin, "-sharedglobal.largec", "./...")
	if !strings.Contains(out, "the file-scope C variable racy is written without a lock") || strings.Contains(stderr, "not read") {
		t.Errorf("-sharedglobal.largec: want the race on racy and no notice:\n%s\n%s", out, stderr)
	}
	if logs := lspLog(t, bin, dir, filepath.Join(dir, "big", "big.go")); !strings.Contains(logs, "big.h was not read") {
		t.Errorf("lsp: log %q, want a line saying big.h was not read", logs)
	}
}

// lspLog opens file in a new `lifetimevet lsp` on dir, waits for its
// diagnostics, and returns what the server logged (window/logMessage).
func lspLog(t *testing.T, bin, dir, file string) string {
	logs, _ := lspLogDiagnostics(t, bin, dir, file)
	return logs
}

// lspLogDiagnostics is lspLog with the diagnostics published for file.
func lspLogDiagnostics(t *testing.T, bin, dir, file string) (string, []lspDiagnostic) {
	t.Helper()
	c := startLSP(t, bin, dir)
	initialize(t, c, dir)
	didOpen(t, c, file)
	ds := c.wait(t, fileURI(file))
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.logs, "\n"), ds
}

// TestConfigFileLSP: `lifetimevet lsp` reads the configuration files: the
// root's model and severity reach a, gen's turns it off, and a change of a
// file is seen at the next save.
func TestConfigFileLSP(t *testing.T) {
	bin := build(t)
	dir := configModule(t)
	c := startLSP(t, bin, dir)
	initialize(t, c, dir)
	a := filepath.Join(dir, "a", "a.go")
	didOpen(t, c, a)
	if ds := c.wait(t, fileURI(a)); len(ds) != 1 || ds[0].Code != "doublerelease" || ds[0].Severity != 1 {
		t.Errorf("a.go: %+v, want one doublerelease of severity 1 (error)", ds)
	}
	// gen without its file reports (an LSP server publishes only a
	// change); with it, nothing
	gen := filepath.Join(dir, "gen", "gen.go")
	os.Remove(filepath.Join(dir, "gen", "lifetimevet.toml"))
	didOpen(t, c, gen)
	if ds := c.wait(t, fileURI(gen)); len(ds) != 1 {
		t.Errorf("gen.go without its configuration: %+v, want one", ds)
	}
	writeFiles(t, dir, map[string]string{"gen/lifetimevet.toml": "analyzers = []\n"})
	c.notify(t, "textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": fileURI(gen)}})
	if ds := c.wait(t, fileURI(gen)); len(ds) != 0 {
		t.Errorf("gen.go with analyzers = []: %+v, want none", ds)
	}
	writeFiles(t, dir, map[string]string{"lifetimevet.toml": "models = [\"lifetime/mine.model\"]\n\n[severity]\ndoublerelease = \"note\"\n"})
	c.notify(t, "textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": fileURI(a)}})
	if ds := c.wait(t, fileURI(a)); len(ds) != 1 || ds[0].Severity != 3 {
		t.Errorf("a.go after the configuration changed: %+v, want one of severity 3 (information)", ds)
	}
	var none any
	c.call(t, "shutdown", nil, &none)
}
