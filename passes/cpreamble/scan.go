package cpreamble

import (
	"bytes"
	"cmp"
	"fmt"
	"go/ast"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lifetimevet/lifetimevet/internal/cgofile"
)

// tokKind is the kind of a C token.
type tokKind uint8

const (
	ident tokKind = iota + 1
	number
	punct
)

type tok struct {
	kind tokKind
	text string
	off  int // offset in the scanned text
}

// blank returns src with comments, string and character literals and
// preprocessor lines replaced by spaces (newlines kept), so that offsets
// and lines stay those of src. Nothing is expanded: #include and #define
// are dropped. Of each conditional, the arms not compiled are blanked and
// the first undecided arm is read; undecided returns the offset ranges of
// the undecided arms read (cond.go). blank reads src alone: the macros
// known are the compiler's and those src defines (see unit.scan for a
// reading with the build's flags and the package's headers).
func blank(src []byte) (out []byte, undecided [][2]int, macros map[string][]macroDef) {
	out, undecided, _, macros = blankArms(src)
	return out, undecided, macros
}

// blankArms is blank, and also returns the offset ranges of the lines of
// the arms not compiled (blanked as a whole: decided false, after the
// compiled or the undecided arm, or inside such an arm).
func blankArms(src []byte) (out []byte, undecided, skipped [][2]int, macros map[string][]macroDef) {
	return blankArmsWith(src, nil)
}

// blankArmsWith is blankArms with the build's -D and -U known before the
// first line (nil: none).
func blankArmsWith(src []byte, pre *Predefines) (out []byte, undecided, skipped [][2]int, macros map[string][]macroDef) {
	res := scanAlone(src, pre)
	return res.out, res.undecided, res.skipped, res.macros
}

// scanAlone scans src as a file of no package, with the build's -D and
// -U (pre; nil for none) known before its first line.
func scanAlone(src []byte, pre *Predefines) scanResult {
	var e *env
	if pre != nil {
		e = &env{predefs: pre.p, headers: map[string]bool{}}
	}
	u := &unit{env: e, once: map[string]bool{}}
	ms, table := e.start()
	return u.scan(src, "", ms, table)
}

// Predefines are the build's -D and -U for a package's C: what the C
// compiler knows before the first line of each file (the package's #cgo
// CPPFLAGS and CFLAGS for the build's GOOS and GOARCH, after
// $CGO_CPPFLAGS and $CGO_CFLAGS, as go/build reads them; flags.go).
type Predefines struct{ p []predef }

// PackagePredefines returns the Predefines of the package pass analyses.
func PackagePredefines(pass *analysis.Pass) *Predefines {
	var pres []*ast.CommentGroup
	dir := ""
	for _, f := range pass.Files {
		if pre := cgofile.Preamble(f); pre != nil {
			pres = append(pres, pre)
		}
		if dir == "" {
			dir = filepath.Dir(pass.Fset.Position(f.Package).Filename)
		}
	}
	return &Predefines{p: configPredefs(buildPredefs(cgoFlags(dir, pres)), pres)}
}

// A unit is the reading of one translation unit: a cgo preamble or a .c
// file, with the headers of the package it includes, in include order.
// What the text the compiler sees defines is what the scanner knows: the
// build's -D and -U (env.predefs) before the first line, and a package
// header's macros from its #include on, as a define before an #include
// reaches the header's own text. Each reading of a header in the unit is
// kept (reads), to be parsed with the macros in effect where it was
// included.
type unit struct {
	env   *env            // nil: src alone
	once  map[string]bool // the headers read that said #pragma once
	stack []string        // the files being read, innermost last
	reads []headerRead
}

// env is what the build gives the package's C besides its text.
type env struct {
	predefs []predef
	pkgDir  string
	// quoteDirs and incDirs are the -iquote and the -I, -isystem and
	// -idirafter directories of the build's flags; root is the module's
	// directory, under which a header is read wherever it is
	quoteDirs, incDirs []string
	root               string
	// outsideRead are the headers read that are not the package's
	// files, in the order read; tooLarge, those found and not read
	// (more than MaxHeaderLines lines), with their line counts
	outsideRead []string
	tooLarge    map[string]int
	forced      []string // the files of -include flags
	// witness reads a name as written, for the record of what the
	// reading depended on (cgofile.ReadOutside); nil: nothing recorded
	witness  func(path string)
	realRoot string // root, its symbolic links resolved (inModule)
	// headers are the package's own headers (cgofile.Sources), by
	// clean path; load returns one's content, false for one the pass
	// does not read
	headers map[string]bool
	order   []string // the headers, as the pass lists them
	load    func(path string) ([]byte, bool)
	memo    map[string]memoRead // the headers read, by context
}

// A headerRead is one reading of a package header in a unit.
type headerRead struct {
	path string
	res  scanResult
	// undecided: included in an arm the scanner cannot decide, so its
	// text may not be compiled at all
	undecided bool
	parsed    *bool // shared by the same reading in other units (env.memo)
}

// A scanResult is a file's text as blank returns it, the macros it had
// in effect (inherited ones at offset -1), and what the scanner knows of
// macros at its end.
type scanResult struct {
	out       []byte
	undecided [][2]int
	skipped   [][2]int // the lines of arms blanked as a whole (blankArms)
	maybe     []maybeArm
	macros    map[string][]macroDef
	ms        macros
}

