//go:build linux

package fixes

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalDuringExchange: a SIGTERM that arrives between the exchange
// and its check (when the temporary name holds the file's old content)
// waits until the check is done: the run ends by the signal with the
// file fixed and nothing beside it (break-it trials 6 and 7, D7: the
// temporary file was left, holding the old content).
func TestSignalDuringExchange(t *testing.T) {
	if name := os.Getenv("LIFETIMEVET_TEST_EXCHANGE_FILE"); name != "" {
		exchangedTest = func(string) {
			syscall.Kill(os.Getpid(), syscall.SIGTERM)
			time.Sleep(300 * time.Millisecond) // the handler runs now, unless it waits
		}
		WriteFileIf(name, []byte("old\n"), []byte("fixed\n"))
		time.Sleep(10 * time.Second) // the signal ends the process first
		os.Exit(0)
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "p.go")
	os.WriteFile(name, []byte("old\n"), 0o644)
	cmd := exec.Command(os.Args[0], "-test.run=^TestSignalDuringExchange$")
	cmd.Env = append(os.Environ(), "LIFETIMEVET_TEST_EXCHANGE_FILE="+name)
	err := cmd.Run()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
		t.Errorf("the run ended with %v, want killed by SIGTERM", err)
	}
	if got, _ := os.ReadFile(name); string(got) != "fixed\n" {
		t.Errorf("content %q, want the fix (the exchange was made before the signal)", got)
	}
	if left := leftovers(t, dir, "p.go"); len(left) != 0 {
		t.Errorf("files left in the directory: %v", left)
	}
}

// TestExchangeKeepsLinks: a symlink or a second hard link made in the
// file's place while the fix is written, even to the same content, is put
// back as it was and the fix refused (break-it trial 6, D8: the symlink
// became a regular file holding the fix).
func TestExchangeKeepsLinks(t *testing.T) {
	for _, how := range []string{"symlink", "hard link"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "p.go")
			other := filepath.Join(dir, "other.go")
			os.WriteFile(name, []byte("old\n"), 0o644)
			beforeSwap = func() {
				switch how {
				case "symlink":
					os.WriteFile(other, []byte("old\n"), 0o644)
					os.Remove(name)
					os.Symlink("other.go", name)
				case "hard link":
					os.Link(name, other)
				}
			}
			defer func() { beforeSwap = nil }()
			err := WriteFileIf(name, []byte("old\n"), []byte("fixed\n"))
			if !errors.Is(err, ErrChanged) {
				t.Errorf("err %v, want ErrChanged", err)
			}
			fi, lerr := os.Lstat(name)
			if lerr != nil {
				t.Fatal(lerr)
			}
			if how == "symlink" && fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("p.go is %v, want the symlink kept", fi.Mode())
			}
			if how == "hard link" && hardLinks(fi) != 2 {
				t.Errorf("p.go has %d links, want 2 (kept)", hardLinks(fi))
			}
			for _, f := range []string{name, other} {
				if got, _ := os.ReadFile(f); string(got) != "old\n" {
					t.Errorf("%s holds %q, want it as it was", filepath.Base(f), got)
				}
			}
			if left := leftovers(t, dir, "p.go", "other.go"); len(left) != 0 {
				t.Errorf("files left in the directory: %v", left)
			}
		})
	}
}

// TestNoExchangeKeepsSave: on a file system that cannot exchange (NFS,
// FUSE: renameat2 gives EINVAL), a save made in place between the check
// and the rename is kept and the fix refused with ErrChanged (break-it
// trial 9, A1: the save was overwritten); a save by an editor's rename
// before the link is kept too, a file that still holds what was read is
// fixed, and nothing is left beside it. Where the file system has no hard
// links either, the file is fixed and WriteFileIf says ErrUnchecked.
func TestNoExchangeKeepsSave(t *testing.T) {
	defer func(e func(a, b string) error) { exchange = e }(exchange)
	exchange = func(a, b string) error { return syscall.EINVAL }
	for _, how := range []string{"none", "in place", "by rename", "no links"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "p.go")
			if err := os.WriteFile(name, []byte("old\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			saved := []byte("old\n// saved by the editor\n")
			if how == "in place" {
				// an editor that rewrites the file, just before the
				// rename
				beforeRename = func() {
					f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
					if err != nil {
						t.Error(err)
						return
					}
					f.WriteString("// saved by the editor\n")
					f.Close()
				}
			}
			if how == "by rename" {
				// an editor that renames its file over it, after the
				// check, before the link: the link pins the save
				defer func(l func(a, b string) error) { link = l }(link)
				link = func(a, b string) error {
					os.WriteFile(filepath.Join(dir, "p.go~"), saved, 0o644)
					os.Rename(filepath.Join(dir, "p.go~"), name)
					return os.Link(a, b)
				}
			}
			if how == "no links" {
				defer func(l func(a, b string) error) { link = l }(link)
				link = func(a, b string) error { return &os.LinkError{Op: "link", Old: a, New: b, Err: syscall.EPERM} }
			}
			defer func() { beforeRename = nil }()
			err := WriteFileIf(name, []byte("old\n"), []byte("fixed\n"))
			got, _ := os.ReadFile(name)
			switch how {
			case "none":
				if err != nil || string(got) != "fixed\n" {
					t.Fatalf("err %v, content %q; want nil and the fix", err, got)
				}
			case "no links":
				if !errors.Is(err, ErrUnchecked) || string(got) != "fixed\n" {
					t.Fatalf("err %v, content %q; want ErrUnchecked and the fix", err, got)
				}
			default:
				if !errors.Is(err, ErrChanged) || string(got) != string(saved) {
					t.Fatalf("err %v, content %q; want ErrChanged and the save kept", err, got)
				}
			}
			if left := leftovers(t, dir, "p.go"); len(left) != 0 {
				t.Errorf("files left in the directory: %v", left)
			}
		})
	}
}

// TestApplyUncheckedNotice: files fixed where the second check cannot be
// made are fixed, not errors, and Apply says once (Notices) that a save
// made meanwhile may be lost.
func TestApplyUncheckedNotice(t *testing.T) {
	defer func(e, l func(a, b string) error) { exchange, link = e, l }(exchange, link)
	exchange = func(a, b string) error { return syscall.EINVAL }
	link = func(a, b string) error { return &os.LinkError{Op: "link", Old: a, New: b, Err: syscall.EOPNOTSUPP} }
	dir := t.TempDir()
	var fixes []*Fix
	for _, base := range []string{"a.go", "b.go"} {
		name := filepath.Join(dir, base)
		if err := os.WriteFile(name, []byte("package p\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		fixes = append(fixes, &Fix{Message: "add a declaration", Edits: []Edit{{File: name, Start: 10, End: 10, New: "\nvar x int\n"}}})
	}
	var fs Files
	changed, _, err := fs.Apply(fixes, nil)
	if err != nil || len(changed) != 2 {
		t.Fatalf("Apply: changed %v, %v; want both fixed", changed, err)
	}
	n := fs.Notices()
	if len(n) != 1 || !strings.Contains(n[0], "a.go: fixed, but") || !strings.Contains(n[0], "may be lost") {
		t.Errorf("Notices: %q; want one, that a save made meanwhile may be lost", n)
	}
}
