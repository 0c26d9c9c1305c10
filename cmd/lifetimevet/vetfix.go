package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// vetFixMode reports whether go vet -fix or go fix -fixtool runs the tool:
// unitchecker then applies each finding's first fix and prints nothing.
func vetFixMode(args []string) bool {
	return slices.Contains(args, "-fix") || slices.Contains(args, "--fix") ||
		slices.Contains(args, "-fix=true") || slices.Contains(args, "--fix=true")
}

// sayUnfixed returns the analyzers wrapped so that, in unitchecker's fix
// mode, every finding without a fix to apply is printed on the unit's output (out) as go vet
// prints findings (file:line:col: message [analyzer]). In that mode
// unitchecker prints no finding and exits 0 once the fixes are applied,
// and the findings of lifetimevet are mostly in cgo files, whose fixes go
// vet cannot apply (it sees cgo's rewrite of the file: see
// diag.OmitCgoFixes): without this, go vet -fix on a package with a double
// free would print nothing, change nothing and exit 0.
func sayUnfixed(as []*analysis.Analyzer, out func() io.Writer) []*analysis.Analyzer {
	var mu sync.Mutex
	wrapped := make([]*analysis.Analyzer, len(as))
	for i, a := range as {
		c := *a
		run := a.Run
		c.Run = func(pass *analysis.Pass) (any, error) {
			report := pass.Report
			pass.Report = func(d analysis.Diagnostic) {
				if len(d.SuggestedFixes) == 0 {
					mu.Lock()
					fmt.Fprintf(out(), "%s: %s [%s] (not fixed: no fix that go vet can apply; lifetimevet -fix applies those in cgo files)\n",
						pass.Fset.Position(d.Pos), d.Message, c.Name)
					mu.Unlock()
				}
				report(d)
			}
			return run(pass)
		}
		wrapped[i] = &c
	}
	return wrapped
}

// vetFixOutput is where sayUnfixed prints: the unit's standard output,
// which unitchecker points at the file the go command names (Config.Stdout)
// once it has read the unit's config, and which the go command prints and
// caches with the unit's result, so that a re-run answered from its cache
// prints the same lines.
func vetFixOutput() io.Writer { return os.Stdout }
