// Package driver runs analyzers over packages one package at a time, in
// dependency order, and keeps of each package, once its analysis is done,
// only what later packages need: its types and the facts its analyzers
// exported.
//
// It is the engine of the standalone lifetimevet command. The x/tools
// checker (golang.org/x/tools/go/analysis/checker) works on packages that
// go/packages has parsed and type-checked all at once, and keeps every
// package's syntax, type information and analysis results (SSA above all)
// until the end, so that its peak memory is the sum over all packages: 3.3
// GB on the cgo corpus of bench/, seven times staticcheck's. This driver
// asks go/packages only for the metadata (files and imports), parses and
// type-checks each package when all its imports are done, runs the
// analyzers on it, and drops its syntax, type information and results,
// keeping its types as its export data has them, with its facts moved
// there as go vet moves them (see lighten): the peak is the declarations
// of all packages plus the packages in flight. Everything else follows the checker: the same actions (every
// selected analyzer and its prerequisites on the named packages; the
// analyzers with facts, and their prerequisites, on all their
// dependencies), the same errors ("failed prerequisites", "analysis
// skipped due to errors in package"), the same Pass fields, and the same
// rules for facts and diagnostic URLs. The go vet path (unitchecker) is not
// concerned: the go command already analyses one package per process.
package driver

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"iter"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
	"honnef.co/go/tools/lintcmd/cache"
)

// LoadMode is the go/packages mode that Analyze needs: the metadata of the
// packages and of all their dependencies, and no syntax or types (Analyze
// parses and type-checks each package itself when its turn comes).
const LoadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedModule | packages.NeedTypesSizes |
	packages.NeedEmbedFiles

// Options configures Analyze. The zero value analyses GOMAXPROCS packages
// at a time.
type Options struct {
	// Sequential runs one action at a time, so that the time of each is
	// its own (for profiles).
	Sequential bool
	// Run, if not nil, is called for each action that runs, with the
	// function that runs its analyzer, which it must call once (a hook to
	// time it).
	Run func(act *Action, run func())
	// PackageDone, if not nil, is called once a package is done:
	// type-checked and analysed (a hook to show progress). Calls may be
	// concurrent.
	PackageDone func(pkg *packages.Package)
	// Result, if not nil, is called with each action's result once its
	// analyzer has run without error, before the result is dropped (a
	// hook to report what a pass says of itself, such as the functions
	// whose analysis stopped at a work bound). Calls may be concurrent.
	Result func(act *Action, result any)
	// Cache, if not nil, keeps each package's export data, facts and
	// diagnostics between runs (see cache.go): a package whose key is in
	// it is not analysed again.
	Cache cache.Cache
	// CacheKey is the caller's part of every package's key: whatever
	// else the analysis depends on (the executable, the model files'
	// content, the build flags and environment, a configuration file).
	CacheKey []byte
	// PackageKey, if not nil, returns the rest of a package's key
	// material: what its analysis depends on beyond its files and its
	// imports' keys, such as the configuration and model files that
	// apply in its directory. False means the package cannot be keyed
	// (it and its importers are analysed and not cached).
	PackageKey func(pkg *packages.Package) ([]byte, bool)
	// Cacheable, if not nil, says whether an action's result lets its
	// package's outcome be cached: a package with an action for which it
	// is false is analysed again next time (a pass that stopped at a work
	// bound must say so on every run, which a cached outcome would not).
	Cacheable func(act *Action, result any) bool
	// Notes, if not nil, returns what the caller needs of an action's
	// result on every run, as text (the functions whose analysis stopped
	// at a work bound, for a notice that must repeat): it is kept in the
	// package's cache entry, and when the package is loaded from the
	// cache rather than analysed, Replay, if not nil, gets it back in
	// place of Result. Calls may be concurrent.
	Notes  func(act *Action, result any) []string
	Replay func(act *Action, notes []string)
	// BeforeAnalysis, if not nil, is called once, before the first
	// package is parsed, type-checked and analysed (on a run whose every
	// package comes from the cache, never): a hook to set the garbage
	// collector for an analysis rather than for reading the cache.
	BeforeAnalysis func()
	// FileHashes, if not nil, memoises the hashes of the files the
	// packages' keys take (see FileHashes); without it every file is
	// read and hashed.
	FileHashes *FileHashes
	// Overlay, if not nil, is the go command's -overlay the packages
	// were loaded with (see OverlayFlag): the package's files are read
	// through it.
	Overlay Overlay
}

