package finalizer_test

import (
	"testing"

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
	testutil.RunFixes(t, finalizer.Analyzer, "finalizer/fix")
	// runtime imported under another name, and hidden by a parameter
	testutil.RunFixes(t, finalizer.Analyzer, "finalizer/fixalias")
	// each kind of statement list and of statement
	testutil.RunFixes(t, finalizer.Analyzer, "finalizer/fixstmt")
	// a statement that declares runtime or the object's name, or gives
	// the object's variable another value
	testutil.RunFixes(t, finalizer.Analyzer, "finalizer/fixscope")
	// the object named as the call names it
	testutil.RunFixes(t, finalizer.Analyzer, "finalizer/fixnames")
	// runtime dot-imported, and KeepAlive hidden by a local
	testutil.RunFixes(t, finalizer.Analyzer, "finalizer/fixdot")
	// the object found through another package's accessor
	testutil.RunFixes(t, finalizer.Analyzer, "finalizer/fixvia")
	// several calls at risk in branches; a defer that runs on some paths
	testutil.RunFixes(t, finalizer.Analyzer, "finalizer/fixbranch")
}
