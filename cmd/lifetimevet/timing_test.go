package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestTiming checks what -timing prints and writes, not how long anything
// takes.
func TestTiming(t *testing.T) {
	bin := build(t)
	dir := moduleDir(t)
	file := filepath.Join(t.TempDir(), "timing.json")

	out, stderr, code := run(t, dir, bin, "-timing="+file, "./...")
	if code != 3 || !strings.Contains(out, "released twice") {
		t.Errorf("-timing changed the findings: status %d, output %q", code, out)
	}
	for _, want := range []string{"lifetimevet -timing:", "buildssa (SSA)", "x/tools buildssa", "passes/lifetime", " cpu ", "facts+", "analyzers/doublerelease", "\ntotal ", "slowest actions"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("-timing table lacks %q:\n%s", want, stderr)
		}
	}

	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Packages   int
		LoadNS     int64 `json:"load_ns"`
		AnalysisNS int64 `json:"analysis_ns"`
		Actions    []struct {
			Analyzer, Origin, Package string
			Root                      bool
			RunNS                     int64 `json:"run_ns"`
			CPUNS                     int64 `json:"cpu_ns"`
			TotalNS                   int64 `json:"total_ns"`
		}
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("-timing=FILE: %v\n%s", err, data)
	}
	if rep.Packages < 2 || rep.LoadNS <= 0 || rep.AnalysisNS <= 0 {
		t.Errorf("-timing=FILE: packages %d, load %d ns, analysis %d ns", rep.Packages, rep.LoadNS, rep.AnalysisNS)
	}
	roots := map[string]bool{}
	deps := 0
	var cpu int64
	for _, a := range rep.Actions {
		cpu += a.CPUNS
		if a.RunNS < 0 || a.TotalNS < a.RunNS {
			t.Errorf("%s on %s: run %d ns, total %d ns", a.Analyzer, a.Package, a.RunNS, a.TotalNS)
		}
		if a.Root && a.Package == "example.com/gpubug" {
			roots[a.Analyzer] = true
		}
		if !a.Root && a.Analyzer == "buildssa" {
			deps++
		}
	}
	if !roots["doublerelease"] || !roots["lifetimedirective"] {
		t.Errorf("-timing=FILE: root actions on example.com/gpubug: %v", roots)
	}
	if cpu <= 0 && runtime.GOOS != "windows" {
		t.Errorf("-timing=FILE: no CPU time recorded")
	}
	if deps == 0 {
		t.Errorf("-timing=FILE: no buildssa action on a dependency (the passes analyse dependencies for facts)")
	}

	if _, stderr, _ := run(t, dir, bin, "./..."); strings.Contains(stderr, "-timing") {
		t.Errorf("timing printed without -timing:\n%s", stderr)
	}
}