// A Graph is the outcome of Analyze: an action per analyzer and package.
type Graph struct {
	// Roots are the actions of the selected analyzers on the packages
	// given to Analyze.
	Roots   []*Action
	actions []*Action // all, in the order they were created

	mu        sync.Mutex // guards digests, rewritten and fromCache
	digests   map[string][sha256.Size]byte
	rewritten map[string][]byte
	fromCache map[string]cachedDigest // see resolve
	overlay   Overlay

	// CacheHits and CacheMisses count the packages loaded from
	// Options.Cache and those analysed (with a cache); Missed names the
	// latter (package IDs, sorted).
	CacheHits, CacheMisses int
	Missed                 []string
	// Outside are the files outside their packages that the analyses
	// read or looked for (cgofile.ReadOutside: the module's headers a
	// package's C includes), or, for a package from the cache, that its
	// manifest lists; sorted. A change to one changes the results.
	Outside []string
}

// ReadFile reads a file as the driver parsed it: for cgo's rewrite of a
// file with a relative //line directive, the content with the directive's
// file name resolved (see resolveLineDirectives); otherwise what is on
// disk (for a file replaced by an overlay, not what was analysed, which
// its digest tells).
func (g *Graph) ReadFile(name string) ([]byte, error) {
	g.mu.Lock()
	g.resolve(name)
	src, ok := g.rewritten[name]
	g.mu.Unlock()
	if ok {
		return src, nil
	}
	return os.ReadFile(name)
}

// Digest returns the SHA-256 of file name's content as the driver read it
// to analyse a root package: each of its compiled Go files, and each of its
// Go files that cgo rewrote (read when Analyze starts, the closest to when
// cgo read them). A suggested fix may be applied only to the
// content it was computed on (internal/fixes checks). The boolean is false
// for a file the driver did not read.
func (g *Graph) Digest(name string) ([sha256.Size]byte, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.resolve(name)
	sum, ok := g.digests[name]
	return sum, ok
}

// A cachedDigest is what the key of a root package loaded from the cache
// says of one of its compiled Go files: the hash of the content its
// cached outcome was computed on.
type cachedDigest struct {
	raw      [sha256.Size]byte
	cgo      bool // cgo's rewrite of a user's file (see resolveLineDirectives)
	conflict bool // keyed with different contents by two packages
}

// resolve makes the digest of a compiled Go file of a root package loaded
// from the cache, when it is first asked for: the hash its key took, for
// a file the parser reads as it is; for cgo's rewrite of a user's file,
// the hash of the rewrite with its //line directives resolved, read now
// and kept for ReadFile, if the file is still what the key hashed (or
// else a digest that matches no content). Reading them all on every run,
// for fixes that are seldom asked for, was a tenth of a warm run.
func (g *Graph) resolve(name string) {
	c, ok := g.fromCache[name]
	if !ok {
		return
	}
	delete(g.fromCache, name)
	var sum [sha256.Size]byte
	switch {
	case c.conflict:
	case !c.cgo:
		sum = c.raw
	default:
		src, err := g.overlay.read(name)
		if err != nil || sha256.Sum256(src) != c.raw {
			break
		}
		sum = c.raw
		if fixed, ok := resolveLineDirectives(src); ok {
			g.rewritten[name] = fixed
			sum = sha256.Sum256(fixed)
		}
	}
	if old, ok := g.digests[name]; ok && old != sum {
		sum = [sha256.Size]byte{} // read by another package with another content
	}
	g.digests[name] = sum
}

// All returns every action of the graph: the roots, their prerequisites
// on the same package, and the fact-producing actions on dependencies.
func (g *Graph) All() iter.Seq[*Action] { return slices.Values(g.actions) }

// An Action is one analyzer's run on one package.
type Action struct {
	Analyzer *analysis.Analyzer
	// Package is the package analysed. After Analyze it keeps its
	// metadata, Fset, TypeErrors, IllTyped and Errors (list, parse and
	// type errors), and Types as its export data has them (declarations
	// only; the full check for an ill-typed package), nil for a package
	// that no package of the run imports and for one loaded from the
	// cache whose importers were all loaded from the cache too (nothing
	// needed its types); Syntax and TypesInfo were dropped.
	Package *packages.Package
	// IsRoot reports whether the analyzer was selected and the package
	// given to Analyze (not only a prerequisite or a dependency).
	IsRoot      bool
	Diagnostics []analysis.Diagnostic // with their URLs resolved
	Err         error                 // the analyzer's error, or why it did not run
	Duration    time.Duration         // wall time of the action alone

	deps   []*Action // prerequisites: same package, or same analyzer on imports
	result any       // live only while its package is being analysed
}

