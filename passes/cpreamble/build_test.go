package cpreamble

import (
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestPredefs reads the -D and -U of a compiler's arguments as C does:
// -DX is X 1, -DX=V is X V, -D X separately, -D'F(a)=a' function-like.
func TestPredefs(t *testing.T) {
	got := predefsOf([]string{"-O2", "-DA", "-DB=pool_put", "-D", "C=0", "-UD", "-U", "E", "-I.", "-DF(p)=keep(p)", "-Dbad-name", "-include", "x.h"})
	var s []string
	for _, d := range got {
		if d.undef {
			s = append(s, "-"+d.name)
		} else {
			s = append(s, d.name+":"+d.body)
		}
	}
	want := []string{"A: 1", "B: pool_put", "C: 0", "-D", "-E", "F:(p) keep(p)"}
	if !slices.Equal(s, want) {
		t.Errorf("predefs %q, want %q", s, want)
	}
}

// TestIncludeDirs reads the include search of a compiler's arguments in
// GCC's order: -iquote apart; -I, then -isystem, then -idirafter; joined
// or separate; relative to the package's directory.
func TestIncludeDirs(t *testing.T) {
	quote, dirs := includeDirs([]string{"-idirafter", "/late", "-I/a", "-isystem/sys", "-iquote", "q", "-I", "b/../c", "-O2", "-I"}, "/pkg")
	if want := []string{"/pkg/q"}; !slices.Equal(quote, want) {
		t.Errorf("quote %q, want %q", quote, want)
	}
	if want := []string{"/a", "/pkg/c", "/sys", "/late"}; !slices.Equal(dirs, want) {
		t.Errorf("dirs %q, want %q", dirs, want)
	}
}

// TestCgoFlags reads a package's #cgo lines as cgo does: for the build's
// GOOS and GOARCH only, CPPFLAGS and CFLAGS apart, ${SRCDIR} expanded.
func TestCgoFlags(t *testing.T) {
	other := "windows"
	if runtime.GOOS == "windows" {
		other = "linux"
	}
	dir := t.TempDir()
	pre := []*ast.CommentGroup{
		preamble("#cgo CFLAGS: -DMY_FREE=pool_put -I${SRCDIR}/inc", "#include <stdlib.h>"),
		preamble("#cgo "+other+" CFLAGS: -DMY_FREE=free", "#cgo "+runtime.GOOS+" CPPFLAGS: -UUSE_POOL '-DNAME=x y'"),
		preamble("#include <stdio.h>"),
	}
	cpp, c := cgoFlags(dir, pre)
	if want := []string{"-DMY_FREE=pool_put", "-I" + filepath.Join(dir, "inc")}; !slices.Equal(c, want) {
		t.Errorf("CFLAGS %q, want %q", c, want)
	}
	if want := []string{"-UUSE_POOL", "-DNAME=x y"}; !slices.Equal(cpp, want) {
		t.Errorf("CPPFLAGS %q, want %q", cpp, want)
	}
	os.Setenv("CGO_CFLAGS", "-O2 -DFROM_ENV '-DQ=a b'")
	defer os.Unsetenv("CGO_CFLAGS")
	var names []string
	for _, d := range buildPredefs(cpp, c) {
		names = append(names, d.name)
	}
	if want := []string{"USE_POOL", "NAME", "FROM_ENV", "Q", "MY_FREE"}; !slices.Equal(names, want) {
		t.Errorf("predefs %q, want %q (the go command's order)", names, want)
	}
}

// TestIncludeGuard takes #ifndef X / #define X for an include guard only
// when the conditional wraps the rest of the file and X is object-like:
// the configurable default and a choice with an #else are decided from
// what defines X, or not at all.
func TestIncludeGuard(t *testing.T) {
	for _, tc := range []struct {
		src     string
		decided bool // body() is read as compiled
	}{
		{"#ifndef H\n#define H\nbody();\n#endif\n", true},
		{"/* header */\n#ifndef H\n#define H\nbody();\n#endif /* H */\n// end\n", true},
		{"#ifndef MY_FREE\n#define MY_FREE(p) body(p)\n#endif\n", false},
		{"#ifndef USE_POOL\n#define USE_POOL 1\nbody();\n#else\nother();\n#endif\n", false},
		{"#ifndef H\n#define H\nbody();\n#endif\nafter();\n", false},
		{"#ifndef H\n#define H\nbody();\n#endif\n#define AFTER 1\n", false},
		{"#ifndef H\n#define H\nbody();\n", false}, // unterminated
		{"#ifndef H\n#define HX\nbody();\n#endif\n", false},
		{"#if defined(_MSC_VER)\n#pragma once\n#endif\n#ifndef H\n#define H\nbody();\n#endif\n", true},
		{"#ifndef A\n#define A 1\n#endif\n#ifndef H\n#define H\nbody();\n#endif\n", false}, // only the first can be
		{"#ifdef X\n#ifndef H\n#define H\nbody();\n#endif\n#endif\n", false},
	} {
		out, undecided, _ := blank([]byte(tc.src))
		at := strings.Index(tc.src, "body")
		read := strings.Contains(string(out), "body")
		decided := read && !slices.ContainsFunc(undecided, func(r [2]int) bool { return at >= r[0] && at < r[1] })
		if decided != tc.decided {
			t.Errorf("%q: body decided %v, want %v", tc.src, decided, tc.decided)
		}
	}
}

// TestDirectiveLines reads a directive after a block comment on its line
// (C strips comments first), %: as #, and a splice in the directive's
// name; not a # after code.
func TestDirectiveLines(t *testing.T) {
	for _, src := range []string{
		"/* off */ #if 0\ndead();\n/* off */ #endif\nlive();\n",
		"/* a\n b */ #if 0\ndead();\n#endif\nlive();\n",
		"%:if 0\ndead();\n%:endif\nlive();\n",
		"#i\\\nf 0\ndead();\n#endif\nlive();\n",
		"#if 0\ndead();\n/* x */ #else\nlive();\n#endif\n",
		"#if 0\ndead();\n  /* a */ /* b */ #endif\nlive();\n",
		"live(); /* c */ #if 0\nlive();\n",
	} {
		out := string(Compiled([]byte(src)))
		if strings.Contains(out, "dead") || strings.Count(out, "live") != strings.Count(src, "live") {
			t.Errorf("%q: read as %q", src, out)
		}
	}
}

// parseUnits reads the package of files (name to text, in a directory
// /pkg; .h files are the package's headers) with the predefines flags,
// as the pass does.
func parseUnits(t *testing.T, flags []string, files map[string]string) *Result {
	t.Helper()
	fset := token.NewFileSet()
	r := &Result{byName: map[string][]*Func{}, vars: map[string][]*Var{}, reach: map[*Func][]Reach{}, headers: map[string][]*Func{}, macros: map[string]bool{}}
	r.env = &env{pkgDir: "/pkg", headers: map[string]bool{}, predefs: predefsOf(flags), root: "/"}
	r.env.quoteDirs, r.env.incDirs = includeDirs(flags, "/pkg")
	r.env.forced = forcedIncludes(flags, "/pkg")
	var hs, cs []string
	outside := map[string]string{} // a name with a slash: a header of the module, not the package's
	for name, src := range files {
		if strings.Contains(name, "/") {
			outside[filepath.Join("/pkg", name)] = src
			continue
		}
		if strings.HasSuffix(name, ".h") {
			hs = append(hs, "/pkg/"+name)
		} else {
			cs = append(cs, name)
		}
	}
	slices.Sort(hs)
	slices.Sort(cs)
	r.hfiles = r.env.setHeaders(fset, hs, func(name string) ([]byte, error) {
		if s, ok := files[filepath.Base(name)]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}, func(path string) ([]byte, error) {
		if s, ok := outside[path]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	})
	r.headerDefs()
	var all []*parser
	for _, name := range cs {
		src := files[name]
		tf := fset.AddFile("/pkg/"+name, -1, len(src))
		tf.SetLinesForContent([]byte(src))
		file := &File{Name: "/pkg/" + name, segs: []seg{{off: 0, pos: tf.Pos(0), n: len(src)}}}
		all = append(all, r.read(file, []byte(src)))
	}
	r.readHeaders()
	r.link(all)
	return r
}

// always returns the calls each definition of name makes on every path,
// one definition a line.
func alwaysOf(r *Result, name string) string {
	var lines []string
	for _, fn := range r.Defined(name) {
		var got []string
		for _, c := range fn.Always {
			var args []string
			for _, a := range c.Args {
				args = append(args, fmt.Sprint(a))
			}
			got = append(got, c.Name+"("+strings.Join(args, ",")+")")
		}
		lines = append(lines, strings.Join(got, " "))
	}
	return strings.Join(lines, "|")
}

// TestUnits reads the package's C as the compiler sees it: the build's
// -D and -U first, a package header's macros from its #include on, and a
// header's functions with the macros in effect where it is included.
func TestUnits(t *testing.T) {
	for _, tc := range []struct {
		name  string
		flags []string
		files map[string]string
		fn    string
		want  string
	}{
		{"-D picks the allocator", []string{"-DMY_FREE=pool_put"},
			map[string]string{"a.c": "#ifndef MY_FREE\n#define MY_FREE(p) free(p)\n#endif\nvoid done(void *p) { MY_FREE(p); }\n"},
			"done", "pool_put(0)"},
		{"no -D: the default is undecided", nil,
			map[string]string{"a.c": "#ifndef MY_FREE\n#define MY_FREE(p) free(p)\n#endif\nvoid done(void *p) { MY_FREE(p); }\n"},
			"done", ""},
		{"-D decides a choice", []string{"-DUSE_POOL"},
			map[string]string{"a.c": "#ifndef USE_POOL\n#define USE_POOL 1\nvoid done(void *p) { free(p); }\n#else\nvoid done(void *p) { keep(p); }\n#endif\n"},
			"done", "keep(0)"},
		{"-U decides it the other way", []string{"-DUSE_POOL", "-UUSE_POOL"},
			map[string]string{"a.c": "#ifndef USE_POOL\n#define USE_POOL 1\nvoid done(void *p) { free(p); }\n#else\nvoid done(void *p) { keep(p); }\n#endif\n"},
			"done", "free(0)"},
		{"-D to 0", []string{"-DUSE_POOL=0"},
			map[string]string{"a.c": "#if USE_POOL\nvoid done(void *p) { keep(p); }\n#else\nvoid done(void *p) { free(p); }\n#endif\n"},
			"done", "free(0)"},
		{"a header's macro reaches the includer", nil,
			map[string]string{"arena.h": "#ifndef ARENA_H\n#define ARENA_H\n#define free(x) ((void)(x))\n#endif\n", "a.c": "#include \"arena.h\"\nvoid done(void *p) { free(p); }\n"},
			"done", ""},
		{"from its #include on", nil,
			map[string]string{"arena.h": "#define free(x) arena_put(x)\n", "a.c": "void before(void *p) { free(p); }\n#include <arena.h>\nvoid done(void *p) { free(p); }\n"},
			"before", "free(0)"},
		{"renamed through the header", nil,
			map[string]string{"arena.h": "#define free(x) arena_put(x)\n", "a.c": "void before(void *p) { free(p); }\n#include <arena.h>\nvoid done(void *p) { free(p); }\n"},
			"done", "arena_put(0)"},
		{"through a header's header", nil,
			map[string]string{"a.h": "#pragma once\n#include \"b.h\"\n", "b.h": "#define free(x) ((void)(x))\n", "a.c": "#include \"a.h\"\n#include \"a.h\"\nvoid done(void *p) { free(p); }\n"},
			"done", ""},
		{"the includer's macro reaches the header's bodies", nil,
			map[string]string{"impl.h": "static inline void done(void *p) { free(p); }\n", "a.c": "#define free(x) ((void)(x))\n#include \"impl.h\"\n"},
			"done", ""},
		{"each inclusion its own reading", nil,
			map[string]string{"impl.h": "static inline void done(void *p) { free(p); }\n", "a.c": "#define free(x) my_free(x)\n#include \"impl.h\"\n", "b.c": "#include \"impl.h\"\n"},
			"done", "my_free(0)|free(0)"},
		{"a header nobody includes, with the flags", []string{"-DNO_FREE"},
			map[string]string{"impl.h": "#ifdef NO_FREE\nstatic inline void done(void *p) { keep(p); }\n#else\nstatic inline void done(void *p) { free(p); }\n#endif\n"},
			"done", "keep(0)"},
		{"a guard read twice", nil,
			map[string]string{"g.h": "#ifndef G_H\n#define G_H\n#define free(x) ((void)(x))\n#endif\n", "a.c": "#include \"g.h\"\n#undef free\n#include \"g.h\"\nvoid done(void *p) { free(p); }\n"},
			"done", "free(0)"},
		{"a header's macro that returns", nil,
			map[string]string{"check.h": "#define return_unless(c) do { if (!(c)) return; } while (0)\n", "a.c": "#include \"check.h\"\nvoid done(void *p) { return_unless(forget(p)); free(p); }\n"},
			"done", ""},
		{"a header's macro that does not", nil,
			map[string]string{"check.h": "#define note(c) log_it(c)\n", "a.c": "#include \"check.h\"\nvoid done(void *p) { note(p); free(p); }\n"},
			"done", "log_it(0) free(0)"},
		{"a file read again (a guess of a guard disproved): its header still read", nil,
			map[string]string{"impl.h": "static inline void done(void *p) { free(p); }\n", "a.c": "#define free(x) my_free(x)\n#include \"impl.h\"\n#ifndef CFG\n#define CFG\n#endif\nint after;\n"},
			"done", "my_free(0)"},
		{"a header read in the same context by two files: one reading", nil,
			map[string]string{"impl.h": "static inline void done(void *p) { free(p); }\n", "a.c": "#include \"impl.h\"\n", "b.c": "#include \"impl.h\"\n"},
			"done", "free(0)"},
		{"a header included where the scanner cannot tell", nil,
			map[string]string{"arena.h": "#define free(x) ((void)(x))\n", "a.c": "#ifdef ARENA\n#include \"arena.h\"\n#endif\nvoid done(void *p) { free(p); }\n"},
			"done", ""},
		// the module's headers that are not the package's ("inc/x.h":
		// /pkg/inc/x.h; "../inc/x.h": /inc/x.h, outside the package)
		{"a header in a subdirectory", nil,
			map[string]string{"inc/arena.h": "#define free(x) ((void)(x))\n", "a.c": "#include \"inc/arena.h\"\nvoid done(void *p) { free(p); }\n"},
			"done", ""},
		{"a header of an -I directory, with <>", []string{"-I/pkg/inc"},
			map[string]string{"inc/arena.h": "#define free(x) arena_put(x)\n", "a.c": "#include <arena.h>\nvoid done(void *p) { free(p); }\n"},
			"done", "arena_put(0)"},
		{"a relative -I directory is the package's", []string{"-I", "../inc"},
			map[string]string{"../inc/arena.h": "#define free(x) arena_put(x)\n", "a.c": "#include \"arena.h\"\nvoid done(void *p) { free(p); }\n"},
			"done", "arena_put(0)"},
		{"-iquote is for quoted names only", []string{"-iquote/pkg/inc"},
			map[string]string{"inc/arena.h": "#define free(x) arena_put(x)\n", "a.c": "#include <arena.h>\nvoid done(void *p) { free(p); }\n"},
			"done", "free(0)"},
		{"a header's header, beside it", nil,
			map[string]string{"inc/top.h": "#include \"arena.h\"\n", "inc/arena.h": "#define free(x) ((void)(x))\n", "a.c": "#include \"inc/top.h\"\nvoid done(void *p) { free(p); }\n"},
			"done", ""},
		{"beside it before the package's", nil,
			map[string]string{"inc/top.h": "#include \"arena.h\"\n", "inc/arena.h": "#define ARENA 1\n", "arena.h": "#define free(x) ((void)(x))\n", "a.c": "#include \"inc/top.h\"\nvoid done(void *p) { free(p); }\n"},
			"done", "free(0)"},
		{"an -I header's inline function", []string{"-I/pkg/inc"},
			map[string]string{"inc/impl.h": "static inline void done(void *p) { free(p); }\n", "a.c": "#include \"impl.h\"\n"},
			"done", "free(0)"},
		{"a // inside an include name is no comment", nil,
			map[string]string{"inc/arena.h": "#define free(x) ((void)(x))\n", "a.c": "#include \"./inc//arena.h\"\nvoid done(void *p) { free(p); }\n"},
			"done", ""},
		{"nor inside a <name>", []string{"-I/pkg"},
			map[string]string{"inc/arena.h": "#define free(x) ((void)(x))\n", "a.c": "#include <inc//arena.h>\nvoid done(void *p) { free(p); }\n"},
			"done", ""},
		{"a computed include", nil,
			map[string]string{"inc/arena.h": "#define free(x) ((void)(x))\n", "a.c": "#define HDR \"inc/arena.h\"\n#include HDR\nvoid done(void *p) { free(p); }\n"},
			"done", ""},
		{"a computed include through a chain of macros", nil,
			map[string]string{"inc/arena.h": "#define free(x) ((void)(x))\n", "a.c": "#define H1 \"inc/arena.h\"\n#define HDR H1\n#include HDR\nvoid done(void *p) { free(p); }\n"},
			"done", ""},
		{"a computed include through the stringify idiom", nil,
			map[string]string{"inc/arena.h": "#define free(x) arena_put(x)\n", "a.c": "#define STR(x) #x\n#define XSTR(x) STR(x)\n#define PLATFORM inc/arena.h\n#include XSTR(PLATFORM)\nvoid done(void *p) { free(p); }\n"},
			"done", "arena_put(0)"},
		{"a stringified name of a header that frees", nil,
			map[string]string{"inc/impl.h": "static inline void done(void *p) { free(p); }\n", "a.c": "#define STR(x) #x\n#include STR(inc/impl.h)\n"},
			"done", "free(0)"},
		{"a computed include the scanner cannot work out: the calls after it are no evidence", nil,
			map[string]string{"inc/arena.h": "#define free(x) ((void)(x))\n", "a.c": "#define CAT(a, b) a ## b\nvoid before(void *p) { free(p); }\n#include CAT(ARENA, _H)\nvoid done(void *p) { free(p); }\n"},
			"done", ""},
		{"nor a header of a macro defined where the scanner cannot tell", nil,
			map[string]string{"inc/arena.h": "#define free(x) ((void)(x))\n", "a.c": "#ifdef ARENA\n#define HDR \"inc/arena.h\"\n#endif\n#include HDR\nvoid done(void *p) { free(p); }\n"},
			"done", ""},
		{"calls before it are", nil,
			map[string]string{"a.c": "#define CAT(a, b) a ## b\nvoid done(void *p) { free(p); }\n#include CAT(ARENA, _H)\n"},
			"done", "free(0)"},
		{"NDEBUG is the build's to define", nil,
			map[string]string{"a.c": "#include <stdlib.h>\n#ifndef NDEBUG\nvoid done(void *p) { free(p); }\n#endif\n"},
			"done", "free(0)"},
		{"or a library header's, which the scanner does not read", nil,
			map[string]string{"a.c": "#include <relcfg.h>\n#ifndef NDEBUG\nvoid done(void *p) { free(p); }\n#endif\n"},
			"done", ""},
		{"#include_next goes on after the includer's directory", []string{"-I/pkg/inc"},
			map[string]string{"arena.h": "#include_next <arena.h>\n", "inc/arena.h": "#define free(x) ((void)(x))\n", "a.c": "#include \"arena.h\"\nvoid done(void *p) { free(p); }\n"},
			"done", ""},
		{"an -include flag's header comes first", []string{"-include", "inc/arena.h"},
			map[string]string{"inc/arena.h": "#define free(x) ((void)(x))\n", "a.c": "void done(void *p) { free(p); }\n"},
			"done", ""},
		{"a name found nowhere is the system's", []string{"-I/pkg/inc"},
			map[string]string{"a.c": "#include \"arena.h\"\nvoid done(void *p) { free(p); }\n"},
			"done", "free(0)"},
	} {
		r := parseUnits(t, tc.flags, tc.files)
		if got := alwaysOf(r, tc.fn); got != tc.want {
			t.Errorf("%s: %s always %q, want %q", tc.name, tc.fn, got, tc.want)
		}
	}
}

// A header found and too large to read (MaxHeaderLines) is no library
// header: what its macros make of the calls after it is unknown, and those
// calls are no evidence. One of exactly MaxHeaderLines lines is read.
func TestUnitsLargeHeader(t *testing.T) {
	big := func(lines int) string {
		return "#define free(x) ((void)(x))\n" + strings.Repeat("\n", lines-1)
	}
	for _, tc := range []struct {
		name, hdr, want string
	}{
		{"too large", big(MaxHeaderLines + 1), ""},
		{"the largest read", big(MaxHeaderLines), ""},
		{"too large, even one that leaves free alone", "\n" + strings.Repeat("\n", MaxHeaderLines), ""},
		{"read, one that leaves free alone", "\n", "free(0)"},
	} {
		r := parseUnits(t, nil, map[string]string{"inc/arena.h": tc.hdr, "a.c": "#include \"inc/arena.h\"\nvoid done(void *p) { free(p); }\n"})
		if got := alwaysOf(r, "done"); got != tc.want {
			t.Errorf("%s: done always %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Garbage in, nothing out, through includes too: a header that includes
// itself or its includer, an unterminated conditional in a header, an
// #include in a function's body, computed and missing includes.
func TestUnitsTolerant(t *testing.T) {
	files := map[string]string{
		"self.h":  "#include \"self.h\"\n#define free(x) ((void)(x))\n",
		"a.h":     "#include \"b.h\"\n#ifdef X\nstatic void g(void *p) {\n",
		"b.h":     "#include \"a.h\"\n#include <b.h>\n#ifndef B_H\n#define B_H\n",
		"body.h":  "free(p);\n",
		"macro.h": "#define CLEAR(x) ((x) = \n#define BAD(\n#define RET(x, return\n",
		"a.c": "#include \"self.h\"\n#include \"a.h\"\n#include HEADER\n#include \"missing.h\"\n#include <\n#include \"\nvoid f(void *p) {\n#include \"body.h\"\n}\n" +
			"#include \"macro.h\"\nvoid h(void *p) { CLEAR(p); BAD(p); RET(p, 1); free(p); }\n",
	}
	for k := 0; k < 3; k++ {
		r := parseUnits(t, []string{"-D", "-U", "-D=", "-D(x)=1", "-DX=", "-UX"}, files)
		_ = alwaysOf(r, "h")
		files["a.c"] = files["a.c"][:len(files["a.c"])/2] // cut anywhere
	}
}

// BenchmarkUnits reads a package of 20 .c files that each include a
// header of 2000 lines (guarded, with configurable defaults and inline
// wrappers): every inclusion is a reading of the header.
func BenchmarkUnits(b *testing.B) {
	var h strings.Builder
	h.WriteString("#ifndef BIG_H\n#define BIG_H\n#include <stdlib.h>\n")
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&h, "#ifndef OPT_%d\n#define OPT_%d %d\n#endif\n", i, i, i)
		fmt.Fprintf(&h, "static inline void w_%d(void *p) { if (p) free(p); }\n", i)
	}
	h.WriteString("#endif\n")
	files := map[string]string{"big.h": h.String()}
	for i := 0; i < 20; i++ {
		files[fmt.Sprintf("f%d.c", i)] = "#include \"big.h\"\n#include \"big.h\"\nvoid done(void *p) { w_1(p); }\n"
	}
	t := &testing.T{}
	b.ResetTimer()
	for range b.N {
		parseUnits(t, []string{"-DOPT_3=1"}, files)
	}
}

// TestModuleRoot finds the go.mod that governs a package's directory: the
// nearest above it; none (GOPATH mode) leaves the package's directory.
func TestModuleRoot(t *testing.T) {
	top := t.TempDir()
	for _, d := range []string{"m/p/q", "m/n/r", "gopath/p"} {
		os.MkdirAll(filepath.Join(top, d), 0o777)
	}
	os.WriteFile(filepath.Join(top, "m", "go.mod"), []byte("module m\n"), 0o666)
	os.WriteFile(filepath.Join(top, "m", "n", "go.mod"), []byte("module n\n"), 0o666)
	for dir, want := range map[string]string{
		"m/p/q":    "m",
		"m/n/r":    "m/n",
		"m":        "m",
		"gopath/p": "gopath/p",
	} {
		if got := moduleRoot(filepath.Join(top, dir)); got != filepath.Join(top, want) {
			t.Errorf("moduleRoot(%s) = %s, want %s", dir, got, filepath.Join(top, want))
		}
	}
	if got := moduleRoot("relative/dir"); got != "" {
		t.Errorf("moduleRoot of a relative directory = %q, want none", got)
	}
}

// TestConfigPredefs: a macro a #cgo line defines for another build
// context only is undefined in this one (so a per-platform pair of
// directives is decided), one this build's flags define keeps its value,
// and another context's -std leaves __STDC_VERSION__ alone.
func TestConfigPredefs(t *testing.T) {
	other := "windows"
	if runtime.GOOS == "windows" {
		other = "linux"
	}
	cg := &ast.CommentGroup{List: []*ast.Comment{
		{Text: "// #cgo " + other + " CFLAGS: -DHAVE_Q -DBOTH=2 -std=c99"},
		{Text: "// #cgo CFLAGS: -DBOTH=1"},
		{Text: "// #include <stdlib.h>"},
	}}
	pres := []*ast.CommentGroup{cg}
	e := &env{predefs: configPredefs(buildPredefs(cgoFlags(t.TempDir(), pres)), pres)}
	ms, _ := e.start()
	for expr, want := range map[string]tri{
		"defined(HAVE_Q)":             no,
		"BOTH == 1":                   yes,
		"__STDC_VERSION__ >= 201710L": yes,
	} {
		if got := ms.eval(expr); got != want {
			t.Errorf("#if %s: %v, want %v", expr, got, want)
		}
	}
	// not where this build's command line is not known in full: a line
	// keyed on a build tag, a package with pkg-config flags, a reserved
	// name (the C library's feature-test macros)
	for name, lines := range map[string][]string{
		"tag":       {"// #cgo sqlite_fts5 CFLAGS: -DHAVE_Q"},
		"tag,os":    {"// #cgo " + other + ",foo CFLAGS: -DHAVE_Q"},
		"pkgconfig": {"// #cgo " + other + " CFLAGS: -DHAVE_Q", "// #cgo pkg-config: q"},
		"reserved":  {"// #cgo " + other + " CFLAGS: -D_DEFAULT_SOURCE -DHAVE_Q"},
	} {
		var cg ast.CommentGroup
		for _, l := range lines {
			cg.List = append(cg.List, &ast.Comment{Text: l})
		}
		pres := []*ast.CommentGroup{&cg}
		e := &env{predefs: configPredefs(buildPredefs(cgoFlags(t.TempDir(), pres)), pres)}
		ms, _ := e.start()
		want := unknown
		if name == "reserved" {
			want = no // HAVE_Q is; _DEFAULT_SOURCE is not decided
			if got := ms.eval("defined(_DEFAULT_SOURCE)"); got != unknown {
				t.Errorf("%s: defined(_DEFAULT_SOURCE) %v, want undecided", name, got)
			}
		}
		if got := ms.eval("defined(HAVE_Q)"); got != want {
			t.Errorf("%s: defined(HAVE_Q) %v, want %v", name, got, want)
		}
	}
}

// TestPhysicalJoin resolves a ".." of an include name against the
// directory the including directory really is, as the kernel does, when
// that directory is a symbolic link.
func TestPhysicalJoin(t *testing.T) {
	top := t.TempDir()
	os.MkdirAll(filepath.Join(top, "vendor", "lib", "include"), 0o777)
	os.MkdirAll(filepath.Join(top, "sub"), 0o777)
	if err := os.Symlink(filepath.Join("..", "vendor", "lib", "include"), filepath.Join(top, "sub", "inc")); err != nil {
		t.Skip(err)
	}
	real, _ := filepath.EvalSymlinks(top)
	for _, tc := range []struct{ dir, name, want string }{
		{"sub/inc", "../config.h", filepath.Join(real, "vendor", "lib", "config.h")},
		{"sub/inc", "lib.h", filepath.Join(top, "sub", "inc", "lib.h")},
		{"sub", "../config.h", filepath.Join(top, "config.h")},
		{"sub", "inc/../config.h", filepath.Join(real, "vendor", "lib", "config.h")}, // a link inside the name
	} {
		if got := physicalJoin(filepath.Join(top, tc.dir), tc.name); got != tc.want {
			t.Errorf("physicalJoin(%s, %s) = %s, want %s", tc.dir, tc.name, got, tc.want)
		}
	}
}

// preamble is a cgo preamble of // comments, one per line.
func preamble(lines ...string) *ast.CommentGroup {
	var cg ast.CommentGroup
	for _, l := range lines {
		cg.List = append(cg.List, &ast.Comment{Text: "// " + l})
	}
	return &cg
}

// TestCgoFlagsTags reads a #cgo line keyed on a build tag for the run's
// tags (BuildTags, else $GOFLAGS's), and $CGO_CFLAGS from go env -w's
// file where the environment does not set it: the go command does not
// pass that file's variables on to a vet tool.
func TestCgoFlagsTags(t *testing.T) {
	dir := t.TempDir()
	pre := []*ast.CommentGroup{preamble("#cgo !modern CFLAGS: -DLEGACY", "#cgo modern CFLAGS: -DV2")}
	defer func(old []string) { BuildTags = old }(BuildTags)
	t.Setenv("GOFLAGS", "")
	for _, tc := range []struct {
		tags    []string
		goflags string
		want    string
	}{
		{nil, "", "-DLEGACY"},
		{[]string{}, "", "-DLEGACY"},
		{[]string{"modern"}, "", "-DV2"},
		{nil, "-mod=mod -tags=modern", "-DV2"},
		{[]string{"other"}, "-tags=modern", "-DLEGACY"}, // the command line's -tags wins
	} {
		BuildTags = tc.tags
		t.Setenv("GOFLAGS", tc.goflags)
		if _, c := cgoFlags(dir, pre); !slices.Equal(c, []string{tc.want}) {
			t.Errorf("tags %q, GOFLAGS %q: CFLAGS %q, want %q", tc.tags, tc.goflags, c, tc.want)
		}
	}
	// with the tags known, the macro only the other tag's line defines
	// is undefined; unknown tags leave it unknown
	BuildTags = []string{"modern"}
	own := buildPredefs(cgoFlags(dir, pre))
	if got := configPredefs(own, pre); !slices.ContainsFunc(got, func(d predef) bool { return d.name == "LEGACY" && d.undef }) {
		t.Errorf("tags known: predefs %v, want LEGACY undefined", got)
	}
	BuildTags = nil
	t.Setenv("GOFLAGS", "-tags=modern")
	if got := configPredefs(own, pre); slices.ContainsFunc(got, func(d predef) bool { return d.name == "LEGACY" }) {
		t.Errorf("tags not known: predefs %v, want LEGACY unknown", got)
	}

	env := filepath.Join(t.TempDir(), "env")
	os.WriteFile(env, []byte("GOFLAGS=-tags=modern\nCGO_CFLAGS=-O2 -DFROM_FILE\n"), 0o666)
	t.Setenv("GOENV", env)
	os.Unsetenv("GOFLAGS")
	os.Unsetenv("CGO_CFLAGS")
	defer func(old func() map[string]string) { goEnvFileVars = old }(goEnvFileVars)
	goEnvFileVars = sync.OnceValue(readGoEnvFile)
	if got := envFields("CGO_CFLAGS"); !slices.Equal(got, []string{"-O2", "-DFROM_FILE"}) {
		t.Errorf("CGO_CFLAGS from go env -w's file: %q", got)
	}
	if got := GOFLAGSTags(); !slices.Equal(got, []string{"modern"}) {
		t.Errorf("GOFLAGS from go env -w's file: tags %q", got)
	}
	t.Setenv("CGO_CFLAGS", "")
	if got := envFields("CGO_CFLAGS"); len(got) != 0 {
		t.Errorf("CGO_CFLAGS set empty in the environment wins over the file: %q", got)
	}
}
