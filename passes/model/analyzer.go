// Package model is the pass that says which C functions acquire and release
// handles, and reads the package's //lifetime: directives.
//
// The knowledge comes from three sources, merged in this order, later ones
// overriding earlier ones function by function:
//
//  1. built-in library models (data files embedded from data/, one per
//     library, each naming the API documentation it was written from);
//  2. model files named with -model (the same format);
//  3. //lifetime: directives in the package's cgo preamble.
//
// A C function that no source mentions and that the package's own C
// defines releases the parameters its body passes to a known release on
// every path (see defined.go; for this the pass reads the package's C
// through the cpreamble pass). The others, and those too for the
// parameters their bodies do not release, fall under the destructor-name
// rule (see Model.Releases).
//
// The pass also collects the directives on Go types, functions and
// statements. It reports nothing: malformed and misplaced directives are
// listed in Result.Problems for an analyzer to report.
//
// # Model files
//
// A model file is UTF-8 text, one entry per line; '#' starts a comment.
//
//	library NAME              start a section; every entry belongs to one
//	doc URL                   the documentation the following entries come from
//	prefix NAME_              the start of the library's function names
//	checks-null               the library rejects NULL handles with an error
//	                          in release builds too (libgit2's GIT_ASSERT_ARG)
//	null-safe FUNC...         these functions are documented to reject NULL
//	kind NAME [parent=KIND [freed-with-parent]]
//	                          a handle kind, the kind it belongs to, and
//	                          whether the parent's release frees it as well
//	acquire FUNC [result|out=N] [parent=N [freed-with-parent]] [borrowed-from=N] [key=N] [kind=K] [counted] [global]
//	borrow  FUNC [result|out=N] [borrowed-from=N] [kind=K]
//	borrow  FUNC arg=N
//	release FUNC [arg=N] [key=N] [kind=K] [counted] [indirect [clears]] [global]
//	transfer FUNC [arg=N] [kind=K] [indirect]
//
// Argument indices count from 0. acquire without result or out= returns the
// handle; release without arg= releases argument 0. key=N marks a counted
// reference identified by argument N (cuDevicePrimaryCtxRetain keys its
// reference by the device ordinal). indirect: the released argument points
// to the handle (nvrtcDestroyProgram(&prog)), and clears says the function
// sets it to NULL. global: the library's own state, counted, with no
// argument (nvmlInit, nvmlShutdown). transfer means C takes ownership.
// Lent is not owned: borrowed-from=N says the handle belongs to argument N
// and lives as long as it (cuModuleGetFunction's function, of its module),
// so it needs no release and must not be used after N's release;
// freed-with-parent says the parent's release frees the handle too (a
// Vulkan command buffer with its pool), so it needs no release of its own.
// borrow FUNC arg=N says FUNC uses argument N without keeping it
// (cuStreamSynchronize, sqlite3_step): passing a handle to it does not hand
// the handle on, so a leak after it is still found. A C function of the
// package's own C that no model mentions may keep what it is given.
// See data/*.model for complete examples.
//
// Contradictions are errors naming both places: an entry repeated, or two
// roles for one argument or result of one function (borrow and transfer of
// argument 0). A model file's entry for a function that the built-in model
// (or an earlier model file) describes must say so, "override ENTRY"
// (//lifetime:override ENTRY in a preamble): its entries for the function
// then replace the earlier ones. Without it the redefinition is an error,
// so that a file cannot switch libc's checks off by accident. An entry
// that names an argument the package's C function does not have (arg=5 of
// a one-parameter function) describes another function: it is a problem,
// reported at the package's first call of the function, and not applied
// there.
//
// # Directives
//
// In a cgo preamble (inside the comment before import "C", as a line of its
// own): //lifetime:acquire, //lifetime:borrow, //lifetime:release and
// //lifetime:transfer followed by a model entry without its verb, as in
// //lifetime:release mem_free arg=1.
//
// On a type: //lifetime:handle, //lifetime:threadsafe, //lifetime:confined.
// On a Go function or method: //lifetime:acquire, //lifetime:release
// [PARAM] (the receiver when no parameter is named), //lifetime:borrow PARAM.
// Before or at the end of a line: //lifetime:ignore ANALYZER[,ANALYZER] reason.
package model

