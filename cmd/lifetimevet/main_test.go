package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/lifetimevet/lifetimevet/analyzers"
	"github.com/lifetimevet/lifetimevet/internal/testutil"
)

// binDir holds the binaries the tests build, once each per test binary
// run (TestMain removes it).
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lifetimevet-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var builds sync.Map // build tags -> func() (string, error)

// build builds the command once per test binary run. Each build links a
// binary of some 40 MB, which takes a processor several seconds, more on a
// loaded machine: building it once per test made the package's tests take
// longer than go test's default timeout on a fresh 2-processor machine.
func build(t *testing.T) string {
	t.Helper()
	return buildTags(t, "")
}

// buildTags builds the command with build tags, once per test binary run.
func buildTags(t *testing.T, tags string) string {
	t.Helper()
	f, _ := builds.LoadOrStore(tags, sync.OnceValues(func() (string, error) {
		// named lifetimevet whatever the tags, as the messages name it
		dir := filepath.Join(binDir, "tags-"+strings.ReplaceAll(tags, ",", "-"))
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return "", err
		}
		bin := filepath.Join(dir, "lifetimevet")
		if runtime.GOOS == "windows" {
			bin += ".exe"
		}
		args := []string{"build", "-o", bin}
		if tags != "" {
			args = append(args, "-tags", tags)
		}
		out, err := exec.Command("go", append(args, ".")...).CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("go build: %v\n%s", err, out)
		}
		return bin, nil
	}))
	bin, err := f.(func() (string, error))()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

func moduleDir(t *testing.T) string {
	dir, err := filepath.Abs("../../testdata/mod/gpubug")
	if err != nil {
		t.Fatal(err)
	}
	// Read the module's files so that go test's cache notices changes.
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		os.ReadFile(f)
	}
	return dir
}

// run runs name with args in dir and returns its output and exit status.
func run(t *testing.T, dir, name string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return stdout.String(), stderr.String(), code
}

func TestVetProtocol(t *testing.T) {
	bin := build(t)
	out, _, code := run(t, ".", bin, "-V=full")
	id := vetToolID(t, out)
	if code != 0 || strings.Contains(out, "comments-go-here") {
		t.Errorf("-V=full: status %d, output %q", code, out)
	}
	// The identity changes with the binary.
	other, _, _ := run(t, ".", buildTags(t, "lifetimevet_testfix"), "-V=full")
	if vetToolID(t, other) == id {
		t.Errorf("-V=full: two different binaries say the same: %q", out)
	}
	out, _, code = run(t, ".", bin, "-flags")
	var flags []struct{ Name string }
	if err := json.Unmarshal([]byte(out), &flags); code != 0 || err != nil {
		t.Fatalf("-flags: status %d, %v: %s", code, err, out)
	}
	names := map[string]bool{}
	for _, f := range flags {
		names[f.Name] = true
	}
	for _, want := range []string{"doublerelease", "lifetimedirective", "model", "stdvet", "json", "printf"} {
		if !names[want] {
			t.Errorf("-flags does not list -%s", want)
		}
	}

	dir := moduleDir(t)
	_, stderr, code := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	if code == 0 || !strings.Contains(stderr, "gpubug.go:18:") || !strings.Contains(stderr, "o is released twice") {
		t.Errorf("go vet -vettool: status %d, stderr:\n%s", code, stderr)
	}
	if strings.Contains(stderr, "Sprintf") {
		t.Errorf("go vet -vettool ran vet's own checks without -stdvet:\n%s", stderr)
	}
	// The text names the analyzer at the end of the message, the JSON
	// has it as a key only, whichever of the two go vet has cached.
	if runtime.GOOS == "linux" {
		if !strings.Contains(stderr, "clear it after the first release [doublerelease]\n") {
			t.Errorf("go vet -vettool: no analyzer name at the end of the message:\n%s", stderr)
		}
		jsonOut, jsonErr, _ := run(t, dir, "go", "vet", "-vettool="+bin, "-json", "./...")
		jsonOut += jsonErr
		if !strings.Contains(jsonOut, `"doublerelease"`) || strings.Contains(jsonOut, "[doublerelease]") {
			t.Errorf("go vet -vettool -json:\n%s", jsonOut)
		}
		if _, again, _ := run(t, dir, "go", "vet", "-vettool="+bin, "./..."); !strings.Contains(again, "[doublerelease]") {
			t.Errorf("go vet -vettool after -json: no analyzer name:\n%s", again)
		}
	}
	_, stderr, _ = run(t, dir, "go", "vet", "-vettool="+bin, "-stdvet", "./...")
	if !strings.Contains(stderr, "Sprintf format %d has arg") || !strings.Contains(stderr, "o is released twice") {
		t.Errorf("go vet -vettool -stdvet: want both vet's and lifetimevet's findings, got:\n%s", stderr)
	}
	_, stderr, code = run(t, dir, "go", "vet", "-vettool="+bin, "-doublerelease=false", "./...")
	if code != 0 || strings.Contains(stderr, "released twice") {
		t.Errorf("go vet -vettool -doublerelease=false: status %d, stderr:\n%s", code, stderr)
	}
}

