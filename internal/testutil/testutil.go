// Package testutil runs lifetimevet's analyzers on the packages under
// testdata/src with analysistest.
package testutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
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
