// Package testutil runs lifetimevet's analyzers on the packages under
// testdata/src with analysistest.
package testutil

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Testdata returns the absolute path of the repository's testdata directory.
func Testdata() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata")
}

// Run runs a on the testdata packages matching patterns and checks its
// findings against the // want comments.
//
// go/packages hands the analyzers cgo's output, so the test process never
// opens the files under testdata itself and go test's cache would not see
// them change; Run reads them first so that it does.
func Run(t *testing.T, a *analysis.Analyzer, patterns ...string) []*analysistest.Result {
	t.Helper()
	dir := Testdata()
	filepath.WalkDir(filepath.Join(dir, "src"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.ReadFile(path)
		}
		return nil
	})
	return analysistest.Run(t, dir, a, patterns...)
}

// RunFixes runs a on the testdata package pkg and checks its suggested
// fixes against the .golden files (analysistest.RunWithSuggestedFixes). It
// also fails for a golden file that differs from its source when no fix
// edits that file: analysistest reads a golden file only for the files
// some fix edits, so a fix that went away would pass unseen.
func RunFixes(t *testing.T, a *analysis.Analyzer, pkg string) []*analysistest.Result {
	t.Helper()
	results := analysistest.RunWithSuggestedFixes(t, Testdata(), a, pkg)
	edited := map[string]bool{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					if tf := r.Pass.Fset.File(e.Pos); tf != nil {
						edited[filepath.Clean(tf.Name())] = true
					}
				}
			}
		}
	}
	goldens, _ := filepath.Glob(filepath.Join(Testdata(), "src", pkg, "*.go.golden"))
	for _, g := range goldens {
		src := strings.TrimSuffix(g, ".golden")
		want, err1 := os.ReadFile(g)
		orig, err2 := os.ReadFile(src)
		if err1 != nil || err2 != nil {
			t.Errorf("reading %s and its source: %v %v", g, err1, err2)
			continue
		}
		if !bytes.Equal(want, orig) && !edited[filepath.Clean(src)] {
			t.Errorf("%s: no fix edits %s, but the golden file differs from it", g, filepath.Base(src))
		}
	}
	return results
}

// IntegrationEnv is the environment variable that opts in to the
// integration tests: LIFETIMEVET_INTEGRATION=1 go test ./... (.ci/run sets
// it, with a longer -timeout).
const IntegrationEnv = "LIFETIMEVET_INTEGRATION"

// Integration skips t unless the integration tests were asked for (see
// IntegrationEnv). They are the tests whose cost on a fresh machine with
// empty caches is minutes, not seconds (building golangci-lint, analysing
// the standard library's packages again and again), so that the README's
// plain `go test ./...` passes within go test's default timeout there; what
// says why goes into the skip message.
func Integration(t testing.TB, what string) {
	t.Helper()
	if os.Getenv(IntegrationEnv) != "1" {
		t.Skipf("%s; set %s=1 to run it", what, IntegrationEnv)
	}
}
