package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The tests of this file are the second break-it trial of issue 17, on
// the real finalizer fix: each builds its tree in a temporary directory,
// runs -fix, and checks the files byte for byte.

const finPreamble = `package p

/*
#include <stdlib.h>
typedef struct obj { int x; } obj;
static obj *obj_new(void) { return calloc(1, sizeof(obj)); }
static void obj_free(obj *o) { free(o); }
static int obj_use(obj *o) { return o->x; }
*/
import "C"

import "runtime"

type T struct{ o *C.obj }

func New() *T {
	t := &T{C.obj_new()}
	runtime.SetFinalizer(t, func(t *T) { C.obj_free(t.o) })
	return t
}
`

func finTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/fin\n\ngo 1.24\n"
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o777)
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A return in a case clause, in a comm clause and under a label gets its
// KeepAlive deferred before it (after it, it would be dead code, and the
// switch and the select would no longer end their functions: the file
// would not build); a statement that shares its line with another gets its
// KeepAlive right after it; so do calls that cgo wraps in a function
// literal. The fixed package builds, and is clean.
func TestFixFinalizerShapes(t *testing.T) {
	bin := build(t)
	src := finPreamble + `
func (t *T) Use(k int) int {
	switch k {
	case 1:
		return int(C.obj_use(t.o))
	default:
		return 0
	}
}

func (t *T) Get(ch chan int) int {
	select {
	case <-ch:
		return int(C.obj_use(t.o))
	}
}

func (t *T) Labeled(n int) int {
	if n > 0 {
		goto L
	}
	n++
L:
	return int(C.obj_use(t.o)) + n
}

func (t *T) Same() {
	n := C.obj_use(t.o); /* see obj_use */ println(n)
}
`
	want := strings.NewReplacer(
		"\tcase 1:\n\t\treturn int(C.obj_use(t.o))\n", "\tcase 1:\n\t\tdefer runtime.KeepAlive(t)\n\t\treturn int(C.obj_use(t.o))\n",
		"\tcase <-ch:\n\t\treturn int(C.obj_use(t.o))\n", "\tcase <-ch:\n\t\tdefer runtime.KeepAlive(t)\n\t\treturn int(C.obj_use(t.o))\n",
		"L:\n\treturn int(C.obj_use(t.o)) + n\n", "L:\n\tdefer runtime.KeepAlive(t)\n\treturn int(C.obj_use(t.o)) + n\n",
		"\tn := C.obj_use(t.o); /* see obj_use */ println(n)\n", "\tn := C.obj_use(t.o)\n\truntime.KeepAlive(t); /* see obj_use */ println(n)\n",
	).Replace(src)
	// calls that cgo wraps in a function literal (a pointer argument
	// it checks), in a file that does not import runtime
	peek := `package p

/*
typedef struct obj { int x; } obj;
static int obj_peek(obj *o, void *p) { return o->x; }
*/
import "C"

import "unsafe"

func (t *T) Peek(buf []byte) {
	C.obj_peek(t.o, unsafe.Pointer(&buf[0]))
}

func (t *T) PeekN(buf []byte) int {
	return int(C.obj_peek(t.o, unsafe.Pointer(&buf[0])))
}
`
	wantPeek := strings.NewReplacer(
		"import \"unsafe\"\n", "import \"unsafe\"\n\nimport \"runtime\"\n",
		"\tC.obj_peek(t.o, unsafe.Pointer(&buf[0]))\n", "\tC.obj_peek(t.o, unsafe.Pointer(&buf[0]))\n\truntime.KeepAlive(t)\n",
		"\treturn int(C.obj_peek(", "\tdefer runtime.KeepAlive(t)\n\treturn int(C.obj_peek(",
	).Replace(peek)
	dir := finTree(t, map[string]string{"p/p.go": src, "p/peek.go": peek})
	_, stderr, code := runEnv(t, dir, nil, bin, "-cache=off", "-fix", "./...")
	if code != 3 || strings.Count(stderr, ": fixed: ") != 6 {
		t.Errorf("status %d, stderr:\n%s", code, stderr)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "p", "p.go"))
	if string(got) != want {
		t.Errorf("p.go after -fix:\n%s\nwant:\n%s", got, want)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "p", "peek.go")); string(got) != wantPeek {
		t.Errorf("peek.go after -fix:\n%s\nwant:\n%s", got, wantPeek)
	}
	if _, stderr, code := runEnv(t, dir, nil, "go", "build", "./..."); code != 0 {
		t.Errorf("the fixed package does not build:\n%s", stderr)
	}
	if stdout, _, code := runEnv(t, dir, nil, bin, "-cache=off", "./..."); code != 0 {
		t.Errorf("the fixed package still has findings (status %d):\n%s", code, stdout)
	}
}

