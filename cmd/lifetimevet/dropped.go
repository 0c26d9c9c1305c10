package main

import (
	"encoding/json"
	"fmt"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/lifetimevet/lifetimevet/internal/driver"
)

// cgoDropped returns a notice for each package that the patterns name but
// that was analysed without its files that import "C", or not at all,
// because cgo is off (CGO_ENABLED=0, or a GOOS or GOARCH other than the
// host's without a C compiler for it, which turns cgo off by default). The
// go command leaves such files out without a word (a module of cgo
// packages only "matches no packages"); what lifetimevet checks is mostly
// in them. dropped reports whether a package was left out entirely.
func cgoDropped(cfg *packages.Config, patterns []string, loaded []*packages.Package) (notices []string, dropped int) {
	if cgoEnabled(cfg) {
		return nil, 0
	}
	why := cgoOffReason(cfg)
	// The same patterns with cgo on, names and files only: go list runs
	// neither cgo nor the compiler for that.
	on := &packages.Config{
		Mode:       packages.NeedName | packages.NeedFiles,
		Dir:        cfg.Dir,
		Env:        append(slices.Clone(envOf(cfg)), "CGO_ENABLED=1"),
		BuildFlags: cfg.BuildFlags,
	}
	all, err := packages.Load(on, patterns...)
	if err != nil {
		return nil, 0
	}
	have := map[string]*packages.Package{}
	for _, p := range loaded {
		if p.ID == p.PkgPath && len(p.GoFiles) > 0 {
			have[p.PkgPath] = p
		}
	}
	for _, p := range all {
		h := have[p.PkgPath]
		switch {
		case len(p.GoFiles) == 0:
		case h == nil:
			dropped++
			notices = append(notices, fmt.Sprintf("%s not analysed: its Go files need cgo, and %s", p.PkgPath, why))
		default:
			// by name: a //go:build !cgo fallback can take a cgo file's
			// place and keep the count the same
			if n := missingFiles(p.GoFiles, h.GoFiles); n > 0 {
				notices = append(notices, fmt.Sprintf("%s analysed without %d of its Go files, which need cgo: %s", p.PkgPath, n, why))
			}
		}
	}
	return notices, dropped
}

// vetCgoIgnored returns the notice for a go vet unit of package
// importPath in dir that go vet hands over without the files it left out
// because cgo is off (the unit configuration's IgnoredFiles that import
// "C" and that the build constraints would select with cgo on; a file for
// another GOOS is ignored for that reason, not for cgo's); "" when there
// are none. reason says why cgo is off (cgoOffReason); it is called only
// when there is something to say.
func vetCgoIgnored(importPath, dir string, ignored []string, reason func() string) string {
	ctx := build.Default
	ctx.CgoEnabled = true
	var names []string
	for _, f := range ignored {
		if !strings.HasSuffix(f, ".go") {
			continue
		}
		if !filepath.IsAbs(f) {
			f = filepath.Join(dir, f)
		}
		if !importsC(f) {
			continue
		}
		if ok, err := ctx.MatchFile(filepath.Dir(f), filepath.Base(f)); err != nil || !ok {
			continue
		}
		names = append(names, filepath.Base(f))
	}
	if len(names) == 0 {
		return ""
	}
	slices.Sort(names)
	return fmt.Sprintf("%s analysed without %d of its Go files, which need cgo (%s): %s", importPath, len(names), strings.Join(names, ", "), reason())
}

// importsC reports whether the Go file f imports "C".
func importsC(f string) bool {
	file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
	if err != nil {
		return false
	}
	for _, imp := range file.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err == nil && p == "C" {
			return true
		}
	}
	return false
}

// missingFiles returns how many of the files of with are not in without.
func missingFiles(with, without []string) int {
	n := 0
	for _, f := range with {
		if !slices.Contains(without, f) {
			n++
		}
	}
	return n
}

func envOf(cfg *packages.Config) []string {
	if cfg.Env != nil {
		return cfg.Env
	}
	return os.Environ()
}

