package main

import (
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/lifetimevet/lifetimevet/internal/driver"
)

// TestGoHeader: the header digest changes exactly with what go list reads
// of a file for its package's metadata.
func TestGoHeader(t *testing.T) {
	const base = `// Copyright notice.

//go:build linux

package p

import (
	"fmt"
	x "strings"
)

//go:embed data.txt
var data string

func F() { fmt.Println(x.ToUpper(data)) }
`
	same := map[string]string{
		"a body":                  strings.Replace(base, "x.ToUpper(data)", "data", 1),
		"a comment after imports": base + "\n// more\n",
		"the copyright notice":    strings.Replace(base, "Copyright notice.", "Copyright 2026.", 1),
		"a new function":          base + "\nfunc G() {}\n",
	}
	differ := map[string]string{
		"an import added":        strings.Replace(base, "\"fmt\"\n", "\"fmt\"\n\t\"os\"\n", 1),
		"an import's name":       strings.Replace(base, "x \"strings\"", "y \"strings\"", 1),
		"an import removed":      strings.Replace(base, "\"fmt\"\n", "", 1),
		"the package name":       strings.Replace(base, "package p", "package q", 1),
		"the //go:build line":    strings.Replace(base, "//go:build linux", "//go:build darwin", 1),
		"a // +build line added": strings.Replace(base, "//go:build linux", "//go:build linux\n// +build linux", 1),
		"an embed pattern":       strings.Replace(base, "data.txt", "other.txt", 1),
	}
	want, cgo, ok := goHeader([]byte(base), false)
	if !ok || cgo {
		t.Fatalf("base: ok %v, cgo %v", ok, cgo)
	}
	for what, src := range same {
		if got, _, ok := goHeader([]byte(src), false); !ok || got != want {
			t.Errorf("%s changed the header digest (ok %v)", what, ok)
		}
	}
	for what, src := range differ {
		if got, _, ok := goHeader([]byte(src), false); ok && got == want {
			t.Errorf("%s left the header digest as it was", what)
		}
	}
	if _, cgo, ok := goHeader([]byte("package p\n\n// #include <stdlib.h>\nimport \"C\"\n"), false); !ok || !cgo {
		t.Errorf("a cgo file: ok %v, cgo %v", ok, cgo)
	}
	for _, bad := range []string{"", "packag p\n", "package p\nimport (\n\t\"fmt\"\n", "package p\nimport fmt\n"} {
		if _, _, ok := goHeader([]byte(bad), false); ok {
			t.Errorf("%q parsed", bad)
		}
	}
	// a body that does not parse is the compiler's business, not go list's
	if _, _, ok := goHeader([]byte("package p\n\nimport \"fmt\"\n\nfunc F() { fmt.Println( }\n"), false); !ok {
		t.Errorf("a file whose body does not parse: its header did not parse")
	}

	// a test file: its tests, benchmarks, fuzz tests and examples are in
	// the generated test main
	const test = `package p

import "testing"

func TestA(t *testing.T) { t.Log("a") }

func helper() {}

func ExampleF() {
	F()
	// Output: X
}
`
	tw, _, ok := goHeader([]byte(test), true)
	if !ok {
		t.Fatal("the test file's header does not parse")
	}
	for what, src := range map[string]string{
		"a test's body":   strings.Replace(test, `t.Log("a")`, `t.Log("b")`, 1),
		"a helper's body": strings.Replace(test, "func helper() {}", "func helper() { println() }", 1),
	} {
		if got, _, ok := goHeader([]byte(src), true); !ok || got != tw {
			t.Errorf("%s changed the test file's digest", what)
		}
	}
	for what, src := range map[string]string{
		"a test added":           test + "\nfunc TestB(t *testing.T) {}\n",
		"a benchmark added":      test + "\nfunc BenchmarkB(b *testing.B) {}\n",
		"a fuzz test added":      test + "\nfunc FuzzB(f *testing.F) {}\n",
		"TestMain added":         test + "\nfunc TestMain(m *testing.M) {}\n",
		"a test renamed":         strings.Replace(test, "TestA", "TestZ", 1),
		"a test's signature":     strings.Replace(test, "TestA(t *testing.T)", "TestA(t *testing.B)", 1),
		"an example's output":    strings.Replace(test, "// Output: X", "// Output: Y", 1),
		"a test body unparsable": strings.Replace(test, `t.Log("a")`, `t.Log(`, 1),
	} {
		if got, _, ok := goHeader([]byte(src), true); ok && got == tw {
			t.Errorf("%s left the test file's digest as it was", what)
		}
	}
}

