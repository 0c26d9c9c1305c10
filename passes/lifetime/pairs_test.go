package lifetime

import (
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// PairShape is one way to write an allocate/release pair; unit returns the
// Go statements of pair i (reading x, an int parameter, and adding to r).
type PairShape struct {
	name string
	unit func(i int) string
}

// Name is the shape's name.
func (p PairShape) Name() string { return p.name }

// ReadLine returns line n (from 1) of file name.
func ReadLine(name string, n int) (string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return "", err
	}
	lines := strings.Split(string(b), "\n")
	if n < 1 || n > len(lines) {
		return "", fmt.Errorf("%s has no line %d", name, n)
	}
	return lines[n-1], nil
}

// PairShapes are the shapes of long functions made of allocate/release
// pairs: each pair's handle is dead once released, and the blocks the
// branches make multiply the states a path-sensitive analysis carries.
var PairShapes = []PairShape{
	// a branch on the handle's use, both sides releasing it
	{"branch", func(i int) string {
		return fmt.Sprintf("\th%d := C.obj_new()\n\tif x == %d {\n\t\tr += int(C.obj_use(h%d, 1))\n\t\tC.obj_free(h%d)\n\t} else {\n\t\tC.obj_free(h%d)\n\t}\n", i, i, i, i, i)
	}},
	// malloc/free with the result tested for nil (an early return)
	{"malloc", func(i int) string {
		return fmt.Sprintf("\tp%d := C.malloc(8)\n\tif p%d == nil {\n\t\treturn -1\n\t}\n\tC.free(p%d)\n", i, i, i)
	}},
	// a modelled acquisition into an out-parameter, its status tested
	{"status", func(i int) string {
		return fmt.Sprintf("\tvar s%d *C.res\n\tif C.res_open(&s%d, C.int(%d)) != 0 {\n\t\treturn -1\n\t}\n\tr += int(C.res_read(s%d))\n\tC.res_close(s%d)\n", i, i, i, i, i)
	}},
	// a release deferred to the end of the function, branches in between
	{"defer", func(i int) string {
		return fmt.Sprintf("\tq%d := C.obj_new()\n\tdefer C.obj_free(q%d)\n\tif x == %d {\n\t\tr++\n\t}\n", i, i, i)
	}},
}

const pairsPreamble = `/*
#include <stdlib.h>
typedef struct { int x; } obj;
static obj* obj_new(void) { return (obj*)calloc(1, sizeof(obj)); }
static void obj_free(obj* o) { free(o); }
static int obj_use(obj* o, int v) { return o ? o->x + v : v; }

typedef struct res { int v; } res;
//lifetime:acquire res_open out=0
//lifetime:release res_close arg=0
static int res_open(res** out, int v) { *out = (res*)calloc(1, sizeof(res)); if (!*out) return 1; (*out)->v = v; return 0; }
static int res_read(res* r) { return r->v; }
static void res_close(res* r) { free(r); }
*/
import "C"
`

// doubleFree is a real double release, written between pairs.
func doubleFree(tag string) string {
	return fmt.Sprintf("\td%s := C.obj_new()\n\tC.obj_free(d%s)\n\tC.obj_free(d%s)\n", tag, tag, tag)
}

// PairsSource returns a cgo package whose function F is units pairs of the
// shape, with a double release after pair i for each i in doubles (-1:
// after the last pair).
func PairsSource(name string, shape PairShape, units int, doubles ...int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\n%s\nfunc F(x int) int {\n\tr := 0\n", name, pairsPreamble)
	for i := range units {
		b.WriteString(shape.unit(i))
		for _, d := range doubles {
			if d == i {
				b.WriteString(doubleFree(fmt.Sprint(i)))
			}
		}
	}
	for _, d := range doubles {
		if d < 0 {
			b.WriteString(doubleFree("end"))
		}
	}
	b.WriteString("\treturn r\n}\n")
	return b.String()
}

// statements counts the statements of a generated function (one a line).
func Statements(src string) int {
	body := src[strings.Index(src, "func F("):]
	n := 0
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && l != "}" && !strings.HasPrefix(l, "func ") && !strings.HasPrefix(l, "} else") {
			n++
		}
	}
	return n
}

func WriteFile(t testing.TB, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkPairs measures the lifetime pass on one function of N
// allocate/release pairs, per shape and size: the pass alone (its SSA, cgo
// calls and model are computed once, before the timer); ns/pair should not
// grow with N.
func BenchmarkPairs(b *testing.B) {
	for _, shape := range PairShapes {
		for _, n := range []int{100, 1000, 5000} {
			b.Run(fmt.Sprintf("%s/%d", shape.name, n), func(b *testing.B) {
				pass := loadPass(b, PairsSource("p", shape, n, -1))
				b.ReportAllocs()
				work := 0
				cpu0 := cpuTime()
				for b.Loop() {
					res, err := run(pass)
					if err != nil {
						b.Fatal(err)
					}
					r := res.(*Result)
					if len(r.Incomplete()) > 0 {
						b.Fatalf("%s/%d: F stopped at its work budget", shape.name, n)
					}
					for fn, t := range r.Traces {
						if fn.Name() == "F" {
							work = t.work
						}
					}
				}
				// wall time (noisy on a shared machine), and measures
				// that are less so: the process's CPU time (garbage
				// collection included), the work units the budget
				// counts, and the allocations
				cpu := cpuTime() - cpu0
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/pair")
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/pair")
				b.ReportMetric(float64(work)/float64(n), "work/pair")
			})
		}
	}
}

// cpuTime returns the CPU time the process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadPass loads src as package bench/p and returns the pass the lifetime
// analyzer would run with on it, its required results computed.
func loadPass(b *testing.B, src string) *analysis.Pass {
	dir := b.TempDir()
	WriteFile(b, filepath.Join(dir, "go.mod"), "module bench\n\ngo 1.22\n")
	WriteFile(b, filepath.Join(dir, "p", "p.go"), src)
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Env: append(os.Environ(), "CGO_ENABLED=1", "GOFLAGS=-mod=mod")}
	pkgs, err := packages.Load(cfg, "./p")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		b.Fatalf("load: %v", err)
	}
	var pass *analysis.Pass
	capture := &analysis.Analyzer{
		Name:      "capture",
		Doc:       "captures the pass of bench/p",
		Requires:  Analyzer.Requires,
		FactTypes: Analyzer.FactTypes,
		Run: func(p *analysis.Pass) (any, error) {
			if p.Pkg.Path() == "bench/p" {
				// a copy that outlives the action: facts exported on
				// each run of the benchmark go nowhere
				cp := *p
				cp.ExportObjectFact = func(types.Object, analysis.Fact) {}
				cp.ExportPackageFact = func(analysis.Fact) {}
				pass = &cp
			}
			return nil, nil
		},
	}
	if _, err := checker.Analyze([]*analysis.Analyzer{capture}, pkgs, &checker.Options{Sequential: true}); err != nil {
		b.Fatal(err)
	}
	if pass == nil {
		b.Fatal("no pass for bench/p")
	}
	return pass
}