// vetToolID parses -V=full's output as the go command does (cmd/go's
// toolID) and returns the identity it keys go vet's cache on.
func vetToolID(t *testing.T, out string) string {
	t.Helper()
	f := strings.Fields(out)
	if len(f) < 4 || f[1] != "version" || !strings.HasPrefix(f[len(f)-1], "buildID=") || len(f[len(f)-1]) < len("buildID=")+32 {
		t.Fatalf("-V=full: %q is not NAME version VERSION buildID=ID", out)
	}
	if strings.Contains(f[2], "devel") {
		return f[len(f)-1]
	}
	if !strings.HasPrefix(f[2], "v") {
		t.Errorf("-V=full: version %q is neither devel nor a module version", f[2])
	}
	return strings.TrimSpace(out)
}

// -version and the version command print the module's version and the
// revision it was built from, or say that none was recorded.
func TestVersion(t *testing.T) {
	bin := build(t)
	out1, _, code1 := run(t, ".", bin, "-version")
	out2, _, code2 := run(t, ".", bin, "version")
	if code1 != 0 || code2 != 0 || out1 != out2 {
		t.Fatalf("-version (status %d) and version (status %d) differ:\n%s\n%s", code1, code2, out1, out2)
	}
	if !strings.Contains(out1, "module github.com/lifetimevet/lifetimevet ") || !strings.Contains(out1, "revision ") || !strings.Contains(out1, "built with go") {
		t.Errorf("version:\n%s", out1)
	}
	vet, _, _ := run(t, ".", bin, "-V=full")
	if v := strings.Fields(out1)[1]; v != "devel" && !strings.Contains(vet, " "+v+" ") && !strings.Contains(vet, strings.TrimPrefix(v, "devel+")) {
		t.Errorf("-version says %s, -V=full %s", v, vet)
	}
}

