package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"hash"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/lifetimevet/lifetimevet/passes/lifetime"
)

// go vet caches each package's result under a key made of the tool's
// identity (what `TOOL -V=full` prints, run once per go command, in the
// directory go vet runs in and with its environment), the vet flags as
// written, the package's build ID (its files) and its dependencies' vet
// results. The content of a model file or of a configuration file is in
// none of these: go vet would print a stale result after either changes.
// So the identity lifetimevet prints for -V=full includes a hash of the
// inputs it can find from there (inputsDigest); when one changes, so does
// the key of every package.

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
//   - every lifetimevet.toml of the module go vet runs in (from its root
//     down, as ./... matches packages: directories whose names start with
//     "." or "_", and testdata, left out) and the model files they name;
//   - the model files of -model flags on the go command's own command line
//     (the flags go vet passes to the tool are not passed to -V=full; on
//     Linux the go command's arguments are read from /proc).
//
// A malformed configuration file is an error (so go vet stops at once,
// saying which file and line), as it would be in every package.
func inputsDigest(h hash.Hash) error {
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	root := moduleRoot(cwd)
	cs := newConfigs()
	var errs []string
	entries := 0
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if entries++; entries > maxWalk {
			return filepath.SkipAll
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() != configName {
			return nil
		}
		hashFile(h, "config", path)
		c, err := cs.forDir(filepath.Dir(path))
		if err != nil {
			errs = append(errs, err.Error())
			return nil
		}
		for _, m := range c.models {
			hashFile(h, "model", m)
		}
		return nil
	})
	if len(errs) > 0 {
		slices.Sort(errs)
		return fmt.Errorf("%s", strings.Join(slices.Compact(errs), "\n"))
	}
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

// maxWalk bounds the directory entries inputsDigest looks at (outside a
// module, go vet may run in a home directory).
const maxWalk = 200000

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
	if runtime.GOOS != "linux" {
		return nil
	}
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(os.Getppid()), "cmdline"))
	if err != nil {
		return nil
	}
	args := strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
	if len(args) < 2 {
		return nil
	}
	for i, a := range args {
		// unitchecker's spelling of the model pass's flag
		args[i] = strings.Replace(a, "lifetimemodel.model", "model", 1)
	}
	return modelArgs(args[1:])
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
	}
	if data, err := os.ReadFile(args[len(args)-1]); err == nil {
		_ = json.Unmarshal(data, &unit)
	}
	cs := newConfigs()
	cs.unitDir = unit.Dir
	if _, err := cs.forDir(unit.Dir); err != nil {
		log.Fatal(err)
	}
	useConfigs(cs)
	if unit.VetxOnly {
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

// sayBudgetStops returns the analyzers with those that use the lifetime
// pass's result wrapped so that the first of them to run on the unit
// prints, on standard error, one line per function whose lifetime analysis
// stopped at its work budget (go vet shows a unit's standard error; a run
// that go vet answers from its cache prints nothing).
func sayBudgetStops(as []*analysis.Analyzer) []*analysis.Analyzer {
	var once sync.Once
	out := slices.Clone(as)
	for i, a := range out {
		if !slices.Contains(a.Requires, lifetime.Analyzer) {
			continue
		}
		c := *a
		c.Run = func(pass *analysis.Pass) (any, error) {
			if res, ok := pass.ResultOf[lifetime.Analyzer].(*lifetime.Result); ok {
				once.Do(func() {
					for _, fn := range res.Incomplete() {
						fmt.Fprintf(os.Stderr, "%s: analysis of %s: %s stopped at its work budget: findings in it may be missing\n",
							progName(), pass.Fset.Position(fn.Pos()), fn.RelString(fn.Pkg.Pkg))
					}
				})
			}
			return a.Run(pass)
		}
		out[i] = &c
	}
	return out
}
