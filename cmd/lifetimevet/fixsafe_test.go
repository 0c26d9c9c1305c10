package main_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const fixSafeSrc = `package %s

/*
typedef struct { int live; } obj;
static void obj_use(obj* o) { o->live = 1; }
*/
import "C"

import "runtime"

func Use(p *C.obj) {
	C.obj_use(p)
}

var _ = runtime.KeepAlive
`

func fixSafeTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/fixsafe\n\ngo 1.24\n"), 0o666)
	for _, p := range []string{"a", "b", "link"} {
		os.Mkdir(filepath.Join(dir, p), 0o777)
	}
	os.WriteFile(filepath.Join(dir, "a", "a.go"), []byte(strings.ReplaceAll(fixSafeSrc, "%s", "a")), 0o666)
	os.WriteFile(filepath.Join(dir, "b", "b.go"), []byte(strings.ReplaceAll(fixSafeSrc, "%s", "b")), 0o666)
	if err := os.Symlink("../a/a.go", filepath.Join(dir, "link", "a.go")); err != nil {
		t.Skipf("symlink: %v", err)
	}
	return dir
}

func runEnv(t *testing.T, dir string, env []string, name string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "CGO_ENABLED=1"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return stdout.String(), stderr.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return stdout.String(), stderr.String(), 0
}

func fixedSrc(pkg string) string {
	return strings.Replace(strings.ReplaceAll(fixSafeSrc, "%s", pkg), "\tC.obj_use(p)\n", "\tC.obj_use(p)\n\truntime.KeepAlive(p)\n", 1)
}

// TestFixSafety checks -fix on a tree where two packages reach one file
// (link/a.go is a symlink to a/a.go), where a file is edited while the run
// goes on, and where a file cannot be written: the files are checked byte
// for byte.
func TestFixSafety(t *testing.T) {
	bin := buildTags(t, "lifetimevet_testfix")
	fileA := func(dir string) string { return filepath.Join(dir, "a", "a.go") }
	fileB := func(dir string) string { return filepath.Join(dir, "b", "b.go") }
	read := func(name string) string { data, _ := os.ReadFile(name); return string(data) }

	t.Run("symlink", func(t *testing.T) {
		dir := fixSafeTree(t)
		_, stderr, code := runEnv(t, dir, nil, bin, "-testkeepalive", "-fix", "./...")
		if code != 3 {
			t.Errorf("status %d, want 3:\n%s", code, stderr)
		}
		// written once, under one name
		if strings.Count(stderr, "fixed:") != 2 || !strings.Contains(stderr, "a/a.go:12: fixed: add runtime.KeepAlive(p)") || strings.Contains(stderr, "link/a.go:12: fixed") {
			t.Errorf("stderr:\n%s", stderr)
		}
		if got := read(fileA(dir)); got != fixedSrc("a") {
			t.Errorf("a/a.go (reached twice):\n%s", got)
		}
		if got := read(fileB(dir)); got != fixedSrc("b") {
			t.Errorf("b/b.go:\n%s", got)
		}
	})
	t.Run("edited", func(t *testing.T) {
		dir := fixSafeTree(t)
		_, stderr, code := runEnv(t, dir, []string{"LIFETIMEVET_TESTFIX_EDIT=" + fileA(dir)}, bin, "-testkeepalive", "-fix", "./...")
		if code != 1 {
			t.Errorf("status %d, want 1", code)
		}
		if !strings.Contains(stderr, "a.go: not fixed: the file changed since it was analysed") {
			t.Errorf("stderr does not name the edited file:\n%s", stderr)
		}
		if got, want := read(fileA(dir)), "// edited during the run\n"+strings.ReplaceAll(fixSafeSrc, "%s", "a"); got != want {
			t.Errorf("a/a.go, edited during the run, was rewritten:\n%s", got)
		}
		if got := read(fileB(dir)); got != fixedSrc("b") {
			t.Errorf("b/b.go:\n%s", got)
		}
	})
	t.Run("unwritable", func(t *testing.T) {
		dir := fixSafeTree(t)
		_, stderr, code := runEnv(t, dir, []string{"LIFETIMEVET_TESTFIX_NOWRITE=b.go"}, bin, "-testkeepalive", "-fix", "./...")
		if code != 1 {
			t.Errorf("status %d, want 1", code)
		}
		if !strings.Contains(stderr, "b.go: not fixed: writing it: read-only file system") {
			t.Errorf("stderr does not name the file that could not be written:\n%s", stderr)
		}
		if got := read(fileA(dir)); got != fixedSrc("a") {
			t.Errorf("a/a.go:\n%s", got)
		}
		if got, want := read(fileB(dir)), strings.ReplaceAll(fixSafeSrc, "%s", "b"); got != want {
			t.Errorf("b/b.go:\n%s", got)
		}
	})
	t.Run("linedirective", func(t *testing.T) {
		dir := t.TempDir()
		notes := strings.Repeat("notes, not Go\n", 30)
		os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/fixsafe\n\ngo 1.24\n"), 0o666)
		os.WriteFile(filepath.Join(dir, "notes.txt"), []byte(notes), 0o666)
		src := strings.Replace(strings.ReplaceAll(fixSafeSrc, "%s", "a"), "func Use(", "//line "+filepath.Join(dir, "notes.txt")+":20:1\nfunc Use(", 1)
		os.WriteFile(filepath.Join(dir, "a.go"), []byte(src), 0o666)
		sarifOut, _, _ := runEnv(t, dir, nil, bin, "-testkeepalive", "-format", "sarif", "./...")
		if strings.Contains(sarifOut, "artifactChanges") || !strings.Contains(sarifOut, "notes.txt, which is not a file of the package") {
			t.Errorf("SARIF offers a fix outside the package, or says nothing:\n%s", sarifOut)
		}
		_, stderr, _ := runEnv(t, dir, nil, bin, "-testkeepalive", "-fix", "./...")
		if !strings.Contains(stderr, "notes.txt, which is not a file of the package") {
			t.Errorf("-fix does not say why it dropped the fix:\n%s", stderr)
		}
		if got := read(filepath.Join(dir, "notes.txt")); got != notes {
			t.Errorf("notes.txt was written:\n%s", got)
		}
		if got := read(filepath.Join(dir, "a.go")); got != src {
			t.Errorf("a.go was written:\n%s", got)
		}
	})
}
