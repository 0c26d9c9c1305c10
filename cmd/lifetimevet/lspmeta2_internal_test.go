package main

import (
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/lifetimevet/lifetimevet/internal/driver"
)

// TestGoHeaderBuildDecision: a change of a Go file's header that changes
// go/build's decision to build it while the constraint lines' text stays
// the same (a //go:build line put inside a block comment, a +build line
// that gains or loses the blank line after it) calls for a new load; a
// comment that changes no decision does not.
func TestGoHeaderBuildDecision(t *testing.T) {
	const body = "\npackage p\n\nfunc F() {}\n"
	for _, c := range []struct {
		what, old, new string
		reload         bool
	}{
		{"//go:build ignore wrapped in /* */", "//go:build ignore\n" + body, "/*\n//go:build ignore\n*/\n" + body, true},
		{"the wrapping /* */ removed", "/*\n//go:build ignore\n*/\n" + body, "//go:build ignore\n" + body, true},
		{"a blank line after // +build ignore", "// +build ignore\npackage p\n", "// +build ignore\n\npackage p\n", true},
		{"the blank line after // +build ignore removed", "// +build ignore\n\npackage p\n", "// +build ignore\npackage p\n", true},
		{"a comment above //go:build ignore", "//go:build ignore\n" + body, "// A comment.\n\n//go:build ignore\n" + body, false},
		{"a comment below //go:build !ignore", "//go:build !ignore\n" + body, "//go:build !ignore\n\n// A comment.\n" + body, false},
	} {
		t.Run(c.what, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "x.go")
			writeTree(t, dir, map[string]string{"x.go": c.old})
			snap := takeSnapshot([]string{dir}, nil)
			writeTree(t, dir, map[string]string{"x.go": c.new})
			change, now := snap.diff()
			if got := change.reload != ""; got != c.reload {
				t.Errorf("reload %q, want a reload: %v", change.reload, c.reload)
			}
			if !c.reload && (len(change.plain) != 1 || now.files[name].built != snap.files[name].built) {
				t.Errorf("change %+v", change)
			}
		})
	}
}

// TestLSPMembershipChanged: the decision of go/build on a changed file is
// compared with the file's place in the last load (a Go file, or an
// ignored one), whatever the snapshot recorded.
func TestLSPMembershipChanged(t *testing.T) {
	dir := t.TempDir()
	x, y := filepath.Join(dir, "x.go"), filepath.Join(dir, "y.go")
	writeTree(t, dir, map[string]string{"x.go": "package p\n", "y.go": "//go:build ignore\n\npackage p\n"})
	now := takeSnapshot([]string{dir}, nil)
	for _, c := range []struct {
		goFiles, ignored []string
		changed          bool
	}{
		{[]string{x}, []string{y}, false},
		{nil, []string{x, y}, true}, // x was ignored, is built now
		{[]string{x, y}, nil, true}, // y was built, is not now
	} {
		roots := []*packages.Package{{ID: "p", GoFiles: c.goFiles, IgnoredFiles: c.ignored}}
		if why := membershipChanged(roots, now, []string{x, y}); (why != "") != c.changed {
			t.Errorf("Go files %q, ignored %q: %q", c.goFiles, c.ignored, why)
		}
	}
}

// TestLSPSnapshotModuleFiles: the snapshot of a package directory records
// the go.mod and go.work files of every directory from it up to the root,
// present or not, and the go.mod of every module a go.work uses; so a
// go.mod created in the package's directory, a go.work created above it,
// or a replace edited in a workspace module no package is in calls for a
// new load. GOWORK=off is honoured.
func TestLSPSnapshotModuleFiles(t *testing.T) {
	base := map[string]string{
		"m/go.mod": "module m\n\ngo 1.22\n",
		"m/p/p.go": "package p\n",
	}
	for _, c := range []struct {
		what   string
		gowork string
		before map[string]string
		after  map[string]string
		reload bool
	}{
		{"a go.mod created in the package's directory", "", nil, map[string]string{"m/p/go.mod": "module m/p\n\ngo 1.21\n"}, true},
		{"a go.work created in the module's parent", "", nil, map[string]string{"go.work": "go 1.22\n\nuse ./m\n"}, true},
		{"a go.work created, GOWORK=off", "off", nil, map[string]string{"go.work": "go 1.22\n\nuse ./m\n"}, false},
		{"a replace edited in a workspace module", "",
			map[string]string{"go.work": "go 1.22\n\nuse (\n\t./m\n\t./other\n)\n", "other/go.mod": "module other\n\nreplace example.com/dep => ../depA\n"},
			map[string]string{"other/go.mod": "module other\n\nreplace example.com/dep => ../depB\n"}, true},
		{"a file of no module", "", nil, map[string]string{"other/go.mod": "module other\n"}, false},
	} {
		t.Run(c.what, func(t *testing.T) {
			t.Setenv("GOWORK", c.gowork)
			dir := t.TempDir()
			writeTree(t, dir, base)
			writeTree(t, dir, c.before)
			pdir := filepath.Join(dir, "m", "p")
			snap := takeSnapshot([]string{pdir}, nil)
			writeTree(t, dir, c.after)
			change, _ := snap.diff()
			if got := change.reload != ""; got != c.reload {
				t.Errorf("reload %q, want a reload: %v", change.reload, c.reload)
			}
		})
	}
}

// TestLSPWatchedModuleFileReloads: a watched-file event for a module file
// (go.mod, go.sum, go.work, go.work.sum) makes the next analysis of every
// package load its metadata again, whatever its snapshot says.
func TestLSPWatchedModuleFileReloads(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"go.mod": "module m\n\ngo 1.22\n", "p/p.go": "package p\n"})
	t.Setenv("GOWORK", "off")
	pdir := filepath.Join(dir, "p")
	ls := &langServer{meta: map[string]*lspMeta{}, pubs: map[string]*lspPub{}, open: map[string]bool{}}
	load := func() string {
		t.Helper()
		_, _, how, err := ls.load(&packages.Config{Mode: driver.LoadMode, Dir: pdir, Fset: token.NewFileSet()})
		if err != nil {
			t.Fatal(err)
		}
		return how
	}
	load()
	if how := load(); !strings.HasPrefix(how, "kept") {
		t.Fatalf("second load: %q", how)
	}
	notify := func(string, any) {}
	for _, f := range []string{"go.sum", "go.work", "go.mod"} {
		ls.filesChanged(notify, []string{filepath.Join(dir, "sub", f)})
		if how := load(); !strings.Contains(how, "go list") || !strings.Contains(how, "watched-file event") {
			t.Errorf("after an event for %s: %q", f, how)
		}
		if how := load(); !strings.HasPrefix(how, "kept") {
			t.Errorf("the load after: %q", how)
		}
	}
}
