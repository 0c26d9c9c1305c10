//go:build unix

package fixes

import (
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSignalRemovesTemp: a run stopped by SIGTERM while a fix's new
// content is on the disk, before it takes the file's place, leaves the
// file as it was and no temporary file beside it, and ends by the signal.
func TestSignalRemovesTemp(t *testing.T) {
	if name := os.Getenv("LIFETIMEVET_TEST_IGNORED_FILE"); name != "" {
		// a run under nohup: the signal is ignored, and stays so
		signal.Ignore(syscall.SIGTERM)
		beforeSwap = func() {
			syscall.Kill(os.Getpid(), syscall.SIGTERM)
			time.Sleep(100 * time.Millisecond)
		}
		if err := WriteFileIf(name, []byte("old\n"), []byte("fixed\n")); err != nil {
			os.Exit(3)
		}
		os.Exit(0)
	}
	if name := os.Getenv("LIFETIMEVET_TEST_SIGNAL_FILE"); name != "" {
		beforeSwap = func() {
			syscall.Kill(os.Getpid(), syscall.SIGTERM)
			time.Sleep(10 * time.Second)
		}
		WriteFileIf(name, []byte("old\n"), []byte("fixed\n"))
		os.Exit(0) // not reached
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "p.go")
	os.WriteFile(name, []byte("old\n"), 0o644)
	cmd := exec.Command(os.Args[0], "-test.run=^TestSignalRemovesTemp$")
	cmd.Env = append(os.Environ(), "LIFETIMEVET_TEST_SIGNAL_FILE="+name)
	err := cmd.Run()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
		t.Errorf("the run ended with %v, want killed by SIGTERM", err)
	}
	if got, _ := os.ReadFile(name); string(got) != "old\n" {
		t.Errorf("content %q, want the file as it was", got)
	}
	if left := leftovers(t, dir, "p.go"); len(left) != 0 {
		t.Errorf("files left in the directory: %v", left)
	}
	cmd = exec.Command(os.Args[0], "-test.run=^TestSignalRemovesTemp$")
	cmd.Env = append(os.Environ(), "LIFETIMEVET_TEST_IGNORED_FILE="+name)
	if err := cmd.Run(); err != nil {
		t.Errorf("with SIGTERM ignored, the run ended with %v, want the fix made", err)
	}
	if got, _ := os.ReadFile(name); string(got) != "fixed\n" {
		t.Errorf("with SIGTERM ignored, content %q, want the fix", got)
	}
}
