//go:build linux

package fixes

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestKeepsXattrs: a fixed file keeps its extended attributes.
func TestKeepsXattrs(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "p.go")
	os.WriteFile(name, []byte("old\n"), 0o644)
	if err := unix.Setxattr(name, "user.lifetimevet.test", []byte("kept"), 0); err != nil {
		t.Skipf("no user extended attributes here: %v", err)
	}
	if err := WriteFileIf(name, []byte("old\n"), []byte("fixed\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	n, err := unix.Getxattr(name, "user.lifetimevet.test", buf)
	if err != nil || string(buf[:n]) != "kept" {
		t.Errorf("attribute after the fix: %q, %v; want kept", buf[:max(n, 0)], err)
	}
}