// A //line directive in a cgo file that names another file of the package
// (p1), or another line of the same file (p2), does not move the edit:
// -fix refuses it, SARIF offers no fix, and no file changes.
func TestFixLineDirectiveSibling(t *testing.T) {
	bin := build(t)
	hello := "package p\n\nimport \"fmt\"\n\nfunc Hello() {\n\tfmt.Println(\"a\")\n\tfmt.Println(\"b\")\n\tfmt.Println(\"c\")\n}\n"
	use := "\nfunc (t *T) Use() {\n\tC.obj_use(t.o)\n}\n"
	files := map[string]string{
		"p1/a.go": hello,
		"p1/b.go": finPreamble + "\n//line a.go:5:1" + use,
		"p2/a.go": hello,
		"p2/b.go": finPreamble + "\n//line b.go:17:1" + use,
	}
	orig := map[string]string{}
	for k, v := range files {
		orig[k] = v
	}
	dir := finTree(t, files)
	_, stderr, _ := runEnv(t, dir, nil, bin, "-cache=off", "-fix", "./...")
	if strings.Contains(stderr, "fixed:") ||
		!strings.Contains(stderr, "is in a.go only by a //line directive in b.go") ||
		!strings.Contains(stderr, "b.go has //line directives of its own") {
		t.Errorf("stderr:\n%s", stderr)
	}
	for name, content := range orig {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != content {
			t.Errorf("%s was written:\n%s", name, got)
		}
	}
	sarifOut, _, _ := runEnv(t, dir, nil, bin, "-cache=off", "-format", "sarif", "./...")
	if strings.Contains(sarifOut, "artifactChanges") || !strings.Contains(sarifOut, "has //line directives of its own") {
		t.Errorf("SARIF offers the fix, or says nothing:\n%s", sarifOut)
	}
}

// With GOFLAGS=-overlay, the analysis is of the overlay's content (here the
// same code with New on one line, which moves Use up): the file on disk,
// which is not what was analysed, is not fixed, and the message says why.
func TestFixOverlay(t *testing.T) {
	bin := build(t)
	src := finPreamble + "\nfunc (t *T) Use() {\n\tC.obj_use(t.o)\n}\n"
	dir := finTree(t, map[string]string{"p/p.go": src})
	ovDir := t.TempDir()
	overlaid := strings.Replace(src, "func New() *T {\n\tt := &T{C.obj_new()}\n\truntime.SetFinalizer(t, func(t *T) { C.obj_free(t.o) })\n\treturn t\n}\n",
		"func New() *T { t := &T{C.obj_new()}; runtime.SetFinalizer(t, func(t *T) { C.obj_free(t.o) }); return t }\n", 1)
	os.WriteFile(filepath.Join(ovDir, "p.go"), []byte(overlaid), 0o666)
	data, _ := json.Marshal(map[string]any{"Replace": map[string]string{filepath.Join(dir, "p", "p.go"): filepath.Join(ovDir, "p.go")}})
	os.WriteFile(filepath.Join(ovDir, "overlay.json"), data, 0o666)
	_, stderr, _ := runEnv(t, dir, []string{"GOFLAGS=-mod=mod -overlay=" + filepath.Join(ovDir, "overlay.json")}, bin, "-cache=off", "-fix", "./...")
	if strings.Contains(stderr, "fixed:") || !strings.Contains(stderr, "p.go is replaced by an -overlay") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "p", "p.go")); string(got) != src {
		t.Errorf("p.go on disk was written:\n%s", got)
	}
}

// A write that fails part way (a file size limit here; a full disk or a
// quota alike) leaves the user's file whole, and the message says so.
func TestFixWriteFailsPartWay(t *testing.T) {
	bin := build(t)
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip(err)
	}
	src := finPreamble + "\nfunc (t *T) Use() {\n\tC.obj_use(t.o)\n}\n" + strings.Repeat("\n// the rest of the user's code\n", 600)
	dir := finTree(t, map[string]string{"p/p.go": src})
	// once without the limit, so that go's build cache holds cgo's output
	runEnv(t, dir, nil, bin, "-cache=off", "./...")
	// 8 blocks: 4 or 8 KB, short of the file's 19 KB
	_, stderr, code := runEnv(t, dir, nil, sh, "-c", `ulimit -f 8 && exec "$0" "$@"`, bin, "-cache=off", "-fix", "./...")
	if code != 1 || !strings.Contains(stderr, "p.go: not fixed: writing it: file too large (the file is as it was)") {
		t.Errorf("status %d, stderr:\n%s", code, stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "p", "p.go")); string(got) != src {
		t.Errorf("after a failed write p.go has %d bytes, want its %d", len(got), len(src))
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "p")); len(entries) != 1 {
		t.Errorf("files left beside p.go: %v", entries)
	}
}

