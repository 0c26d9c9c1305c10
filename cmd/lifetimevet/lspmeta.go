package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"

	"github.com/lifetimevet/lifetimevet/internal/driver"
	"github.com/lifetimevet/lifetimevet/passes/cpreamble"
)

// The language server keeps, for each package directory it analysed, the
// metadata of its last load (go list's packages, before the driver fills
// them in) and the state of the files that metadata rests on. A save
// needs the go command again only where the metadata may have changed,
// as gopls decides it:
//
//   - a Go file whose package clause, imports or build constraints (or
//     embed directives, or, for a test file, the test functions and
//     examples the generated test main lists) changed, or that go/build
//     now decides to build, or not, otherwise than before and than the
//     last load did (build.Context.MatchFile on its content: the text of
//     a constraint line does not say whether go/build takes it), a header
//     that does not parse, a file added to or removed from a package
//     directory, any other input (a C file or header, go.mod, go.sum,
//     go.work, vendor's modules.txt, the go env file, the go command
//     itself), a go.mod or go.work that appears or changes in any
//     directory from a package's up to the root (GOWORK honoured), or the
//     go.mod of a module go.work uses, or a watched-file event for a
//     module file: the package is loaded again, as at open;
//   - a file that imports "C" whose header is unchanged: cgo must
//     translate it again, so go list -compiled runs on its package alone
//     (no -deps, no -test: its dependencies' metadata cannot have changed,
//     and a test variant's cgo output is the package's own, test files
//     cannot use cgo), and the new output replaces the old in the package
//     and its test variants;
//   - any other change of a Go file (the bodies of a file without cgo):
//     the metadata is kept and the go command is not run. The driver
//     hashes every file's content into its package's key, so the changed
//     package, and its importers, are analysed again from their new
//     content, with their dependencies' facts from the analysis cache.
//
// Only files of the main module (and of local replacements) are watched:
// the module cache and GOROOT do not change under a running server. The
// metadata is never reused when the load reported errors (a missing
// package may appear), outside module mode, with an -overlay, or when a
// local package embeds files (an embed pattern can match a new file in
// any subdirectory).

// An lspMeta is a directory's last load.
type lspMeta struct {
	roots    []*packages.Package // as go list gave them (the driver gets copies)
	snap     *lspSnapshot        // the files, as they were before go list ran
	overlay  driver.Overlay      // goOverlay's, at that load
	reusable string              // why the metadata may not be reused, or ""
	gen      int                 // langServer.metaGen when the load began
}

// An lspSnapshot is the state of the files a load rests on.
type lspSnapshot struct {
	dirs  map[string]string   // each local package directory: its source files' names
	files map[string]lspState // those files and the module files, by name
}

// lspState is a file's state: its content and, for a Go file, its header.
type lspState struct {
	exists bool
	sum    [sha256.Size]byte
	goFile bool
	parsed bool              // a Go file whose header parses
	head   [sha256.Size]byte // its digest (see goHeader)
	cgo    bool              // it imports "C"
	// go/build's decision for a Go file: whether it matches the build
	// context (its name and its build constraints, as go/build reads
	// them: only outside /* */, a plus-build line only before a blank
	// line)
	built bool
}

// sourceExts are the extensions of the files the go command makes a
// package of (go/build's list): adding or removing one may change the
// package.
var sourceExts = map[string]bool{
	".go": true, ".c": true, ".cc": true, ".cxx": true, ".cpp": true, ".m": true,
	".h": true, ".hh": true, ".hpp": true, ".hxx": true, ".f": true, ".F": true,
	".for": true, ".f90": true, ".s": true, ".S": true, ".sx": true,
	".swig": true, ".swigcxx": true, ".syso": true,
}

// sourceNames returns the names of dir's files the go command considers
// (go/build ignores those starting with "." or "_").
func sourceNames(dir string) (string, bool) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", false
	}
	var names []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || !sourceExts[filepath.Ext(n)] {
			continue
		}
		names = append(names, n)
	}
	return strings.Join(names, "\x00"), true
}

// takeSnapshot records the source files of dirs and the files extra.
func takeSnapshot(dirs, extra []string) *lspSnapshot {
	s := &lspSnapshot{dirs: map[string]string{}, files: map[string]lspState{}}
	s.add(dirs, extra)
	return s
}