func (act *Action) String() string { return fmt.Sprintf("%s@%s", act.Analyzer, act.Package) }

type actionKey struct {
	a   *analysis.Analyzer
	pkg *packages.Package
}

type objectFactKey struct {
	obj types.Object
	typ reflect.Type
}

type packageFactKey struct {
	pkg *types.Package
	typ reflect.Type
}

// A node is a package to type-check, and maybe analyse.
type node struct {
	pkg       *packages.Package
	actions   []*Action // on this package, prerequisites first
	importers []*node
	waiting   int  // imports not yet done
	root      bool // a package given to Analyze
	// the facts its actions exported, to move to its light types
	objectFacts  []objectFactKey
	packageFacts []packageFactKey
	// its cache key (see cacheKey), if keyed
	key   [sha256.Size]byte
	keyed bool
	// key0 is the key of its files alone, which names its manifest;
	// manifest says one was found; outside is what its analysis read
	// outside the package (see outside.go)
	key0     [sha256.Size]byte
	manifest bool
	outside  map[string]outsideRead
	listed   []string                     // the manifest's files, for a hit
	sums     map[string][sha256.Size]byte // of the files its key hashed
	// unstable: what its analysis read, or an import's, is not what its
	// key hashed (a file changed during the run): not cached
	unstable bool
	export   []byte   // its export data, when storeCached wrote it
	facts    *factSet // its facts, when storeCached encoded them
	// loaded from the cache: its types and facts, read when an importer
	// is analysed (see ready)
	lazy *lazyTypes
	once sync.Once
}

type driver struct {
	fset *token.FileSet
	opts *Options

	mu           sync.RWMutex // guards the facts and digests
	objectFacts  map[objectFactKey]analysis.Fact
	packageFacts map[packageFactKey]analysis.Fact
	digests      map[string][sha256.Size]byte
	rewritten    map[string][]byte // see resolveLineDirectives
	fromCache    map[string]cachedDigest

	analyzerKeys sync.Map // *analysis.Analyzer → []byte (see analyzerKey)

	sumsMu sync.Mutex
	sums   map[string][sha256.Size]byte // of the files keyed, by name (see sum)

	analysing    sync.Once // Options.BeforeAnalysis
	nodes        map[*packages.Package]*node
	hits, misses atomic.Int64
	missed       []string // guarded by mu
}

