package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSubcommandArgs: explain NAME is help NAME (and -explain NAME);
// explain without a name, and version or explain with arguments too many,
// are bad arguments (exit status 2) with a message, not package patterns or
// arguments ignored.
func TestSubcommandArgs(t *testing.T) {
	bin := build(t)
	help, _, code := run(t, ".", bin, "help", "doublerelease")
	explain, _, code2 := run(t, ".", bin, "explain", "doublerelease")
	if code != 0 || code2 != 0 || help != explain || !strings.HasPrefix(explain, "doublerelease: ") {
		t.Errorf("help doublerelease (status %d) and explain doublerelease (status %d) differ:\n%s\n%s", code, code2, help, explain)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"explain"}, "explain needs an analyzer name"},
		{[]string{"explain", "doublerelease", "x"}, `explain takes one analyzer name (got "doublerelease x")`},
		{[]string{"explain", "nosuch"}, `no analyzer "nosuch"`},
		{[]string{"version", "extra"}, `version takes no arguments (got "extra")`},
		{[]string{"lsp", "./..."}, `lsp takes no arguments (got "./...")`},
		{[]string{"-diff", "./..."}, "-diff needs -fix"},
		{[]string{"-fix", "-diff", "-json", "./..."}, "-diff prints a diff on standard output, which -format=json holds"},
	} {
		out, errOut, code := run(t, ".", bin, tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want status 2 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

// TestFixDiff: -fix -diff writes no file; it prints the unified diff of the
// fix on standard output (nothing else there: the findings go to standard
// error) and exits as -fix does (3: findings).
func TestFixDiff(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	src := `package p

import "sync/atomic"

type S struct{ refs int32 }

func (s *S) Unref(free func()) {
	atomic.AddInt32(&s.refs, -1)
	if atomic.LoadInt32(&s.refs) == 0 {
		free()
	}
}
`
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/d\n\ngo 1.24\n"), 0o666)
	os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o666)
	out, errOut, code := runEnv(t, dir, []string{"LIFETIMEVET_CACHE=" + t.TempDir()}, bin, "-fix", "-diff", ".")
	want := `--- a/p.go
+++ b/p.go
@@ -5,8 +5,7 @@
 type S struct{ refs int32 }
 
 func (s *S) Unref(free func()) {
-	atomic.AddInt32(&s.refs, -1)
-	if atomic.LoadInt32(&s.refs) == 0 {
+	if atomic.AddInt32(&s.refs, -1) == 0 {
 		free()
 	}
 }
`
	if out != want || code != 3 {
		t.Errorf("status %d, stdout:\n%s\nwant status 3 and:\n%s", code, out, want)
	}
	if !strings.Contains(errOut, "p.go:9: would fix: test the value atomic Add returns") || !strings.Contains(errOut, "unguardedcounter: Unref tests s.refs") {
		t.Errorf("stderr:\n%s", errOut)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "p.go")); string(got) != src {
		t.Errorf("-diff wrote the file:\n%s", got)
	}
	// a last line without a newline is marked, as patch and git apply
	// need to reproduce the file
	os.WriteFile(filepath.Join(dir, "p.go"), []byte(strings.TrimSuffix(src, "\n")), 0o666)
	out, _, _ = runEnv(t, dir, []string{"LIFETIMEVET_CACHE=" + t.TempDir()}, bin, "-fix", "-diff", ".")
	if want := want + "\\ No newline at end of file\n"; out != want {
		t.Errorf("without a final newline, stdout:\n%s\nwant:\n%s", out, want)
	}
}