// TestRefreshCgo: the metadata refreshCgo makes after a change of a cgo
// file (go list -compiled on the package alone, its output spliced into
// the package and its test variant) is what a whole load gives.
func TestRefreshCgo(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/rc\n\ngo 1.24\n",
		"p/p.go": `package p

// #include <stdlib.h>
// static int twice(int x) { return 2*x; }
import "C"

// Twice doubles x.
func Twice(x int) int { return int(C.twice(C.int(x))) }
`,
		"p/q.go": `package p

// #include <stdlib.h>
import "C"

import "unsafe"

// Free frees p.
func Free(p unsafe.Pointer) { C.free(p) }
`,
		"p/plain.go":    "package p\n\n// Three is 3.\nconst Three = 3\n",
		"p/p_test.go":   "package p\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {}\n",
		"p/x_test.go":   "package p_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/rc/p\"\n)\n\nfunc TestX(t *testing.T) { _ = p.Three }\n",
		"user/user.go":  "package user\n\nimport \"example.com/rc/p\"\n\nvar V = p.Twice(1)\n",
		"user/other.go": "package user\n",
	}
	for name, src := range files {
		name = filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(name), 0o777)
		if err := os.WriteFile(name, []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOWORK", "off")
	load := func(d string) []*packages.Package {
		t.Helper()
		cfg := &packages.Config{Mode: driver.LoadMode, Dir: d, Tests: true, Fset: token.NewFileSet()}
		pkgs, err := packages.Load(cfg, ".")
		if err != nil {
			t.Fatal(err)
		}
		return pkgs
	}
	byID := func(roots []*packages.Package) map[string][]string {
		m := map[string][]string{}
		packages.Visit(roots, nil, func(p *packages.Package) { m[p.ID] = p.CompiledGoFiles })
		return m
	}
	for _, d := range []string{"p", "user"} {
		t.Run(d, func(t *testing.T) {
			pdir := filepath.Join(dir, d)
			old := load(pdir)
			snap := takeSnapshot(slices.Collect(func(yield func(string) bool) {
				dirs, _ := localDirs(old)
				for _, d := range dirs {
					if !yield(d) {
						return
					}
				}
			}), nil)
			pfile := filepath.Join(dir, "p", "p.go")
			data, _ := os.ReadFile(pfile)
			os.WriteFile(pfile, []byte(strings.Replace(string(data), "return int(C.twice(C.int(x)))", "y := C.twice(C.int(x))\n\treturn int(y) + "+d+"Len", 1)+"\nconst "+d+"Len = 0\n"), 0o666)
			defer os.WriteFile(pfile, data, 0o666)
			change, _ := snap.diff()
			if change.reload != "" || !slices.Equal(change.cgo, []string{pfile}) || len(change.plain) > 0 {
				t.Fatalf("change: %+v", change)
			}
			oldP := slices.Clone(byID(old)["example.com/rc/p"])
			ls := &langServer{}
			got, paths, why := ls.refreshCgo(&packages.Config{Dir: pdir}, old, change.cgo)
			if why != "" || !slices.Equal(paths, []string{"example.com/rc/p"}) {
				t.Fatalf("refreshCgo: %v, %q", paths, why)
			}
			want := byID(load(pdir))
			gotFiles := byID(got)
			if len(gotFiles) != len(want) {
				t.Errorf("%d packages, want %d", len(gotFiles), len(want))
			}
			changed := 0
			for id, files := range want {
				if !slices.Equal(gotFiles[id], files) {
					t.Errorf("%s: compiled files\n%q, want\n%q", id, gotFiles[id], files)
				}
				if !slices.Equal(byID(old)[id], files) {
					changed++
				}
			}
			// the package, and its test variant when it is in the graph
			if wantChanged := map[string]int{"p": 2, "user": 1}[d]; changed != wantChanged {
				t.Errorf("%d packages have new compiled files, want %d", changed, wantChanged)
			}
			// the originals are left as they were
			if !slices.Equal(byID(old)["example.com/rc/p"], oldP) {
				t.Errorf("the old graph changed")
			}
		})
	}
}