// A fix is made only in the files of the main module: a vendored
// dependency's file (go mod vendor would undo the edit) and a file of the
// module cache (which go verifies against go.sum and shares between
// builds: trial 13 A1, as root, whom file modes do not stop) are named as
// not fixed, and stay as they were; the main module's own file is fixed.
func TestFixOnlyMainModule(t *testing.T) {
	bin := build(t)
	src := strings.Replace(finPreamble, "package p", "package dep", 1) + "\nfunc (t *T) Use() {\n\tC.obj_use(t.o)\n}\n"
	own := strings.Replace(src, "package dep", "package own", 1)
	dir := finTree(t, map[string]string{
		"own/own.go":                           own,
		"vendor/example.com/dep/dep.go":        src,
		"vendor/modules.txt":                   "# example.com/dep v1.0.0\n## explicit; go 1.24\nexample.com/dep\n",
		"main.go":                              "package main\n\nimport (\n\t_ \"example.com/dep\"\n\t_ \"example.com/fin/own\"\n)\n\nfunc main() {}\n",
		"modcache/example.com/c@v1.0.0/go.mod": "module example.com/c\n\ngo 1.24\n",
		"modcache/example.com/c@v1.0.0/c.go":   strings.Replace(src, "package dep", "package c", 1),
	})
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/fin\n\ngo 1.24\n\nrequire example.com/dep v1.0.0\n"), 0o666)
	_, stderr, _ := runEnv(t, dir, []string{"GOFLAGS=-mod=vendor"}, bin, "-cache=off", "-fix", "-finalizer", "example.com/dep", "./own")
	if !strings.Contains(stderr, "dep.go:") || !strings.Contains(stderr, "it is a vendored copy") || !strings.Contains(stderr, "own.go:") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "vendor/example.com/dep/dep.go")); string(got) != src {
		t.Errorf("the vendored dep.go was written:\n%s", got)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "own/own.go")); string(got) == own || !strings.Contains(string(got), "runtime.KeepAlive(t)") {
		t.Errorf("own.go was not fixed:\n%s", got)
	}
	// the same dependency replaced by a directory: the vendored copy is
	// still what go builds, and go mod vendor rewrites it
	os.MkdirAll(filepath.Join(dir, "..", "deprepl"), 0o777)
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/fin\n\ngo 1.24\n\nrequire example.com/dep v1.0.0\n\nreplace example.com/dep => ../deprepl\n"), 0o666)
	os.WriteFile(filepath.Join(dir, "vendor/modules.txt"), []byte("# example.com/dep v1.0.0 => ../deprepl\n## explicit; go 1.24\nexample.com/dep\n# example.com/dep => ../deprepl\n"), 0o666)
	_, stderr, _ = runEnv(t, dir, []string{"GOFLAGS=-mod=vendor"}, bin, "-cache=off", "-fix", "-finalizer", "example.com/dep")
	if !strings.Contains(stderr, "it is a vendored copy") {
		t.Errorf("stderr with a replace:\n%s", stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "vendor/example.com/dep/dep.go")); string(got) != src {
		t.Errorf("the vendored dep.go of a replaced module was written:\n%s", got)
	}
	// a directory under GOMODCACHE, named as a package of its own
	cdir := filepath.Join(dir, "modcache/example.com/c@v1.0.0")
	csrc, _ := os.ReadFile(filepath.Join(cdir, "c.go"))
	_, stderr, _ = runEnv(t, cdir, []string{"GOMODCACHE=" + filepath.Join(dir, "modcache"), "GOFLAGS=-mod=mod"}, bin, "-cache=off", "-fix", "-finalizer", ".")
	if !strings.Contains(stderr, "it is in the module cache") {
		t.Errorf("stderr in the module cache:\n%s", stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(cdir, "c.go")); string(got) != string(csrc) {
		t.Errorf("c.go in the module cache was written:\n%s", got)
	}
}

