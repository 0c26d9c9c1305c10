// Package cpreamble is the pass that reads the package's own C: the cgo
// preamble of each Go file and the package's .c files. It finds the
// file-scope variables and function-local statics the C defines (with
// their qualifiers: const, _Atomic, thread-local), the functions it
// defines, and which variables each function writes and which functions it
// calls. It reports nothing.
//
// # The C front end
//
// The C is read by a small tolerant scanner of this package, not by a C
// parser. A package's C includes headers that are often absent where the
// checker runs (CUDA's, on CI machines without the toolkit), and C cannot
// be parsed without them: whether "T * x;" declares x or multiplies
// depends on whether a header made T a type name. modernc.org/cc/v4, the
// maintained C front end written in Go, preprocesses and parses
// translation units as a compiler does, and fails on the first missing
// header ("include file not found") or unknown type name ("unexpected
// identifier, expected external declaration"); the tree-sitter C grammar
// tolerates both, but its Go binding needs cgo, and a vet tool that needs
// a C toolchain to build is a worse tool. What this pass needs is narrow:
// the names and qualifiers of variables declared at file scope and
// static in functions, the names of the functions defined, and, in each
// function body, assignments and increments of names and calls. The
// scanner gets these from tokens: comments, strings and preprocessor
// lines are blanked (nothing is expanded; of a conditional, the arms the
// build does not compile for the target are blanked, as cond.go decides
// by evaluating the conditions' integer expressions over what it knows:
// the macros the text defines, the C compiler's predefined macros (the
// platform's, the type sizes and byte order, __STDC_VERSION__ as a
// range or as -std says), the build's -D and -U (flags.go) and the
// macros of the module's headers the text includes, in include order and
// found as the compiler finds them (scan.go: beside the includer, the
// package's directory, the flags' -I directories; a header outside the
// module is the library's; a computed #include is expanded through
// object-like macros and the one-parameter stringify idiom), and in an arm
// it cannot decide the writes and calls are not taken as evidence, nor
// after an #include it cannot work out or a module header too large to
// read, whose macros may change what they mean), a
// file-scope declaration ends at a ';' outside brackets, a '{' after a
// parameter list opens a function body, and inside a body a name followed
// by an assignment operator or ++/-- (or preceded by ++/--) is written
// unless the function declares a local of that name. A declaration's type
// is judged after the text's typedefs, tags and macros are resolved, and a
// lock is also taken through a macro or a lock wrapper of the package's C
// (resolve.go, locks.go). What it cannot see (macros that expand to
// writes, writes through pointers to a variable) it misses; what it cannot
// read it skips, so its errors are silences rather than false reports.
//
// The .c files are those the build selects (cgofile.Sources): from
// pass.OtherFiles, or under go vet, which does not list a cgo package's C
// files there, the package directory's files less those go vet's build
// excluded with its own tags (pass.IgnoredFiles).
//
// Large files (more than MaxLines lines: vendored amalgamations such as
// go-sqlite3's sqlite3-binding.c; headers of more than MaxHeaderLines)
// are listed but not read unless the flag -largec is set (it is
// sharedglobal's -sharedglobal.largec in the standalone command and go
// vet).
package cpreamble

import (
	"bytes"
	"go/ast"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/lifetimevet/lifetimevet/internal/cgofile"
)

// Analyzer is the C pass. Its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "lifetimecpreamble",
	Doc:        "read the package's own C (cgo preambles and .c files): variables, functions, writes and calls (a pass: reports nothing)",
	URL:        "https://github.com/lifetimevet/lifetimevet/tree/main/passes/cpreamble",
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
}

// MaxLines is the size above which a .c file is left out unless -largec is
// given (-sharedglobal.largec, standalone).
const MaxLines = 5000

// MaxHeaderLines is the size above which a header is left out unless
// -largec is given: a header's macros decide what the C that includes it
// means, and an amalgamation's header (sqlite3.h, 13,000 lines) is read.
const MaxHeaderLines = 50000

