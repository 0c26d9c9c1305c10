package lifetime

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// TestPruneKeepsFindings: dropping from the path states what no later
// instruction can reach (prune) changes nothing the pass computes: on the
// testdata of the analyzers built on it, the events of every function and
// the summaries are those of states that keep everything.
func TestPruneKeepsFindings(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the testdata of four analyzers")
	}
	dir, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  dir,
		Env:  append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOWORK=off", "CGO_ENABLED=1"),
	}
	pkgs, err := packages.Load(cfg, "doublerelease/...", "useafterrelease/...", "handleleak/...", "releaseorder/...")
	if err != nil {
		t.Fatal(err)
	}
	results := func() map[string]string {
		g, err := checker.Analyze([]*analysis.Analyzer{Analyzer}, pkgs, nil)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for act := range g.All() {
			res, ok := act.Result.(*Result)
			if !ok || !act.IsRoot {
				continue
			}
			var lines []string
			for fn, tr := range res.Traces {
				for _, ev := range tr.Events {
					lines = append(lines, fmt.Sprintf("%s: %d %s %s %v", fn, ev.Kind, posOf(act, ev.First), posOf(act, ev.Second), ev.Handle))
				}
				if tr.Incomplete {
					lines = append(lines, fmt.Sprintf("%s: incomplete", fn))
				}
			}
			var b strings.Builder
			res.dump(&b)
			// a chunk per summary and finalizer: its line and the
			// indented ones after it
			var chunk []string
			for _, l := range strings.Split(b.String(), "\n") {
				if !strings.HasPrefix(l, " ") && len(chunk) > 0 {
					lines = append(lines, strings.Join(chunk, "\n"))
					chunk = nil
				}
				chunk = append(chunk, l)
			}
			lines = append(lines, strings.Join(chunk, "\n"))
			slices.Sort(lines)
			out[act.Package.PkgPath] = strings.Join(lines, "\n")
		}
		return out
	}
	pruned := results()
	noPrune = true
	defer func() { noPrune = false }()
	full := results()
	if len(pruned) < 10 {
		t.Fatalf("%d packages analysed", len(pruned))
	}
	for p, want := range full {
		if got := pruned[p]; got != want {
			t.Errorf("%s: with pruning:\n%s\nwithout:\n%s", p, got, want)
		}
	}
}

func posOf(act *checker.Action, s *Site) string {
	if s == nil {
		return "-"
	}
	return act.Package.Fset.Position(s.Pos).String()
}