// A KeepAlive fix that must import runtime, in a cgo file whose import "C"
// line ends with a comment (a line comment, a block comment), and in a
// CRLF cgo file: the import goes after the comment, on lines of its own,
// and the CRLF file keeps CRLF. cgo rewrites the import "C" line (its
// columns differ), so only the end of the line maps to the user's file.
func TestFixImportAfterImportC(t *testing.T) {
	bin := build(t)
	use := func(name, importC string) string {
		return "package p\n\n// typedef struct obj obj;\n// int obj_use(obj *);\n" + importC + "\n\nfunc (t *T) " + name + "() int {\n\tn := C.obj_use(t.o)\n\treturn int(n)\n}\n"
	}
	fixed := func(src string) string {
		return strings.NewReplacer("\n\nfunc", "\n\nimport \"runtime\"\n\nfunc", "\tn := C.obj_use(t.o)\n", "\tn := C.obj_use(t.o)\n\truntime.KeepAlive(t)\n").Replace(src)
	}
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	files := map[string]string{
		"p/p.go":       finPreamble,
		"p/line.go":    use("Line", `import "C" // the library`),
		"p/block.go":   use("Block", `import "C" /* the library */`),
		"p/grouped.go": use("Grouped", `import ("C") // grouped`),
		"p/crlf.go":    crlf(use("CRLF", `import "C"`)),
		"p/both.go":    crlf(use("Both", `import "C" // the library`)),
	}
	want := map[string]string{}
	for name, src := range files {
		if name != "p/p.go" {
			want[name] = fixed(src)
			if strings.Contains(src, "\r\n") {
				want[name] = crlf(fixed(strings.ReplaceAll(src, "\r\n", "\n")))
			}
		}
	}
	dir := finTree(t, files)
	// SARIF: one artifactChange per file, which holds both edits
	sarifOut, _, _ := runEnv(t, dir, nil, bin, "-cache=off", "-format=sarif", "./...")
	var log struct {
		Runs []struct {
			Results []struct {
				Fixes []struct {
					ArtifactChanges []struct {
						ArtifactLocation struct{ URI string }
						Replacements     []struct {
							DeletedRegion struct{ ByteOffset int }
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(sarifOut), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF: %v\n%s", err, sarifOut)
	}
	nfix := 0
	for _, r := range log.Runs[0].Results {
		for _, f := range r.Fixes {
			nfix++
			if len(f.ArtifactChanges) != 1 || len(f.ArtifactChanges[0].Replacements) != 2 {
				t.Errorf("SARIF fix: %+v, want one artifactChange with two replacements", f)
				continue
			}
			if rs := f.ArtifactChanges[0].Replacements; rs[0].DeletedRegion.ByteOffset > rs[1].DeletedRegion.ByteOffset {
				t.Errorf("SARIF fix: replacements %+v not in the file's order", rs)
			}
		}
	}
	if nfix != len(want) {
		t.Errorf("SARIF: %d fixes, want %d", nfix, len(want))
	}
	_, stderr, code := runEnv(t, dir, nil, bin, "-cache=off", "-fix", "./...")
	if code != 3 || strings.Count(stderr, ": fixed: ") != len(want) {
		t.Errorf("status %d, stderr:\n%s", code, stderr)
	}
	for name, w := range want {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != w {
			t.Errorf("%s after -fix:\n%q\nwant:\n%q", name, got, w)
		}
	}
	if _, stderr, code := runEnv(t, dir, nil, "go", "build", "./..."); code != 0 {
		t.Errorf("the fixed package does not build:\n%s", stderr)
	}
	if stdout, _, code := runEnv(t, dir, nil, bin, "-cache=off", "./..."); code != 0 {
		t.Errorf("the fixed package still has findings (status %d):\n%s", code, stdout)
	}
}

// An internal test file or a file for other build tags that declares
// runtime at package level: import "runtime" in another file of the
// package would not compile in that build, so no fix adds it.
func TestFixImportOtherVariant(t *testing.T) {
	bin := build(t)
	use := "package p\n\n// typedef struct obj obj;\n// int obj_use(obj *);\nimport \"C\"\n\nfunc (t *T) Use() int {\n\tn := C.obj_use(t.o)\n\treturn int(n)\n}\n"
	for name, other := range map[string]string{
		"p/x_test.go": "package p\n\nvar runtime = 1\n",
		"p/debug.go":  "//go:build debug\n\npackage p\n\nfunc runtime() {}\n",
	} {
		dir := finTree(t, map[string]string{"p/p.go": finPreamble, "p/use.go": use, name: other})
		_, stderr, code := runEnv(t, dir, nil, bin, "-cache=off", "-fix", "./...")
		if code != 3 || strings.Contains(stderr, ": fixed: ") {
			t.Errorf("%s: status %d, stderr:\n%s", name, code, stderr)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "p", "use.go")); string(got) != use {
			t.Errorf("%s: use.go changed:\n%s", name, got)
		}
	}
}
