//go:build linux

package fixes

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
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
