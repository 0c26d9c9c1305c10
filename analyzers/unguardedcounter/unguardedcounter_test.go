package unguardedcounter_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lifetimevet/lifetimevet/analyzers/unguardedcounter"
	"github.com/lifetimevet/lifetimevet/internal/testutil"
)

func TestUnguardedCounter(t *testing.T) {
	testutil.Run(t, unguardedcounter.Analyzer, "unguardedcounter/refs", "unguardedcounter/facts/...", "unguardedcounter/purego", "unguardedcounter/atomiccheck", "unguardedcounter/lifecycle", "unguardedcounter/entrylocks", "unguardedcounter/majority")
}

func TestReloadFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testutil.Testdata(), unguardedcounter.Analyzer, "unguardedcounter/reload")
}

// TestReloadShapes: the finding and the fix only where the Load is the
// Add's variable, and the fix only where folding changes nothing else.
func TestReloadShapes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testutil.Testdata(), unguardedcounter.Analyzer, "unguardedcounter/reloadshapes")
}
