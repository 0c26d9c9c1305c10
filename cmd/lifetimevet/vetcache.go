package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"go/build"
	"hash"
	"io/fs"
	"log"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/lifetimevet/lifetimevet/internal/cgofile"
	"github.com/lifetimevet/lifetimevet/passes/cpreamble"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
)

// go vet caches each package's result under a key made of the tool's
// identity (what `TOOL -V=full` prints, run once per go command, in the
// directory go vet runs in and with its environment), the vet flags as
// written, the package's build action (its files) and its dependencies'
// vet outputs. Nothing in it is per package and the tool's: a package's
// own configuration cannot reach its own key (the standalone command and
// the language server key each package on exactly the files that
// configure it, inputs.go). So the identity lifetimevet prints for
// -V=full includes a hash of every configuration and model file that can
// apply to a package go vet may analyse (inputsDigest); when one changes,
// so does the key of every package.

// inputsHex returns the hex digest of inputsDigest, which printVetToolID
// (version.go) puts in the tool's ID. Whatever the version line's format,
// the digest must stay in the ID: for a release version go vet keys on the
// whole line, for a devel one on the ID.
func inputsHex() (string, error) {
	h := sha256.New()
	if err := inputsDigest(h); err != nil {
		return "", err
	}
	return fmt.Sprintf("%x", h.Sum(nil)), nil
}

// inputsDigest writes to h the name and content of each file that can
// change lifetimevet's results without changing the packages' sources:
//
//   - every lifetimevet.toml of the main modules (the module go vet runs
//     in, or each module of its go.work) and of the local directories
//     their go.mod and go.work files replace modules with, from each
//     module's root down (directories whose names start with "." or "_",
//     testdata, and nested modules left out, as ./... leaves them; the
//     directory go vet runs in is walked even inside one of those), and
//     those on the way up from that directory to its module's root; with
//     the model files they name;
//   - every file of those trees other than Go sources, by name, size and
//     modification time (a C header, .inl, .def or suffixless include,
//     in an include directory or beside another package's Go files: go
//     vet keys a package on its own files only, and not on every kind of
//     those), and the targets of the trees' symbolic links (an include
//     directory re-pointed); an edit to one re-vets every package, the
//     price of never reusing a result that the edit changed;
//   - every file (but a VCS's) of a directory inside the main modules
//     that the trees' #cgo lines add to the include search (-I and its
//     kin), where the walk above skips it (_inc, .deps/include);
//   - the model files of -model flags on the go command's own command line
//     (the flags go vet passes to the tool are not passed to -V=full; on
//     Linux the go command's arguments are read from /proc).
//
// Every directory of those trees is looked at, however many (no bound
// that would stop silently). Outside any module (GOPATH mode) there is no
// tree to walk: the digest is then unique to the run, so that go vet
// caches nothing rather than something stale.
//
// A malformed configuration file is an error (so go vet stops at once,
// saying which file and line), as it would be in every package.
func inputsDigest(h hash.Hash) error {
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	roots, inModule := mainRoots(cwd)
	if !inModule {
		fmt.Fprintf(h, "outside any module: unique %d %d\n", os.Getpid(), time.Now().UnixNano())
	}
	found := map[string]bool{}
	headers := map[string][]string{} // C headers, by directory
	links := map[string]string{}     // symbolic links, to their targets
	pkgDirs := map[string]bool{}     // directories with Go files
	walk := func(root string) {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if path != root && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") || d.Name() == "testdata" || isFile(filepath.Join(path, "go.mod"))) {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 {
				// a link (an include directory's, re-pointed with
				// ln -sfn) changes what a path through it reads
				if target, err := os.Readlink(path); err == nil {
					links[path] = target
				}
			}
			switch name := d.Name(); {
			case name == configName:
				found[path] = true
			case strings.HasSuffix(name, ".go"):
				// a package's sources: in its own key; the include
				// directories its #cgo lines name are walked below
				pkgDirs[filepath.Dir(path)] = true
			case d.Type().IsRegular() && !strings.HasPrefix(name, "."):
				// any file: C includes .def, .inl, .x and names
				// without a suffix as well as .h
				headers[filepath.Dir(path)] = append(headers[filepath.Dir(path)], path)
			}
			return nil
		})
	}
	if inModule {
		for _, r := range roots {
			walk(r)
		}
		if !walkedFrom(roots, cwd) {
			walk(cwd)
		}
		// an include directory of the trees that the walk skips (_inc,
		// .deps, testdata/include): every file in it, but a VCS's own
		incDirs := map[string]bool{}
		for dir := range pkgDirs {
			for _, inc := range cgoIncludeDirs(dir) {
				incDirs[inc] = true
			}
		}
		for _, dir := range slices.Sorted(maps.Keys(incDirs)) {
			if walkedFrom(roots, dir) || !slices.ContainsFunc(roots, func(r string) bool { return within(dir, r) }) {
				continue // walked already; or outside the modules, as go vet's own key
			}
			_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
				switch {
				case err != nil:
				case d.IsDir() && (d.Name() == ".git" || d.Name() == ".hg" || d.Name() == ".svn"):
					return filepath.SkipDir
				case d.Type().IsRegular() && !strings.HasSuffix(d.Name(), ".go"):
					headers[filepath.Dir(path)] = append(headers[filepath.Dir(path)], path)
				}
				return nil
			})
		}
		// up from the directory go vet runs in
		for d := cwd; ; d = filepath.Dir(d) {
			if f := filepath.Join(d, configName); isFile(f) {
				found[f] = true
			}
			if isFile(filepath.Join(d, "go.mod")) || filepath.Dir(d) == d {
				break
			}
		}
	}
	cs := newConfigs()
	var errs []string
	for _, path := range slices.Sorted(maps.Keys(found)) {
		cs.snap.hash(h, "config", path)
		c, err := cs.forDir(filepath.Dir(path))
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		for _, m := range c.models {
			cs.snap.hash(h, "model", m)
		}
	}
	if len(errs) > 0 {
		slices.Sort(errs)
		return fmt.Errorf("%s", strings.Join(slices.Compact(errs), "\n"))
	}
	// every file C can include, by name, size and modification time:
	// the C a package includes decides what it means, and go vet keys a
	// package only on its own files (and of those, on no .inl, .def or
	// suffixless include), never on what it includes from another
	// directory, whether that holds Go files or not, or Go files that
	// the build excludes
	for _, dir := range slices.Sorted(maps.Keys(headers)) {
		for _, path := range headers[dir] {
			if fi, err := os.Stat(path); err == nil {
				fmt.Fprintf(h, "header %q %d %d\n", path, fi.Size(), fi.ModTime().UnixNano())
			}
		}
	}
	for _, path := range slices.Sorted(maps.Keys(links)) {
		fmt.Fprintf(h, "link %q %q\n", path, links[path])
	}
	root := moduleRoot(cwd)
	for _, m := range parentModelFlags() {
		if filepath.IsAbs(m) {
			hashFile(h, "flag", m)
			continue
		}
		// relative to the directory go vet runs in, or to the module root
		hashFile(h, "flag", filepath.Join(cwd, m))
		hashFile(h, "flag", filepath.Join(root, m))
	}
	return nil
}