// Analyze runs the analyzers on the root packages, which go/packages
// loaded with (at least) LoadMode, and the analyzers with facts on all
// their dependencies. It sets each package's Fset to fset. The error is
// about the analyzers (analysis.Validate) or about the packages' metadata
// (an import cycle); an analyzer's error, or its panic, is its action's
// Err.
func Analyze(analyzers []*analysis.Analyzer, fset *token.FileSet, roots []*packages.Package, opts *Options) (*Graph, error) {
	if opts == nil {
		opts = &Options{}
	}
	if err := analysis.Validate(analyzers); err != nil {
		return nil, err
	}
	g := &Graph{}
	nodes := map[*packages.Package]*node{}
	actions := map[actionKey]*Action{}
	var mkAction func(a *analysis.Analyzer, pkg *packages.Package) *Action
	mkAction = func(a *analysis.Analyzer, pkg *packages.Package) *Action {
		k := actionKey{a, pkg}
		if act, ok := actions[k]; ok {
			return act
		}
		act := &Action{Analyzer: a, Package: pkg}
		actions[k] = act
		for _, req := range a.Requires {
			act.deps = append(act.deps, mkAction(req, pkg))
		}
		// An analysis that consumes or produces facts runs on the
		// package's dependencies too.
		if len(a.FactTypes) > 0 {
			for _, path := range sortedKeys(pkg.Imports) {
				act.deps = append(act.deps, mkAction(a, pkg.Imports[path]))
			}
		}
		g.actions = append(g.actions, act)
		return act
	}
	for _, a := range analyzers {
		for _, pkg := range roots {
			root := mkAction(a, pkg)
			root.IsRoot = true
			g.Roots = append(g.Roots, root)
		}
	}

	// Every package reachable from the roots is type-checked (its
	// importers need its types), analysed where it has actions.
	var order []*node
	var visit func(pkg *packages.Package) *node
	visit = func(pkg *packages.Package) *node {
		if n, ok := nodes[pkg]; ok {
			return n
		}
		n := &node{pkg: pkg}
		nodes[pkg] = n
		for _, path := range sortedKeys(pkg.Imports) {
			imp := visit(pkg.Imports[path])
			imp.importers = append(imp.importers, n)
			n.waiting++
		}
		order = append(order, n)
		return n
	}
	for _, pkg := range roots {
		visit(pkg).root = true
	}
	// g.actions is in postorder of prerequisites: on one package, a
	// prerequisite comes before the actions that need it.
	for _, act := range g.actions {
		n := nodes[act.Package]
		n.actions = append(n.actions, act)
	}

	d := &driver{fset: fset, opts: opts, objectFacts: map[objectFactKey]analysis.Fact{}, packageFacts: map[packageFactKey]analysis.Fact{},
		digests: map[string][sha256.Size]byte{}, rewritten: map[string][]byte{}, fromCache: map[string]cachedDigest{}, sums: map[string][sha256.Size]byte{}, nodes: nodes}
	// The user's files that cgo rewrote were read by cgo when the
	// packages were loaded: their digests are taken now, as close to
	// that as the driver gets.
	for _, pkg := range roots {
		for _, name := range pkg.GoFiles {
			if slices.Contains(pkg.CompiledGoFiles, name) {
				continue
			}
			if src, err := opts.Overlay.read(name); err == nil {
				d.digest(name, src)
			}
		}
	}
	workers := runtime.GOMAXPROCS(0)
	if opts.Sequential {
		workers = 1
	}
	if err := d.run(order, workers); err != nil {
		return nil, err
	}
	g.digests = d.digests
	g.rewritten = d.rewritten
	g.fromCache = d.fromCache
	g.overlay = opts.Overlay
	g.CacheHits, g.CacheMisses = int(d.hits.Load()), int(d.misses.Load())
	g.Missed = d.missed
	slices.Sort(g.Missed)
	outside := map[string]bool{}
	for _, n := range order {
		for _, name := range n.outsideNames() {
			outside[name] = true
		}
	}
	g.Outside = slices.Sorted(maps.Keys(outside))
	return g, nil
}

// run processes the nodes, each once all its imports are done, on workers
// goroutines.
func (d *driver) run(order []*node, workers int) error {
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	var ready []*node
	for _, n := range order {
		if n.waiting == 0 {
			ready = append(ready, n)
		}
	}
	left := len(order)
	inFlight := 0
	// stuck: packages are left but none is ready or in flight, so the
	// rest wait on each other (go/packages breaks import cycles, so only
	// hand-made metadata gets here)
	stuck := len(ready) == 0 && left > 0
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				mu.Lock()
				for len(ready) == 0 && left > 0 && !stuck {
					cond.Wait()
				}
				if left == 0 || stuck {
					mu.Unlock()
					return
				}
				inFlight++
				// last in, first out: a package's importers follow it
				// closely, so that finished packages free memory soon
				n := ready[len(ready)-1]
				ready = ready[:len(ready)-1]
				mu.Unlock()

				d.process(n)

				mu.Lock()
				left--
				inFlight--
				for _, imp := range n.importers {
					imp.waiting--
					if imp.waiting == 0 {
						ready = append(ready, imp)
					}
				}
				stuck = len(ready) == 0 && inFlight == 0 && left > 0
				cond.Broadcast()
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if stuck {
		var names []string
		for _, n := range order {
			if n.waiting > 0 {
				names = append(names, n.pkg.ID)
			}
		}
		return fmt.Errorf("import cycle among %s", strings.Join(names, ", "))
	}
	return nil
}

// process parses and type-checks a package, runs its actions and drops
// what its importers do not need.
func (d *driver) process(n *node) {
	pkg := n.pkg
	if d.opts.Cache != nil && d.cacheKey(n) && d.applyManifest(n) {
		if d.loadCached(n) {
			d.hits.Add(1)
			if n.root {
				d.rootFromCache(n)
			}
			if d.opts.PackageDone != nil {
				d.opts.PackageDone(pkg)
			}
			return
		}
		d.miss(n)
	}
	d.analyse(n)
	if d.opts.PackageDone != nil {
		d.opts.PackageDone(pkg)
	}
}

// miss counts a package analysed although there is a cache.
func (d *driver) miss(n *node) {
	if n.pkg.PkgPath == "unsafe" { // (no syntax: nothing to analyse)
		return
	}
	d.misses.Add(1)
	d.mu.Lock()
	d.missed = append(d.missed, n.pkg.ID)
	d.mu.Unlock()
}