var largeC bool

func init() {
	Analyzer.Flags.BoolVar(&largeC, "largec", false, "also read .c files of more than 5000 lines (vendored amalgamations)")
}

// A File is a cgo preamble or a .c file of the package.
type File struct {
	Name     string // the .c file, or the Go file whose preamble it is
	Preamble bool
	Lines    int
	Skipped  bool // a large file left out
	segs     []seg
	// readings are how each reading of the file (a header's, one per
	// context it is included in) compiled its conditional arms
	readings []reading
}

// A reading is the arms of one reading of a file: the lines blanked as
// a whole (merged) and the text the build may or may not compile, with
// the file's text (for the directives' lines).
type reading struct {
	dead  [][2]int
	maybe []maybeArm
	src   []byte
	whole bool // included where the scanner cannot tell: all of it undecided
}

func (f *File) addReading(res scanResult, src []byte, whole bool) {
	f.readings = append(f.readings, reading{dead: mergeRanges(res.skipped), maybe: res.maybe, src: src, whole: whole})
}

// arm says which kind of arm offset off lies in over every reading of
// f: compiled by one of them, else undecided by one, else dead; for
// undecided, the offset of the deciding directive (-1: none in f) and its
// reading's text.
func (f *File) arm(off int) (Arm, int, []byte) {
	best, dir := ArmDead, -1
	var src []byte
	for _, rd := range f.readings {
		a, d := ArmCompiled, -1
		switch {
		case rd.whole:
			a = ArmUndecided
		default:
			a, d = armIn(rd.dead, rd.maybe, off)
		}
		switch {
		case a == ArmCompiled:
			return ArmCompiled, -1, nil
		case a == ArmUndecided && best == ArmDead:
			best, dir, src = ArmUndecided, d, rd.src
		}
	}
	if len(f.readings) == 0 {
		return ArmCompiled, -1, nil
	}
	return best, dir, src
}

// ArmAt says, over every reading of the unit or header named name that
// the pass read (a .c or .h file of the package or of its module), which
// kind of conditional arm offset off of it lies in, as the build reads it
// (with its -D and -U, and the macros of the headers included before),
// and for ArmUndecided the deciding directive's offset (-1: none in the
// file) and line; ok is false for a file the pass did not read.
func (r *Result) ArmAt(name string, off int) (a Arm, dir int, cond string, ok bool) {
	f := r.fileNamed(name)
	if f == nil || len(f.readings) == 0 {
		return ArmCompiled, -1, "", false
	}
	a, dir, src := f.arm(off)
	if a == ArmUndecided && dir >= 0 {
		cond = DirectiveText(src, dir)
	}
	return a, dir, cond, true
}

// PreambleArmAt is ArmAt for a position in a cgo preamble: the deciding
// directive is a position.
func (r *Result) PreambleArmAt(pos token.Pos) (a Arm, dir token.Pos, cond string, ok bool) {
	for _, f := range r.Files {
		if !f.Preamble || len(f.readings) == 0 {
			continue
		}
		off, ok := f.offset(pos)
		if !ok {
			continue
		}
		a, d, src := f.arm(off)
		if a == ArmUndecided && d >= 0 {
			return a, f.pos(d), DirectiveText(src, d), true
		}
		return a, token.NoPos, "", true
	}
	return ArmCompiled, token.NoPos, "", false
}

// OutsideHeaders returns the headers of the module that are none of the
// package's files and that its C includes (a subdirectory's, an -I
// directory's), in the order read.
func (r *Result) OutsideHeaders() []string {
	if r.env == nil {
		return nil
	}
	return slices.Clone(r.env.outsideRead)
}

// An Unread is a file of the package's C that the pass found and left out
// for its size (-largec unset): the C of a .c file of more than MaxLines
// lines is not analysed, and after the #include of a header of more than
// MaxHeaderLines lines neither is what follows (its macros may change it).
type Unread struct {
	Name   string // the file, as the build names it
	Lines  int
	Header bool
}

