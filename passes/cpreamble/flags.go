package cpreamble

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// The build's C compiler flags are part of the text the compiler sees: a
// `#cgo CFLAGS: -DMY_FREE=pool_put` makes every MY_FREE(p) of the
// package's C a call of pool_put, and an `#ifndef MY_FREE` there false. So
// the macros the flags define (-D) and undefine (-U) are the scanner's
// predefines, in the order the go command gives them to the C compiler:
// $CGO_CPPFLAGS, the package's CPPFLAGS, $CGO_CFLAGS, the package's
// CFLAGS (a later one wins). The package's flags are read as cgo reads
// them: go/build's reading of the #cgo lines of the package's Go files
// (their GOOS/GOARCH conditions for the build's, quoting, ${SRCDIR}).

// A predef is a macro a -D defines or a -U undefines.
type predef struct {
	name  string
	body  string // what follows the name in the #define it stands for
	undef bool
	// val, if set, is what the scanner knows of the value, for a
	// macro the compiler defines (a -std flag's __STDC_VERSION__)
	val *mval
}

// cgoFlags returns the CPPFLAGS and CFLAGS of the #cgo lines of the
// preambles (pre, one per Go file of the package in dir) as go/build reads
// them for the build's GOOS and GOARCH.
func cgoFlags(dir string, pre []*ast.CommentGroup) (cppflags, cflags []string) {
	if len(pre) == 0 {
		return nil, nil
	}
	files := map[string][]byte{}
	var infos []fs.FileInfo
	for i, cg := range pre {
		if !hasCgoLine(cg) {
			continue
		}
		var b bytes.Buffer
		b.WriteString("package p\n\n")
		for _, c := range cg.List {
			b.WriteString(c.Text)
			b.WriteByte('\n')
		}
		b.WriteString("import \"C\"\n")
		name := "f" + string(rune('a'+i%26)) + strings.Repeat("_", i/26) + ".go"
		files[name] = b.Bytes()
		infos = append(infos, fileInfo{name: name, size: int64(b.Len())})
	}
	if len(files) == 0 {
		return nil, nil
	}
	ctx := build.Default
	ctx.CgoEnabled = true
	ctx.BuildTags = buildTags()
	ctx.UseAllFiles = true // the pass's files are those the build selected
	ctx.IsDir = func(path string) bool { return path == dir }
	ctx.HasSubdir = func(root, path string) (string, bool) { return "", false }
	ctx.ReadDir = func(path string) ([]fs.FileInfo, error) {
		if path != dir {
			return nil, fs.ErrNotExist
		}
		return infos, nil
	}
	ctx.OpenFile = func(path string) (io.ReadCloser, error) {
		if filepath.Dir(path) == dir {
			if data, ok := files[filepath.Base(path)]; ok {
				return io.NopCloser(bytes.NewReader(data)), nil
			}
		}
		return nil, fs.ErrNotExist
	}
	p, _ := ctx.ImportDir(dir, build.ImportComment)
	if p == nil {
		return nil, nil
	}
	return p.CgoCPPFLAGS, p.CgoCFLAGS
}

func hasCgoLine(cg *ast.CommentGroup) bool {
	for _, c := range cg.List {
		if strings.Contains(c.Text, "#cgo") {
			return true
		}
	}
	return false
}

type fileInfo struct {
	name string
	size int64
}

func (f fileInfo) Name() string       { return f.name }
func (f fileInfo) Size() int64        { return f.size }
func (f fileInfo) Mode() fs.FileMode  { return 0o444 }
func (f fileInfo) ModTime() time.Time { return time.Time{} }
func (f fileInfo) IsDir() bool        { return false }
func (f fileInfo) Sys() any           { return nil }

// configPredefs returns the build's predefines for the package whose
// preambles are pres: own, those of its C compiler's command line
// (buildPredefs), after the undefinition of every macro a #cgo line of
// the package defines for another platform only (#cgo windows CFLAGS:
// -DHAVE_Q). Such a macro is the platform's configuration: where this
// build's flags do not define it, it is undefined, and a per-platform
// pair (#ifdef HAVE_Q / ... / #else / ... / #endif) is decided. Only
// where this build's command line is known in full: not for a line
// keyed on a build tag unless the driver knows the run's tags
// (BuildTags), not in a package whose flags come from pkg-config too,
// and not for a reserved name (_DEFAULT_SOURCE, which the C
// library's headers define).
func configPredefs(own []predef, pres []*ast.CommentGroup) []predef {
	var out []predef
	seen := map[string]bool{}
	for _, d := range own {
		seen[d.name] = true
	}
	type line struct{ cond, flags string }
	var lines []line
	for _, cg := range pres {
		for _, c := range cg.List {
			for l := range strings.Lines(c.Text) {
				l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "//"))
				rest, ok := strings.CutPrefix(l, "#cgo")
				if !ok || rest == "" || rest[0] != ' ' && rest[0] != '\t' {
					continue
				}
				head, flags, ok := strings.Cut(rest, ":")
				if !ok {
					continue
				}
				f := strings.Fields(head)
				if len(f) == 0 {
					continue
				}
				if f[len(f)-1] == "pkg-config" {
					return own // flags this build may get from pkg-config
				}
				lines = append(lines, line{strings.Join(f[:len(f)-1], " "), flags})
			}
		}
	}
	for _, l := range lines {
		if l.cond == "" || !platformOnly(l.cond) && BuildTags == nil {
			continue
		}
		for _, d := range predefsOf(strings.Fields(l.flags)) {
			if !d.undef && d.val == nil && !seen[d.name] && !strings.HasPrefix(d.name, "_") {
				seen[d.name] = true
				out = append(out, predef{name: d.name, undef: true})
			}
		}
	}
	return append(out, own...)
}

