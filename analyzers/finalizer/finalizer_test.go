package finalizer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lifetimevet/lifetimevet/analyzers/finalizer"
	"github.com/lifetimevet/lifetimevet/internal/testutil"
)

func TestFinalizer(t *testing.T) {
	testutil.Run(t, finalizer.Analyzer, "finalizer/...")
}

// TestFix applies the suggested runtime.KeepAlive in a package without cgo
// (drivers do not edit files that import "C").
func TestFix(t *testing.T) {
	testutil.Run(t, finalizer.Analyzer, "finalizer/fix") // reads testdata for the cache
	analysistest.RunWithSuggestedFixes(t, testutil.Testdata(), finalizer.Analyzer, "finalizer/fix")
	// runtime imported under another name, and hidden by a parameter
	analysistest.RunWithSuggestedFixes(t, testutil.Testdata(), finalizer.Analyzer, "finalizer/fixalias")
	// each kind of statement list and of statement
	analysistest.RunWithSuggestedFixes(t, testutil.Testdata(), finalizer.Analyzer, "finalizer/fixstmt")
	// a statement that declares runtime or the object's name, or gives
	// the object's variable another value
	analysistest.RunWithSuggestedFixes(t, testutil.Testdata(), finalizer.Analyzer, "finalizer/fixscope")
	// the object named as the call names it
	analysistest.RunWithSuggestedFixes(t, testutil.Testdata(), finalizer.Analyzer, "finalizer/fixnames")
	// runtime dot-imported, and KeepAlive hidden by a local
	analysistest.RunWithSuggestedFixes(t, testutil.Testdata(), finalizer.Analyzer, "finalizer/fixdot")
	// several calls at risk in branches; a defer that runs on some paths
	analysistest.RunWithSuggestedFixes(t, testutil.Testdata(), finalizer.Analyzer, "finalizer/fixbranch")
}
