package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeTree writes files (name -> text) under a new temporary directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o777)
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const twiceSrc = `package %s

/*
#include <stdlib.h>
typedef struct { int live; } obj;
static obj* obj_new(void) { return malloc(sizeof(obj)); }
static void obj_free(obj* o) { free(o); }
*/
import "C"

func Twice() {
	o := C.obj_new()
	C.obj_free(o)
	C.obj_free(o)
}
`

// Packages that cgo being off leaves out are named, with the reason; when
// nothing that was asked for is left, the status is 1.
func TestCgoOffNamesDroppedPackages(t *testing.T) {
	bin := build(t)
	dir := writeTree(t, map[string]string{
		"go.mod":        "module m\n\ngo 1.22\n",
		"cg/cg.go":      strings.Replace(twiceSrc, "%s", "cg", 1),
		"mixed/cg.go":   strings.Replace(twiceSrc, "%s", "mixed", 1),
		"mixed/pure.go": "package mixed\n\nfunc Pure() int { return 1 }\n",
		"pure/pure.go":  "package pure\n\nfunc Pure() int { return 1 }\n",
		// a fallback for builds without cgo takes the cgo file's place:
		// as many files, not the same ones
		"fallback/cg.go":    strings.Replace(twiceSrc, "%s", "fallback", 1),
		"fallback/nocgo.go": "//go:build !cgo\n\npackage fallback\n\nfunc Fallback() {}\n",
	})
	env := func(kv ...string) []string { return kv }
	for _, c := range []struct {
		name    string
		env     []string
		pattern string
		code    int
		want    []string
	}{
		{"CGO_ENABLED=0", env("CGO_ENABLED=0"), "./...", 0, []string{
			"m/cg not analysed: its Go files need cgo, and cgo is disabled (CGO_ENABLED=0)",
			"m/mixed analysed without 1 of its Go files, which need cgo: cgo is disabled (CGO_ENABLED=0)",
			"m/fallback analysed without 1 of its Go files, which need cgo: cgo is disabled (CGO_ENABLED=0)",
		}},
		{"only cgo packages", env("CGO_ENABLED=0"), "./cg/...", 1, []string{
			"m/cg not analysed: its Go files need cgo",
			"nothing to analyse in ./cg/...",
		}},
		{"GOOS=windows", env("GOOS=windows", "CGO_ENABLED="), "./cg/...", 1, []string{
			"m/cg not analysed: its Go files need cgo, and cgo is off when cross-compiling (GOOS=windows GOARCH=",
		}},
		{"GOARCH=arm64", env("GOARCH=arm64", "GOOS=linux", "CGO_ENABLED="), "./cg/...", 1, []string{
			"m/cg not analysed: its Go files need cgo, and cgo is off when cross-compiling (GOOS=linux GOARCH=arm64",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := runEnvResult(t, dir, c.env, bin, c.pattern)
			if cmd.code != c.code {
				t.Errorf("status %d, want %d; stderr:\n%s", cmd.code, c.code, cmd.stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(cmd.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, cmd.stderr)
				}
			}
		})
	}
	// With cgo on, nothing is said.
	if r := runEnvResult(t, dir, nil, bin, "./..."); r.code != 3 || strings.Contains(r.stderr, "not analysed") || strings.Contains(r.stderr, "without") {
		t.Errorf("cgo on: status %d, stderr:\n%s", r.code, r.stderr)
	}
}