import (
	"crypto/sha256"
	"embed"
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"

	"go/types"
	"golang.org/x/tools/go/analysis"

	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/cpreamble"
)

//go:embed data/*.model
var builtinFS embed.FS

// Result is what the pass knows about the package.
type Result struct {
	// Model is the merged model: built-in, model files, preamble directives.
	Model *Model
	// Types holds the directives of the package's type declarations.
	Types map[*types.TypeName]TypeDirectives
	// Funcs holds the directives of the package's function declarations.
	Funcs    map[*types.Func]*FuncDirectives
	Ignores  []*Ignore
	Problems []Problem
}

// Ignored reports whether a finding of analyzer on file:line is suppressed
// by a //lifetime:ignore directive.
func (r *Result) Ignored(analyzer, file string, line int) bool {
	return r.IgnoreFor(analyzer, file, line) != nil
}

// IgnoreFor returns the //lifetime:ignore directive that suppresses a
// finding of analyzer on file:line, or nil.
func (r *Result) IgnoreFor(analyzer, file string, line int) *Ignore {
	for _, ig := range r.Ignores {
		if ig.Line == line && ig.File == file && slices.Contains(ig.Analyzers, analyzer) {
			return ig
		}
	}
	return nil
}

// Files is the list of model files given with -model.
type Files []string

func (f *Files) String() string { return strings.Join(*f, ",") }

// Set adds a model file; the flag may be repeated.
func (f *Files) Set(s string) error {
	*f = append(*f, s)
	return nil
}

var modelFiles Files

// PackageFiles, when not nil, returns more model files for the package of
// pass, after those of -model: a driver sets it to give each directory the
// model files its configuration file names (cmd/lifetimevet's
// lifetimevet.toml).
var PackageFiles func(pass *analysis.Pass) []string

// Analyzer is the model pass. Its flag -model FILE (repeatable) adds a model file.
var Analyzer = &analysis.Analyzer{
	Name:       "lifetimemodel",
	Doc:        "merge the handle models of C libraries and read //lifetime: directives (a pass: reports nothing)",
	URL:        "https://github.com/lifetimevet/lifetimevet/tree/main/passes/model",
	Run:        run,
	Requires:   []*analysis.Analyzer{cpreamble.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
}

func init() {
	Analyzer.Flags.Var(&modelFiles, "model", "add a model `file` of C functions that acquire and release handles (repeatable; under go vet a relative path is read from the main module's root)")
}

var (
	builtinOnce  sync.Once
	builtinModel *Model
	builtinErr   error
)

// Builtin returns the built-in library models, merged. Its error names the
// file and line of a malformed data file.
func Builtin() (*Model, error) {
	builtinOnce.Do(func() {
		builtinModel, builtinErr = loadBuiltin()
	})
	return builtinModel, builtinErr
}

func loadBuiltin() (*Model, error) {
	m := New()
	names, err := builtinFS.ReadDir("data")
	if err != nil {
		return nil, err
	}
	for _, de := range names {
		data, err := builtinFS.ReadFile(path.Join("data", de.Name()))
		if err != nil {
			return nil, err
		}
		fm, err := ParseFile("builtin:"+de.Name(), data)
		if err != nil {
			return nil, err
		}
		m.MergeAll(fm)
	}
	return m, nil
}

// parsed holds the model files parsed in this process, by name and
// content: each package's run reads the file (so that an edit is seen, as
// the LSP needs) but parses it once. Parsed models are only read after.
var parsed sync.Map // parsedKey -> parsedFile

type parsedKey struct {
	name string
	sum  [sha256.Size]byte
}

type parsedFile struct {
	m   *Model
	err error
}

// parseCached is ParseFile, once per file name and content per process.
func parseCached(name string, data []byte) (*Model, error) {
	key := parsedKey{name, sha256.Sum256(data)}
	if p, ok := parsed.Load(key); ok {
		return p.(parsedFile).m, p.(parsedFile).err
	}
	m, err := ParseFile(name, data)
	parsed.Store(key, parsedFile{m, err})
	return m, err
}

// checkOverrides checks that a model file replaces what the model m
// already says of a C function only where it says so ("override ENTRY"):
// a silent redefinition (library libc, then borrow free result) would
// switch the built-in model's checks off. An override of a function m
// does not describe is an error too (a misspelt name).
func checkOverrides(m, fm *Model) error {
	for _, name := range fm.Funcs() {
		es := fm.Entries(name)
		override := slices.ContainsFunc(es, func(e *Entry) bool { return e.Override })
		olds := m.Entries(name)
		switch {
		case len(olds) > 0 && !override:
			return fmt.Errorf("%s: %s redefines C.%s, which %s already describes (%s); write \"override %s\" to replace that",
				es[0].Source, es[0], name, olds[0].Source, olds[0], es[0])
		case len(olds) == 0 && override:
			e := es[slices.IndexFunc(es, func(e *Entry) bool { return e.Override })]
			return fmt.Errorf("%s: override %s: no earlier model describes C.%s; drop \"override\" (or check the name)", e.Source, e, name)
		}
	}
	return nil
}

// MergeAll adds the entries of o to m, keeping m's entries for functions
// both model (a function documented by two libraries, such as free).
func (m *Model) MergeAll(o *Model) {
	m.Libraries = append(m.Libraries, o.Libraries...)
	for name, es := range o.funcs {
		m.funcs[name] = append(m.funcs[name], es...)
	}
}

// ReadRegularFile reads the file name like os.ReadFile, and refuses one
// that is not a regular file: a model or configuration file given as a
// device (/dev/zero) or a named pipe would otherwise never end or grow
// without bound. Its error names the file.
func ReadRegularFile(name string) ([]byte, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return os.ReadFile(name) // its error, as every reader of these files gives it
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", name)
	}
	return os.ReadFile(name)
}

