package lifetime_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lifetimevet/lifetimevet/passes/lifetime"
)

// TestLoopDefers: a defer statement in a loop registers one deferred call
// per iteration, so the pending calls grow on every trip around the loop;
// the calls an earlier iteration registered are summarised (renew), and
// the states at the loop's header reach a fixpoint as without the defer.
// No function here is incomplete (break-it trial 5 found each stopped at
// maxVisits after a few hundred units of work), and each has the findings
// the language gives it: a handle computed on each iteration is released
// once by each call, one that is the same on every iteration once per
// iteration (a double release), whether the call is of C, of a Go helper,
// of a method of a wrapper, of a method value or of a closure, in a range
// over a slice or a map or a 3-clause loop left by a break.
func TestLoopDefers(t *testing.T) {
	src := `package loops

/*
#include <stdlib.h>
typedef struct obj { int live; } obj;
static obj* obj_new(void) { return malloc(sizeof(obj)); }
static void obj_free(obj* o) { free(o); }
*/
import "C"

func FreeAll(hs []*C.obj) { // want FreeAll:"lifetime summary"
	for _, h := range hs {
		defer C.obj_free(h)
	}
}

func FreeAllTwice(hs []*C.obj) { // want FreeAllTwice:"lifetime summary"
	for _, h := range hs {
		defer C.obj_free(h)
		C.obj_free(h)
	}
}

func NewEach(n int) { // want NewEach:"lifetime summary"
	for i := 0; i < n; i++ {
		h := C.obj_new()
		defer C.obj_free(h)
	}
}

func NewEachBreak(n int) { // want NewEachBreak:"lifetime summary"
	for i := 0; ; i++ {
		h := C.obj_new()
		defer C.obj_free(h)
		if i > n {
			break
		}
	}
}

func Same(n int) { // want Same:"lifetime summary"
	h := C.obj_new()
	for i := 0; i < n; i++ {
		defer C.obj_free(h)
	}
}

func freePair(p, h *C.obj) { // want freePair:"lifetime summary"
	C.obj_free(p)
	C.obj_free(h)
}

func SharedArg(p *C.obj, hs []*C.obj) { // want SharedArg:"lifetime summary"
	for _, h := range hs {
		defer freePair(p, h)
	}
}

type wrap struct{ o *C.obj }

func newWrap() *wrap { return &wrap{o: C.obj_new()} } // want newWrap:"lifetime summary"

func (w *wrap) Close() { C.obj_free(w.o) } // want Close:"lifetime summary"

func Wrappers(n int) { // want Wrappers:"lifetime summary"
	for i := 0; i < n; i++ {
		w := newWrap()
		defer w.Close()
	}
}

func MethodValues(n int) { // want MethodValues:"lifetime summary"
	for i := 0; i < n; i++ {
		c := newWrap().Close
		defer c()
	}
}

func MapClosures(m map[string]int) { // want MapClosures:"lifetime summary"
	for k := range m {
		o := C.obj_new()
		defer func() { C.obj_free(o) }()
		_ = k
	}
}

func Nested(n int) { // want Nested:"lifetime summary"
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			h := C.obj_new()
			defer C.obj_free(h)
		}
		w := newWrap()
		defer w.Close()
	}
}
`
	// the double releases and leaks each function has (the functions that
	// release a parameter export their summaries as facts; obj_new is a
	// constructor by its name, obj_free releasing what it makes, so Same
	// leaks h on the path of no trip)
	want := map[string][2]int{
		"FreeAll": {}, "FreeAllTwice": {1, 0}, "NewEach": {}, "NewEachBreak": {}, "Same": {1, 1},
		"SharedArg": {1, 0}, "Wrappers": {}, "MethodValues": {}, "MapClosures": {}, "Nested": {},
	}
	checkComplete(t, "loops", src, [2]lifetime.EventKind{lifetime.DoubleRelease, lifetime.Leak}, want)
}

var kindNames = map[lifetime.EventKind]string{
	lifetime.DoubleRelease: "double releases", lifetime.Leak: "leaks", lifetime.UseAfterRelease: "uses after release",
}

// checkComplete runs the lifetime pass on src, package pkg: no function
// stops at its work budget, and each function want names is analysed and
// has as many events of kinds[0] and kinds[1] as want gives.
func checkComplete(t *testing.T, pkg, src string, kinds [2]lifetime.EventKind, want map[string][2]int) {
	t.Helper()
	dir := t.TempDir()
	lifetime.WriteFile(t, filepath.Join(dir, "src", pkg, pkg+".go"), src)
	results := analysistest.Run(t, dir, lifetime.Analyzer, pkg)
	if len(results) != 1 || results[0].Err != nil {
		t.Fatalf("results %v", results)
	}
	res := results[0].Result.(*lifetime.Result)
	for _, fn := range res.Incomplete() {
		t.Errorf("%s stopped at its work budget", fn.Name())
	}
	seen := map[string]bool{}
	for fn, trace := range res.Traces {
		w, ok := want[fn.Name()]
		if !ok {
			continue
		}
		seen[fn.Name()] = true
		var got [2]int
		for _, ev := range trace.Events {
			for i, k := range kinds {
				if ev.Kind == k {
					got[i]++
				}
			}
		}
		if got != w {
			t.Errorf("%s: %d %s and %d %s, want %d and %d", fn.Name(), got[0], kindNames[kinds[0]], got[1], kindNames[kinds[1]], w[0], w[1])
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("%s not analysed", name)
		}
	}
}
