package lifetimedirective_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/lifetimevet/lifetimevet/analyzers/lifetimedirective"
	"github.com/lifetimevet/lifetimevet/internal/testutil"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

func TestDirectives(t *testing.T) {
	testutil.Run(t, lifetimedirective.Analyzer, "lifetimedirective/...")
}

// TestLongDirective: a directive echoed in a message is cut.
func TestLongDirective(t *testing.T) {
	testutil.Run(t, lifetimedirective.Analyzer, "lifetimedirective/longdirective")
}

// TestModelMisfit: a model file's entry that names an argument the C
// function does not have is reported at the package's first call of it,
// and not applied.
func TestModelMisfit(t *testing.T) {
	file := filepath.Join(testutil.Testdata(), "src", "modelfit", "misfit", "misfit.model")
	model.PackageFiles = func(*analysis.Pass) []string { return []string{file} }
	t.Cleanup(func() { model.PackageFiles = nil })
	testutil.Run(t, lifetimedirective.Analyzer, "modelfit/misfit")
}
