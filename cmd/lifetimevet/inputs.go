package main

import (
	"crypto/sha256"
	"fmt"
	"hash"
	"maps"
	"path/filepath"
	"slices"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/lifetimevet/lifetimevet/passes/model"
)

// An inputSnap holds the content of the configuration and model files that
// one run (one analysis, in the language server) reads, each read once:
// the bytes a package's cache key hashes are the bytes its analysis parses,
// even when a file is edited while the run goes on.
type inputSnap struct {
	mu    sync.Mutex
	files map[string]snapFile
}

type snapFile struct {
	data []byte
	err  error
}

func newInputSnap() *inputSnap { return &inputSnap{files: map[string]snapFile{}} }

// read returns name's content as first read in this snapshot.
func (s *inputSnap) read(name string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.files[name]
	if !ok {
		f.data, f.err = model.ReadRegularFile(name)
		s.files[name] = f
	}
	return f.data, f.err
}

// hash writes kind, name and name's content in the snapshot (or its
// error) to h.
func (s *inputSnap) hash(h hash.Hash, kind, name string) {
	data, err := s.read(name)
	if err != nil {
		fmt.Fprintf(h, "%s %q error %v\x00", kind, name, err)
		return
	}
	fmt.Fprintf(h, "%s %q %d %x\x00", kind, name, len(data), sha256.Sum256(data))
}

// packageKey returns the driver's per-package key material
// (driver.Options.PackageKey): the content of the model files given as
// flags (flagModels) and of the configuration that applies to the
// package, a function of its directory alone: the lifetimevet.toml files
// from the package's directory up to its module's root and the model
// files they name, as forDir resolves them. So a package of another
// go.work module, of a replaced local module or of any directory of a
// huge tree is keyed on exactly the files that configure it, wherever the
// run started; nothing walks the tree.
func (cs *configs) packageKey(flagModels []string) func(*packages.Package) ([]byte, bool) {
	return func(pkg *packages.Package) ([]byte, bool) {
		h := sha256.New()
		for _, m := range flagModels {
			cs.snap.hash(h, "model-flag", m)
		}
		for _, dir := range keyDirs(pkg) {
			c, err := cs.forDir(dir)
			if err != nil {
				return nil, false // reported before the analysis
			}
			for _, f := range c.files {
				cs.snap.hash(h, "config", f)
			}
			for _, m := range c.models {
				cs.snap.hash(h, "model", m)
			}
		}
		return h.Sum(nil), true
	}
}

// keyDirs returns the directories whose configuration may apply to pkg:
// its directory and those of its Go files (passDir takes the first).
func keyDirs(pkg *packages.Package) []string {
	var dirs []string
	add := func(d string) {
		if d != "" && filepath.IsAbs(d) && !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	add(pkg.Dir)
	for _, f := range pkg.GoFiles {
		add(filepath.Dir(f))
	}
	return dirs
}

// names returns the files the snapshot holds (read, or tried), sorted.
func (s *inputSnap) names() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Sorted(maps.Keys(s.files))
}
