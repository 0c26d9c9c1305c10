package unguardedcounter_test

import (
	"bytes"
	"cmp"
	"os"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/lifetimevet/lifetimevet/analyzers/unguardedcounter"
	"github.com/lifetimevet/lifetimevet/internal/testutil"
)

func TestUnguardedCounter(t *testing.T) {
	testutil.Run(t, unguardedcounter.Analyzer, "unguardedcounter/refs", "unguardedcounter/facts/...", "unguardedcounter/purego", "unguardedcounter/atomiccheck", "unguardedcounter/lifecycle", "unguardedcounter/entrylocks", "unguardedcounter/majority", "unguardedcounter/lockhelpers", "unguardedcounter/semaphore", "unguardedcounter/owned", "unguardedcounter/spawner", "unguardedcounter/docs")
}

func TestReloadFix(t *testing.T) {
	testutil.RunFixes(t, unguardedcounter.Analyzer, "unguardedcounter/reload")
}

// TestReloadShapes: the finding and the fix only where the Load is the
// Add's variable, and the fix only where folding changes nothing else.
func TestReloadShapes(t *testing.T) {
	testutil.RunFixes(t, unguardedcounter.Analyzer, "unguardedcounter/reloadshapes")
}

// TestReloadFixBytes: the fix's edits, applied as they are (as an editor
// applies a code action, with no gofmt after), leave no trailing blank on a
// line that keeps a comment: bytes.go with them equals bytes.go.fixed byte
// for byte (analysistest's golden files are compared after gofmt, which
// would hide it).
func TestReloadFixBytes(t *testing.T) {
	for _, r := range testutil.Run(t, unguardedcounter.Analyzer, "unguardedcounter/reloadbytes") {
		var edits []analysis.TextEdit
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				edits = append(edits, f.TextEdits...)
			}
		}
		if len(edits) == 0 {
			t.Fatal("no fix")
		}
		name := r.Pass.Fset.File(edits[0].Pos).Name()
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(name + ".fixed")
		if err != nil {
			t.Fatal(err)
		}
		tf := r.Pass.Fset.File(edits[0].Pos)
		slices.SortFunc(edits, func(a, b analysis.TextEdit) int { return cmp.Compare(b.Pos, a.Pos) })
		got := slices.Clone(src)
		for _, e := range edits {
			got = slices.Concat(got[:tf.Offset(e.Pos)], e.NewText, got[tf.Offset(e.End):])
		}
		if !bytes.Equal(got, want) {
			t.Errorf("the edits give:\n%q\nwant:\n%q", got, want)
		}
	}
}
