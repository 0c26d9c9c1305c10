package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/lifetimevet/lifetimevet/passes/model"
)

// A package's key covers the configuration that applies to its directory
// (the lifetimevet.toml files up to its module's root and the model files
// they name, wherever the run started) and nothing outside it, and within
// one run it is taken of the bytes the run parses.
func TestPackageKey(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "mod")
	p := filepath.Join(root, "p")
	write := func(name, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "go.mod"), "module m\n")
	write(filepath.Join(root, configName), "analyzers = [\"all\"]\n")
	write(filepath.Join(p, configName), "models = [\"m.model\"]\n")
	write(filepath.Join(p, "m.model"), "library m\nacquire m_new result\n")
	write(filepath.Join(top, configName), "analyzers = []\n") // above the module: does not apply
	write(filepath.Join(top, "other", "x.model"), "library x\n")
	pkg := &packages.Package{Dir: p, GoFiles: []string{filepath.Join(p, "p.go")}}
	key := func(cs *configs, flags ...string) []byte {
		t.Helper()
		k, ok := cs.packageKey(flags)(pkg)
		if !ok {
			t.Fatal("no key")
		}
		return k
	}
	base := key(newConfigs())
	if k := key(newConfigs()); !bytes.Equal(k, base) {
		t.Fatal("the same files, another key")
	}
	changes := []struct {
		what   string
		edit   func()
		differ bool
	}{
		{"the model file the package's configuration names", func() { write(filepath.Join(p, "m.model"), "library m\nacquire m_new result\nrelease m_free arg=0\n") }, true},
		{"the module root's configuration", func() { write(filepath.Join(root, configName), "analyzers = [\"all\", \"-handleleak\"]\n") }, true},
		{"a configuration file created below the package's directory", func() { write(filepath.Join(p, "sub", configName), "analyzers = []\n") }, false},
		{"a configuration file above the module's root", func() { write(filepath.Join(top, configName), "analyzers = [\"all\"]\n") }, false},
		{"an unrelated model file", func() { write(filepath.Join(top, "other", "x.model"), "library y\n") }, false},
	}
	for _, c := range changes {
		before := key(newConfigs())
		c.edit()
		after := key(newConfigs())
		if c.differ == bytes.Equal(before, after) {
			t.Errorf("%s changed: key changed %v, want %v", c.what, !bytes.Equal(before, after), c.differ)
		}
	}
	// a -model file's content
	flag := filepath.Join(top, "other", "x.model")
	before := key(newConfigs(), flag)
	write(flag, "library z\n")
	if bytes.Equal(before, key(newConfigs(), flag)) {
		t.Error("a -model file changed, the key did not")
	}

	// Within one run, the key and the model pass see the same bytes: an
	// edit after the key was taken is the next run's.
	cs := newConfigs()
	k1 := key(cs, flag)
	write(filepath.Join(p, "m.model"), "library m\n")
	write(flag, "library w\n")
	if k2 := key(cs, flag); !bytes.Equal(k1, k2) {
		t.Error("one run, two keys")
	}
	useConfigs(cs)
	defer activeConfigs.Store(nil)
	m, err := model.Load([]string{filepath.Join(p, "m.model")})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Entries("m_free")) == 0 {
		t.Error("the model pass parsed the file as edited after the key was taken, not the bytes the key hashed")
	}
	if bytes.Equal(k1, key(newConfigs(), flag)) {
		t.Error("the next run has the same key after both files changed")
	}
}

// -cache=off and LIFETIMEVET_CACHE choose the cache; the key material
// changes the key.
func TestOpenCache(t *testing.T) {
	if c, _ := openCache("off"); c != nil {
		t.Error("-cache=off opened a cache")
	}
	dir := t.TempDir()
	t.Setenv("LIFETIMEVET_CACHE", dir)
	c, k1 := openCache("on", []byte("tags="))
	if c == nil {
		t.Fatal("no cache")
	}
	defer c.Close()
	if _, err := os.Stat(filepath.Join(dir, "README")); err != nil {
		t.Errorf("cache not in LIFETIMEVET_CACHE: %v", err)
	}
	c2, k2 := openCache("on", []byte("tags=x"))
	defer c2.Close()
	if bytes.Equal(k1, k2) {
		t.Error("other tags, same key")
	}
}