// A package that imports one that does not type-check is named, and the
// others are analysed.
func TestIllTypedImportNamed(t *testing.T) {
	bin := build(t)
	dir := writeTree(t, map[string]string{
		"go.mod":   "module m\n\ngo 1.22\n",
		"c/c.go":   "package c\n\nfunc Mark() int { var x int = \"s\"; return x }\n",
		"b/b.go":   "package b\n\nimport \"m/c\"\n\nfunc B() int { return c.Mark() }\n",
		"a/a.go":   "package a\n\nimport \"m/b\"\n\nfunc A() int { return b.B() }\n",
		"cg/cg.go": strings.Replace(twiceSrc, "%s", "cg", 1),
	})
	r := runEnvResult(t, dir, nil, bin, "./...")
	for _, w := range []string{
		"m/b not analysed: it imports m/c, which has errors",
		"m/a not analysed: it imports m/c (through m/b), which has errors",
		// named as findings are, relative to the directory
		filepath.Join("c", "c.go") + `:3:31: cannot use`,
		`cannot use "s"`,
	} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
		}
	}
	if strings.Contains(r.stderr, dir) {
		t.Errorf("an absolute path in the load errors:\n%s", r.stderr)
	}
	if r.code != 3 || !strings.Contains(r.stdout, "cg.go:14:12: doublerelease:") {
		t.Errorf("the other packages are not analysed: status %d, stdout:\n%s", r.code, r.stdout)
	}
}

// With -test=false, a package of test files only has nothing to analyse:
// it is named, and a run with nothing else exits 1; with other packages,
// they are analysed.
func TestTestOnlyNamed(t *testing.T) {
	bin := build(t)
	dir := writeTree(t, map[string]string{
		"go.mod":      "module m\n\ngo 1.22\n",
		"t/t_test.go": "package t\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n",
	})
	want := "m/t not analysed: it has only test files, which -test=false leaves out"
	r := runEnvResult(t, dir, nil, bin, "-test=false", "./...")
	if r.code != 1 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "nothing to analyse in ./...") {
		t.Errorf("status %d, stderr %q, want 1 and %q", r.code, r.stderr, want)
	}
	writeFiles(t, dir, map[string]string{"cg/cg.go": strings.Replace(twiceSrc, "%s", "cg", 1)})
	r = runEnvResult(t, dir, nil, bin, "-test=false", "./...")
	if r.code != 3 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stdout, "doublerelease") {
		t.Errorf("with another package: status %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r = runEnvResult(t, dir, nil, bin, "./..."); strings.Contains(r.stderr, "not analysed") {
		t.Errorf("with the tests: stderr %q", r.stderr)
	}
}

type result struct {
	stdout, stderr string
	code           int
}

// runEnvResult runs name in dir with env added to the test's environment.
func runEnvResult(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	stdout, stderr, code := run(t, dir, name, args...)
	return result{stdout, stderr, code}
}

// Under go vet with cgo off, go vet hands the tool the package without its
// cgo files (the unit's IgnoredFiles) and says nothing: the tool says it,
// once per package, in the standalone driver's words.
func TestVetCgoOffSaid(t *testing.T) {
	bin := build(t)
	dir := writeTree(t, map[string]string{
		"go.mod":      "module m\n\ngo 1.22\n",
		"mixed/cg.go": strings.Replace(twiceSrc, "%s", "mixed", 1),
		// go vet prints nothing for a result in its cache: a text of
		// this run's own
		"mixed/pure.go": fmt.Sprintf("package mixed\n\n// %d\nfunc Pure() int { return 1 }\n", time.Now().UnixNano()),
		"pure/pure.go":  "package pure\n\nfunc Pure() int { return 1 }\n",
	})
	r := runEnvResult(t, dir, []string{"CGO_ENABLED=0"}, "go", "vet", "-vettool="+bin, "./...")
	want := "lifetimevet: m/mixed analysed without 1 of its Go files, which need cgo (cg.go): cgo is disabled (CGO_ENABLED=0)"
	if strings.Count(r.stderr, want) != 1 || strings.Contains(r.stderr, "m/pure") {
		t.Errorf("go vet, CGO_ENABLED=0: stderr %q, want one line saying %q", r.stderr, want)
	}
	r = runEnvResult(t, dir, []string{"CGO_ENABLED=1"}, "go", "vet", "-vettool="+bin, "./...")
	if strings.Contains(r.stderr, "without") || !strings.Contains(r.stderr, "released twice") {
		t.Errorf("go vet, cgo on: stderr %q, want the finding and no notice", r.stderr)
	}
}
