package main

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// go vet's -V=full digest covers the configuration of every module whose
// packages go vet analyses from the directory it runs in: the go.work's
// modules and the local replacements, not only the module of that
// directory.
func TestVetInputsRoots(t *testing.T) {
	top := t.TempDir()
	writeTree(t, top, map[string]string{
		"go.work":                 "go 1.22\n\nuse ./a\nuse ./b\n\nreplace example.com/w => ./w\n",
		"a/go.mod":                "module example.com/a\n\ngo 1.22\n\nreplace example.com/c => ../c\n\nreplace example.com/v => example.com/v2 v2.0.0\n",
		"b/go.mod":                "module example.com/b\n\ngo 1.22\n",
		"c/go.mod":                "module example.com/c\n\ngo 1.22\n",
		"w/go.mod":                "module example.com/w\n\ngo 1.22\n",
		"b/deep/lifetimevet.toml": "analyzers = []\n",
		"a/sub/x.go":              "package sub\n",
	})
	t.Setenv("GOWORK", "")
	roots, ok := mainRoots(filepath.Join(top, "a", "sub"))
	slices.Sort(roots)
	want := []string{filepath.Join(top, "a"), filepath.Join(top, "b"), filepath.Join(top, "c"), filepath.Join(top, "w")}
	if !ok || !slices.Equal(roots, want) {
		t.Errorf("roots %v, %v; want %v", roots, ok, want)
	}
	t.Setenv("GOWORK", "off")
	roots, _ = mainRoots(filepath.Join(top, "a", "sub"))
	slices.Sort(roots)
	if want := []string{filepath.Join(top, "a"), filepath.Join(top, "c")}; !slices.Equal(roots, want) {
		t.Errorf("GOWORK=off: roots %v; want %v", roots, want)
	}
	if _, ok := mainRoots(t.TempDir()); ok {
		t.Error("a directory in no module has main modules")
	}

	// run in a, a change in b's configuration changes the digest
	t.Setenv("GOWORK", "")
	t.Chdir(filepath.Join(top, "a"))
	digest := func() [sha256.Size]byte {
		t.Helper()
		h := sha256.New()
		if err := inputsDigest(h); err != nil {
			t.Fatal(err)
		}
		return [sha256.Size]byte(h.Sum(nil))
	}
	before := digest()
	writeTree(t, top, map[string]string{"b/deep/lifetimevet.toml": "analyzers = [\"all\"]\n"})
	if digest() == before {
		t.Error("a configuration file of another go.work module changed; the digest did not")
	}
	// outside any module: unique to each run
	t.Setenv("GOWORK", "off")
	t.Chdir(t.TempDir())
	if digest() == digest() {
		t.Error("outside any module, two runs have one digest")
	}

	if walkedFrom([]string{top}, filepath.Join(top, "testdata", "x")) || !walkedFrom([]string{top}, filepath.Join(top, "p", "q")) || !walkedFrom([]string{top}, top) {
		t.Error("walkedFrom: testdata is skipped, p/q and the root are walked")
	}
}