// analyse type-checks the package, runs its actions, writes its cache
// entry and drops what its importers do not need.
func (d *driver) analyse(n *node) {
	pkg := n.pkg
	if d.opts.BeforeAnalysis != nil && len(pkg.CompiledGoFiles) > 0 {
		d.analysing.Do(d.opts.BeforeAnalysis)
	}
	d.need(n)
	d.typeCheck(n)
	for _, imp := range pkg.Imports {
		if in := d.nodes[imp]; in != nil && in.unstable {
			n.unstable = true
		}
	}
	for _, act := range n.actions {
		d.exec(n, act)
	}
	if d.opts.Cache != nil && n.keyed {
		d.keyOutside(n)
		d.storeCached(n)
	}
	for _, act := range n.actions {
		act.result = nil
	}
	d.lighten(n)
	pkg.Syntax = nil
	pkg.TypesInfo = nil
}

// typeCheck parses the package's compiled Go files and type-checks them
// against its imports' types, as go/packages does for LoadAllSyntax;
// errors go to pkg.Errors (and pkg.TypeErrors). Function bodies are
// checked even in a package no analyzer runs on, as go/packages and the go
// command do: an error in one makes the package, and its importers,
// ill-typed. For a root package, it records the digests of the files it
// reads.
func (d *driver) typeCheck(n *node) {
	pkg := n.pkg
	pkg.Fset = d.fset
	pkg.Types = types.NewPackage(pkg.PkgPath, pkg.Name)
	addError := func(err error) {
		switch err := err.(type) {
		case scanner.ErrorList:
			for _, e := range err {
				pkg.Errors = append(pkg.Errors, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
			}
		case types.Error:
			pkg.TypeErrors = append(pkg.TypeErrors, err)
			pkg.Errors = append(pkg.Errors, packages.Error{Pos: err.Fset.Position(err.Pos).String(), Msg: err.Msg, Kind: packages.TypeError})
		case *os.PathError:
			pkg.Errors = append(pkg.Errors, packages.Error{Pos: err.Path + ":1", Msg: err.Err.Error(), Kind: packages.ParseError})
		default:
			pkg.Errors = append(pkg.Errors, packages.Error{Msg: err.Error(), Kind: packages.UnknownError})
		}
	}
	for _, name := range pkg.CompiledGoFiles {
		src, err := d.readGoFile(n, name)
		if err != nil {
			addError(err)
			continue
		}
		f, err := parser.ParseFile(d.fset, name, src, parser.AllErrors|parser.ParseComments)
		if err != nil {
			addError(err)
		}
		if f != nil {
			pkg.Syntax = append(pkg.Syntax, f)
		}
	}
	pkg.TypesInfo = &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
	tc := config(pkg)
	tc.Error = addError
	errs := len(pkg.Errors)
	err := types.NewChecker(tc, d.fset, pkg.Types, pkg.TypesInfo).Files(pkg.Syntax)
	if err != nil && len(pkg.Errors) == errs {
		// an error not given to tc.Error (go/types' "package requires
		// newer Go version")
		addError(err)
	}
	pkg.IllTyped = len(pkg.Errors) > 0
	for _, imp := range pkg.Imports {
		pkg.IllTyped = pkg.IllTyped || imp.IllTyped
	}
}

// readGoFile reads a compiled Go file of the package as the parser is to
// see it: cgo's rewrite of a user's file with its //line directives
// resolved (and kept for ReadFile). For a root package, it records the
// file's digest.
func (d *driver) readGoFile(n *node, name string) ([]byte, error) {
	pkg := n.pkg
	src, err := d.opts.Overlay.read(name)
	if err != nil {
		return nil, err
	}
	n.verify(name, src)
	if !slices.Contains(pkg.GoFiles, name) {
		// cgo's rewrite of a user's file, in the build cache
		if fixed, ok := resolveLineDirectives(src); ok {
			src = fixed
			d.mu.Lock()
			d.rewritten[name] = fixed
			d.mu.Unlock()
		}
	}
	if n.root {
		d.digest(name, src)
	}
	return src, nil
}

// rootFromCache records, for a root package loaded from the cache, the
// hashes its key took of its compiled Go files: their digests, made when
// asked for (see Graph.resolve).
func (d *driver) rootFromCache(n *node) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, name := range n.pkg.CompiledGoFiles {
		c := cachedDigest{raw: n.sums[name], cgo: !slices.Contains(n.pkg.GoFiles, name)}
		if old, ok := d.fromCache[name]; ok && (old.raw != c.raw || old.conflict) {
			c.conflict = true
		}
		d.fromCache[name] = c
	}
}

