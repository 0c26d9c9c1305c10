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