func (s *lspSnapshot) add(dirs, extra []string) {
	for _, dir := range dirs {
		if _, ok := s.dirs[dir]; ok {
			continue
		}
		names, ok := sourceNames(dir)
		if !ok {
			names = "\x00unreadable"
		}
		s.dirs[dir] = names
		if ok && names != "" {
			for _, n := range strings.Split(names, "\x00") {
				name := filepath.Join(dir, n)
				s.files[name] = fileState(name)
			}
		}
	}
	for _, name := range extra {
		if _, ok := s.files[name]; !ok {
			s.files[name] = fileState(name)
		}
	}
	s.addModuleFiles(dirs)
}

// addModuleFiles records the files that decide which module and which
// workspace each of dirs is in, present or not (a file that appears is a
// change as much as one that changes): the go.mod of every directory from
// it up to the root (a go.mod created in a package's directory makes it a
// module of its own; one created above may take it into another), the
// go.work the go command would look for there (each directory's unless
// GOWORK names one or is "off") with its go.work.sum, and the go.mod and
// go.sum of every module a recorded go.work uses (its replace directives
// apply to the workspace, whether or not a loaded package is in it).
func (s *lspSnapshot) addModuleFiles(dirs []string) {
	record := func(name string) lspState {
		st, ok := s.files[name]
		if !ok {
			st = fileState(name)
			s.files[name] = st
		}
		return st
	}
	var works []string
	gowork := os.Getenv("GOWORK")
	switch gowork {
	case "", "auto", "off":
	default:
		works = append(works, gowork)
	}
	for _, dir := range dirs {
		for d := dir; ; d = filepath.Dir(d) {
			record(filepath.Join(d, "go.mod"))
			if gowork == "" || gowork == "auto" {
				works = append(works, filepath.Join(d, "go.work"))
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	parsed := map[string]bool{}
	for _, w := range works {
		if parsed[w] {
			continue
		}
		parsed[w] = true
		record(w + ".sum")
		if st := record(w); !st.exists {
			continue
		}
		data, err := os.ReadFile(w)
		if err != nil {
			continue
		}
		wf, err := modfile.ParseWork(w, data, nil)
		if err != nil {
			continue // (the go command fails: its next change is seen)
		}
		for _, u := range wf.Use {
			mdir := u.Path
			if !filepath.IsAbs(mdir) {
				mdir = filepath.Join(filepath.Dir(w), mdir)
			}
			record(filepath.Join(mdir, "go.mod"))
			record(filepath.Join(mdir, "go.sum"))
		}
	}
}

func fileState(name string) lspState {
	if name == goCommand() {
		// a 15 MB executable: its size and modification time (an
		// upgrade in place replaces it)
		fi, err := os.Stat(name)
		if err != nil {
			return lspState{}
		}
		return lspState{exists: true, sum: sha256.Sum256(fmt.Appendf(nil, "%d %d", fi.Size(), fi.ModTime().UnixNano()))}
	}
	src, err := os.ReadFile(name)
	if err != nil {
		return lspState{}
	}
	st := lspState{exists: true, sum: sha256.Sum256(src)}
	if strings.HasSuffix(name, ".go") {
		st.goFile = true
		st.head, st.cgo, st.parsed = goHeader(src, strings.HasSuffix(name, "_test.go"))
		st.built = buildMatch(name, src)
	}
	return st
}

// lspBuildTags are the -tags of the language server's loads.
var lspBuildTags []string

// buildMatch reports whether go/build's context of the loads (the
// default one, with the -tags of the server and of GOFLAGS) builds the
// Go file name whose content is src. It is go/build's own reading of the
// header: the text of a constraint line says nothing of whether go/build
// takes it (a go:build line inside a block comment is not one, nor a
// plus-build line with no blank line after it).
func buildMatch(name string, src []byte) bool {
	ctx := build.Default
	ctx.BuildTags = slices.Clone(lspBuildTags)
	for _, f := range strings.Fields(os.Getenv("GOFLAGS")) {
		if v, ok := strings.CutPrefix(f, "-tags="); ok {
			ctx.BuildTags = append(ctx.BuildTags, strings.Split(v, ",")...)
		} else if v, ok := strings.CutPrefix(f, "--tags="); ok {
			ctx.BuildTags = append(ctx.BuildTags, strings.Split(v, ",")...)
		}
	}
	ctx.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(src)), nil }
	ok, err := ctx.MatchFile(filepath.Dir(name), filepath.Base(name))
	return ok && err == nil
}

// goHeader returns the digest of what the go command reads of a Go file
// for its package's metadata: the package clause, the import specs, the
// build constraint lines (any line before the package clause that holds
// "go:build" or "+build"), every line that holds a //go:embed directive,
// and, in a test file, the test functions, benchmarks, fuzz tests and
// examples the generated test main lists (their names, order and
// signatures; an example's whole text, whose output comment is part of
// the test main). It also reports whether the file imports "C", and false
// if the header does not parse.
func goHeader(src []byte, test bool) (sum [sha256.Size]byte, cgo, ok bool) {
	fset := token.NewFileSet()
	mode := parser.ImportsOnly | parser.ParseComments | parser.SkipObjectResolution
	if test {
		mode = parser.ParseComments | parser.SkipObjectResolution
	}
	f, err := parser.ParseFile(fset, "", src, mode)
	if f == nil || f.Name == nil || (err != nil && !test) {
		return sum, false, false
	}
	h := sha256.New()
	fmt.Fprintf(h, "package %s\n", f.Name.Name)
	for _, imp := range f.Imports {
		name := ""
		if imp.Name != nil {
			name = imp.Name.Name
		}
		fmt.Fprintf(h, "import %s %s\n", name, imp.Path.Value)
		if imp.Path.Value == `"C"` {
			cgo = true
		}
	}
	pkgOff := fset.Position(f.Package).Offset
	if pkgOff < 0 || pkgOff > len(src) {
		return sum, false, false
	}
	for line := range bytes.Lines(src[:pkgOff]) {
		if bytes.Contains(line, []byte("go:build")) || bytes.Contains(line, []byte("+build")) {
			fmt.Fprintf(h, "constraint %s\n", bytes.TrimSpace(line))
		}
	}
	for line := range bytes.Lines(src) {
		if bytes.Contains(line, []byte("go:embed")) {
			fmt.Fprintf(h, "embed %s\n", bytes.TrimSpace(line))
		}
	}
	if test {
		if err != nil {
			// the test functions are unknown: no digest matches
			return sum, cgo, false
		}
		for _, d := range f.Decls {
			fd, isFunc := d.(*ast.FuncDecl)
			if !isFunc || fd.Recv != nil {
				continue
			}
			name := fd.Name.Name
			switch {
			case strings.HasPrefix(name, "Example"):
				fmt.Fprintf(h, "example %s\n", src[fset.Position(fd.Pos()).Offset:fset.Position(fd.End()).Offset])
			case strings.HasPrefix(name, "Test"), strings.HasPrefix(name, "Benchmark"), strings.HasPrefix(name, "Fuzz"):
				fmt.Fprintf(h, "test %s %s\n", name, src[fset.Position(fd.Type.Pos()).Offset:fset.Position(fd.Type.End()).Offset])
			}
		}
	}
	h.Sum(sum[:0])
	return sum, cgo, true
}

// lspChange is what changed in the files since a snapshot.
type lspChange struct {
	reload string   // why the packages must be loaded again, or ""
	cgo    []string // files that import "C" whose content alone changed
	plain  []string // other Go files whose content alone changed
}

// diff compares the files of s with their state now, and returns the
// snapshot of now.
func (s *lspSnapshot) diff() (lspChange, *lspSnapshot) {
	now := takeSnapshot(slices.Sorted(maps.Keys(s.dirs)), nil)
	for name := range s.files {
		if _, ok := now.files[name]; !ok {
			now.files[name] = fileState(name)
		}
	}
	var c lspChange
	for _, dir := range slices.Sorted(maps.Keys(s.dirs)) {
		if now.dirs[dir] != s.dirs[dir] {
			c.reload = "files were added to or removed from " + dir
			return c, now
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.files)) {
		old, cur := s.files[name], now.files[name]
		switch {
		case old == cur:
		case old.exists != cur.exists:
			c.reload = name + " was created or removed"
		case !old.goFile:
			c.reload = name + " changed"
		case !old.parsed || !cur.parsed:
			c.reload = "the header of " + name + " does not parse"
		case old.head != cur.head:
			c.reload = "the package clause, imports or build constraints of " + name + " changed"
		case old.built != cur.built:
			c.reload = "go/build's decision to build " + name + " changed"
		case old.cgo || cur.cgo:
			c.cgo = append(c.cgo, name)
		default:
			c.plain = append(c.plain, name)
		}
		if c.reload != "" {
			return c, now
		}
	}
	return c, now
}

// localDirs returns the directories of the graph's packages that can
// change under the server (the main modules' and local replacements'),
// and the module files they rest on.
func localDirs(roots []*packages.Package) (dirs, extra []string) {
	seenDir, seenFile := map[string]bool{}, map[string]bool{}
	addFile := func(name string) {
		if name != "" && !seenFile[name] {
			seenFile[name] = true
			extra = append(extra, name)
		}
	}
	var mainDirs []string
	packages.Visit(roots, nil, func(p *packages.Package) {
		if m := p.Module; m != nil && m.Main && m.Dir != "" && !slices.Contains(mainDirs, m.Dir) {
			mainDirs = append(mainDirs, m.Dir)
		}
	})
	packages.Visit(roots, nil, func(p *packages.Package) {
		m := p.Module
		if m == nil || p.Dir == "" {
			return
		}
		local := m.Main || m.Replace != nil && m.Replace.Version == ""
		for _, md := range mainDirs {
			local = local || within(p.Dir, md)
		}
		if !local {
			return
		}
		if !seenDir[p.Dir] {
			seenDir[p.Dir] = true
			dirs = append(dirs, p.Dir)
		}
		gomod := m.GoMod
		if m.Replace != nil && m.Replace.GoMod != "" {
			gomod = m.Replace.GoMod
		}
		if gomod != "" {
			addFile(gomod)
			addFile(filepath.Join(filepath.Dir(gomod), "go.sum"))
		}
	})
	for _, md := range mainDirs {
		addFile(filepath.Join(md, "vendor", "modules.txt"))
		if w := goWorkFile(md); w != "" {
			addFile(w)
			addFile(w + ".sum")
		}
	}
	if env := cpreamble.GoEnvFile(); env != "" {
		addFile(env)
	}
	if gocmd := goCommand(); gocmd != "" {
		addFile(gocmd)
	}
	slices.Sort(dirs)
	return dirs, extra
}

// goCommand returns the go command's executable, as the server runs it
// (its PATH does not change).
var goCommand = sync.OnceValue(func() string {
	gocmd, err := exec.LookPath("go")
	if err != nil {
		return ""
	}
	if abs, err := filepath.Abs(gocmd); err == nil {
		gocmd = abs
	}
	return gocmd
})

func within(dir, root string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && filepath.IsLocal(rel)
}

// notReusable says why a load's metadata may not be reused, or "".
func notReusable(roots []*packages.Package, overlay driver.Overlay) string {
	if overlay != nil {
		return "an -overlay is in use"
	}
	why := ""
	packages.Visit(roots, nil, func(p *packages.Package) {
		switch {
		case why != "":
		case len(p.Errors) > 0:
			why = "the load reported errors"
		case p.Module == nil && slices.Contains(roots, p):
			why = "not in module mode"
		case p.Module != nil && (p.Module.Main || p.Module.Replace != nil && p.Module.Replace.Version == "") && len(p.EmbedFiles) > 0:
			why = p.PkgPath + " embeds files"
		}
	})
	return why
}

// cloneGraph copies the packages' metadata: the driver fills in the
// packages it is given (types, syntax, errors), and the originals must stay
// as go list gave them.
func cloneGraph(roots []*packages.Package) []*packages.Package {
	copies := map[*packages.Package]*packages.Package{}
	var clone func(p *packages.Package) *packages.Package
	clone = func(p *packages.Package) *packages.Package {
		if c := copies[p]; c != nil {
			return c
		}
		c := new(packages.Package)
		*c = *p
		copies[p] = c
		c.Errors = slices.Clip(p.Errors)
		c.GoFiles = slices.Clip(p.GoFiles)
		c.CompiledGoFiles = slices.Clip(p.CompiledGoFiles)
		c.OtherFiles = slices.Clip(p.OtherFiles)
		c.EmbedFiles = slices.Clip(p.EmbedFiles)
		c.IgnoredFiles = slices.Clip(p.IgnoredFiles)
		c.Types, c.Fset, c.Syntax, c.TypesInfo, c.TypeErrors, c.IllTyped = nil, nil, nil, nil, nil, false
		c.Imports = make(map[string]*packages.Package, len(p.Imports))
		for path, imp := range p.Imports {
			c.Imports[path] = clone(imp)
		}
		return c
	}
	out := make([]*packages.Package, len(roots))
	for i, p := range roots {
		out[i] = clone(p)
	}
	return out
}

// generated returns the compiled Go files of p that are not its Go files:
// cgo's output, in the build cache.
func generated(p *packages.Package) []string {
	var out []string
	for _, f := range p.CompiledGoFiles {
		if !slices.Contains(p.GoFiles, f) {
			out = append(out, f)
		}
	}
	return out
}

// load returns the packages of the directory cfg.Dir for an analysis, and
// how their metadata was obtained (for the log): from the last load when
// no change since can have altered it, with cgo's output refreshed for
// the packages whose cgo files changed, or from a new load.
func (ls *langServer) load(cfg *packages.Config) (pkgs []*packages.Package, overlay driver.Overlay, how string, err error) {
	dir := cfg.Dir
	ls.mu.Lock()
	m := ls.meta[dir]
	gen, genWhy := ls.metaGen, ls.metaWhy
	ls.mu.Unlock()
	reason := "first analysis"
	var before *lspSnapshot
	if m != nil {
		switch {
		case m.reusable != "":
			reason = m.reusable
			before = takeSnapshot([]string{dir}, nil)
		case m.gen != gen:
			reason = genWhy
			before = takeSnapshot([]string{dir}, nil)
		default:
			change, now := m.snap.diff()
			before = now
			if change.reload == "" {
				change.reload = membershipChanged(m.roots, now, slices.Concat(change.cgo, change.plain))
			}
			switch {
			case change.reload != "":
				reason = change.reload
			case len(change.cgo) == 0:
				// the content of Go files alone: the metadata holds
				ls.mu.Lock()
				m.snap = now
				ls.mu.Unlock()
				how = "kept, no go command"
				if len(change.plain) > 0 {
					how += " (" + shortNames(dir, change.plain) + " changed)"
				}
				return cloneGraph(m.roots), m.overlay, how, nil
			default:
				t0 := time.Now()
				roots, paths, why := ls.refreshCgo(cfg, m.roots, change.cgo)
				if why == "" {
					ls.mu.Lock()
					m.roots, m.snap = roots, now
					ls.mu.Unlock()
					return cloneGraph(m.roots), m.overlay, fmt.Sprintf("cgo output of %s refreshed (%s changed) by go list -compiled -find in %.1fs", strings.Join(paths, ", "), shortNames(dir, change.cgo), time.Since(t0).Seconds()), nil
				}
				reason = why
			}
		}
	} else {
		before = takeSnapshot([]string{dir}, nil)
	}
	t0 := time.Now()
	pkgs, err = packages.Load(cfg, ".")
	if err != nil {
		return nil, nil, "", err
	}
	overlay, err = goOverlay(cfg)
	if err != nil {
		return nil, nil, "", err
	}
	how = fmt.Sprintf("loaded by go list -deps -compiled%s in %.1fs (%s)", map[bool]string{true: " -test"}[cfg.Tests], time.Since(t0).Seconds(), reason)
	dirs, extra := localDirs(pkgs)
	// the files the load may have seen changed after the snapshot
	// before it: the next save compares with that one
	before.add(dirs, extra)
	nm := &lspMeta{roots: pkgs, snap: before, overlay: overlay, reusable: notReusable(pkgs, overlay), gen: gen}
	ls.mu.Lock()
	ls.meta[dir] = nm
	ls.mu.Unlock()
	return cloneGraph(pkgs), overlay, how, nil
}

// membershipChanged says which of the changed Go files names go/build now
// decides to build, or not, otherwise than the last load did (it listed
// the file among a package's Go files, or among its ignored ones), or "".
func membershipChanged(roots []*packages.Package, now *lspSnapshot, names []string) string {
	in, out := map[string]bool{}, map[string]bool{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		for _, f := range p.GoFiles {
			in[f] = true
		}
		for _, f := range p.IgnoredFiles {
			out[f] = true
		}
	})
	for _, name := range names {
		built := now.files[name].built
		if built && out[name] && !in[name] || !built && in[name] {
			return "go/build's decision to build " + name + " is not the last load's"
		}
	}
	return ""
}