// digest records the digest of file name's content. A file read twice
// (by a package and its test variant) with different contents gets a
// digest that matches no content: no fix is applied to it.
func (d *driver) digest(name string, src []byte) {
	sum := sha256.Sum256(src)
	d.mu.Lock()
	if old, ok := d.digests[name]; ok && old != sum {
		sum = [sha256.Size]byte{}
	}
	d.digests[name] = sum
	d.mu.Unlock()
}

// resolveLineDirectives returns cgo's rewrite of a user's file with the
// relative file names of //line directives resolved against the directory
// of the user's file, as the compiler resolves them in the user's file,
// and reports whether there was one. cgo copies the user's directives into
// its output, which lies in the build cache: go/scanner would resolve them
// against the cache directory, and findings would be reported there.
//
// A directive is "//line name:line" or "//line name:line:col" at the start
// of a line (blanks may end the line), or "/*line name:line*/" or
// "/*line name:line:col*/" anywhere; the name is the shortest that leaves
// such a tail, and holds neither a newline nor a '*'. The first directive
// with an absolute name (cgo's own, naming the user's file) gives the
// directory. (A hand-written scanner: the regular expression it replaces,
// kept in the tests as its specification, cost a quarter of a warm run.)
func resolveLineDirectives(src []byte) ([]byte, bool) {
	if !bytes.HasPrefix(src, []byte("// Code generated by cmd/cgo")) || !bytes.Contains(src, []byte("line ")) {
		return nil, false
	}
	dir := ""
	joined := map[string]string{}
	var out []byte
	last := 0 // end of the last directive; src[done:] is not yet in out
	done := 0
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte("line "))
		if j < 0 {
			break
		}
		at := i + j // "line " at src[at:]
		i = at + 1
		start := at - 2
		if start < last {
			continue
		}
		slashes := start >= 0 && src[start] == '/' && src[start+1] == '/' && (start == 0 || src[start-1] == '\n')
		block := start >= 0 && src[start] == '/' && src[start+1] == '*'
		if !slashes && !block {
			continue
		}
		nameStart := at + len("line ")
		nameEnd, end, ok := lineDirectiveTail(src, nameStart)
		if !ok {
			continue
		}
		last = end
		i = end
		name := src[nameStart:nameEnd]
		switch {
		case len(name) == 0:
			continue
		case filepath.IsAbs(string(name)):
			if dir == "" {
				dir = filepath.Dir(string(name))
			}
			continue
		case dir == "":
			continue
		}
		// (the same few names repeat, one per directive)
		full, ok := joined[string(name)]
		if !ok {
			full = filepath.Join(dir, string(name))
			joined[string(name)] = full
		}
		out = append(out, src[done:nameStart]...)
		out = append(out, full...)
		done = nameEnd
	}
	if out == nil {
		return src, false
	}
	return append(out, src[done:]...), true
}

// lineDirectiveTail matches the rest of a line directive whose name starts
// at src[i]: the shortest name (no newline, no '*') followed by ":line",
// maybe ":col", and then "*/", or blanks and the end of the line. It
// returns the end of the name and of the directive (before the newline).
func lineDirectiveTail(src []byte, i int) (nameEnd, end int, ok bool) {
	digits := func(k int) int { // the end of a run of digits at k
		for k < len(src) && '0' <= src[k] && src[k] <= '9' {
			k++
		}
		return k
	}
	for e := i; e < len(src) && src[e] != '\n' && src[e] != '*'; e++ {
		if src[e] != ':' {
			continue
		}
		k := digits(e + 1)
		if k == e+1 {
			continue
		}
		if k < len(src) && src[k] == ':' {
			if k2 := digits(k + 1); k2 > k+1 {
				k = k2
			}
		}
		if k+1 < len(src) && src[k] == '*' && src[k+1] == '/' {
			return e, k + 2, true
		}
		for k < len(src) && (src[k] == ' ' || src[k] == '\t' || src[k] == '\r') {
			k++
		}
		if k == len(src) || src[k] == '\n' {
			return e, k, true
		}
	}
	return 0, 0, false
}