// ReadFile, when not nil, is how the model pass reads a model file (else
// ReadRegularFile): a driver that keys a cache on the model files' content sets
// it to serve the very bytes it hashed, read once, so that what is parsed
// is what is keyed even when a file changes during the run.
var ReadFile func(name string) ([]byte, error)

// Load returns the built-in model merged with the given model files, read
// with ReadFile.
func Load(files []string) (*Model, error) {
	read := ReadFile
	if read == nil {
		read = ReadRegularFile
	}
	return LoadFrom(files, read)
}

// LoadFrom is Load with the files' content read by read.
func LoadFrom(files []string, read func(string) ([]byte, error)) (*Model, error) {
	b, err := Builtin()
	if err != nil {
		return nil, err
	}
	m := New()
	m.MergeAll(b)
	var seen []os.FileInfo
	for _, name := range files {
		// the same file named twice (-model=a.model -model=./a.model, or
		// through a link) is one model: loaded once
		if fi, err := os.Stat(name); err == nil {
			if slices.ContainsFunc(seen, func(o os.FileInfo) bool { return os.SameFile(o, fi) }) {
				continue
			}
			seen = append(seen, fi)
		}
		data, err := read(name)
		if err != nil {
			return nil, fmt.Errorf("model file: %v", err)
		}
		fm, err := parseCached(name, data)
		if err != nil {
			return nil, err
		}
		if err := checkOverrides(m, fm); err != nil {
			return nil, err
		}
		m.Merge(fm)
	}
	m.index()
	return m, nil
}