// Unread returns the files the pass left out for their size, .c files
// first, each in the order found.
func (r *Result) Unread() []Unread {
	var out []Unread
	for _, f := range r.Files {
		if f.Skipped {
			out = append(out, Unread{Name: f.Name, Lines: f.Lines})
		}
	}
	if r.env != nil {
		for _, name := range slices.Sorted(maps.Keys(r.env.tooLarge)) {
			out = append(out, Unread{Name: name, Lines: r.env.tooLarge[name], Header: true})
		}
	}
	return out
}

// Predefines returns the build's -D and -U for the package's C, as the
// pass read it (PackagePredefines).
func (r *Result) Predefines() *Predefines {
	if r.env == nil {
		return nil
	}
	return &Predefines{p: r.env.predefs}
}

func (r *Result) fileNamed(name string) *File {
	if f := r.hfiles[filepath.Clean(name)]; f != nil {
		return f
	}
	for _, f := range r.Files {
		if !f.Preamble && f.Name == name {
			return f
		}
	}
	return nil
}

// seg maps a stretch of scanned text to positions in the file set.
type seg struct {
	off int
	pos token.Pos
	n   int
}

// preambleSource returns the C text of a cgo preamble, the comment group
// cg (each comment without its markers, one line after another, as cgo
// hands it to C), and where its stretches are in the file set.
func preambleSource(cg *ast.CommentGroup) ([]byte, []seg) {
	var buf bytes.Buffer
	var segs []seg
	for _, c := range cg.List {
		text := c.Text[2:]
		if strings.HasPrefix(c.Text, "/*") {
			text = strings.TrimSuffix(text, "*/")
		}
		segs = append(segs, seg{off: buf.Len(), pos: c.Pos() + 2, n: len(text)})
		buf.WriteString(text)
		buf.WriteByte('\n')
	}
	return buf.Bytes(), segs
}

// PreambleArms says, for positions in the cgo preamble cg, which kind of
// conditional arm of its C they lie in (ArmsWith, with the build's -D and
// -U pre), and for ArmUndecided the position of the directive of the
// conditional the scanner could not decide.
// The text is that of the directive's line (DirectiveText).
func PreambleArms(cg *ast.CommentGroup, pre *Predefines) func(token.Pos) (Arm, token.Pos, string) {
	src, segs := preambleSource(cg)
	arm := ArmsWith(src, pre)
	f := File{segs: segs}
	return func(pos token.Pos) (Arm, token.Pos, string) {
		off, ok := f.offset(pos)
		if !ok {
			return ArmCompiled, token.NoPos, ""
		}
		a, dir := arm(off)
		if a != ArmUndecided || dir < 0 {
			return a, token.NoPos, ""
		}
		return a, f.pos(dir), DirectiveText(src, dir)
	}
}

// DirectiveText returns the preprocessor line of src at offset off, its
// continuations joined and its spaces squeezed, cut to 60 bytes.
func DirectiveText(src []byte, off int) string {
	if off < 0 || off >= len(src) {
		return ""
	}
	end := off
	for end < len(src) && (src[end] != '\n' || end > off && src[end-1] == '\\') {
		end++
	}
	line := strings.Join(strings.Fields(strings.ReplaceAll(string(src[off:end]), "\\\n", " ")), " ")
	if len(line) > 60 {
		cut := 57
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		line = line[:cut] + "..."
	}
	return line
}

// offset is the inverse of pos: the offset in f's scanned text of
// position pos, false for a position outside f.
func (f *File) offset(pos token.Pos) (int, bool) {
	for _, s := range f.segs {
		if s.pos <= pos && pos <= s.pos+token.Pos(s.n) {
			return s.off + int(pos-s.pos), true
		}
	}
	return 0, false
}