func shortNames(dir string, names []string) string {
	var out []string
	for _, n := range names {
		if rel, err := filepath.Rel(dir, n); err == nil && filepath.IsLocal(rel) {
			n = rel
		}
		out = append(out, n)
	}
	return strings.Join(out, ", ")
}

// refreshCgo runs go list -compiled on the packages of the changed files
// that import "C" (only: their dependencies' metadata cannot have
// changed), and returns a copy of the graph with the new cgo output in
// those packages and their test variants, and the packages' paths. It
// returns why it could not (the graph must be loaded again) otherwise: a
// file in no package, or a package whose files or errors go list now
// gives differently.
func (ls *langServer) refreshCgo(cfg *packages.Config, roots []*packages.Package, files []string) (_ []*packages.Package, paths []string, why string) {
	// the packages of the files, without tests (a test file cannot use
	// cgo), and each package that has their cgo output
	plain := map[string]*packages.Package{}
	var all []*packages.Package
	packages.Visit(roots, nil, func(p *packages.Package) {
		all = append(all, p)
		if p.ID != p.PkgPath {
			return
		}
		for _, f := range files {
			if slices.Contains(p.GoFiles, f) && !slices.Contains(p.CompiledGoFiles, f) {
				plain[p.PkgPath] = p
			}
		}
	})
	for _, f := range files {
		found := false
		for _, p := range plain {
			found = found || slices.Contains(p.GoFiles, f)
		}
		if !found {
			return nil, nil, f + " is in no package of the last load"
		}
	}
	paths = slices.Sorted(maps.Keys(plain))
	lcfg := *cfg
	lcfg.Mode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles
	lcfg.Tests = false
	lcfg.Fset = nil
	fresh, err := packages.Load(&lcfg, paths...)
	if err != nil {
		return nil, nil, "go list: " + err.Error()
	}
	newFiles := map[string]*packages.Package{}
	for _, p := range fresh {
		old := plain[p.PkgPath]
		if old == nil || p.ID != p.PkgPath || len(p.Errors) > 0 || p.Name != old.Name ||
			!slices.Equal(p.GoFiles, old.GoFiles) || !slices.Equal(p.OtherFiles, old.OtherFiles) || !slices.Equal(p.IgnoredFiles, old.IgnoredFiles) {
			return nil, nil, "go list gives " + p.PkgPath + " differently"
		}
		newFiles[p.PkgPath] = p
	}
	if len(newFiles) != len(plain) {
		return nil, nil, "go list did not list every package whose cgo files changed"
	}
	// every package with the old output (the package and its test
	// variants) gets the new one in its place
	replace := map[*packages.Package][]string{}
	for _, p := range all {
		old := plain[p.PkgPath]
		if old == nil {
			continue
		}
		oldGen, gen := generated(old), generated(p)
		if !slices.Equal(gen, oldGen) {
			return nil, nil, "the test variant " + p.ID + " has cgo output of its own"
		}
		i := -1
		if len(oldGen) > 0 {
			i = slices.Index(p.CompiledGoFiles, oldGen[0])
		}
		if i < 0 || i+len(oldGen) > len(p.CompiledGoFiles) || !slices.Equal(p.CompiledGoFiles[i:i+len(oldGen)], oldGen) {
			return nil, nil, "the cgo output of " + p.ID + " is not where it was"
		}
		replace[p] = slices.Concat(p.CompiledGoFiles[:i], generated(newFiles[p.PkgPath]), p.CompiledGoFiles[i+len(oldGen):])
	}
	out := cloneGraph(roots)
	// cloneGraph keeps the order of Visit: map the copies to the originals
	orig := map[string]*packages.Package{}
	for _, p := range all {
		orig[p.ID] = p
	}
	packages.Visit(out, nil, func(c *packages.Package) {
		if files, ok := replace[orig[c.ID]]; ok {
			c.CompiledGoFiles = files
		}
	})
	return out, paths, ""
}
