package main

import (
	"fmt"
	"go/build"
	"path/filepath"

	"github.com/lifetimevet/lifetimevet/internal/driver"
)

// notEditable returns, for the fixes package's Files.Editable, why a file
// of the run's packages is not the user's to fix: a file of GOROOT, of the
// module cache (whose modules go verifies against go.sum and shares between
// builds), or of a module that is neither a main module (the go.mod or a
// go.work use of the run) nor replaced by a directory: a dependency, in
// the module cache or vendored (go mod vendor would undo the edit), and any
// file under a main module's vendor directory, whatever replaces its
// module. A fix
// of such a file belongs upstream; nil for the user's own files.
func notEditable(g *driver.Graph) func(name string) error {
	why := map[string]error{}
	for act := range g.All() {
		pkg := act.Package
		if pkg == nil {
			continue
		}
		var err error
		if m := pkg.Module; m != nil && !m.Main && (m.Replace == nil || m.Replace.Version != "") {
			v := m.Path
			if m.Version != "" {
				v += "@" + m.Version
			}
			err = fmt.Errorf("it is a file of the dependency %s, not of the main module; fix it upstream", v)
		}
		for _, f := range pkg.CompiledGoFiles {
			if err != nil {
				why[filepath.Clean(f)] = err
			}
		}
		for _, f := range pkg.GoFiles {
			if err != nil {
				why[filepath.Clean(f)] = err
			}
		}
	}
	return func(name string) error {
		dir := filepath.Dir(name)
		if real, err := filepath.EvalSymlinks(name); err == nil {
			dir = filepath.Dir(real)
		}
		switch {
		case under(realDir(build.Default.GOROOT), dir):
			return fmt.Errorf("it is in GOROOT (%s), the Go installation's", build.Default.GOROOT)
		case under(realDir(modCache()), dir):
			return fmt.Errorf("it is in the module cache (%s), which go verifies and shares between builds; fix it upstream", modCache())
		}
		if v := vendorOf(dir); v != "" {
			return fmt.Errorf("it is a vendored copy (under %s), which go mod vendor rewrites; fix it upstream", v)
		}
		return why[filepath.Clean(name)]
	}
}

// vendorOf returns the vendor directory of a module that dir is in (an
// ancestor named vendor beside a go.mod, holding modules.txt), or "".
func vendorOf(dir string) string {
	for d := dir; ; {
		if filepath.Base(d) == "vendor" && isFile(filepath.Join(filepath.Dir(d), "go.mod")) && isFile(filepath.Join(d, "modules.txt")) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// realDir returns dir with its symbolic links resolved, or dir as it is
// when that fails ("" stays "").
func realDir(dir string) string {
	if dir == "" {
		return ""
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	return filepath.Clean(dir)
}
