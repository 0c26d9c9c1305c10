package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The configuration of a package is a function of its directory, wherever
// the run starts: a package of another go.work module, or of a module
// replaced by a local directory, is analysed again when a configuration
// or model file of its own changes, by the standalone command's cache and
// by go vet's.
func TestCacheKeyOutsideStartModule(t *testing.T) {
	bin := build(t)
	for _, layout := range []struct {
		name  string
		files map[string]string
		env   []string
		args  []string // the packages, run from a
	}{
		{"go.work", map[string]string{
			"go.work":  "go 1.22\n\nuse ./a\nuse ./lib\n",
			"a/go.mod": "module example.com/a\n\ngo 1.22\n",
			"a/a.go":   "package a\n",
		}, []string{"GOWORK=", "GOFLAGS="}, []string{"example.com/lib/p"}},
		{"replace", map[string]string{
			"a/go.mod": "module example.com/a\n\ngo 1.22\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ../lib\n",
			"a/a.go":   "package a\n\nimport _ \"example.com/lib/p\"\n",
		}, nil, []string{"example.com/lib/p"}},
	} {
		t.Run(layout.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{
				"lib/go.mod":              "module example.com/lib\n\ngo 1.22\n",
				"lib/p/p.go":              retirePackage("p"),
				"lib/p/lifetimevet.toml":  "models = [\"../lifetime/mine.model\"]\n",
				"lib/lifetime/mine.model": acquireOnly,
				"lib/lifetimevet.toml":    "analyzers = [\"all\"]\n",
			}
			for k, v := range layout.files {
				files[k] = v
			}
			writeFiles(t, dir, files)
			a := filepath.Join(dir, "a")
			// (go's own cache is the user's: go vet's entries are keyed by
			// the tool's ID and the package's files, which are new here)
			env := append([]string{"LIFETIMEVET_CACHE=" + filepath.Join(dir, "cache")}, layout.env...)
			standalone := func() string {
				out, stderr, _ := runEnv(t, a, env, bin, layout.args...)
				return out + stderr
			}
			vet := func() string {
				_, stderr, _ := runEnv(t, a, env, "go", append([]string{"vet", "-vettool=" + bin}, layout.args...)...)
				return stderr
			}
			for _, tool := range []struct {
				name string
				run  func() string
			}{{"standalone", standalone}, {"go vet", vet}} {
				writeFiles(t, dir, map[string]string{"lib/lifetime/mine.model": acquireOnly, "lib/lifetimevet.toml": "analyzers = [\"all\"]\n"})
				if out := tool.run(); strings.Contains(out, "p.go:14:") {
					t.Fatalf("%s: a finding before the model makes thing_retire a release:\n%s", tool.name, out)
				}
				// the model file the package's configuration names
				writeFiles(t, dir, map[string]string{"lib/lifetime/mine.model": withRelease})
				if out := tool.run(); !strings.Contains(out, "p.go:14:") {
					t.Errorf("%s: after the package's model file changed, no double release (a stale result):\n%s", tool.name, out)
				}
				// its module root's configuration file
				writeFiles(t, dir, map[string]string{"lib/lifetimevet.toml": "analyzers = []\n"})
				if out := tool.run(); strings.Contains(out, "p.go:14:") {
					t.Errorf("%s: after the module's configuration turned every analyzer off, still reported (a stale result):\n%s", tool.name, out)
				}
			}
		})
	}
}

// A package's C files are those the build selects with the run's tags,
// under go vet and standalone: a racy file that -tags selects is read, one
// that -tags excludes is not, even when it is the only .c file.
func TestCFilesFollowTags(t *testing.T) {
	bin := build(t)
	racy := func(constraint string) string {
		return "//go:build " + constraint + "\n\nstatic int counter;\n\nint entry(void) {\n\tcounter++;\n\treturn counter;\n}\n"
	}
	quiet := func(constraint string) string {
		return "//go:build " + constraint + "\n\nint entry(void) { return 0; }\n"
	}
	goFile := "package p\n\n// int entry(void);\nimport \"C\"\n\nfunc Entry() int { return int(C.entry()) }\n\nfunc Spread() {\n\tfor i := 0; i < 3; i++ {\n\t\tgo Entry()\n\t}\n}\n"
	for _, c := range []struct {
		name  string
		files map[string]string
		want  bool // a sharedglobal finding in racy.c
	}{
		{"selected by the tag", map[string]string{"p/racy.c": racy("turbo"), "p/plain.c": quiet("!turbo")}, true},
		{"excluded by the tag", map[string]string{"p/racy.c": racy("!turbo"), "p/plain.c": quiet("turbo")}, false},
		{"the only file, excluded", map[string]string{"p/racy.c": racy("!turbo")}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"go.mod": "module m\n\ngo 1.22\n", "p/p.go": goFile}
			for k, v := range c.files {
				files[k] = v
			}
			writeFiles(t, dir, files)
			var env []string
			out, stderr, _ := runEnv(t, dir, env, bin, "-cache=off", "-tags", "turbo", "./...")
			_, vetOut, _ := runEnv(t, dir, env, "go", "vet", "-tags", "turbo", "-vettool="+bin, "./...")
			for tool, text := range map[string]string{"standalone": out + stderr, "go vet": vetOut} {
				if got := strings.Contains(text, "racy.c:3:"); got != c.want {
					t.Errorf("%s -tags turbo: racy.c reported %v, want %v:\n%s", tool, got, c.want, text)
				}
			}
		})
	}
}