// A maybeArm is text the build may or may not compile: an arm whose
// condition the scanner cannot decide (its lines from, to), or a line
// of an arm it blanked only because an earlier one was such (skipped),
// with dir, the offset of the directive of the outermost such
// conditional.
type maybeArm struct {
	from, to int
	dir      int
	skipped  bool
}

const maxIncludeDepth = 16

// start returns what the scanner knows before the first line of a
// unit: the compiler's predefined macros and the build's -D and -U.
func (e *env) start() (macros, map[string][]macroDef) {
	ms := newMacros()
	table := map[string][]macroDef{}
	if e == nil {
		return ms, table
	}
	for _, d := range e.predefs {
		table[d.name] = append(table[d.name], macroDef{off: -1, body: d.body, undef: d.undef})
		switch {
		case d.undef:
			ms[d.name] = undefined
		case d.val != nil:
			ms[d.name] = *d.val
		default:
			ms[d.name] = valueOf(d.body)
		}
	}
	return ms, table
}

// resolve returns the header of the module that `#include "name"`
// (quoted) or `#include <name>` in a file of directory dir names, or "",
// searched as the compiler searches: a quoted name beside the including
// file, then in the -iquote directories; both forms in the package's
// directory (the go command gives the compiler `-I` of it first), then
// in the -I, -isystem and -idirafter directories of the flags. A header
// found outside the module, or not at all, is the system's or a
// library's ("" here): its macros and functions are those the models
// know.
func (e *env) resolve(dir, name string, quoted bool) string {
	return e.resolveFrom(dir, name, quoted, "")
}

// resolveNext is resolve for `#include_next` in the file at path: the
// search starts after the directory of the search path path was found
// in (GCC's rule); "" if path is in none of them.
func (e *env) resolveNext(path, name string, quoted bool) string {
	if e == nil || path == "" {
		return ""
	}
	return e.resolveFrom("", name, quoted, filepath.Dir(path))
}

// resolveFrom is resolve, with the search starting after directory after
// of the search path when it is set.
func (e *env) resolveFrom(dir, name string, quoted bool, after string) string {
	if e == nil || name == "" {
		return ""
	}
	if filepath.IsAbs(name) {
		p := filepath.Clean(name)
		if e.headers[p] || e.load != nil && e.inModule(p) && e.found(p) {
			return p
		}
		return ""
	}
	var dirs []string
	if quoted && dir != "" {
		dirs = append(dirs, dir)
	}
	if quoted {
		dirs = append(dirs, e.quoteDirs...)
	}
	dirs = append(dirs, e.pkgDir)
	dirs = append(dirs, e.incDirs...)
	if after != "" {
		i := slices.IndexFunc(dirs, func(d string) bool { return filepath.Clean(d) == after })
		if i < 0 {
			return ""
		}
		dirs = dirs[i+1:]
	}
	for _, d := range dirs {
		p := physicalJoin(d, name)
		if e.witness != nil && p != filepath.Clean(filepath.Join(d, name)) && e.inModule(p) {
			// the name as written, through the links it crosses: a
			// link pointed elsewhere later changes what it reads
			e.witness(d + string(filepath.Separator) + name)
		}
		if e.headers[p] {
			return p
		}
		if !e.inModule(p) {
			continue
		}
		if e.found(p) {
			return p
		}
		if e.tooLarge[p] > 0 {
			return p // found, and not read (load fails): the search stops
		}
	}
	return ""
}

// physicalJoin returns the file name names in directory dir, as the
// kernel finds it: a ".." leaves the directory the path before it really
// is, so through a symbolic link (-I sub/inc, with sub/inc a link to
// ../vendor/lib/include, or a name "lnk/../config.h") "../config.h" is
// the link target's sibling, not the link's.
func physicalJoin(dir, name string) string {
	return physicalPath(dir + string(filepath.Separator) + name)
}

// physicalPath cleans the absolute path p as the kernel resolves it: each
// ".." goes to the parent of what the path before it really is (its
// symbolic links followed); the rest is kept as written.
func physicalPath(p string) string {
	if !slices.Contains(strings.Split(filepath.ToSlash(p), "/"), "..") || !filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	cur := string(filepath.Separator)
	for _, c := range strings.Split(filepath.ToSlash(p), "/") {
		switch c {
		case "", ".":
		case "..":
			if real, err := filepath.EvalSymlinks(cur); err == nil {
				cur = real
			}
			cur = filepath.Dir(cur)
		default:
			cur = filepath.Join(cur, c)
		}
	}
	return cur
}

// found reports whether the header at path, of the module, can be read.
func (e *env) found(path string) bool {
	if e.load == nil {
		return false
	}
	_, ok := e.load(path)
	return ok
}