func run(pass *analysis.Pass) (any, error) {
	files := modelFiles
	if PackageFiles != nil {
		for _, f := range PackageFiles(pass) {
			if !slices.Contains(files, f) {
				files = append(slices.Clip(files), f)
			}
		}
	}
	m, err := Load(files)
	if err != nil {
		return nil, err
	}
	res := &Result{
		Model: m,
		Types: map[*types.TypeName]TypeDirectives{},
		Funcs: map[*types.Func]*FuncDirectives{},
	}
	cres, _ := pass.ResultOf[cpreamble.Analyzer].(*cpreamble.Result)
	var predefs *cpreamble.Predefines
	if cres != nil {
		predefs = cres.Predefines() // (read once, by the C reading)
	} else {
		predefs = cpreamble.PackagePredefines(pass)
	}
	c := &collector{fset: pass.Fset, info: pass.TypesInfo, res: res, preamble: New(), base: m, predefs: predefs, cres: cres}
	cfuncs := calledCFuncs(pass.Pkg)
	c.dropMisfits(pass, m, cfuncs)
	c.collect(pass.Files, cfuncs)
	if cfuncs != nil {
		c.cFiles(pass, cfuncs) // a cgo package's own .h and .c files
	}
	m.Merge(c.preamble)
	inferDefined(m, pass.Fset, cres)
	if cfuncs != nil {
		inferResets(m, pass.Pkg)
		inferRetains(m, pass.Pkg)
		inferConstructors(m, pass.Pkg)
	}
	m.index()
	return res, nil
}

// dropMisfits removes from m, for this package, the entries of C functions
// it calls that name an argument the function does not have (release zap
// arg=5 for a zap of one parameter): the entry describes another function
// than the package's, and applying it would hide what the package's C
// does. One from a model file is a problem, at the package's first call of
// the function; a built-in one is left out quietly (the package's own C
// function of the library function's name).
func (c *collector) dropMisfits(pass *analysis.Pass, m *Model, cfuncs map[string]int) {
	for name, n := range cfuncs {
		es := m.funcs[name]
		if n < 0 || len(es) == 0 {
			continue
		}
		kept := es[:0:0]
		for _, e := range es {
			bad, idx := outOfRange(e, n)
			if bad == "" {
				kept = append(kept, e)
				continue
			}
			if !strings.HasPrefix(e.Source, "builtin:") {
				if at := firstCCall(pass, name); at.IsValid() {
					c.problem(at, "the model entry %q at %s does not fit C.%s: %s=%d, but C.%s takes %d argument%s (indices count from 0); the entry is not applied",
						e.String(), e.Source, name, bad, idx, name, n, plural(n))
				}
			}
		}
		m.funcs[name] = kept
	}
}

// firstCCall returns the position of the package's first use of C.name in
// its Go files (not cgo's generated declarations), or NoPos.
func firstCCall(pass *analysis.Pass, name string) token.Pos {
	for _, f := range pass.Files {
		if filepath.Base(pass.Fset.Position(f.Pos()).Filename) == "_cgo_gotypes.go" {
			continue
		}
		var at token.Pos
		ast.Inspect(f, func(n ast.Node) bool {
			if at.IsValid() {
				return false
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			// C.name(…), or (_Cfunc_name)(…) in cgo's rewrite of it
			switch fun := ast.Unparen(call.Fun).(type) {
			case *ast.SelectorExpr:
				if x, ok := fun.X.(*ast.Ident); ok && x.Name == "C" && fun.Sel.Name == name {
					at = call.Pos()
				}
			case *ast.Ident:
				if cgocall.CName(fun.Name) == name {
					at = call.Pos()
				}
			}
			return true
		})
		if at.IsValid() {
			return at
		}
	}
	return token.NoPos
}

// calledCFuncs returns the C functions the package calls, from the _Cfunc_
// declarations cgo writes for each; nil when the files are not cgo's output.
func calledCFuncs(pkg *types.Package) map[string]int {
	var out map[string]int
	add := func(name string, obj types.Object) {
		if out == nil {
			out = map[string]int{}
		}
		n := -1 // unknown
		if sig, ok := obj.Type().Underlying().(*types.Signature); ok && !sig.Variadic() {
			n = sig.Params().Len()
		}
		if old, ok := out[name]; !ok || old < n {
			out[name] = n
		}
	}
	for _, name := range pkg.Scope().Names() {
		if c := cgocall.CName(name); c != "" {
			add(c, pkg.Scope().Lookup(name))
		}
	}
	return out
}

// FlagSet returns the pass's flags (for drivers that expose them under their
// own names, as cmd/lifetimevet does with -model).
func FlagSet() *flag.FlagSet { return &Analyzer.Flags }
