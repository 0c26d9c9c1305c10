package lifetime_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lifetimevet/lifetimevet/passes/lifetime"
)

// pairsPackage writes, under dir/src/NAME, a cgo package whose function F
// acquires and releases a handle per unit, on both branches of an if (the
// shape that makes each path state carry every handle released so far),
// and then releases one more handle twice: a real double release at the
// end of a long function.
func pairsPackage(t *testing.T, dir, name string, units int) {
	var b strings.Builder
	fmt.Fprintf(&b, `package %s

/*
#include <stdlib.h>
typedef struct { int x; } obj;
static obj* obj_new(void) { return (obj*)calloc(1, sizeof(obj)); }
static void obj_free(obj* o) { free(o); }
static int obj_use(obj* o, int v) { return o ? o->x + v : v; }
*/
import "C"

func F(x int) int {
	r := 0
`, name)
	for i := range units {
		fmt.Fprintf(&b, "\th%d := C.obj_new()\n\tif x == %d {\n\t\tr += int(C.obj_use(h%d, 1))\n\t\tC.obj_free(h%d)\n\t} else {\n\t\tC.obj_free(h%d)\n\t}\n", i, i, i, i, i)
	}
	b.WriteString("\td := C.obj_new()\n\tC.obj_free(d)\n\tC.obj_free(d)\n\treturn r\n}\n")
	p := filepath.Join(dir, "src", name, name+".go")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBudget: within the work budget the double release at the end of F is
// found and F is complete; past it, F is listed by Result.Incomplete, so
// that a driver can say its findings may be missing. Never both silent and
// incomplete.
//
// Known limit (issue 17.6): the cost of this shape grows with the square
// of the units (each state keeps every handle released so far), so the
// budget is reached at about 110 units (330 blocks, 550 statements), far
// from the 2,000 statements the issue asks for.
func TestBudget(t *testing.T) {
	dir := t.TempDir()
	pairsPackage(t, dir, "small", 60)
	pairsPackage(t, dir, "large", 400)
	results := analysistest.Run(t, dir, lifetime.Analyzer, "small", "large")
	if len(results) != 2 {
		t.Fatalf("%d results", len(results))
	}
	for _, r := range results {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		tc := struct {
			pkg        string
			incomplete bool
		}{r.Pass.Pkg.Path(), r.Pass.Pkg.Path() == "large"}
		res := r.Result.(*lifetime.Result)
		var names []string
		for _, fn := range res.Incomplete() {
			names = append(names, fn.Name())
		}
		if got := len(names) == 1 && names[0] == "F"; got != tc.incomplete {
			t.Errorf("%s: incomplete functions %v, want F listed: %v", tc.pkg, names, tc.incomplete)
		}
		found := false
		for fn, trace := range res.Traces {
			if fn.Name() != "F" {
				continue
			}
			for _, ev := range trace.Events {
				found = found || ev.Kind == lifetime.DoubleRelease
			}
		}
		if !found && !tc.incomplete {
			t.Errorf("%s: the double release of d at the end of F is lost", tc.pkg)
		}
	}
}
