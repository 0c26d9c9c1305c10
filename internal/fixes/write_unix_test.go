//go:build unix

package fixes_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lifetimevet/lifetimevet/internal/fixes"
)

// A write that fails part way (a full disk, a quota; here the file size
// limit of the process) leaves the file as it was, byte for byte, and no
// temporary file behind; the error says the file is unchanged.
func TestApplyFailedWriteLeavesFile(t *testing.T) {
	if name := os.Getenv("LIFETIMEVET_TEST_FSIZE_FILE"); name != "" {
		// the child: the size limit is the whole process's (the test
		// log of go test's cache would hit it too), so it is set here
		fix := &fixes.Fix{Message: "add a line", Edits: []fixes.Edit{{File: name, Start: 10, End: 10, New: strings.Repeat("// a long insertion\n", 100)}}}
		var old syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
			os.Exit(4)
		}
		limit := old
		limit.Cur = 4096 // past the file's size, short of the fixed file's
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &limit); err != nil {
			os.Exit(4)
		}
		var fs fixes.Files
		changed, _, err := fs.Apply([]*fixes.Fix{fix}, nil)
		fmt.Printf("%d %v", len(changed), err)
		os.Exit(0)
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "p.go")
	src := "package p\n\n" + strings.Repeat("// the rest of the user's code\n", 300)
	os.WriteFile(name, []byte(src), 0o640)
	cmd := exec.Command(os.Args[0], "-test.run=^TestApplyFailedWriteLeavesFile$")
	cmd.Env = append(os.Environ(), "LIFETIMEVET_TEST_FSIZE_FILE="+name)
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 4 {
		t.Skip("no file size limit here")
	}
	if got := string(out); err != nil || !strings.HasPrefix(got, "0 ") || !strings.Contains(got, "p.go: not fixed: writing it: file too large (the file is as it was)") {
		t.Errorf("%v: %s", err, got)
	}
	if got := readString(t, name); got != src {
		t.Errorf("after a failed write the file has %d bytes, want its %d", len(got), len(src))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left in the directory: %v", entries)
	}
}

// WriteFile keeps the file's mode, writes through a symlink (the link
// stays a link), and refuses a file with other hard links (replacing it
// would leave them with the old content).
func TestWriteFileKeepsModeAndLinks(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "p.go")
	os.WriteFile(name, []byte("old\n"), 0o600)
	os.Chmod(name, 0o751)
	if err := fixes.WriteFile(name, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(name); fi.Mode().Perm() != 0o751 || readString(t, name) != "new\n" {
		t.Errorf("after WriteFile: mode %v, content %q", fi.Mode(), readString(t, name))
	}

	link := filepath.Join(dir, "link.go")
	if err := os.Symlink("p.go", link); err != nil {
		t.Skip(err)
	}
	if err := fixes.WriteFile(link, []byte("newer\n")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 || readString(t, name) != "newer\n" {
		t.Errorf("after WriteFile through a link: link mode %v, file %q", fi.Mode(), readString(t, name))
	}

	// a read-only file is not replaced, by root either (who may open it
	// for writing, and rename over it)
	os.Chmod(name, 0o444)
	if err := fixes.WriteFile(name, []byte("newest\n")); err == nil || readString(t, name) != "newer\n" {
		t.Errorf("WriteFile of a read-only file: %v, %q", err, readString(t, name))
	}
	os.Chmod(name, 0o644)

	hard := filepath.Join(dir, "hard.go")
	if err := os.Link(name, hard); err != nil {
		t.Skip(err)
	}
	if err := fixes.WriteFile(name, []byte("newest\n")); err == nil || !strings.Contains(err.Error(), "2 hard links") {
		t.Errorf("WriteFile of a file with two names: %v", err)
	}
	if readString(t, name) != "newer\n" || readString(t, hard) != "newer\n" {
		t.Errorf("a refused write changed the file: %q, %q", readString(t, name), readString(t, hard))
	}
}