// A bad model file under go vet names file, line and problem, and fails
// every run: go vet caches a unit's output when the tool exits 0.
func TestVetBadModel(t *testing.T) {
	bin := build(t)
	dir := moduleDir(t)
	bad := filepath.Join(t.TempDir(), "bad.model")
	if err := os.WriteFile(bad, []byte("library x\nfrobnicate f\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		_, stderr, code := run(t, dir, "go", "vet", "-vettool="+bin, "-model="+bad, "./...")
		if code == 0 || !strings.Contains(stderr, "bad.model:2: unknown verb \"frobnicate\"") {
			t.Errorf("run %d: go vet -model=bad: status %d, stderr:\n%s", i+1, code, stderr)
		}
		if strings.Contains(stderr, "failed prerequisites") {
			t.Errorf("run %d: the model error is hidden behind unitchecker's:\n%s", i+1, stderr)
		}
	}
}

var finding = regexp.MustCompile(`(?m)^\S+\.go:\d+:\d+: .+$`)

func TestStandalone(t *testing.T) {
	bin := build(t)
	dir := moduleDir(t)

	out, stderr, code := run(t, dir, bin)
	if code != 3 {
		t.Errorf("findings: status %d, want 3 (stderr %s)", code, stderr)
	}
	lines := finding.FindAllString(out, -1)
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "gpubug.go:18:") || !strings.Contains(out, ": doublerelease: ") {
		t.Errorf("want one doublerelease finding at gpubug.go:18, got:\n%s", out)
	}
	// help lists the analyzers one a line, with their titles, and not
	// each one's enable flag.
	if out, stderr, code := run(t, dir, bin, "help"); code != 0 || stderr != "" {
		t.Errorf("help: status %d, stderr %q", code, stderr)
	} else {
		for _, a := range analyzers.All {
			title := strings.TrimSpace(analyzers.Docs[a.Name].Compile().Title)
			if !regexp.MustCompile(`(?m)^\s+` + a.Name + `\s+` + regexp.QuoteMeta(title) + `$`).MatchString(out) {
				t.Errorf("help: no line for analyzer %s (%s):\n%s", a.Name, title, out)
			}
		}
		if strings.Contains(out, "enable the doublerelease analyzer") {
			t.Errorf("help lists each analyzer's enable flag:\n%s", out)
		}
	}

	out, _, code = run(t, dir, bin, "-json", "./...")
	var tree map[string]map[string][]struct{ Posn, Message string }
	if err := json.Unmarshal([]byte(out), &tree); err != nil || code != 0 {
		t.Fatalf("-json: status %d, %v:\n%s", code, err, out)
	}
	if d := tree["example.com/gpubug"]["doublerelease"]; len(d) != 1 || !strings.Contains(d[0].Message, "released twice") {
		t.Errorf("-json: %s", out)
	}

	if out, _, code := run(t, dir, bin, "-doublerelease=false"); code != 0 || out != "" {
		t.Errorf("-doublerelease=false: status %d, output %q", code, out)
	}
	// A bad flag: one line, and where the help is.
	if _, stderr, code := run(t, dir, bin, "-nosuchflag"); code != 2 || stderr != "lifetimevet: flag provided but not defined: -nosuchflag\nrun 'lifetimevet help' for usage\n" {
		t.Errorf("bad flag: status %d, want 2; stderr:\n%s", code, stderr)
	}
	if _, stderr, code := run(t, dir, bin, "models", "-nosuchflag"); code != 2 || strings.Count(stderr, "\n") != 2 {
		t.Errorf("models, bad flag: status %d, want 2; stderr:\n%s", code, stderr)
	}
	if _, _, code := run(t, dir, bin, "./nosuchpackage"); code != 1 {
		t.Errorf("missing package: status %d, want 1", code)
	}
	model := filepath.Join(t.TempDir(), "bad.model")
	os.WriteFile(model, []byte("library x\nrelease\n"), 0o666)
	if _, stderr, code := run(t, dir, bin, "-model="+model); code != 1 || !strings.Contains(stderr, "bad.model:2: release needs a C function name") {
		t.Errorf("bad model file: status %d, stderr %s", code, stderr)
	}
}