// go vet's -V=full digest stamps every file C can include, in include
// directories and beside Go files alike (go vet keys a package on its own
// files only, never on what it includes from elsewhere): changing, adding
// or removing one changes it.
func TestVetInputsHeaders(t *testing.T) {
	top := t.TempDir()
	writeTree(t, top, map[string]string{
		"go.mod":      "module example.com/h\n\ngo 1.22\n",
		"inc/arena.h": "#define free(x) ((void)(x))\n",
		"p/p.go":      "package p\n",
		"p/own.h":     "int x;\n",
	})
	t.Setenv("GOWORK", "off")
	t.Chdir(filepath.Join(top, "p"))
	digest := func() [sha256.Size]byte {
		t.Helper()
		h := sha256.New()
		if err := inputsDigest(h); err != nil {
			t.Fatal(err)
		}
		return [sha256.Size]byte(h.Sum(nil))
	}
	d0 := digest()
	if digest() != d0 {
		t.Fatal("the digest changed with nothing changed")
	}
	writeTree(t, top, map[string]string{"inc/arena.h": "/* free is libc's, and the size changed */\n"})
	d1 := digest()
	if d1 == d0 {
		t.Error("a header of an include directory changed; the digest did not")
	}
	writeTree(t, top, map[string]string{"inc/new.h": "\n"})
	d2 := digest()
	if d2 == d1 {
		t.Error("a header was added to an include directory; the digest did not change")
	}
	writeTree(t, top, map[string]string{"inc/cfg.def": "X(free)\n"})
	d2b := digest()
	if d2b == d2 {
		t.Error("an X-macro file (.def) was added to an include directory; the digest did not change")
	}
	d2 = d2b
	// Beside Go files, a header is still in no key of its includers'
	// (another package's -I../p), and a .inl or .def in none at all; a
	// directory whose Go files the build excludes is no package.
	writeTree(t, top, map[string]string{"tagged/ignore.go": "//go:build ignore\n\npackage main\n"})
	d2 = digest()
	for _, c := range []struct{ name, file, why string }{
		{"p/own.h", "int y, z;\n", "a header beside a package's Go files changed"},
		{"p/tables.inl", "X(free)\n", "an .inl beside a package's Go files was added"},
		{"tagged/api.h", "#define release free\n", "a header beside only build-excluded Go files was added"},
	} {
		writeTree(t, top, map[string]string{c.name: c.file})
		d := digest()
		if d == d2 {
			t.Errorf("%s (%s); the digest did not change", c.why, c.name)
		}
		d2 = d
	}
	writeTree(t, top, map[string]string{"tagged/api.h": "#define release cuMemFree\n"})
	if digest() == d2 {
		t.Error("a header beside only build-excluded Go files changed; the digest did not")
	}
	d2 = digest()
	// an include directory the walk skips (_inc, .deps), named by a
	// package's #cgo -I${SRCDIR}/..., is stamped; one no -I names is not
	writeTree(t, top, map[string]string{
		"_rel/r.h":          "\n",
		"_inc/u.h":          "static void drop(void *p) { (void)p; }\n",
		"_other/o.h":        "\n",
		"q/q.go":            "package q\n\n// #cgo CFLAGS: -I${SRCDIR}/../_inc -isystem ${SRCDIR}/../.deps/include -I../_rel\n// #include \"u.h\"\nimport \"C\"\n",
		".deps/include/v.h": "\n",
	})
	d2 = digest()
	for _, c := range []struct{ name, file string }{
		{"_inc/u.h", "static void drop(void *p) { free(p); }\n"},
		{".deps/include/v.h", "#define release free\n"},
		{"_inc/sub/w.h", "\n"},
		{"_rel/r.h", "#define release free\n"},
	} {
		writeTree(t, top, map[string]string{c.name: c.file})
		d := digest()
		if d == d2 {
			t.Errorf("%s, in an include directory a #cgo -I names, changed; the digest did not", c.name)
		}
		d2 = d
	}
	writeTree(t, top, map[string]string{"_other/o.h": "#define x 1\n"})
	if digest() != d2 {
		t.Error("a header in a skipped directory no -I names changed the digest")
	}
	// an include directory that is a link, pointed elsewhere
	writeTree(t, top, map[string]string{"v1/a.h": "\n", "v2/a.h": "\n"})
	if err := os.Symlink("v1", filepath.Join(top, "cur")); err != nil {
		t.Skip(err)
	}
	d3 := digest()
	os.Remove(filepath.Join(top, "cur"))
	os.Symlink("v2", filepath.Join(top, "cur"))
	if digest() == d3 {
		t.Error("a link to an include directory was pointed elsewhere; the digest did not change")
	}
}

// tagsArg reads the go command's -tags in each of its spellings; the
// last one wins, as in the go command.
func TestTagsArg(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		tags  []string
		given bool
	}{
		{[]string{"go", "vet", "-vettool=/x", "./..."}, nil, false},
		{[]string{"go", "vet", "-tags=a,b", "./..."}, []string{"a", "b"}, true},
		{[]string{"go", "vet", "--tags", "a", "./..."}, []string{"a"}, true},
		{[]string{"go", "vet", "-tags", "a", "-tags=", "./..."}, nil, true},
		{[]string{"go", "vet", "--tags=x y", "./..."}, []string{"x", "y"}, true},
	} {
		tags, given := tagsArg(tc.args)
		if !slices.Equal(tags, tc.tags) || given != tc.given {
			t.Errorf("tagsArg(%q) = %q, %v; want %q, %v", tc.args, tags, given, tc.tags, tc.given)
		}
	}
}

// A diff of a file whose name has a space ends the name at a tab, as
// diff -u does, so that patch -p1 finds the file; other names stay as git
// writes them.
func TestUnifiedDiffNames(t *testing.T) {
	for name, want := range map[string]string{
		"p/my file.go": "--- a/p/my file.go\t\n+++ b/p/my file.go\t\n",
		"p/plain.go":   "--- a/p/plain.go\n+++ b/p/plain.go\n",
	} {
		var b strings.Builder
		if err := writeUnifiedDiff(&b, name, []byte("a\n"), []byte("b\n")); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(b.String(), want) {
			t.Errorf("%s: diff\n%s\nwant it to start with\n%s", name, b.String(), want)
		}
	}
}
