package fixes_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/lifetimevet/lifetimevet/internal/fixes"
	"github.com/lifetimevet/lifetimevet/internal/fixes/fixtest"
)

func TestMapAndApply(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "keepalive.go"} {
		data, err := os.ReadFile(filepath.Join("testdata", "keepalive", name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), data, 0o666)
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Env: append(os.Environ(), "GOWORK=off", "CGO_ENABLED=1")}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("load: %v", err)
	}
	g, err := checker.Analyze([]*analysis.Analyzer{fixtest.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var fs fixes.Files
	var mapped []*fixes.Fix
	var refused []string
	for act := range g.All() {
		for _, d := range act.Diagnostics {
			for _, sf := range d.SuggestedFixes {
				f, err := fs.Map(act.Package.Fset, sf, act.Package.GoFiles)
				if err != nil {
					refused = append(refused, sf.Message+": "+err.Error())
					continue
				}
				mapped = append(mapped, f)
			}
		}
	}
	if len(mapped) != 2 {
		t.Errorf("mapped %d fixes, want 2 (KeepAlive after both C calls)", len(mapped))
	}
	for _, f := range mapped {
		if !strings.HasPrefix(f.Message, "add runtime.KeepAlive") || filepath.Base(f.Edits[0].File) != "keepalive.go" {
			t.Errorf("mapped %q in %s", f.Message, f.Edits[0].File)
		}
	}
	if len(refused) != 2 {
		t.Errorf("refused %d fixes, want 2: %q", len(refused), refused)
	}
	for _, r := range refused {
		if !strings.Contains(r, "call C.renamed instead: the edit at keepalive.go:") || !strings.Contains(r, "cgo rewrote") {
			t.Errorf("refusal: %s", r)
		}
	}
	changed, conflicts, err := fs.Apply(slices2(mapped, mapped), nil)
	if err != nil || len(conflicts) != 0 || len(changed) != 1 {
		t.Fatalf("Apply: changed %v, conflicts %v, %v", changed, conflicts, err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "keepalive.go"))
	for _, want := range []string{"\tC.obj_use(p)\n\truntime.KeepAlive(p)\n}", "{\n\tC.obj_free(p)\n\truntime.KeepAlive(p)\n}"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("fixed file lacks %q:\n%s", want, got)
		}
	}
	// The fixed package still builds.
	cfg.Mode = packages.NeedTypes
	if pkgs, err := packages.Load(cfg, "./..."); err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Errorf("fixed package does not load: %v", err)
	}
}

// slices2 returns a followed by b (each fix twice, as for a package and
// its test variant).
func slices2(a, b []*fixes.Fix) []*fixes.Fix { return append(append([]*fixes.Fix{}, a...), b...) }