// config returns the type checker's configuration for pkg: its imports
// are its imports' types (as the driver left them), and its Go version its
// module's.
func config(pkg *packages.Package) *types.Config {
	tc := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			imp := pkg.Imports[path]
			if imp == nil {
				return nil, fmt.Errorf("no metadata for %s", path)
			}
			if imp.Types == nil {
				return nil, fmt.Errorf("%s was not type-checked", path)
			}
			return imp.Types, nil
		}),
		Sizes: pkg.TypesSizes,
	}
	if pkg.Module != nil && pkg.Module.GoVersion != "" {
		tc.GoVersion = "go" + pkg.Module.GoVersion
	}
	return tc
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// exec runs one action, after its prerequisites (on this package, earlier
// in the node's list; on imports, in their own nodes, done before).
func (d *driver) exec(n *node, act *Action) {
	t0 := time.Now()
	defer func() { act.Duration = time.Since(t0) }()
	var failed []string
	inputs := map[*analysis.Analyzer]any{}
	for _, dep := range act.deps {
		if dep.Err != nil {
			failed = append(failed, dep.String())
		} else if dep.Package == act.Package {
			inputs[dep.Analyzer] = dep.result
		}
	}
	if failed != nil {
		sort.Strings(failed)
		act.Err = fmt.Errorf("failed prerequisites: %s", strings.Join(failed, ", "))
		return
	}
	pkg := act.Package
	if pkg.IllTyped && !act.Analyzer.RunDespiteErrors {
		act.Err = errors.New("analysis skipped due to errors in package")
		return
	}
	module := &analysis.Module{}
	if m := pkg.Module; m != nil {
		module = &analysis.Module{Path: m.Path, Version: m.Version, GoVersion: m.GoVersion}
	}
	done := false
	pass := &analysis.Pass{
		Analyzer:     act.Analyzer,
		Fset:         d.fset,
		Files:        pkg.Syntax,
		OtherFiles:   pkg.OtherFiles,
		IgnoredFiles: pkg.IgnoredFiles,
		Pkg:          pkg.Types,
		TypesInfo:    pkg.TypesInfo,
		TypesSizes:   pkg.TypesSizes,
		TypeErrors:   pkg.TypeErrors,
		Module:       module,
		ResultOf:     inputs,
		Report: func(diag analysis.Diagnostic) {
			act.Diagnostics = append(act.Diagnostics, diag)
		},
		ImportObjectFact: d.importObjectFact,
		ExportObjectFact: func(obj types.Object, fact analysis.Fact) {
			if done {
				panic(fmt.Sprintf("%s: Pass.ExportObjectFact(%s, %T) called after Run", act, obj, fact))
			}
			if obj.Pkg() != pkg.Types {
				panic(fmt.Sprintf("%s: can't set a fact on %s, an object of another package", act, obj))
			}
			k := objectFactKey{obj, reflect.TypeOf(fact)}
			d.mu.Lock()
			if _, ok := d.objectFacts[k]; !ok {
				n.objectFacts = append(n.objectFacts, k)
			}
			d.objectFacts[k] = fact
			d.mu.Unlock()
		},
		ImportPackageFact: d.importPackageFact,
		ExportPackageFact: func(fact analysis.Fact) {
			if done {
				panic(fmt.Sprintf("%s: Pass.ExportPackageFact(%T) called after Run", act, fact))
			}
			k := packageFactKey{pkg.Types, reflect.TypeOf(fact)}
			d.mu.Lock()
			if _, ok := d.packageFacts[k]; !ok {
				n.packageFacts = append(n.packageFacts, k)
			}
			d.packageFacts[k] = fact
			d.mu.Unlock()
		},
		AllObjectFacts:  func() []analysis.ObjectFact { return d.allObjectFacts(act.Analyzer) },
		AllPackageFacts: func() []analysis.PackageFact { return d.allPackageFacts(act.Analyzer) },
	}
	pass.ReadFile = d.readFileOf(pass, pkg)
	defer d.watchOutside(n, pass)()
	if d.opts.Run != nil {
		d.opts.Run(act, func() { act.result, act.Err = run(pass) })
	} else {
		act.result, act.Err = run(pass)
	}
	done = true
	if act.Err != nil {
		return
	}
	if d.opts.Result != nil {
		d.opts.Result(act, act.result)
	}
	for i := range act.Diagnostics {
		u, err := resolveURL(act.Analyzer, act.Diagnostics[i])
		if err != nil {
			act.Err = err
			return
		}
		act.Diagnostics[i].URL = u
	}
}