// A goEnvFetch is go env's answer for some variables, asked for ahead
// (see prefetchGoEnv).
type goEnvFetch struct {
	done chan struct{}
	vals map[string]string // nil if go env failed
}

var goEnvAhead sync.Map // *packages.Config → *goEnvFetch

// prefetchGoEnv asks go env for the variables names in cfg's environment,
// in one command run in the background (while go list runs): goEnv then
// takes its answer rather than run go env again. cfg's directory,
// environment and build flags must not change after.
func prefetchGoEnv(cfg *packages.Config, names ...string) {
	f := &goEnvFetch{done: make(chan struct{})}
	goEnvAhead.Store(cfg, f)
	go func() {
		defer close(f.done)
		cmd := exec.Command("go", append([]string{"env", "-json"}, names...)...)
		cmd.Dir = cfg.Dir
		cmd.Env = envOf(cfg)
		out, err := cmd.Output()
		if err != nil {
			return
		}
		var vals map[string]string
		if json.Unmarshal(out, &vals) == nil {
			f.vals = vals
		}
	}()
}

// goEnv returns go env NAME in cfg's environment.
func goEnv(cfg *packages.Config, name string) string {
	if f, ok := goEnvAhead.Load(cfg); ok {
		<-f.(*goEnvFetch).done
		if v, ok := f.(*goEnvFetch).vals[name]; ok {
			return strings.TrimSpace(v)
		}
	}
	cmd := exec.Command("go", "env", name)
	cmd.Dir = cfg.Dir
	cmd.Env = envOf(cfg)
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// goOverlay returns the -overlay the go command uses for cfg (from
// GOFLAGS, as go env reports it, and cfg's build flags), or nil.
func goOverlay(cfg *packages.Config) (driver.Overlay, error) {
	dir := cfg.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	goflags := goEnv(cfg, "GOFLAGS")
	if goflags == "" {
		goflags = os.Getenv("GOFLAGS")
	}
	if !strings.Contains(goflags, "overlay") && !slices.ContainsFunc(cfg.BuildFlags, func(f string) bool { return strings.Contains(f, "overlay") }) {
		return nil, nil
	}
	return driver.OverlayFlag(goflags, cfg.BuildFlags, dir)
}

func cgoEnabled(cfg *packages.Config) bool {
	return goEnv(cfg, "CGO_ENABLED") != "0"
}

// cgoOffReason says why cgo is off.
func cgoOffReason(cfg *packages.Config) string {
	env := envOf(cfg)
	for _, kv := range slices.Backward(env) {
		if v, ok := strings.CutPrefix(kv, "CGO_ENABLED="); ok {
			if v == "" {
				break // empty is unset for the go command: its default
			}
			return fmt.Sprintf("cgo is disabled (CGO_ENABLED=%s); lifetimevet needs cgo and a C compiler", v)
		}
	}
	goos, goarch := goEnv(cfg, "GOOS"), goEnv(cfg, "GOARCH")
	hostOS, hostArch := goEnv(cfg, "GOHOSTOS"), goEnv(cfg, "GOHOSTARCH")
	if goos != hostOS || goarch != hostArch {
		return fmt.Sprintf("cgo is off when cross-compiling (GOOS=%s GOARCH=%s on %s/%s) unless CGO_ENABLED=1 and CC names a C compiler for the target", goos, goarch, hostOS, hostArch)
	}
	return "cgo is disabled (go env CGO_ENABLED is 0: no C compiler was found?); lifetimevet needs cgo and a C compiler"
}

// illTypedImports returns a notice for each package named on the command
// line that was not analysed only because a package it imports has errors
// (its own errors are printed with the others).
func illTypedImports(roots []*packages.Package) []string {
	var out []string
	seen := map[string]bool{}
	// the packages themselves first, then test variants (p [p.test])
	// whose package was analysed: a test file may import what p does not
	sorted := slices.Clone(roots)
	slices.SortStableFunc(sorted, func(a, b *packages.Package) int {
		return boolInt(a.ID != a.PkgPath) - boolInt(b.ID != b.PkgPath)
	})
	for _, p := range sorted {
		if !p.IllTyped || len(p.Errors) > 0 || strings.HasSuffix(p.ID, ".test") || seen[p.PkgPath] {
			continue
		}
		seen[p.PkgPath] = true
		if bad := brokenImports(p); len(bad) > 0 {
			out = append(out, fmt.Sprintf("%s not analysed: it imports %s, which %s errors", p.ID, strings.Join(bad, " and "), map[bool]string{true: "has", false: "have"}[len(bad) == 1]))
		}
	}
	return out
}

// notAnalysed returns, for each Go file of the packages roots that was
// not analysed, the message that says why: the package's own first error
// (a missing C header, a type error), or the packages with errors that it
// imports.
func notAnalysed(roots []*packages.Package) map[string]string {
	out := map[string]string{}
	for _, p := range roots {
		var msg string
		switch {
		case len(p.Errors) > 0:
			msg = notAnalysedMsg(p.ID, errorText(p.Errors[0]))
		case p.IllTyped:
			if bad := brokenImports(p); len(bad) > 0 {
				msg = notAnalysedMsg(p.ID, fmt.Sprintf("it imports %s, which %s errors", strings.Join(bad, " and "), map[bool]string{true: "has", false: "have"}[len(bad) == 1]))
			}
		}
		if msg == "" {
			continue
		}
		for _, f := range ownGoFiles(p) {
			if _, ok := out[f]; !ok {
				out[f] = msg
			}
		}
	}
	return out
}

// notListed returns why file, a Go file of the directory of the packages
// roots that none of them lists among its Go files, was not analysed: a
// build constraint excludes it (excluded is true: not a problem, a fact),
// or go list failed for the directory; "" when neither is known.
func notListed(roots []*packages.Package, file string) (msg string, excluded bool) {
	for _, p := range roots {
		if slices.Contains(p.IgnoredFiles, file) {
			return notAnalysedMsg(filepath.Base(file), "build constraints exclude it (GOOS, GOARCH and the build tags of this run)"), true
		}
	}
	for _, p := range roots {
		if len(p.Errors) > 0 && len(p.GoFiles) == 0 {
			return notAnalysedMsg(filepath.Base(file), errorText(p.Errors[0])), false
		}
	}
	return "", false
}

// ownGoFiles returns the Go files of p in its directory: those of its
// source, without the ones the go command generates in its cache (the
// main file of a test binary).
func ownGoFiles(p *packages.Package) []string {
	if p.Dir == "" {
		return p.GoFiles
	}
	var out []string
	for _, f := range p.GoFiles {
		if filepath.Dir(f) == filepath.Clean(p.Dir) {
			out = append(out, f)
		}
	}
	return out
}

// brokenImports returns the packages that p imports, directly or not,
// that have errors of their own, nearest first, each with the import
// through which p reaches it when it is not a direct one.
func brokenImports(p *packages.Package) []string {
	var out []string
	seen := map[*packages.Package]bool{}
	var visit func(q *packages.Package, via string)
	visit = func(q *packages.Package, via string) {
		for _, path := range slices.Sorted(mapKeys(q.Imports)) {
			imp := q.Imports[path]
			if seen[imp] || !imp.IllTyped {
				continue
			}
			seen[imp] = true
			switch {
			case len(imp.Errors) > 0 && via != "":
				out = append(out, imp.PkgPath+" (through "+via+")")
			case len(imp.Errors) > 0:
				out = append(out, imp.PkgPath)
			case via == "":
				visit(imp, imp.PkgPath)
			default:
				visit(imp, via)
			}
		}
	}
	visit(p, "")
	return out
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// notAnalysedMsg says that what (a file's base name, a package's ID) was
// not analysed, and why.
func notAnalysedMsg(what, why string) string {
	return fmt.Sprintf("lifetimevet did not analyse %s: %s", what, why)
}