// inModule reports whether path is under the module's directory.
func (e *env) inModule(path string) bool {
	if e.root == "" || !filepath.IsAbs(path) {
		return false
	}
	under := func(root string) bool {
		rel, err := filepath.Rel(root, path)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	if under(e.root) {
		return true
	}
	if e.realRoot == "" {
		e.realRoot = e.root
		if real, err := filepath.EvalSymlinks(e.root); err == nil {
			e.realRoot = real
		}
	}
	return e.realRoot != e.root && under(e.realRoot)
}

// forceIncludes reads the files of the build's -include flags that are
// headers of the module, before a unit's first line, and returns what the
// scanner knows after them.
func (u *unit) forceIncludes(ms macros, table map[string][]macroDef) (macros, map[string][]macroDef) {
	if u.env == nil {
		return ms, table
	}
	for _, f := range u.env.forced {
		path := u.env.resolve("", f, true)
		if path == "" || u.once[path] || slices.Contains(u.stack, path) {
			continue
		}
		src, ok := u.env.load(path)
		if !ok {
			continue
		}
		res := u.include(path, src, ms, inEffect(table, 0), false)
		ms = res.ms
		table = maps.Clone(table)
		for name, def := range leftDefined(res) {
			def.off = -1
			table[name] = append(slices.Clip(table[name]), def)
		}
	}
	return ms, table
}

// inEffect returns the macros of table in effect at offset off, each as
// one definition inherited from before the text (offset -1): what a
// header included there reads.
func inEffect(table map[string][]macroDef, off int) map[string][]macroDef {
	in := map[string][]macroDef{}
	for name, defs := range table {
		if def, ok := macroAt(defs, off); ok {
			def.off = -1
			in[name] = []macroDef{def}
		}
	}
	return in
}

// leftDefined returns, of each macro a header's reading res defines or
// undefines itself (not one it inherited), its last definition: what is
// in effect after the #include.
func leftDefined(res scanResult) map[string]macroDef {
	out := map[string]macroDef{}
	for name, defs := range res.macros {
		if def := defs[len(defs)-1]; def.off >= 0 {
			out[name] = def
		}
	}
	return out
}

// include reads the header at path, included with what the scanner
// knows (ms) and the macros in effect (in). A header read again in the
// same context (a header every file of the package includes first)
// reads the same: its reading is kept (env.memo) and not parsed again.
func (u *unit) include(path string, src []byte, ms macros, in map[string][]macroDef, undec bool) scanResult {
	var open []string // the headers being read (a unit's own file is none)
	for _, h := range u.stack {
		if u.env.headers[h] {
			open = append(open, h)
		}
	}
	key := contextKey(path, ms, in, open, undec)
	if m, ok := u.env.memo[key]; ok {
		for _, h := range m.once {
			u.once[h] = true
		}
		// the same readings, parsed once (a reading of a round that
		// scan dropped was not)
		u.reads = append(u.reads, m.reads...)
		res := m.res
		res.ms = maps.Clone(res.ms)
		return res
	}
	before := maps.Clone(u.once)
	nreads := len(u.reads)
	u.stack = append(u.stack, path)
	res := u.scan(src, path, ms, in)
	u.stack = u.stack[:len(u.stack)-1]
	reads := append([]headerRead{{path: path, res: res, undecided: undec, parsed: new(bool)}}, u.reads[nreads:]...)
	u.reads = append(u.reads[:nreads], reads...)
	var once []string
	for h := range u.once {
		if !before[h] {
			once = append(once, h)
		}
	}
	if u.env.memo == nil {
		u.env.memo = map[string]memoRead{}
	}
	u.env.memo[key] = memoRead{res: res, once: once, reads: reads}
	res.ms = maps.Clone(res.ms)
	return res
}

// A memoRead is a header's reading in one context, and the headers it
// made #pragma once.
type memoRead struct {
	res   scanResult
	once  []string
	reads []headerRead // its reading and those of the headers it includes
}

// contextKey identifies what a header's reading depends on: the header,
// what the scanner knows of macros, the macros in effect, the headers
// being read (which it cannot include again) and whether it is included
// in an undecided arm.
func contextKey(path string, ms macros, in map[string][]macroDef, stack []string, undec bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q %v %q\x00", path, undec, stack)
	for _, name := range slices.Sorted(maps.Keys(ms)) {
		fmt.Fprintf(&b, "%s=%v\x00", name, ms[name])
	}
	b.WriteString("\x01")
	for _, name := range slices.Sorted(maps.Keys(in)) {
		for _, d := range in[name] {
			fmt.Fprintf(&b, "%s %q %v %v\x00", name, d.body, d.undef, d.maybe)
		}
	}
	return b.String()
}

// includeName returns the file an #include names: "x.h" (quoted) or
// <x.h>; "" for a computed include.
func includeName(rest string) (string, bool) {
	rest = strings.TrimSpace(rest)
	if len(rest) < 2 {
		return "", false
	}
	var close byte
	switch rest[0] {
	case '"':
		close = '"'
	case '<':
		close = '>'
	default:
		return "", false
	}
	e := strings.IndexByte(rest[1:], close)
	if e < 0 {
		return "", false
	}
	return rest[1 : 1+e], rest[0] == '"'
}

// standardHeader reports whether name is a header of the C standard
// library or of POSIX, which define reserved names and those their
// standards list, never NDEBUG or a program's own macros.
func standardHeader(name string) bool {
	for _, dir := range []string{"sys/", "arpa/", "netinet/", "net/", "bits/"} {
		if strings.HasPrefix(name, dir) {
			return true
		}
	}
	return standardHeaders[name]
}

var standardHeaders = map[string]bool{
	// C11 and C23
	"assert.h": true, "complex.h": true, "ctype.h": true, "errno.h": true, "fenv.h": true, "float.h": true,
	"inttypes.h": true, "iso646.h": true, "limits.h": true, "locale.h": true, "math.h": true, "setjmp.h": true,
	"signal.h": true, "stdalign.h": true, "stdarg.h": true, "stdatomic.h": true, "stdbit.h": true, "stdbool.h": true,
	"stdckdint.h": true, "stddef.h": true, "stdint.h": true, "stdio.h": true, "stdlib.h": true, "stdnoreturn.h": true,
	"string.h": true, "tgmath.h": true, "threads.h": true, "time.h": true, "uchar.h": true, "wchar.h": true, "wctype.h": true,
	// POSIX, and glibc's common extras
	"aio.h": true, "cpio.h": true, "dirent.h": true, "dlfcn.h": true, "fcntl.h": true, "fnmatch.h": true, "glob.h": true,
	"grp.h": true, "iconv.h": true, "langinfo.h": true, "libgen.h": true, "monetary.h": true, "mqueue.h": true,
	"netdb.h": true, "nl_types.h": true, "poll.h": true, "pthread.h": true, "pwd.h": true, "regex.h": true,
	"sched.h": true, "search.h": true, "semaphore.h": true, "spawn.h": true, "strings.h": true, "syslog.h": true,
	"tar.h": true, "termios.h": true, "ulimit.h": true, "unistd.h": true, "utime.h": true, "utmpx.h": true,
	"wordexp.h": true, "alloca.h": true, "malloc.h": true, "endian.h": true, "features.h": true, "err.h": true,
	"getopt.h": true, "execinfo.h": true,
}

// computedInclude returns the header name that the operand rest of an
// #include expands to, with the macros of table in effect at offset off:
// an object-like macro whose replacement is a name or expands to one
// (#define HDR H1, #define H1 "inc/arena.h"), and a function-like macro of
// one parameter that stringifies it, directly or through another (#define
// STR(x) #x, #define XSTR(x) STR(x), #include XSTR(inc/arena.h)). "" when
// rest is none of these, or a macro it names is defined in an arm the
// scanner cannot decide.
func computedInclude(rest string, table map[string][]macroDef, off, depth int) (string, bool) {
	rest = strings.TrimSpace(rest)
	if name, quoted := includeName(rest); name != "" {
		return name, quoted
	}
	if depth > 8 {
		return "", false
	}
	m := firstWord(rest)
	if m == "" {
		return "", false
	}
	def, ok := macroAt(table[m], off)
	if !ok || def.maybe {
		return "", false
	}
	after := strings.TrimSpace(rest[len(m):])
	if after == "" {
		if strings.HasPrefix(def.body, "(") {
			return "", false // a function-like macro named alone
		}
		return computedInclude(def.body, table, off, depth+1)
	}
	// M(arg): a function-like macro of one parameter
	if !strings.HasPrefix(after, "(") || !strings.HasSuffix(after, ")") || !strings.HasPrefix(def.body, "(") {
		return "", false
	}
	arg := strings.TrimSpace(after[1 : len(after)-1])
	e := strings.IndexByte(def.body, ')')
	if e < 0 {
		return "", false
	}
	param := strings.TrimSpace(def.body[1:e])
	if !isIdent(param) || strings.ContainsAny(arg, ",()\"") {
		return "", false
	}
	repl := strings.TrimSpace(def.body[e+1:])
	if r := strings.TrimSpace(strings.TrimPrefix(repl, "#")); strings.HasPrefix(repl, "#") && !strings.HasPrefix(repl, "##") && r == param {
		return arg, true // #x: the argument as written, quoted
	}
	// the argument is macro-expanded before it is substituted (it is
	// not an operand of # or ## here)
	if isIdent(arg) {
		if ad, ok := macroAt(table[arg], off); ok && !ad.maybe && !strings.HasPrefix(ad.body, "(") {
			arg = strings.TrimSpace(ad.body)
		} else if ok {
			return "", false
		}
	}
	if strings.Contains(repl, "#") {
		return "", false
	}
	return computedInclude(replaceIdent(repl, param, arg), table, off, depth+1)
}

// isIdent reports whether s is a C identifier.
func isIdent(s string) bool {
	return s != "" && !('0' <= s[0] && s[0] <= '9') && firstWord(s) == s
}

// replaceIdent replaces each occurrence of identifier name in s, as a
// whole token, by with.
func replaceIdent(s, name, with string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && isIdentPart(s[j]) {
			j++
		}
		switch {
		case j == i:
			b.WriteByte(s[i])
			j++
		case s[i:j] == name:
			b.WriteString(with)
		default:
			b.WriteString(s[i:j])
		}
		i = j
	}
	return b.String()
}

