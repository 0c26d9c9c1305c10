package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// resolveVetModels returns args with each relative -model file made
// absolute against the root of the main module, the module of the
// directory go vet was run in. go vet runs the tool in each package's
// directory (GOROOT's for the standard library's), so that a relative path
// read as it stands names a different file, or none, in each; the main
// module's root is what golangci-lint's and the standalone command's
// relative paths mean when run there. The error says why a file cannot be
// used; printVetToolID gives it once, before go vet starts any unit.
func resolveVetModels(args []string) ([]string, error) {
	var root string
	rootOf := func() (string, error) {
		if root != "" {
			return root, nil
		}
		r, err := mainModuleRoot()
		root = r
		return r, err
	}
	resolve := func(f string) (string, error) {
		if filepath.IsAbs(f) {
			return f, nil
		}
		r, err := rootOf()
		if err != nil {
			return "", fmt.Errorf("-model=%s: under go vet a relative model file is read from the main module's root, but %v; give an absolute path (-model=$PWD/%s)", f, err, f)
		}
		abs := filepath.Join(r, f)
		if _, err := os.Stat(abs); err != nil {
			return "", fmt.Errorf("-model=%s: under go vet a relative model file is read from the main module's root, %s, and %s is not there; give a path relative to it, or an absolute one (-model=$PWD/%s)", f, r, abs, f)
		}
		return abs, nil
	}
	out := make([]string, len(args))
	copy(out, args)
	for i, a := range out {
		dashes := a[:len(a)-len(strings.TrimLeft(a, "-"))]
		name := strings.TrimLeft(a, "-")
		if dashes == "" || len(dashes) > 2 {
			continue
		}
		if f, ok := strings.CutPrefix(name, "model="); ok {
			abs, err := resolve(f)
			if err != nil {
				return nil, err
			}
			out[i] = dashes + "model=" + abs
		} else if name == "model" && i+1 < len(out) {
			abs, err := resolve(out[i+1])
			if err != nil {
				return nil, err
			}
			out[i+1] = abs
		}
	}
	return out, nil
}

// mainModuleRoot returns the directory of the go.mod file that governs the
// directory the go command runs in (the tool's parent process, read from
// /proc).
func mainModuleRoot() (string, error) {
	cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", os.Getppid()))
	if err != nil {
		return "", fmt.Errorf("the directory go vet runs in is unknown here (%v)", err)
	}
	for d := cwd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%s is in no module", cwd)
		}
	}
}

// checkVetModels is go vet's first question (-V=full): when the go vet
// command line (the parent process's) has a relative -model that cannot
// be resolved, it says why, once, and go vet stops before any unit.
func checkVetModels() error {
	pargs, ok := goVetArgs()
	if !ok {
		return nil
	}
	_, err := resolveVetModels(pargs)
	return err
}