func (f *File) pos(off int) token.Pos {
	for i := len(f.segs) - 1; i >= 0; i-- {
		s := f.segs[i]
		if off >= s.off {
			if off-s.off > s.n {
				return s.pos + token.Pos(s.n)
			}
			return s.pos + token.Pos(off-s.off)
		}
	}
	return token.NoPos
}

// A Var is a variable defined (or declared extern) at file scope, or a
// static of a function.
type Var struct {
	Name        string
	File        *File
	Func        *Func // the function of a function-local static; nil at file scope
	Pos         token.Pos
	Static      bool
	Extern      bool // a declaration, not a definition
	Const       bool
	Atomic      bool // _Atomic, or a typedef or macro of it, or a <stdatomic.h> atomic_* type
	ThreadLocal bool // _Thread_local, thread_local, __thread, __declspec(thread), or a macro of one
}

// Shared reports whether the variable is one storage shared by every
// thread that can change: not const, not _Atomic, not thread-local.
func (v *Var) Shared() bool { return !v.Const && !v.Atomic && !v.ThreadLocal }

// A Func is a C function defined by the package's C.
type Func struct {
	Name   string
	File   *File
	Pos    token.Pos
	Static bool
	Writes []Write // the package's variables the function writes
	Calls  []Call  // the functions it calls, in order
	Locks  bool    // it takes a lock (pthread_mutex_lock, mtx_lock, …), directly, through a macro or a lock wrapper
	// Params are the parameters' names, in order; NullTested those the
	// body compares with NULL (!p, p == NULL, NULL != p, if (p)).
	Params     []string
	NullTested map[string]bool
	// Always are the calls the body makes on every path by which it
	// returns, in order, with the parameters they pass (see ParamCall): a
	// parameter passed on every path where it is not NULL counts as
	// passed.
	Always []ParamCall
	// Passes are all the calls of the body, on any path, in any arm of
	// a conditional the scanner read, with the parameters each passes.
	Passes []ParamCall

	// uncaptured: for each parameter, whether the body uses it only in
	// ways that keep nothing, calls it is passed to aside (keeps.go)
	uncaptured []bool
	writes     []pendingWrite
	locals     map[string]bool
	// takes and releases: the body takes a lock that stays held, or
	// releases one, directly, through a macro or a wrapper (locks.go);
	// viaMacro are the functions it calls through the text's macros
	takes, releases bool
	viaMacro        []string
}

// TestsNull reports whether the function compares its parameter i with
// NULL: it handles a NULL handle itself.
func (f *Func) TestsNull(i int) bool {
	return f != nil && i >= 0 && i < len(f.Params) && f.NullTested[f.Params[i]]
}

// Defined returns the definitions of the C function name in the package's
// C: its preambles, .c files and .h files (one per file that defines it;
// static functions of different files may share a name).
func (r *Result) Defined(name string) []*Func {
	return append(slices.Clip(r.byName[name]), r.headers[name]...)
}