// platformOnly reports whether a #cgo line's condition (space-separated
// options of comma-separated, maybe negated, terms) names only operating
// systems, architectures, unix and cgo: a condition no build tag decides.
func platformOnly(cond string) bool {
	for _, opt := range strings.Fields(cond) {
		for _, term := range strings.Split(opt, ",") {
			term = strings.TrimPrefix(term, "!")
			if !slices.Contains(knownOS, term) && !slices.Contains(knownArch, term) && term != "unix" && term != "cgo" {
				return false
			}
		}
	}
	return true
}

// knownOS and knownArch are go/build's lists of GOOS and GOARCH values.
var (
	knownOS   = []string{"aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js", "linux", "nacl", "netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows", "zos"}
	knownArch = []string{"386", "amd64", "amd64p32", "arm", "armbe", "arm64", "arm64be", "loong64", "mips", "mipsle", "mips64", "mips64le", "mips64p32", "mips64p32le", "ppc", "ppc64", "ppc64le", "riscv", "riscv64", "s390", "s390x", "sparc", "sparc64", "wasm"}
)

// buildPredefs returns the -D and -U of the C compiler's command line for
// the package's C, in order: the environment's flags and the package's
// (cppflags, cflags), as the go command orders them.
func buildPredefs(cppflags, cflags []string) []predef {
	return predefsOf(compilerArgs(cppflags, cflags))
}

// compilerArgs returns the C compiler's arguments for the package's C
// that concern the preprocessor: the environment's flags and the
// package's (cppflags, cflags), as the go command orders them.
func compilerArgs(cppflags, cflags []string) []string {
	var args []string
	args = append(args, envFields("CGO_CPPFLAGS")...)
	args = append(args, cppflags...)
	args = append(args, envFields("CGO_CFLAGS")...)
	args = append(args, cflags...)
	return args
}

// forcedIncludes returns the files of the compiler's -include flags, in
// order: each is read as if an #include of it were the first line of
// every file the compiler compiles. A relative name is relative to dir,
// the package's directory.
func forcedIncludes(args []string, dir string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		var f string
		switch {
		case a == "-include":
			if i+1 >= len(args) {
				continue
			}
			i++
			f = args[i]
		case strings.HasPrefix(a, "-include") && !strings.HasPrefix(a, "-include-"):
			f = a[len("-include"):]
		default:
			continue
		}
		if f == "" {
			continue
		}
		if !filepath.IsAbs(f) {
			f = filepath.Join(dir, f)
		}
		out = append(out, filepath.Clean(f))
	}
	return out
}

// IncludeDirs returns the directories the flags of a package in dir (its
// #cgo CPPFLAGS and CFLAGS as go/build reads them, ${SRCDIR} expanded)
// add to the C compiler's include search: -iquote, -I, -isystem and
// -idirafter, relative ones relative to dir, where the go command runs
// the compiler.
func IncludeDirs(dir string, flags []string) []string {
	quote, dirs := includeDirs(flags, dir)
	return append(quote, dirs...)
}

// includeDirs returns the directories the compiler's arguments add to the
// include search, as GCC and Clang order them: quote, the -iquote
// directories (searched for `#include "x.h"` only, after the including
// file's directory), and dirs, those of -I, then -isystem, then
// -idirafter (searched for both forms). A relative directory is relative
// to dir, the package's directory, where the go command runs the
// compiler. (go/build has expanded ${SRCDIR} in the package's flags.)
func includeDirs(args []string, dir string) (quote, dirs []string) {
	var iflag, isystem, after []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		var opt string
		for _, o := range []string{"-iquote", "-isystem", "-idirafter", "-I"} {
			if strings.HasPrefix(a, o) {
				opt = o
				break
			}
		}
		if opt == "" {
			continue
		}
		d := a[len(opt):]
		if d == "" {
			if i+1 >= len(args) {
				continue
			}
			i++
			d = args[i]
		}
		if d == "" || d == "-" {
			continue
		}
		if !filepath.IsAbs(d) {
			d = dir + string(filepath.Separator) + d
		}
		d = physicalPath(d) // (-I lnk/../inc: as the kernel resolves it)
		switch opt {
		case "-iquote":
			quote = append(quote, d)
		case "-I":
			iflag = append(iflag, d)
		case "-isystem":
			isystem = append(isystem, d)
		default:
			after = append(after, d)
		}
	}
	dirs = append(append(iflag, isystem...), after...)
	return quote, dirs
}