// //lifetime: directives in the package's own .h and .c files describe the
// C declarations there as they would in the preamble; a verb that does not
// apply to C is reported there; a C comment that only mentions lifetimes
// is not a directive.
func TestDirectivesInCFiles(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module m\n\ngo 1.22\n",
		"p/obj.h": "typedef struct obj { int n; } obj;\n// lifetime: objects live until obj_drop\n" +
			"//lifetime:acquire obj_new\nobj *obj_new(void);\n//lifetime:handle\nvoid obj_drop(obj *o);\n" +
			"//LIFETIME:release obj_drop arg=0\n// Lifetime release: see obj_drop\n/* lifetime:release is in obj.c */\n",
		"p/obj.c": "#include <stdlib.h>\n#include \"obj.h\"\n//lifetime:release obj_drop arg=0\n" +
			"obj *obj_new(void) { return calloc(1, sizeof(obj)); }\nvoid obj_drop(obj *o) { free(o); }\n",
		"p/p.go": "package p\n\n// #include \"obj.h\"\n// //lifetime:acquire obj_new\nimport \"C\"\n\nfunc Twice() {\n\to := C.obj_new()\n\tC.obj_drop(o)\n\tC.obj_drop(o)\n}\n\n" +
			"func Once() {\n\to := C.obj_new()\n\tC.obj_drop(o)\n}\n",
	})
	out, stderr, _ := run(t, dir, bin, "-cache=off", "./...")
	_, vetOut, _ := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	for tool, text := range map[string]string{"standalone": out + stderr, "go vet": vetOut} {
		if !strings.Contains(text, "p.go:10:") || !strings.Contains(text, "released twice") {
			t.Errorf("%s: the release that obj.c's directive describes is not seen (no double release at p.go:10):\n%s", tool, text)
		}
		// the other place is named as the finding's own position reads
		// (both files are the package's), never by an absolute path
		if !strings.Contains(text, "repeats the entry at obj.h:3:1") && !strings.Contains(text, "repeats the entry at p.go:4:") {
			t.Errorf("%s: the preamble directive repeated in obj.h is not reported, or names the other place by an absolute path:\n%s", tool, text)
		}
		if strings.Contains(text, "p.go:14:") || strings.Contains(text, "p.go:15:") {
			t.Errorf("%s: a finding in Once, which releases once:\n%s", tool, text)
		}
		if !strings.Contains(text, "obj.h:5:1:") || !strings.Contains(text, "//lifetime:handle does not apply in a C file") {
			t.Errorf("%s: //lifetime:handle in obj.h is not reported as misplaced:\n%s", tool, text)
		}
		if !strings.Contains(text, "obj.h:7:1:") || !strings.Contains(text, `malformed directive "//LIFETIME:release obj_drop arg=0"`) {
			t.Errorf("%s: the misspelt directive in obj.h is not reported:\n%s", tool, text)
		}
		if strings.Contains(text, "obj.h:2:") || strings.Contains(text, "obj.h:8:") || strings.Contains(text, "obj.h:9:") {
			t.Errorf("%s: a C comment that mentions lifetimes is reported:\n%s", tool, text)
		}
	}
}

// Directives in a header of the module outside the package (an -I
// directory's) are read and checked as in the package's own headers, by
// the standalone command and under go vet; a change to the header is seen
// by both (the standalone cache's manifest, go vet's header stamp).
func TestDirectivesInIncludeDirs(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	api := "//lifetime:release h_give arg=0\n//liftime:borrow h_keep arg=0\n"
	writeFiles(t, dir, map[string]string{
		"go.mod":    "module m\n\ngo 1.22\n",
		"inc/api.h": api,
		"p/p.go": "package p\n\n// #cgo CFLAGS: -I${SRCDIR}/../inc\n// #include <stdlib.h>\n// #include \"api.h\"\n" +
			"// static void *q[4];\n// static void h_give(void *p) { q[0] = p; }\n// static void h_keep(void *p) { q[1] = p; }\nimport \"C\"\n\n" +
			"func Twice() {\n\tp := C.malloc(8)\n\tC.h_give(p)\n\tC.h_give(p)\n\tC.h_keep(p)\n}\n",
	})
	cache := "LIFETIMEVET_CACHE=" + t.TempDir()
	check := func(step string, wantTwice bool) {
		t.Helper()
		out, stderr, _ := runEnv(t, dir, []string{cache}, bin, "./...")
		_, vetOut, _ := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
		for tool, text := range map[string]string{"standalone": out + stderr, "go vet": vetOut} {
			if got := strings.Contains(text, "p.go:14:") && strings.Contains(text, "released twice"); got != wantTwice {
				t.Errorf("%s, %s: the double release that inc/api.h's directive declares reported: %v, want %v:\n%s", step, tool, got, wantTwice, text)
			}
			if !strings.Contains(text, "api.h:2:1:") || !strings.Contains(text, "malformed directive") {
				t.Errorf("%s, %s: the misspelt directive in inc/api.h is not reported:\n%s", step, tool, text)
			}
		}
	}
	check("the release declared", true)
	writeFiles(t, dir, map[string]string{"inc/api.h": "//lifetime:borrow h_give arg=0\n//liftime:borrow h_keep arg=0\n"})
	check("declared a borrow instead", false)
}