// valueOf returns what the scanner knows of the value of a macro whose
// #define has body after its name: the value of an integer literal,
// any value otherwise.
func valueOf(body string) mval {
	if strings.HasPrefix(body, "(") {
		return defined // a function-like macro
	}
	b := strings.TrimSpace(body)
	if b == "" {
		return defined // (`#define X` is empty text: #if X is an error)
	}
	if b[0] < '0' || b[0] > '9' {
		return defined
	}
	n, ok := intLiteral(b)
	if !ok {
		return defined
	}
	v := exact(n)
	v.uns = strings.ContainsAny(b, "uU")
	return v
}

// scan blanks src (see blank), the file at path ("" for text of no
// file), starting from what the scanner knows (ms0, and table0: the
// macros in effect, at offset -1). An #ifndef X whose next directive is
// `#define X` of an object-like macro is read as an include guard, taken
// to be true, only when it is the file's first #ifndef outside
// conditionals and wraps the rest of the file (no #else or #elif,
// nothing but comments after its #endif): the configurable default
// (#ifndef MY_FREE / #define MY_FREE(p) free(p) / #endif) or a choice
// (#ifndef USE_POOL / … #else … #endif) is not one, and is decided only
// from what defines the macro. A guess a later line disproves is dropped
// and the file read again.
func (u *unit) scan(src []byte, path string, ms0 macros, table0 map[string][]macroDef) scanResult {
	notGuard := map[int]bool{}
	for round := 0; ; round++ {
		nreads, once := len(u.reads), maps.Clone(u.once)
		res, falsified := u.scan1(src, path, maps.Clone(ms0), table0, notGuard, round == 3)
		if len(falsified) == 0 || round == 3 {
			return res
		}
		for _, at := range falsified {
			notGuard[at] = true
		}
		u.reads, u.once = u.reads[:nreads], once
	}
}