// predefsOf reads the -D NAME[=V] and -U NAME of a compiler's arguments.
func predefsOf(args []string) []predef {
	var out []predef
	for i := 0; i < len(args); i++ {
		a := args[i]
		var d string
		switch {
		case a == "-ansi" || strings.HasPrefix(a, "-std="):
			// the C standard picks __STDC_VERSION__
			std := strings.TrimPrefix(a, "-std=")
			if a == "-ansi" {
				std = "ansi"
			}
			v, ok := stdVersion(std)
			switch {
			case !ok:
				v = defined // a standard the scanner does not know
				out = append(out, predef{name: "__STDC_VERSION__", val: &v})
			case !v.def:
				out = append(out, predef{name: "__STDC_VERSION__", undef: true})
			default:
				out = append(out, predef{name: "__STDC_VERSION__", body: fmt.Sprintf(" %dL", v.hi), val: &v})
			}
			continue
		case a == "-D" || a == "-U":
			if i+1 >= len(args) {
				continue
			}
			d = args[i+1]
			i++
		case strings.HasPrefix(a, "-D") || strings.HasPrefix(a, "-U"):
			d = a[2:]
		default:
			continue
		}
		if a[1] == 'U' {
			if name := firstWord(d); name != "" && name == d {
				out = append(out, predef{name: name, undef: true})
			}
			continue
		}
		// -DNAME means NAME 1; -DNAME=V, NAME V; -D'F(x)=V', F(x) V
		lhs, value, hasValue := strings.Cut(d, "=")
		if !hasValue {
			value = "1"
		}
		name := firstWord(lhs)
		if name == "" {
			continue
		}
		params := lhs[len(name):]
		if params != "" && (params[0] != '(' || !strings.HasSuffix(params, ")")) {
			continue // not a macro name
		}
		out = append(out, predef{name: name, body: params + " " + value})
	}
	return out
}

// BuildTags are the run's build tags (the go command's -tags, or those
// of $GOFLAGS where it has none), which decide a #cgo line keyed on a tag
// (#cgo !legacy CFLAGS: -DV2). The driver sets it, non-nil (empty for
// none), before any analysis, where it knows the run's tags in full; nil
// means it does not: then the tags are those of $GOFLAGS, and a macro
// that only a tag-keyed #cgo line defines stays unknown rather than
// undefined.
var BuildTags []string

// buildTags returns the run's build tags: BuildTags, or GOFLAGSTags.
func buildTags() []string {
	if BuildTags != nil {
		return BuildTags
	}
	return GOFLAGSTags()
}

// GOFLAGSTags returns the -tags of $GOFLAGS, as the go command reads it
// (go env -w's included), split at commas; nil for none.
func GOFLAGSTags() []string {
	var tags []string
	for _, f := range strings.Fields(goEnv("GOFLAGS")) {
		f = strings.TrimPrefix(f, "-")
		if v, ok := strings.CutPrefix(f, "-tags="); ok {
			f = "tags=" + v
		}
		if v, ok := strings.CutPrefix(f, "tags="); ok {
			tags = strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })
		}
	}
	return tags
}

// goEnv returns the go command's value of variable v: the environment's,
// or, where the environment does not set it, that of go env -w's file
// ($GOENV, or go/env in the user's configuration directory), which the
// go command reads but does not pass on to a vet tool's environment.
func goEnv(v string) string {
	if s, ok := os.LookupEnv(v); ok {
		return s
	}
	return goEnvFileVars()[v]
}

// goEnvFileVars is readGoEnvFile's result, read once.
var goEnvFileVars = sync.OnceValue(readGoEnvFile)

// GoEnvFile returns the name of go env -w's file: $GOENV, or go/env in
// the user's configuration directory; "" for none (GOENV=off).
func GoEnvFile() string {
	if e, ok := os.LookupEnv("GOENV"); ok {
		if e == "off" {
			return ""
		}
		return e
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "go", "env")
}

// readGoEnvFile returns the variables of go env -w's file: its
// KEY=VALUE lines; none where there is no file.
func readGoEnvFile() map[string]string {
	vars := map[string]string{}
	name := GoEnvFile()
	if name == "" {
		return vars
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return vars
	}
	for l := range strings.Lines(string(data)) {
		if k, v, ok := strings.Cut(strings.TrimSpace(l), "="); ok && k != "" && !strings.HasPrefix(k, "#") {
			vars[strings.TrimSpace(k)] = v
		}
	}
	return vars
}

// envFields splits the go command's value of the variable v (goEnv)
// into arguments as the go command does: at spaces, with single and
// double quotes.
func envFields(v string) []string {
	s := goEnv(v)
	var out []string
	var cur strings.Builder
	in := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
				continue
			}
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}