// An include directory that is a symbolic link, pointed elsewhere (ln
// -sfn), changes what a header's "../config.h" reads: the standalone
// cache and go vet see it (the manifest records the name as written; the
// -V=full digest stamps the link's target).
func TestCacheRepointedIncludeLink(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":             "module m\n\ngo 1.22\n",
		"p/v1/include/lib.h": "#include \"../config.h\"\n",
		"p/v2/include/lib.h": "#include \"../config.h\"\n",
		"p/v1/config.h":      "#define free(x) ((void)(x))\n",
		"p/v2/config.h":      "\n",
		"p/p.go": "package p\n\n// #cgo CFLAGS: -I${SRCDIR}/cur/include\n// #include <stdlib.h>\n// #include <lib.h>\n" +
			"// static void *mk(void) { return calloc(1, 8); }\n// static void done(void *p) { free(p); }\nimport \"C\"\n\n" +
			"func Twice() {\n\tp := C.mk()\n\tC.done(p)\n\tC.done(p)\n}\n",
	}
	writeFiles(t, dir, files)
	link := filepath.Join(dir, "p", "cur")
	cache := "LIFETIMEVET_CACHE=" + t.TempDir()
	for i, target := range []string{"v1", "v2", "v1"} {
		os.Remove(link)
		if err := os.Symlink(target, link); err != nil {
			t.Skip(err)
		}
		want := target == "v2" // v2's config.h leaves free libc's
		out, stderr, _ := runEnv(t, dir, []string{cache}, bin, "./...")
		_, vetOut, _ := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
		for tool, text := range map[string]string{"standalone": out + stderr, "go vet": vetOut} {
			if got := strings.Contains(text, "released twice"); got != want {
				t.Errorf("step %d, cur -> %s, %s: double release reported %v, want %v:\n%s", i, target, tool, got, want, text)
			}
		}
	}
}

// The language server keys each analysis on the model and configuration
// files as that analysis reads them, wherever the server was started (an
// editor may start it outside the module): a model file edited after
// start-up, or a configuration file of the module, is seen at the next
// save with the cache on.
func TestLSPCacheKeys(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"mod/go.mod":           "module example.com/lspkeys\n\ngo 1.22\n",
		"mod/lifetimevet.toml": "analyzers = [\"all\"]\n",
		"mod/a/a.go":           retirePackage("a"),
		"mine.model":           acquireOnly,
	})
	elsewhere := filepath.Join(dir, "elsewhere")
	writeFiles(t, elsewhere, map[string]string{"README": "not a module\n"})
	c := startLSPWith(t, bin, elsewhere, []string{"LIFETIMEVET_CACHE=" + filepath.Join(dir, "cache")}, "-model="+filepath.Join(dir, "mine.model"))
	initialize(t, c, filepath.Join(dir, "mod"))
	a := filepath.Join(dir, "mod", "a", "a.go")
	save := func() []lspDiagnostic {
		c.notify(t, "textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": fileURI(a)}})
		return c.wait(t, fileURI(a))
	}
	didOpen(t, c, a)
	if ds := c.wait(t, fileURI(a)); len(ds) != 0 {
		t.Fatalf("before the model makes thing_retire a release: %+v, want none", ds)
	}
	writeFiles(t, dir, map[string]string{"mine.model": withRelease})
	if ds := save(); len(ds) != 1 || ds[0].Code != "doublerelease" {
		t.Errorf("after the -model file gained the release: %+v, want one doublerelease (a stale cache entry otherwise)", ds)
	}
	writeFiles(t, dir, map[string]string{"mod/lifetimevet.toml": "analyzers = []\n"})
	if ds := save(); len(ds) != 0 {
		t.Errorf("after the module's configuration turned every analyzer off: %+v, want none", ds)
	}
	writeFiles(t, dir, map[string]string{"mod/lifetimevet.toml": "analyzers = [\"all\"]\n"})
	if ds := save(); len(ds) != 1 {
		t.Errorf("after the module's configuration turned them on again: %+v, want one", ds)
	}
	var none any
	c.call(t, "shutdown", nil, &none)
}
