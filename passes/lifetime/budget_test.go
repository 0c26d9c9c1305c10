package lifetime_test

import (
	"fmt"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lifetimevet/lifetimevet/passes/lifetime"
)

// TestBudget: the lifetime pass's cost on a function made of
// allocate/release pairs grows with its length, not with its square (a
// released handle no later instruction can reach leaves the path states),
// so that a function of 5,000 statements of pairs, in each shape, is
// analysed to its end: the real double releases in its middle and at its
// end are found, and F is complete. A function that keeps thousands of
// handles live at once still reaches the work budget, and is then listed
// by Result.Incomplete, so that a driver says its findings may be missing.
// Never both silent and incomplete.
func TestBudget(t *testing.T) {
	dir := t.TempDir()
	type want struct {
		incomplete bool
		doubles    []string // the handles released twice
	}
	wants := map[string]want{}
	var pkgs []string
	for _, shape := range lifetime.PairShapes {
		units := 1
		for lifetime.Statements(lifetime.PairsSource("p", shape, units, units/2, -1)) < 5000 {
			units *= 2
		}
		for lo := units / 2; lo+1 < units; {
			mid := (lo + units) / 2
			if lifetime.Statements(lifetime.PairsSource("p", shape, mid, mid/2, -1)) < 5000 {
				lo = mid
			} else {
				units = mid
			}
		}
		name := "pairs" + shape.Name()
		// (F's summary is empty, and exported as such: a function with
		// no effects is known to have none)
		src := strings.Replace(lifetime.PairsSource(name, shape, units, units/2, -1), "func F(x int) int {", "func F(x int) int { // want F:\"lifetime summary\"", 1)
		lifetime.WriteFile(t, filepath.Join(dir, "src", name, name+".go"), src)
		pkgs = append(pkgs, name)
		wants[name] = want{doubles: []string{fmt.Sprintf("d%d", units/2), "dend"}}
	}
	// thousands of handles held at once, released at the end: each state
	// carries them all
	var b strings.Builder
	b.WriteString("package held\n\n// #include <stdlib.h>\nimport \"C\"\n\nfunc F(x int) int { // want F:\"lifetime summary\"\n\tr := 0\n")
	for i := range 1500 {
		fmt.Fprintf(&b, "\tp%d := C.malloc(8)\n\tif x == %d {\n\t\tr++\n\t}\n", i, i)
	}
	for i := range 1500 {
		fmt.Fprintf(&b, "\tC.free(p%d)\n", i)
	}
	b.WriteString("\treturn r\n}\n")
	lifetime.WriteFile(t, filepath.Join(dir, "src", "held", "held.go"), b.String())
	pkgs = append(pkgs, "held")
	wants["held"] = want{incomplete: true}

	results := analysistest.Run(t, dir, lifetime.Analyzer, pkgs...)
	if len(results) != len(pkgs) {
		t.Fatalf("%d results", len(results))
	}
	for _, r := range results {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		pkg := r.Pass.Pkg.Path()
		w := wants[pkg]
		res := r.Result.(*lifetime.Result)
		var names []string
		for _, fn := range res.Incomplete() {
			names = append(names, fn.Name())
		}
		if got := len(names) == 1 && names[0] == "F"; got != w.incomplete {
			t.Errorf("%s: incomplete functions %v, want F listed: %v", pkg, names, w.incomplete)
		}
		found := map[string]bool{}
		for fn, trace := range res.Traces {
			if fn.Name() != "F" {
				continue
			}
			for _, ev := range trace.Events {
				if ev.Kind == lifetime.DoubleRelease {
					found[handleAt(r.Pass.Fset, ev.Second.Pos)] = true
				}
			}
		}
		for _, d := range w.doubles {
			if !found[d] {
				t.Errorf("%s: the double release of %s is lost (found %v)", pkg, d, found)
			}
		}
	}
}

// handleAt returns the handle a generated release at pos releases (the
// argument of the call on its line).
func handleAt(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	src, err := lifetime.ReadLine(p.Filename, p.Line)
	if err != nil {
		return ""
	}
	i, j := strings.LastIndexByte(src, '('), strings.IndexByte(src, ')')
	if i < 0 || j < i {
		return ""
	}
	return src[i+1 : j]
}
