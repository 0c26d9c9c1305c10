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

// TestKeepsSetuid: a file of another owner keeps its setuid bit (a change
// of owner clears it, so the mode is set after the owner).
func TestKeepsSetuid(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs to give a file another owner")
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "p.go")
	os.WriteFile(name, []byte("old\n"), 0o644)
	if err := os.Chown(name, 65534, 65534); err != nil {
		t.Skip(err)
	}
	os.Chmod(name, 0o755|os.ModeSetuid)
	if err := WriteFileIf(name, []byte("old\n"), []byte("fixed\n")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(name)
	if fi.Mode()&os.ModeSetuid == 0 || fi.Mode().Perm() != 0o755 {
		t.Errorf("mode after the fix %v, want -rwsr-xr-x", fi.Mode())
	}
}