// TestSharedCases scores the build against the project's shared cases (when
// the checkout has them beside it): full recall for the analyzers built so
// far, and no finding anywhere that a case does not expect.
func TestSharedCases(t *testing.T) {
	cases, _ := filepath.Abs("../../../shared/cases")
	script, _ := filepath.Abs("../../../shared/tools/vetcases.py")
	if _, err := os.Stat(script); err != nil {
		t.Skip("no shared cases beside the checkout")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	testutil.Integration(t, "runs every shared case under go vet")
	bin := build(t)
	out, stderr, code := run(t, ".", "python3", script, bin, cases, "--analyzers", "doublerelease", "--min-recall", "1")
	if code != 0 {
		t.Errorf("doublerelease recall: %s%s", out, stderr)
	}
	out, stderr, _ = run(t, ".", "python3", script, bin, cases)
	if !strings.Contains(out, "false positives 0") {
		t.Errorf("false positives on the shared cases:\n%s%s", out, stderr)
	}
}

// A pointer handed to the package's own C (a .c file beside the Go files)
// may be kept by it, so a missing free is not reported; under go vet too,
// which does not list a cgo package's .c files (it used to report it). A
// C function the package only declares is someone else's: the leak is
// reported by both.
func TestOwnCFilesBothWays(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	src := `package %s

/*
#include <stdlib.h>
int keep(char *p);
*/
import "C"
import "unsafe"

func F(fail bool) int {
	p := C.CString("x")
	C.keep(p)
	if fail {
		return 1
	}
	C.free(unsafe.Pointer(p))
	return 0
}
`
	for name, text := range map[string]string{
		"go.mod":     "module m\n\ngo 1.22\n",
		"own/own.go": fmt.Sprintf(src, "own"),
		"own/keep.c": "int keep(char *p) { return p[0]; }\n",
		"ext/ext.go": fmt.Sprintf(src, "ext"),
	} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o777)
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	stdout, stderr, _ := run(t, dir, bin, "./...")
	_, vetOut, _ := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	for tool, out := range map[string]string{"standalone": stdout + stderr, "go vet": vetOut} {
		if !strings.Contains(out, "ext.go:11:16: handleleak:") && !strings.Contains(out, "ext.go:11:16: the handle") {
			t.Errorf("%s: the leak in ext (C.keep declared only) is not reported:\n%s", tool, out)
		}
		if strings.Contains(out, "own.go") {
			t.Errorf("%s: the pointer given to the package's own C is reported:\n%s", tool, out)
		}
	}
}

// A relative -model under go vet is read from the main module's root,
// from whichever directory go vet runs the tool in; one that is not there
// is said once, before any package.
func TestVetRelativeModel(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the go vet command line is read from /proc")
	}
	bin := build(t)
	dir := t.TempDir()
	src := moduleDir(t)
	for _, name := range []string{"go.mod", "gpubug.go"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), data, 0o666)
	}
	os.MkdirAll(filepath.Join(dir, "lifetime"), 0o777)
	os.WriteFile(filepath.Join(dir, "lifetime", "mine.model"), []byte("library mine\nrelease my_dispose\n"), 0o666)
	_, stderr, code := run(t, dir, "go", "vet", "-vettool="+bin, "-model=lifetime/mine.model", "./...")
	if code == 0 || !strings.Contains(stderr, "o is released twice") || strings.Contains(stderr, "mine.model") {
		t.Errorf("go vet -model=lifetime/mine.model: status %d, stderr:\n%s", code, stderr)
	}
	_, stderr, code = run(t, dir, "go", "vet", "-vettool="+bin, "-model=lifetime/nosuch.model", "./...")
	want := "-model=lifetime/nosuch.model: under go vet a relative model file is read from the main module's root"
	if code == 0 || strings.Count(stderr, want) != 1 || strings.Contains(stderr, "released twice") {
		t.Errorf("go vet -model=lifetime/nosuch.model: status %d, want the reason once; stderr:\n%s", code, stderr)
	}
}

// Under go vet, a finding below the user's own relative //line directive
// in a cgo file names the user's file, resolved against its directory as
// the compiler does, not go's work directory (deleted after the run).
func TestVetLineDirective(t *testing.T) {
	bin := build(t)
	dir := writeTree(t, map[string]string{
		"go.mod": "module example.com/l\n\ngo 1.22\n",
		"p/a.go": "package p\n\n/*\n#include <stdlib.h>\n*/\nimport \"C\"\n\nimport \"unsafe\"\n\n//line gen.tmpl:100\nfunc Twice() { p := C.malloc(8); C.free(unsafe.Pointer(p)); C.free(unsafe.Pointer(p)) }\n",
	})
	_, stderr, code := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	want := filepath.Join(dir, "p", "gen.tmpl") + ":100"
	if code == 0 || !strings.Contains(stderr, want+": ") || strings.Contains(stderr, "go-build") {
		t.Errorf("go vet -vettool: status %d, want a finding at %s, stderr:\n%s", code, want, stderr)
	}
}