// run calls the analyzer and turns a panic into an error, so that one
// analyzer's crash on one package costs only that action.
func run(pass *analysis.Pass) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: analyzer %s panicked on package %s: %v\n%s", pass.Analyzer.Name, pass.Pkg.Path(), r, debug.Stack())
		}
	}()
	res, err = pass.Analyzer.Run(pass)
	if err == nil {
		if got, want := reflect.TypeOf(res), pass.Analyzer.ResultType; got != want {
			return nil, fmt.Errorf("internal error: on package %s, analyzer %s returned a result of type %v, but declared ResultType %v", pass.Pkg.Path(), pass.Analyzer, got, want)
		}
	}
	return res, err
}

func (d *driver) importObjectFact(obj types.Object, ptr analysis.Fact) bool {
	if obj == nil {
		panic("ImportObjectFact: nil object")
	}
	d.mu.RLock()
	v, ok := d.objectFacts[objectFactKey{obj, reflect.TypeOf(ptr)}]
	d.mu.RUnlock()
	if ok {
		reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(v).Elem())
	}
	return ok
}

func (d *driver) importPackageFact(pkg *types.Package, ptr analysis.Fact) bool {
	if pkg == nil {
		panic("ImportPackageFact: nil package")
	}
	d.mu.RLock()
	v, ok := d.packageFacts[packageFactKey{pkg, reflect.TypeOf(ptr)}]
	d.mu.RUnlock()
	if ok {
		reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(v).Elem())
	}
	return ok
}

// factTypes returns the set of the analyzer's fact types.
func factTypes(a *analysis.Analyzer) map[reflect.Type]bool {
	m := map[reflect.Type]bool{}
	for _, f := range a.FactTypes {
		m[reflect.TypeOf(f)] = true
	}
	return m
}

func (d *driver) allObjectFacts(a *analysis.Analyzer) []analysis.ObjectFact {
	types := factTypes(a)
	d.mu.RLock()
	defer d.mu.RUnlock()
	var out []analysis.ObjectFact
	for k, f := range d.objectFacts {
		if types[k.typ] {
			out = append(out, analysis.ObjectFact{Object: k.obj, Fact: f})
		}
	}
	return out
}

func (d *driver) allPackageFacts(a *analysis.Analyzer) []analysis.PackageFact {
	types := factTypes(a)
	d.mu.RLock()
	defer d.mu.RUnlock()
	var out []analysis.PackageFact
	for k, f := range d.packageFacts {
		if types[k.typ] {
			out = append(out, analysis.PackageFact{Package: k.pkg, Fact: f})
		}
	}
	return out
}

// readFileOf is Pass.ReadFile: the package's files only, as the checker
// allows (OtherFiles, IgnoredFiles, the parsed files), and its embedded
// files.
func (d *driver) readFileOf(pass *analysis.Pass, pkg *packages.Package) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		ok := slices.Contains(pass.OtherFiles, name) || slices.Contains(pass.IgnoredFiles, name) ||
			slices.Contains(pkg.CompiledGoFiles, name) || slices.Contains(pkg.EmbedFiles, name)
		if !ok {
			return nil, fmt.Errorf("Pass.ReadFile: %s is not among OtherFiles, IgnoredFiles, or names of Files", name)
		}
		d.mu.RLock()
		src, ok := d.rewritten[name]
		d.mu.RUnlock()
		if ok {
			return src, nil
		}
		return d.opts.Overlay.read(name)
	}
}

// resolveURL is the diagnostic's URL as the x/tools drivers give it: its
// own, or "#category", resolved against the analyzer's URL.
func resolveURL(a *analysis.Analyzer, diag analysis.Diagnostic) (string, error) {
	if diag.URL == "" && diag.Category == "" && a.URL == "" {
		return "", nil
	}
	raw := diag.URL
	if raw == "" && diag.Category != "" {
		raw = "#" + diag.Category
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("invalid Diagnostic.URL %q: %s", raw, err)
	}
	base, err := url.Parse(a.URL)
	if err != nil {
		return "", fmt.Errorf("invalid Analyzer.URL %q: %s", a.URL, err)
	}
	return base.ResolveReference(u).String(), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ResolveLineDirectives is resolveLineDirectives, for a driver that parses
// cgo's output itself (go vet's unitchecker): src with each relative
// //line name resolved against the directory of the user's file, and
// whether there was one to resolve.
func ResolveLineDirectives(src []byte) ([]byte, bool) { return resolveLineDirectives(src) }