func (u *unit) scan1(src []byte, path string, ms macros, table0 map[string][]macroDef, notGuard map[int]bool, noGuess bool) (res scanResult, falsified []int) {
	var undecided, skipped [][2]int
	var maybeArms []maybeArm
	macros := map[string][]macroDef{}
	for name, defs := range table0 {
		macros[name] = slices.Clip(defs)
	}
	out := make([]byte, len(src))
	copy(out, src)
	space := func(i, j int) {
		for k := i; k < j && k < len(out); k++ {
			if out[k] != '\n' {
				out[k] = ' '
			}
		}
	}
	lineStart := true
	last := -1 // the offset of the last code or directive
	// one per open conditional
	type cond struct {
		skip  bool // the current arm is blanked
		done  bool // an arm was read: the later ones are blanked
		outer bool // the whole conditional is inside a blanked arm
		start int  // the start of the undecided arm being read, or -1
		// maybe: the current arm is blanked only because an earlier
		// one was undecided, so the build may compile it (or it is
		// inside such an arm)
		maybe bool
		undec bool // an arm of this conditional was undecided
		guard bool // read as an include guard, at offset at
		at    int
		dirAt int // the offset of the directive that began the current arm
	}
	var conds []*cond
	var guardEnds [][2]int // a guard's #ifndef and the end of its #endif
	firstIfndef := true    // no #ifndef outside conditionals was read yet
	skipping := func() bool {
		return len(conds) > 0 && (conds[len(conds)-1].skip || conds[len(conds)-1].outer)
	}
	inUndecided := func() bool {
		for _, c := range conds {
			if c.start >= 0 || c.maybe {
				return true
			}
		}
		return false
	}
	// maybeSkipped: the blanked arm being read may be compiled
	maybeSkipped := func() bool {
		return len(conds) > 0 && conds[len(conds)-1].maybe
	}
	// enter starts reading an arm of c whose condition is v, at offset at
	enter := func(c *cond, v tri, at int) {
		switch v {
		case yes:
			c.skip, c.done = false, true
		case no:
			c.skip = true
		default:
			c.skip, c.done, c.start, c.undec = false, true, at, true
		}
	}
	// undecidedDir: the directive of the outermost conditional whose
	// arm being read the scanner cannot decide, or whose blanked arm the
	// build may compile
	undecidedDir := func() int {
		for _, c := range conds {
			if c.start >= 0 || c.maybe {
				return c.dirAt
			}
		}
		return -1
	}
	leave := func(c *cond, at int) {
		if c.start >= 0 {
			undecided = append(undecided, [2]int{c.start, at})
			maybeArms = append(maybeArms, maybeArm{from: c.start, to: at, dir: undecidedDir()})
			c.start = -1
		}
	}
	dir := ""
	if path != "" {
		dir = filepath.Dir(path)
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case lineStart && (c == '#' || c == '%' && i+1 < len(src) && src[i+1] == ':' || c == '/' && i+1 < len(src) && src[i+1] == '*' || skipping()):
			// a line: a directive (with backslash continuations and
			// comments, after block comments: C replaces a comment
			// by a space before it reads directives; %: is #), or a
			// line of a blanked arm
			k := i
			for k < len(src) {
				switch {
				case src[k] == ' ' || src[k] == '\t' || src[k] == '\r' || src[k] == '\f' || src[k] == '\v':
					k++
					continue
				case src[k] == '\\' && k+1 < len(src) && src[k+1] == '\n':
					k += 2
					continue
				case src[k] == '/' && k+1 < len(src) && src[k+1] == '*':
					if e := bytes.Index(src[k+2:], []byte("*/")); e >= 0 {
						k += 2 + e + 2
						continue
					}
					k = len(src)
				}
				break
			}
			hash := 0
			switch {
			case k < len(src) && src[k] == '#':
				hash = 1
			case k+1 < len(src) && src[k] == '%' && src[k+1] == ':':
				hash = 2
			}
			if hash == 0 && !skipping() {
				// a block comment before code on its line
				j := len(src)
				if e := bytes.Index(src[i+2:], []byte("*/")); e >= 0 {
					j = i + 2 + e + 2
				}
				space(i, j)
				i = j
				continue
			}
			from := i
			if hash > 0 {
				from = k
			}
			j := from
			for j < len(src) && src[j] != '\n' {
				if src[j] == '\\' && j+1 < len(src) && (src[j+1] == '\n' || src[j+1] == '\r' && j+2 < len(src) && src[j+2] == '\n') {
					j += 2
					if src[j-1] == '\r' {
						j++
					}
					continue
				}
				if src[j] == '/' && j+1 < len(src) && src[j+1] == '*' {
					if e := bytes.Index(src[j+2:], []byte("*/")); e >= 0 {
						j += 2 + e + 2
						continue
					}
					j = len(src)
					break
				}
				j++
			}
			if hash == 0 {
				skipped = append(skipped, [2]int{i, j})
				if maybeSkipped() {
					maybeArms = append(maybeArms, maybeArm{from: i, to: j, dir: undecidedDir(), skipped: true})
				}
			}
			if hash > 0 {
				last = k
				// the line, its splices removed (phase 2 comes first)
				line := bytes.ReplaceAll(bytes.ReplaceAll(src[k+hash:j], []byte("\\\r\n"), nil), []byte("\\\n"), nil)
				d := directive(line)
				rest := condText(line)
				rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), d))
				switch d {
				case "if", "ifdef", "ifndef":
					first := firstIfndef && d == "ifndef" && len(conds) == 0
					if first {
						firstIfndef = false
					}
					nc := &cond{start: -1, outer: skipping(), maybe: maybeSkipped(), dirAt: k}
					if !nc.outer {
						var v tri
						switch d {
						case "if":
							v = ms.eval(rest)
						case "ifdef":
							v = ms.defined(firstWord(rest))
						case "ifndef":
							name := firstWord(rest)
							v = ms.defined(name).not()
							if v == unknown && first && !noGuess && !notGuard[k] && guards(src[j:], name) {
								v = yes // an include guard
								nc.guard, nc.at = true, k
							}
						}
						enter(nc, v, j)
					} else {
						nc.skip, nc.done = true, true
					}
					conds = append(conds, nc)
				case "elif", "else", "elifdef", "elifndef":
					if len(conds) == 0 {
						break
					}
					top := conds[len(conds)-1]
					if top.outer {
						break
					}
					if top.guard {
						// not an include guard: one has no other arm
						falsified = append(falsified, top.at)
						top.guard = false
					}
					if top.done {
						leave(top, k)
						top.skip = true
						top.maybe = top.undec
						break
					}
					var v tri
					switch d {
					case "else":
						v = yes
					case "elif":
						v = ms.eval(rest)
					case "elifdef":
						v = ms.defined(firstWord(rest))
					case "elifndef":
						v = ms.defined(firstWord(rest)).not()
					}
					if v == unknown {
						top.dirAt = k // (an #else is of the conditional's #if)
					}
					enter(top, v, j)
				case "endif":
					if len(conds) > 0 {
						top := conds[len(conds)-1]
						leave(top, k)
						if top.guard {
							guardEnds = append(guardEnds, [2]int{top.at, j})
						}
						conds = conds[:len(conds)-1]
					}
				case "define", "undef":
					name := firstWord(rest)
					if name == "" || skipping() && !maybeSkipped() {
						break
					}
					body := rest[len(name):]
					maybe := inUndecided()
					macros[name] = append(macros[name], macroDef{off: k, body: body, undef: d == "undef", maybe: maybe})
					switch {
					case maybe:
						delete(ms, name) // defined or not, the scanner cannot tell
					case d == "undef":
						ms[name] = undefined
					default:
						ms[name] = valueOf(body)
					}
				case "pragma":
					if firstWord(rest) == "once" && path != "" && !skipping() {
						u.once[path] = true
					}
				case "include", "include_next", "import":
					if u.env == nil || skipping() && !maybeSkipped() {
						break
					}
					name, quoted := includeName(rest)
					if name == "" {
						// a computed include (#include HDR, #include
						// XSTR(PLATFORM_HDR)): its macros expanded
						name, quoted = computedInclude(rest, macros, k, 0)
					}
					if name == "" {
						// a name the scanner cannot work out: any header
						// may be read here, and the calls after it may be
						// its macros', not what they are written as
						undecided = append(undecided, [2]int{k, len(src)})
						break
					}
					var hpath string
					if d == "include_next" {
						// the search goes on after the directory the
						// including file was found in
						hpath = u.env.resolveNext(path, name, quoted)
					} else {
						hpath = u.env.resolve(dir, name, quoted)
					}
					if hpath == "" && !standardHeader(name) {
						// a library's header, which the scanner does not
						// read: it may define NDEBUG (a release build's
						// generated config header does)
						if v, ok := ms["NDEBUG"]; ok && v == undefined {
							delete(ms, "NDEBUG")
						}
					}
					if hpath == "" || u.once[hpath] || slices.Contains(u.stack, hpath) || len(u.stack) >= maxIncludeDepth {
						break
					}
					hsrc, ok := u.env.load(hpath)
					if !ok {
						if u.env.tooLarge[hpath] > 0 {
							// found and not read: as a computed include
							// the scanner cannot work out
							undecided = append(undecided, [2]int{k, len(src)})
						}
						break
					}
					// the header reads the macros in effect here
					undec := inUndecided()
					hres := u.include(hpath, hsrc, ms, inEffect(macros, k), undec)
					// and what it leaves defined is in effect after the
					// #include
					for name, def := range leftDefined(hres) {
						def.off = k
						def.maybe = def.maybe || undec
						macros[name] = append(macros[name], def)
					}
					if !undec {
						ms = hres.ms
						break
					}
					// included or not, the scanner cannot tell: what
					// the header changes is unknown after it
					for name, v := range hres.ms {
						if w, ok := ms[name]; !ok || w != v {
							delete(ms, name)
						}
					}
					for name := range ms {
						if _, ok := hres.ms[name]; !ok {
							delete(ms, name)
						}
					}
				}
			}
			space(i, j)
			i = j
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := i
			for j < len(src) && src[j] != '\n' {
				if src[j] == '\\' && j+1 < len(src) && src[j+1] == '\n' {
					j += 2
					continue
				}
				j++
			}
			space(i, j)
			i = j
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			// a block comment after code on its line: a # after it
			// is not a directive
			j := len(src)
			if e := bytes.Index(src[i+2:], []byte("*/")); e >= 0 {
				j = i + 2 + e + 2
			}
			space(i, j)
			i = j
			continue
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j < len(src) && src[j] == c {
				j++
			}
			space(i, j)
			last = i
			i = j
			lineStart = false
			continue
		}
		last = i
		lineStart = false
		i++
	}
	for _, c := range conds {
		leave(c, len(src)) // an unterminated conditional
		if c.guard {
			falsified = append(falsified, c.at)
		}
	}
	for _, g := range guardEnds {
		if last >= g[1] {
			falsified = append(falsified, g[0]) // code after it: not a guard
		}
	}
	return scanResult{out: out, undecided: undecided, skipped: skipped, maybe: maybeArms, macros: macros, ms: ms}, falsified
}

