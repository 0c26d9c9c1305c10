package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The model files' content, not only their names, is in the key.
func TestModelKey(t *testing.T) {
	name := filepath.Join(t.TempDir(), "m.model")
	if err := os.WriteFile(name, []byte("a\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	k1 := modelKey([]string{name})
	if err := os.WriteFile(name, []byte("b\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if k2 := modelKey([]string{name}); bytes.Equal(k1, k2) {
		t.Error("the model file's content changed, its key did not")
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