// DefinedNames returns the names of the functions the package's C
// defines (see Defined), sorted.
func (r *Result) DefinedNames() []string {
	var out []string
	for name := range r.byName {
		out = append(out, name)
	}
	for name := range r.headers {
		if len(r.byName[name]) == 0 {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// A Call is a call in a function body.
type Call struct {
	Name string
	Pos  token.Pos
}

// A Write is an assignment, compound assignment, ++ or -- of a variable
// (or of a member or element of it).
type Write struct {
	Var *Var
	Pos token.Pos
	Op  string // "=", "+=", "++", …
}

type pendingWrite struct {
	name string
	pos  token.Pos
	op   string
}

// Result is the package's C.
type Result struct {
	Files []*File
	Vars  []*Var
	Funcs []*Func

	byName map[string][]*Func
	vars   map[string][]*Var // by name
	reach  map[*Func][]Reach
	// headers: the functions the package's .h files define, by name
	headers map[string][]*Func
	macros  map[string]bool // the macros the package's C defines

	env      *env
	hfiles   map[string]*File // the package's headers read, by clean path
	included map[string]bool  // the headers a unit read
	// hdr: the typedefs, tags and macros the package's headers define
	// (resolve.go), for the declarations of every file
	hdr *defs
	// outsideDone: how many of env.outsideRead have their definitions
	// in hdr
	outsideDone int
	// keep: for each function, the parameters it may keep (keeps.go)
	keep map[*Func][]bool
}

func run(pass *analysis.Pass) (any, error) {
	r := &Result{byName: map[string][]*Func{}, vars: map[string][]*Var{}, reach: map[*Func][]Reach{}, headers: map[string][]*Func{}, macros: map[string]bool{}}
	r.env, r.hfiles = newEnv(pass)
	r.headerDefs()
	var all []*parser
	for _, f := range pass.Files {
		pre := cgofile.Preamble(f)
		if pre == nil {
			continue
		}
		file := &File{Name: pass.Fset.Position(f.Package).Filename, Preamble: true}
		var src []byte
		src, file.segs = preambleSource(pre)
		file.Lines = bytes.Count(src, []byte("\n"))
		all = append(all, r.read(file, src))
	}
	cfiles, readFile := cgofile.CFiles(pass)
	for _, name := range cfiles {
		content, err := readFile(name)
		if err != nil {
			continue
		}
		file := &File{Name: name, Lines: bytes.Count(content, []byte("\n")) + 1}
		if file.Lines > MaxLines && !largeC {
			file.Skipped = true
			r.Files = append(r.Files, file)
			continue
		}
		tf := pass.Fset.AddFile(name, -1, len(content))
		tf.SetLinesForContent(content)
		file.segs = []seg{{off: 0, pos: tf.Pos(0), n: len(content)}}
		all = append(all, r.read(file, content))
	}
	r.readHeaders()
	r.link(all)
	return r, nil
}

// link resolves what the functions of the files read write, and finds
// the lock wrappers among all the package's functions.
func (r *Result) link(all []*parser) {
	var funcs []*Func
	for _, p := range all {
		for _, fn := range p.funcs {
			r.resolve(fn)
		}
		funcs = append(funcs, p.funcs...)
	}
	for _, name := range slices.Sorted(maps.Keys(r.headers)) {
		funcs = append(funcs, r.headers[name]...)
	}
	r.lockWrappers(funcs)
	r.keeps(funcs)
}

// headerDefs reads the typedefs, tags and macros of the package's headers
// (each alone, with the build's flags), which the declarations of every
// file resolve (resolve.go): a header's typedef of _Atomic makes a
// variable declared with it atomic wherever it is included. (Their
// functions are read by the units that include them, readHeaders.)
//
// The module's headers outside the package (a subdirectory, an -I
// directory) are known only once an #include reaches them: their
// definitions are read when a unit or header first does (outsideDefs),
// before that unit is parsed.
func (r *Result) headerDefs() {
	r.hdr = newDefs()
	if r.env == nil {
		return
	}
	for _, name := range r.env.order {
		r.headerDef(name)
	}
	r.outsideDefs()
}

// outsideDefs reads the definitions of the module's headers read since
// the last call that are not the package's (env.outsideRead).
func (r *Result) outsideDefs() {
	if r.env == nil {
		return
	}
	for r.outsideDone < len(r.env.outsideRead) {
		name := r.env.outsideRead[r.outsideDone]
		r.outsideDone++
		r.headerDef(name)
	}
}

// headerDef reads the typedefs, tags and macros of the header at path,
// alone, with the build's flags, into r.hdr.
func (r *Result) headerDef(name string) {
	content, ok := r.env.load(name) // before hfiles: it adds the header's File
	file := r.hfiles[name]
	if file == nil || !ok {
		return
	}
	u := &unit{env: r.env, once: map[string]bool{}, stack: []string{name}}
	ms, table := r.env.start()
	res := u.scan(content, name, ms, table)
	p := &parser{file: file, toks: tokenize(res.out), undecided: res.undecided, macros: res.macros, own: newDefs(), hdr: r.hdr}
	p.parse()
	for name, a := range p.own.atomicTypes {
		r.hdr.atomicTypes[name] = a
	}
	for name, a := range p.own.atomicTags {
		r.hdr.atomicTags[name] = a
	}
	for name, tag := range p.own.typeTags {
		r.hdr.typeTags[name] = tag
	}
	for name, defs := range res.macros {
		// what the header leaves defined at its end
		if def, ok := macroAt(defs, len(content)+1); ok {
			r.hdr.macros[name] = def.body
		} else {
			delete(r.hdr.macros, name)
		}
	}
}

// readHeaders reads the package's headers that no preamble or .c file
// includes on their own, with the build's flags. (Their functions, static
// inline wrappers, are read by Defined, as are those of the headers the
// units include; their variables and writes are not the package's
// globals: each file that includes a header has its own copy of its
// statics.)
func (r *Result) readHeaders() {
	if r.env == nil {
		return
	}
	for _, name := range r.env.order {
		if r.included[name] {
			continue
		}
		content, ok := r.env.load(name)
		if !ok {
			continue
		}
		u := &unit{env: r.env, once: map[string]bool{}, stack: []string{name}}
		ms, table := r.env.start()
		res := u.scan(content, name, ms, table)
		r.outsideDefs()
		r.parseHeader(headerRead{path: name, res: res})
		for _, h := range u.reads {
			r.parseHeader(h)
		}
	}
}

// newEnv returns what the build gives the package's C (env): the -D and
// -U of the package's #cgo lines and of the environment, and the
// package's headers, read through the pass (files of more than MaxLines
// lines only with -largec).
func newEnv(pass *analysis.Pass) (*env, map[string]*File) {
	e := &env{headers: map[string]bool{}}
	var pres []*ast.CommentGroup
	for _, f := range pass.Files {
		if pre := cgofile.Preamble(f); pre != nil {
			pres = append(pres, pre)
			if e.pkgDir == "" {
				e.pkgDir = filepath.Dir(pass.Fset.Position(f.Package).Filename)
			}
		}
	}
	if e.pkgDir == "" && len(pass.Files) > 0 {
		e.pkgDir = filepath.Dir(pass.Fset.Position(pass.Files[0].Package).Filename)
	}
	args := compilerArgs(cgoFlags(e.pkgDir, pres))
	e.predefs = configPredefs(predefsOf(args), pres)
	e.quoteDirs, e.incDirs = includeDirs(args, e.pkgDir)
	e.forced = forcedIncludes(args, e.pkgDir)
	e.root = moduleRoot(e.pkgDir)
	hnames, readH := cgofile.Sources(pass, ".h")
	files := e.setHeaders(pass.Fset, hnames, readH, func(path string) ([]byte, error) {
		return cgofile.ReadOutside(pass, path)
	})
	e.witness = func(path string) { _, _ = cgofile.ReadOutside(pass, path) }
	return e, files
}

// moduleRoot returns the directory of the go.mod that governs dir (the
// nearest above it, dir included), or dir if there is none (GOPATH
// mode) or it is the file system's root (a container's /go.mod, under
// which the system's headers are too). The headers the package's C includes from there down are the
// module's own and are read (env.outside); those elsewhere (the system's,
// a library's install directory) are the library's, which the models
// describe.
func moduleRoot(dir string) string {
	if dir == "" || !filepath.IsAbs(dir) {
		return ""
	}
	for d := dir; ; {
		up := filepath.Dir(d)
		if up == d {
			return dir
		}
		if fi, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && !fi.IsDir() {
			return d
		}
		d = up
	}
}

// setHeaders makes names the package's headers, read with read, and
// makes outside how the headers of the module that are not the
// package's are read (nil: they are not).
func (e *env) setHeaders(fset *token.FileSet, names []string, read, outside func(string) ([]byte, error)) map[string]*File {
	files := map[string]*File{}
	contents := map[string][]byte{}
	e.tooLarge = map[string]int{}
	byClean := map[string]string{}
	for _, name := range names {
		c := filepath.Clean(name)
		e.headers[c] = true
		e.order = append(e.order, c)
		byClean[c] = name
	}
	e.load = func(path string) ([]byte, bool) {
		if data, ok := contents[path]; ok {
			return data, data != nil
		}
		contents[path] = nil
		name, ok := byClean[path]
		readFile := read
		if !ok {
			if outside == nil || !e.inModule(path) {
				return nil, false
			}
			name, readFile = path, outside
		}
		data, err := readFile(name)
		if err != nil {
			return nil, false
		}
		if n := bytes.Count(data, []byte("\n")); n > MaxHeaderLines && !largeC {
			e.tooLarge[path] = n // found, and not read: the search stops
			return nil, false
		}
		if !ok {
			e.headers[path] = true
			e.outsideRead = append(e.outsideRead, path)
		}
		if data == nil {
			data = []byte{}
		}
		contents[path] = data
		tf := fset.AddFile(name, -1, len(data))
		tf.SetLinesForContent(data)
		files[path] = &File{Name: name, segs: []seg{{off: 0, pos: tf.Pos(0), n: len(data)}}}
		return data, true
	}
	return files
}

// read scans and parses one file, a unit (a preamble or a .c file), and
// the package headers it includes, each with the macros in effect where
// it is included.
func (r *Result) read(file *File, src []byte) *parser {
	u := &unit{env: r.env, once: map[string]bool{}, stack: []string{file.Name}}
	ms, table := r.env.start()
	ms, table = u.forceIncludes(ms, table)
	res := u.scan(src, file.Name, ms, table)
	r.outsideDefs() // those of the module's headers it reached
	file.addReading(res, src, false)
	p := &parser{file: file, toks: tokenize(res.out), undecided: res.undecided, macros: res.macros, own: newDefs(), hdr: r.hdr}
	r.noteMacros(res.macros)
	p.parse()
	r.Files = append(r.Files, file)
	r.Vars = append(r.Vars, p.vars...)
	for _, v := range p.vars {
		r.vars[v.Name] = append(r.vars[v.Name], v)
	}
	r.Funcs = append(r.Funcs, p.funcs...)
	for _, fn := range p.funcs {
		r.byName[fn.Name] = append(r.byName[fn.Name], fn)
	}
	for _, h := range u.reads {
		r.parseHeader(h)
	}
	return p
}

// parseHeader parses one reading of a package header: the functions it
// defines there are the package's (Defined).
func (r *Result) parseHeader(h headerRead) {
	if r.included == nil {
		r.included = map[string]bool{}
	}
	r.included[h.path] = true
	if h.parsed != nil {
		if *h.parsed {
			return // read in the same context before
		}
		*h.parsed = true
	}
	file := r.hfiles[h.path]
	if file == nil {
		return
	}
	undecided := h.res.undecided
	if h.undecided {
		undecided = [][2]int{{0, len(h.res.out) + 1}}
	}
	if content, ok := r.env.load(h.path); ok {
		file.addReading(h.res, content, h.undecided)
	}
	p := &parser{file: file, toks: tokenize(h.res.out), undecided: undecided, macros: h.res.macros, own: newDefs(), hdr: r.hdr}
	r.noteMacros(h.res.macros)
	p.parse()
	for _, fn := range p.funcs {
		r.headers[fn.Name] = append(r.headers[fn.Name], fn)
	}
}

func (r *Result) noteMacros(ms map[string][]macroDef) {
	if r.macros == nil {
		r.macros = map[string]bool{}
	}
	for m, defs := range ms {
		if slices.ContainsFunc(defs, func(d macroDef) bool { return !d.undef }) {
			r.macros[m] = true
		}
	}
}

// resolve names the variables fn writes: its own statics, then the
// file-scope variables of its file, then those other files define.
func (r *Result) resolve(fn *Func) {
	for _, w := range fn.writes {
		if fn.locals[w.name] {
			continue
		}
		if v := r.lookup(fn, w.name); v != nil {
			fn.Writes = append(fn.Writes, Write{Var: v, Pos: w.pos, Op: w.op})
		}
	}
	fn.writes = nil
}

func (r *Result) lookup(fn *Func, name string) *Var {
	for _, v := range r.vars[name] {
		if v.Func == fn && v.Name == name {
			return v
		}
	}
	// file scope of fn's file: the definition, with the qualifiers of
	// every declaration of the name there
	var def *Var
	merged := Var{}
	declared := false
	for _, v := range r.vars[name] {
		if v.Func != nil || v.File != fn.File || v.Name != name {
			continue
		}
		declared = true
		merged.Const = merged.Const || v.Const
		merged.Atomic = merged.Atomic || v.Atomic
		merged.ThreadLocal = merged.ThreadLocal || v.ThreadLocal
		if !v.Extern && def == nil {
			def = v
		}
	}
	if def == nil && declared {
		// extern here: the definition in another file
		for _, v := range r.vars[name] {
			if v.Func == nil && v.File != fn.File && v.Name == name && !v.Extern && !v.Static {
				def = v
				break
			}
		}
	}
	if def == nil {
		return nil
	}
	if merged.Const || merged.Atomic || merged.ThreadLocal {
		cp := *def
		cp.Const, cp.Atomic, cp.ThreadLocal = cp.Const || merged.Const, cp.Atomic || merged.Atomic, cp.ThreadLocal || merged.ThreadLocal
		if !cp.Shared() {
			return nil
		}
	}
	return def
}

// Lookup returns the function Go calls as C.name from the Go file goFile:
// defined in that file's preamble, or else in another preamble or, not
// static, in a .c file. It returns nil when the package's C does not
// define it.
func (r *Result) Lookup(name, goFile string) *Func {
	var other *Func
	for _, fn := range r.byName[name] {
		if fn.File.Preamble && fn.File.Name == goFile {
			return fn
		}
		if other == nil && (fn.File.Preamble || !fn.Static) {
			other = fn
		}
	}
	return other
}

// callee resolves a call in fn's body: a function of fn's file, or a
// function other files define and do not make static.
func (r *Result) callee(fn *Func, name string) *Func {
	var other *Func
	for _, g := range r.byName[name] {
		if g.File == fn.File {
			return g
		}
		if other == nil && !g.Static && !g.File.Preamble {
			other = g
		}
	}
	return other
}

// A Reach is a write that a call of a C function can perform: the write,
// and the chain of functions from the called one to the one that writes.
type Reach struct {
	Write Write
	Chain []*Func // Chain[0] is the function called; the last one writes
}

// Reach returns the writes a call of fn can perform, through the
// package's C functions it calls. A function that takes a lock is trusted
// to guard what it and its callees write, and is not followed.
func (r *Result) Reach(fn *Func) []Reach {
	if out, ok := r.reach[fn]; ok {
		return out
	}
	out := r.reachOf(fn)
	r.reach[fn] = out
	return out
}

func (r *Result) reachOf(fn *Func) []Reach {
	var out []Reach
	seen := map[*Func]bool{}
	type item struct {
		fn    *Func
		chain []*Func
	}
	queue := []item{{fn, []*Func{fn}}}
	seen[fn] = true
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if it.fn.Locks {
			continue
		}
		for _, w := range it.fn.Writes {
			out = append(out, Reach{Write: w, Chain: it.chain})
		}
		for _, c := range it.fn.Calls {
			g := r.callee(it.fn, c.Name)
			if g == nil || seen[g] {
				continue
			}
			seen[g] = true
			chain := append(append([]*Func(nil), it.chain...), g)
			queue = append(queue, item{g, chain})
		}
	}
	return out
}
