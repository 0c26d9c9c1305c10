package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// vetCgoIgnored names the ignored files that import "C" and that the
// build would take with cgo on; files ignored for another reason (another
// GOOS, a build tag, no import of "C"), and non-Go files, are not named.
func TestVetCgoIgnored(t *testing.T) {
	dir := t.TempDir()
	// a file for another GOOS than the one the build is for
	otherOS := "windows"
	if runtime.GOOS == "windows" {
		otherOS = "linux"
	}
	files := map[string]string{
		"a.go":       "package p\n\n// #include <stdlib.h>\nimport \"C\"\n",
		"b.go":       "package p\n\nimport (\n\t\"fmt\"\n\t\"C\"\n)\n\nvar _ = fmt.Sprint\n",
		"other.go":   "//go:build " + otherOS + "\n\npackage p\n\nimport \"C\"\n",
		"tagged.go":  "//go:build sometag\n\npackage p\n\nimport \"C\"\n",
		"nocgo.go":   "//go:build !cgo\n\npackage p\n",
		"plain_x.go": "package p\n",
		"helper.c":   "int f(void) { return 0; }\n",
		"broken.go":  "package p\n\nimport \"C\n",
	}
	var ignored []string
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		ignored = append(ignored, filepath.Join(dir, name))
	}
	called := 0
	reason := func() string { called++; return "cgo is off" }
	got := vetCgoIgnored("m/p", dir, ignored, reason)
	if want := "m/p analysed without 2 of its Go files, which need cgo (a.go, b.go): cgo is off"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// relative names are the unit directory's
	if got := vetCgoIgnored("m/p", dir, []string{"a.go"}, reason); got == "" {
		t.Errorf("relative a.go: no notice")
	}
	called = 0
	if got := vetCgoIgnored("m/p", dir, []string{filepath.Join(dir, "tagged.go"), filepath.Join(dir, "nocgo.go")}, reason); got != "" || called != 0 {
		t.Errorf("no cgo file left out: %q (reason asked %d times)", got, called)
	}
}
