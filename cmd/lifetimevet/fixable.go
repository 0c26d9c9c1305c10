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
// the module cache or vendored (go mod vendor would undo the edit). A fix
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
		case under(build.Default.GOROOT, dir):
			return fmt.Errorf("it is in GOROOT (%s), the Go installation's", build.Default.GOROOT)
		case under(modCache(), dir):
			return fmt.Errorf("it is in the module cache (%s), which go verifies and shares between builds; fix it upstream", modCache())
		}
		return why[filepath.Clean(name)]
	}
}
