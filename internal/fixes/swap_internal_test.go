package fixes

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// leftovers returns the files of dir other than want.
func leftovers(t *testing.T, dir string, want ...string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		keep := false
		for _, w := range want {
			keep = keep || e.Name() == w
		}
		if !keep {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestWriteFileIfKeepsSave: a save made while the fix is being written
// (after the new content is on the disk, before it takes the file's
// place), in place or by an editor's rename, is kept, the fix is refused
// with ErrChanged, and nothing but the run's own temporary file is
// removed. A file that still holds what was read is replaced.
func TestWriteFileIfKeepsSave(t *testing.T) {
	for _, how := range []string{"none", "in place", "by rename"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "p.go")
			if err := os.WriteFile(name, []byte("old\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			saved := []byte("saved by the editor\n")
			beforeSwap = func() {
				switch how {
				case "in place":
					os.WriteFile(name, saved, 0o644)
				case "by rename":
					os.WriteFile(filepath.Join(dir, "p.go~"), saved, 0o644)
					os.Rename(filepath.Join(dir, "p.go~"), name)
				}
			}
			defer func() { beforeSwap = nil }()
			err := WriteFileIf(name, []byte("old\n"), []byte("fixed\n"))
			got, _ := os.ReadFile(name)
			if how == "none" {
				if err != nil || string(got) != "fixed\n" {
					t.Fatalf("err %v, content %q; want nil and the fix", err, got)
				}
			} else if !errors.Is(err, ErrChanged) || string(got) != string(saved) {
				t.Fatalf("err %v, content %q; want ErrChanged and the save kept", err, got)
			}
			if left := leftovers(t, dir, "p.go"); len(left) != 0 {
				t.Errorf("files left in the directory: %v", left)
			}
		})
	}
}

// TestRenameIf is the check where the file system cannot exchange: a file
// that changed is not replaced.
func TestRenameIf(t *testing.T) {
	dir := t.TempDir()
	name, tmp := filepath.Join(dir, "p.go"), filepath.Join(dir, ".tmp")
	os.WriteFile(name, []byte("saved\n"), 0o644)
	os.WriteFile(tmp, []byte("fixed\n"), 0o644)
	if err := renameIf(tmp, name, []byte("old\n")); !errors.Is(err, ErrChanged) {
		t.Errorf("renameIf over a changed file: %v, want ErrChanged", err)
	}
	if got, _ := os.ReadFile(name); string(got) != "saved\n" {
		t.Errorf("content %q, want the save kept", got)
	}
	os.WriteFile(tmp, []byte("fixed\n"), 0o644)
	if err := renameIf(tmp, name, []byte("saved\n")); err != nil {
		t.Errorf("renameIf over an unchanged file: %v", err)
	}
	if got, _ := os.ReadFile(name); string(got) != "fixed\n" {
		t.Errorf("content %q, want the fix", got)
	}
	if left := leftovers(t, dir, "p.go"); len(left) != 0 {
		t.Errorf("files left in the directory: %v", left)
	}
}