// cgoIncludeDirs returns the include directories the #cgo lines of the
// Go files in dir give the C compiler, as go/build reads them (all files,
// whatever their build constraints: a digest may stamp too much, never
// too little) and as cpreamble resolves them (cpreamble.IncludeDirs).
func cgoIncludeDirs(dir string) []string {
	ctx := build.Default
	ctx.CgoEnabled = true
	ctx.UseAllFiles = true
	p, _ := ctx.ImportDir(dir, build.ImportComment)
	if p == nil || len(p.CgoCPPFLAGS)+len(p.CgoCFLAGS) == 0 {
		return nil
	}
	return cpreamble.IncludeDirs(dir, append(slices.Clone(p.CgoCPPFLAGS), p.CgoCFLAGS...))
}

// walkedFrom reports whether walking the roots reaches directory dir: it
// is below one of them, through no directory the walk skips.
func walkedFrom(roots []string, dir string) bool {
	for _, r := range roots {
		rel, err := filepath.Rel(r, dir)
		if err != nil || !filepath.IsLocal(rel) && rel != "." {
			continue
		}
		ok := true
		for d := dir; d != r; d = filepath.Dir(d) {
			name := filepath.Base(d)
			if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || isFile(filepath.Join(d, "go.mod")) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// mainRoots returns the roots of the modules whose packages go vet, run in
// dir, analyses with configuration files of theirs: the main modules (the
// modules of the go.work that governs dir, or dir's module) and the local
// directories that their go.mod files and the go.work replace modules
// with. inModule is false when dir is in no module (GOPATH mode).
func mainRoots(dir string) (roots []string, inModule bool) {
	add := func(d string) {
		d = filepath.Clean(d)
		if !slices.Contains(roots, d) && isFile(filepath.Join(d, "go.mod")) {
			roots = append(roots, d)
		}
	}
	// local replacements: a directory, not a module version
	replaces := func(base string, rs []*modfile.Replace) {
		for _, r := range rs {
			if r.New.Version != "" || !modfile.IsDirectoryPath(r.New.Path) {
				continue
			}
			p := filepath.FromSlash(r.New.Path)
			if !filepath.IsAbs(p) {
				p = filepath.Join(base, p)
			}
			add(p)
		}
	}
	if work := goWorkFile(dir); work != "" {
		if data, err := os.ReadFile(work); err == nil {
			if wf, err := modfile.ParseWork(work, data, nil); err == nil {
				base := filepath.Dir(work)
				for _, u := range wf.Use {
					p := filepath.FromSlash(u.Path)
					if !filepath.IsAbs(p) {
						p = filepath.Join(base, p)
					}
					add(p)
				}
				replaces(base, wf.Replace)
			}
		}
	}
	if root := moduleRoot(dir); isFile(filepath.Join(root, "go.mod")) {
		add(root)
	}
	if len(roots) == 0 {
		return nil, false
	}
	for i := 0; i < len(roots); i++ { // (roots grows: a replacement's own replacements do not apply, but are harmless)
		name := filepath.Join(roots[i], "go.mod")
		data, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		if mf, err := modfile.Parse(name, data, nil); err == nil {
			replaces(roots[i], mf.Replace)
		}
	}
	return roots, true
}

// goWorkFile returns the go.work file that governs dir, as the go command
// finds it: $GOWORK when set ("off": none), else the nearest go.work up
// from dir.
func goWorkFile(dir string) string {
	switch w := os.Getenv("GOWORK"); w {
	case "off":
		return ""
	case "", "auto":
	default:
		return w
	}
	for d := dir; ; d = filepath.Dir(d) {
		if f := filepath.Join(d, "go.work"); isFile(f) {
			return f
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// hashFile writes kind, name and name's content (or that it cannot be
// read) to h.
func hashFile(h hash.Hash, kind, name string) {
	data, err := os.ReadFile(name)
	fmt.Fprintf(h, "%s %q %d\n", kind, name, len(data))
	if err != nil {
		fmt.Fprintf(h, "unreadable\n")
		return
	}
	h.Write(data)
}

// moduleRoot returns the directory of the go.mod that governs dir, or dir.
func moduleRoot(dir string) string {
	for d := dir; ; {
		if isFile(filepath.Join(d, "go.mod")) {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return dir
		}
		d = up
	}
}

// parentModelFlags returns the -model files on the command line of the
// process that started this one (the go command, when go vet asks for
// -V=full), where the system says (Linux); nil elsewhere.
func parentModelFlags() []string {
	args, ok := parentArgs()
	if !ok || len(args) < 2 {
		return nil
	}
	for i, a := range args {
		// unitchecker's spelling of the model pass's flag
		args[i] = strings.Replace(a, "lifetimemodel.model", "model", 1)
	}
	return modelArgs(args[1:])
}

// parentTags returns the -tags of the command line of the process that
// started this one (the go command, for a go vet unit), whether that
// command line could be read (Linux) and whether it has a -tags.
func parentTags() (tags []string, readable, given bool) {
	args, ok := parentArgs()
	if !ok {
		return nil, false, false
	}
	tags, given = tagsArg(args)
	return tags, true, given
}

// parentArgs returns the command line of the process that started this
// one, and whether the system says it (Linux).
func parentArgs() ([]string, bool) {
	if runtime.GOOS != "linux" {
		return nil, false
	}
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(os.Getppid()), "cmdline"))
	if err != nil {
		return nil, false
	}
	return strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00"), true
}

// tagsArg returns the value of the last -tags flag among a go command's
// arguments (-tags=a,b, -tags a,b, --tags), split at commas, and whether
// there is one.
func tagsArg(args []string) ([]string, bool) {
	var tags []string
	found := false
	for i := 0; i < len(args); i++ {
		a := strings.TrimPrefix(args[i], "-")
		switch {
		case strings.HasPrefix(a, "-tags="):
			a = a[1:]
			fallthrough
		case strings.HasPrefix(a, "tags="):
			tags, found = splitTags(strings.TrimPrefix(a, "tags=")), true
		case a == "tags" || a == "-tags":
			if i+1 < len(args) {
				tags, found = splitTags(args[i+1]), true
				i++
			}
		}
	}
	return tags, found
}

func splitTags(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })
}

// vetConfigured prepares the analyzers of a go vet unit (its .cfg file
// last among args) for the configuration of the package's directory: a
// malformed configuration file stops the unit with its file and line.
// Other invocations (-flags) get the analyzers unchanged.
func vetConfigured(args []string, as []*analysis.Analyzer) []*analysis.Analyzer {
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return as
	}
	var unit struct {
		Dir          string
		ImportPath   string
		IgnoredFiles []string // files of the package the build leaves out (cgo files when cgo is off)
		VetxOnly     bool     // the unit computes facts for its importers only
		ModulePath   string   // the package's module ("" in the standard library)
	}
	if data, err := os.ReadFile(args[len(args)-1]); err == nil {
		_ = json.Unmarshal(data, &unit)
	}
	// the unit's C files: its directory's, less those go vet's build
	// excluded (internal/cgofile)
	cgofile.FromVetConfig = true
	cs := newConfigs()
	cs.unitDir = unit.Dir
	if _, err := cs.forDir(unit.Dir); err != nil {
		log.Fatal(err)
	}
	useConfigs(cs)
	if unit.VetxOnly {
		// (a module's path need not have a dot: module m)
		if unit.ModulePath != "" || !standardPath(unit.ImportPath) {
			sayDependencyBudgetStops(unit.ImportPath)
		}
		return cs.configured(as)
	}
	// go vet analyses a package without its cgo files when cgo is off,
	// and says nothing: say it (once per unit; a result go vet answers
	// from its cache prints nothing)
	if n := vetCgoIgnored(unit.ImportPath, unit.Dir, unit.IgnoredFiles, func() string {
		return cgoOffReason(&packages.Config{Dir: unit.Dir})
	}); n != "" {
		fmt.Fprintf(os.Stderr, "%s: %s\n", progName(), n)
	}
	return sayBudgetStops(cs.configured(as))
}

// sayDependencyBudgetStops makes the lifetime pass of a go vet unit that
// computes facts only (a dependency of the packages named, which no
// analyzer that reports runs on) print, on standard error, one line per
// function whose analysis stopped at its work budget: the facts its
// importers use may be incomplete. The unit's process analyses one
// package, so the pass's Run is wrapped in place.
func sayDependencyBudgetStops(pkgPath string) {
	run := lifetime.Analyzer.Run
	lifetime.Analyzer.Run = func(pass *analysis.Pass) (any, error) {
		res, err := run(pass)
		if r, ok := res.(*lifetime.Result); ok {
			for _, fn := range r.Incomplete() {
				fmt.Fprintf(os.Stderr, "%s: %s\n", progName(), noteMessage("", dependencyNote(budgetNote(pass.Fset.Position(fn.Pos()), fn), pkgPath)))
			}
		}
		return res, err
	}
}

// sayBudgetStops returns the analyzers with those that use the lifetime
// pass's or the C pass's result wrapped so that the first of them to run
// on the unit prints, on standard error, what the pass left out (go vet
// shows a unit's standard error; a run that go vet answers from its cache
// prints nothing): one line per function whose lifetime analysis stopped
// at its work budget, and per file of the package's C left unread for its
// size.
func sayBudgetStops(as []*analysis.Analyzer) []*analysis.Analyzer {
	var budget, unread sync.Once
	say := func(notes []string) {
		for _, n := range notes {
			fmt.Fprintf(os.Stderr, "%s: %s\n", progName(), noteMessage("", n))
		}
	}
	out := slices.Clone(as)
	for i, a := range out {
		if !slices.Contains(a.Requires, lifetime.Analyzer) && !slices.Contains(a.Requires, cpreamble.Analyzer) {
			continue
		}
		c := *a
		c.Run = func(pass *analysis.Pass) (any, error) {
			if res, ok := pass.ResultOf[lifetime.Analyzer].(*lifetime.Result); ok {
				budget.Do(func() {
					var notes []string
					for _, fn := range res.Incomplete() {
						notes = append(notes, budgetNote(pass.Fset.Position(fn.Pos()), fn))
					}
					say(notes)
				})
			}
			if res, ok := pass.ResultOf[cpreamble.Analyzer].(*cpreamble.Result); ok {
				unread.Do(func() {
					var notes []string
					for _, u := range res.Unread() {
						notes = append(notes, unreadNote(u))
					}
					say(notes)
				})
			}
			return a.Run(pass)
		}
		out[i] = &c
	}
	return out
}