var puncts3 = []string{"<<=", ">>=", "..."}
var puncts2 = []string{"++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "==", "!=", "<=", ">=", "&&", "||", "->", "<<", ">>", "::"}

// tokenize splits blanked C text into tokens.
func tokenize(src []byte) []tok {
	var out []tok
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '\\':
			i++
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			out = append(out, tok{ident, string(src[i:j]), i})
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i + 1
			for j < len(src) && (isIdentPart(src[j]) || src[j] == '.' ||
				(src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E' || src[j-1] == 'p' || src[j-1] == 'P')) {
				j++
			}
			out = append(out, tok{number, string(src[i:j]), i})
			i = j
		default:
			n := 1
			for _, p := range puncts3 {
				if bytes.HasPrefix(src[i:min(i+3, len(src))], []byte(p)) {
					n = 3
					break
				}
			}
			if n == 1 {
				for _, p := range puncts2 {
					if i+2 <= len(src) && string(src[i:i+2]) == p {
						n = 2
						break
					}
				}
			}
			out = append(out, tok{punct, string(src[i : i+n]), i})
			i += n
		}
	}
	return out
}

// directive returns the name of a preprocessor directive, src starting
// after its '#'.
func directive(src []byte) string {
	src = bytes.TrimLeft(src, " \t")
	if bytes.HasPrefix(src, []byte("/*")) {
		if e := bytes.Index(src, []byte("*/")); e >= 0 {
			src = src[e+2:]
		}
	}
	i := 0
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	j := i
	for j < len(src) && isIdentPart(src[j]) {
		j++
	}
	return string(src[i:j])
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// match returns the index of the token that closes the bracket at i, or
// len(toks)-1 when it is not closed.
func match(toks []tok, i int) int {
	open := toks[i].text
	var close string
	switch open {
	case "(":
		close = ")"
	case "[":
		close = "]"
	case "{":
		close = "}"
	default:
		return i
	}
	depth := 0
	for j := i; j < len(toks); j++ {
		if toks[j].kind != punct {
			continue
		}
		switch toks[j].text {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(toks) - 1
}

// keywords are C's (and a few common compiler extensions') reserved words:
// never a variable's name.
var keywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`auto break case char const continue default do double else enum extern
		float for goto if inline int long register restrict return short signed sizeof static struct
		switch typedef union unsigned void volatile while _Alignas _Alignof _Atomic _Bool _Complex
		_Generic _Imaginary _Noreturn _Static_assert _Thread_local alignas alignof bool thread_local
		static_assert typeof typeof_unqual __thread __inline __inline__ __restrict __restrict__
		__volatile__ __const __const__ __signed__ __attribute__ __declspec __asm__ __asm asm
		__extension__ __typeof__ __int128 __builtin_va_list nullptr true false constexpr`) {
		keywords[k] = true
	}
}

// stmtKeywords start statements that are not declarations.
var stmtKeywords = map[string]bool{
	"return": true, "goto": true, "case": true, "default": true, "break": true, "continue": true,
	"if": true, "else": true, "while": true, "do": true, "for": true, "switch": true, "sizeof": true,
}

// lockFuncs take a lock: C code that calls one is trusted to guard what it
// writes.
var lockFuncs = map[string]bool{
	"pthread_mutex_lock": true, "pthread_mutex_trylock": true, "pthread_mutex_timedlock": true,
	"pthread_rwlock_wrlock": true, "pthread_rwlock_trywrlock": true, "pthread_spin_lock": true,
	"pthread_spin_trylock": true, "pthread_once": true, "call_once": true,
	"mtx_lock": true, "mtx_trylock": true, "mtx_timedlock": true,
	"EnterCriticalSection": true, "TryEnterCriticalSection": true, "AcquireSRWLockExclusive": true,
	"WaitForSingleObject": true, "InitOnceExecuteOnce": true, "os_unfair_lock_lock": true,
	"dispatch_once": true, "g_mutex_lock": true, "g_rec_mutex_lock": true, "g_once_init_enter": true,
	"sqlite3_mutex_enter": true, "uv_mutex_lock": true,
}

var assignOps = map[string]bool{
	"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true,
	"&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true,
}

// firstWord returns the identifier that starts s.
func firstWord(s string) string {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && isIdentPart(s[i]) {
		i++
	}
	return s[:i]
}

// guards reports whether the first directive of rest (the text after an
// `#ifndef name` line) is `#define name` of an object-like macro: an
// include guard, whose arm is compiled the first time the file is read
// (if the conditional wraps the rest of the file: unit.scan).
func guards(rest []byte, name string) bool {
	for line := range bytes.Lines(rest) {
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		if t[0] != '#' {
			return false
		}
		t = bytes.TrimSpace(t[1:])
		d, ok := bytes.CutPrefix(t, []byte("define"))
		if !ok || name == "" || len(d) == 0 || d[0] != ' ' && d[0] != '\t' {
			return false
		}
		d = bytes.TrimSpace(d)
		after, ok := bytes.CutPrefix(d, []byte(name))
		return ok && (len(after) == 0 || !isIdentPart(after[0]) && after[0] != '(')
	}
	return false
}

// A macroDef is a #define (or #undef) of a macro, at offset off of the
// text (-1: before it, a -D or a macro in effect where a header was
// included).
type macroDef struct {
	off   int
	body  string // what follows the name: parameters and replacement
	undef bool
	// maybe: in an arm the scanner cannot decide (or a header included
	// there): the macro may or may not be so
	maybe bool
}

// macroAt returns the #define of macro name in effect at offset off (the
// last one before it, unless an #undef came after that). A maybe #undef
// leaves the definition in effect, marked maybe.
func macroAt(defs []macroDef, off int) (macroDef, bool) {
	var def macroDef
	ok := false
	for _, d := range defs {
		if d.off >= off {
			break
		}
		switch {
		case !d.undef:
			def, ok = d, true
		case d.maybe && ok:
			def.maybe = true
		default:
			def, ok = macroDef{}, false
		}
	}
	return def, ok
}

// An Arm says whether the build compiles a piece of C text.
type Arm int8

const (
	// ArmCompiled: outside conditionals, or in an arm decided true.
	ArmCompiled Arm = iota
	// ArmDead: in an arm the build certainly does not compile (decided
	// false, or after the compiled arm).
	ArmDead
	// ArmUndecided: in an arm whose condition the scanner cannot decide (a
	// macro a system header may define, __has_include), or in an arm
	// after one such, which the build may compile or not.
	ArmUndecided
)

// ArmsWith returns a function that says, for offset off of the C source
// src read with the build's -D and -U (pre; nil for none), which kind of
// arm it lies in, and for ArmUndecided the offset of the directive (#if,
// #elif, #else) of the outermost conditional the scanner could not
// decide. It is the complement of Compiled for text that is not code,
// such as the //lifetime: directives in C comments: a directive the build
// may not see is not read, as the code around it is no evidence of what a
// function does (so the arms of one conditional, one directive per
// platform, never contradict each other: at most one is read).
//
// The source is scanned at the first question (most files hold no
// directive to ask about).
func ArmsWith(src []byte, pre *Predefines) func(off int) (Arm, int) {
	var dead [][2]int // sorted, disjoint
	var maybe []maybeArm
	scanned := false
	return func(off int) (Arm, int) {
		if !scanned {
			scanned = true
			res := scanAlone(src, pre)
			dead = mergeRanges(res.skipped)
			maybe = res.maybe
		}
		return armIn(dead, maybe, off)
	}
}

// armIn says which kind of arm offset off lies in, of a reading whose
// blanked lines are dead (sorted, disjoint) and whose text the build may
// or may not compile is maybe.
func armIn(dead [][2]int, maybe []maybeArm, off int) (Arm, int) {
	in := func(from, to, off int) bool { return from <= off && off < to }
	// a blanked line the build may compile, before the arm around it:
	// an #if 0 inside an undecided arm is dead
	for _, m := range maybe {
		if m.skipped && in(m.from, m.to, off) {
			return ArmUndecided, m.dir
		}
	}
	i, _ := slices.BinarySearchFunc(dead, off, func(r [2]int, off int) int {
		switch {
		case r[1] <= off:
			return -1
		case r[0] > off:
			return 1
		}
		return 0
	})
	if i < len(dead) && in(dead[i][0], dead[i][1], off) {
		return ArmDead, -1
	}
	for _, m := range maybe {
		if !m.skipped && in(m.from, m.to, off) {
			return ArmUndecided, m.dir
		}
	}
	return ArmCompiled, -1
}

// mergeRanges returns rs sorted, adjacent and overlapping ones merged.
func mergeRanges(rs [][2]int) [][2]int {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	var merged [][2]int
	for _, r := range rs {
		if n := len(merged); n > 0 && r[0] <= merged[n-1][1]+1 {
			merged[n-1][1] = max(merged[n-1][1], r[1])
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

// Compiled returns the C source src as far as the build certainly
// compiles it, for the package's other readers of C, which match
// patterns: comments, string and character literals, preprocessor lines
// and the arms of conditionals the build does not compile, or may not
// (an undecided arm, cond.go), are spaces; newlines and offsets are those
// of src. Code the build may not compile is no evidence of what a
// function does.
func Compiled(src []byte) []byte {
	out, undecided, _ := blank(src)
	for _, r := range undecided {
		for k := r[0]; k < r[1] && k < len(out); k++ {
			if out[k] != '\n' {
				out[k] = ' '
			}
		}
	}
	return out
}
