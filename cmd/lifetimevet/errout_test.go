package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorOutput checks the error output a user reads: what go list said,
// without go/packages' wrapping; no "-: " before a message without a
// position; findings under a relative //line directive of a cgo file named
// against the file's directory, not the build cache.
func TestErrorOutput(t *testing.T) {
	bin := build(t)
	write := func(dir string, files map[string]string) {
		for name, content := range files {
			os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o777)
			os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666)
		}
	}

	bad := t.TempDir()
	write(bad, map[string]string{"go.mod": "module example.com/bad\n\ngo 1.24\nrequire (\n", "x.go": "package x\n"})
	_, stderr, code := run(t, bad, bin, "./...")
	if code != 1 || strings.Contains(stderr, "exit status") || strings.Contains(stderr, "stderr:") || !strings.Contains(stderr, "errors parsing go.mod") {
		t.Errorf("a broken go.mod: status %d, stderr:\n%s", code, stderr)
	}

	mod := t.TempDir()
	write(mod, map[string]string{"go.mod": "module example.com/rel\n\ngo 1.24\n", "x.go": "package x\n"})
	_, stderr, code = run(t, mod, bin, "./nothere/...")
	if code != 1 || strings.Contains(stderr, "-: ") || !strings.Contains(stderr, "nothere") {
		t.Errorf("a pattern that matches nothing: status %d, stderr:\n%s", code, stderr)
	}

	write(mod, map[string]string{"twice.go": `package x

/*
#include <stdlib.h>
*/
import "C"

//line grammar/gen.y:10
func Twice() {
	p := C.malloc(8)
	C.free(p)
	C.free(p)
}
`})
	out, stderr, code := run(t, mod, bin, "./...")
	if code != 3 || !strings.HasPrefix(out, filepath.Join("grammar", "gen.y")+":13:") || strings.Contains(out, "go-build") {
		t.Errorf("a relative //line directive in a cgo file: status %d, output:\n%s%s", code, out, stderr)
	}

	// cgo in a test file: go list fails on the package, and cgo does not
	// run; what go list said is the error, with the file named relative
	// to the directory, not each file's "could not import C (no
	// metadata for C)" that follows from it; in SARIF as well
	cgotest := t.TempDir()
	write(cgotest, map[string]string{
		"go.mod":    "module example.com/ct\n\ngo 1.24\n",
		"p.go":      "package p\n\n// #include <stdlib.h>\nimport \"C\"\n\nfunc F() { C.free(nil) }\n",
		"p_test.go": "package p\n\n// #include <stdlib.h>\nimport \"C\"\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { C.free(nil) }\n",
	})
	_, stderr, code = run(t, cgotest, bin, "./...")
	if code != 1 || strings.Contains(stderr, "no metadata") || strings.Contains(stderr, cgotest) || !strings.Contains(stderr, "use of cgo in test p_test.go not supported") {
		t.Errorf("cgo in a test file: status %d, stderr:\n%s", code, stderr)
	}
	out, _, _ = run(t, cgotest, bin, "-format=sarif", "./...")
	if strings.Contains(out, "no metadata") || !strings.Contains(out, "use of cgo in test p_test.go not supported") {
		t.Errorf("cgo in a test file: SARIF\n%s", out)
	}

	// an import whose module has no go.sum entry: go list's error, not
	// the "could not import C" that follows from it
	nosum := t.TempDir()
	write(nosum, map[string]string{
		"go.mod": "module example.com/ns\n\ngo 1.24\n\nrequire golang.org/x/text v0.3.0\n",
		"p.go":   "package p\n\n// #include <stdlib.h>\nimport \"C\"\n\nimport _ \"golang.org/x/text/language\"\n\nfunc F() { C.free(nil) }\n",
	})
	_, stderr, code = runEnv(t, nosum, []string{"GOFLAGS=-mod=readonly"}, bin, "-test=false", "./...")
	if code != 1 || strings.Contains(stderr, "no metadata") || !strings.Contains(stderr, "missing go.sum entry") {
		t.Errorf("no go.sum entry: status %d, stderr:\n%s", code, stderr)
	}
}

// An empty -tags= overrides the -tags of GOFLAGS, as in go list: a file
// that only those tags select is not analysed.
func TestEmptyTags(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/tg\n\ngo 1.24\n",
		"p.go":   "package p\n",
		"q.go":   "//go:build a\n\npackage p\n\n// #include <stdlib.h>\nimport \"C\"\n\nimport \"unsafe\"\n\nfunc G(p unsafe.Pointer) {\n\tC.free(p)\n\tC.free(p)\n}\n",
	})
	for _, tc := range []struct {
		args []string
		want int // exit status: 3 with the finding in q.go
	}{
		{[]string{"./..."}, 3},
		{[]string{"-tags=", "./..."}, 0},
	} {
		cmd := exec.Command(bin, tc.args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod -tags=a", "GOWORK=off", "LIFETIMEVET_CACHE="+t.TempDir())
		out, _ := cmd.CombinedOutput()
		if cmd.ProcessState.ExitCode() != tc.want {
			t.Errorf("GOFLAGS=-tags=a lifetimevet %q: status %d, want %d:\n%s", tc.args, cmd.ProcessState.ExitCode(), tc.want, out)
		}
	}
}
