package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goLogger puts a go command first on PATH that logs each invocation's
// arguments to a file and runs the real one; it returns the environment
// to give the server and a function that returns the invocations so far.
func goLogger(t *testing.T) (env string, calls func() []string) {
	t.Helper()
	real, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	logFile := filepath.Join(dir, "calls.log")
	script := "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '" + logFile + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(script), 0o777); err != nil {
		t.Fatal(err)
	}
	return "PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH"), func() []string {
		data, _ := os.ReadFile(logFile)
		return strings.Split(strings.TrimSpace(string(data)), "\n")
	}
}

// lastLog returns the last log line that starts with prefix.
func (c *lspClient) lastLog(prefix string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.logs) - 1; i >= 0; i-- {
		if strings.HasPrefix(c.logs[i], prefix) {
			return c.logs[i]
		}
	}
	return ""
}

// last returns the last diagnostics published for file name.
func (c *lspClient) last(name string) []lspDiagnostic {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.diag[fileURI(name)]
}

// published returns how many times uri's diagnostics were published.
func (c *lspClient) published(uri string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.count[uri]
}

func replaceIn(t *testing.T, name, old, new string) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s has no %q", name, old)
	}
	if err := os.WriteFile(name, []byte(strings.Replace(string(data), old, new, 1)), 0o666); err != nil {
		t.Fatal(err)
	}
}

func codes(ds []lspDiagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code)
	}
	return out
}

// TestLSPSaveMetadata: a save runs the go command only when the package's
// metadata may have changed. A plain Go file whose package clause, imports
// and build constraints are unchanged is analysed from the last load's
// metadata, without the go command, and a bug it gains is reported (its
// package's key changes with its content); a new import, a //go:build line
// that brings a file in, a new test function (the generated test main
// lists it), a new file, a change of go.mod load the package again; a file that imports "C" reruns cgo
// through go list on its package alone (no -deps, no -test), and the
// importers' findings follow the new cgo file.
func TestLSPSaveMetadata(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	writeIncModule(t, dir)
	writeFiles(t, dir, map[string]string{
		"b/more.go": `package b

import "example.com/inc/wrap"

// Once releases an object once.
func Once() {
	o := wrap.New()
	wrap.Free(o)
}
`,
		"b/extra.go": `//go:build never

package b

import "example.com/inc/wrap"

// Thrice is not built.
func Thrice() {
	o := wrap.New()
	wrap.Free(o)
	wrap.Free(o)
}
`,
		"b/b_test.go": `package b

import "testing"

func TestTwice(t *testing.T) {}
`,
	})
	bdir, wdir := filepath.Join(dir, "b"), filepath.Join(dir, "wrap")
	bfile, mfile, xfile, tfile, wfile := filepath.Join(bdir, "b.go"), filepath.Join(bdir, "more.go"), filepath.Join(bdir, "extra.go"), filepath.Join(bdir, "b_test.go"), filepath.Join(wdir, "wrap.go")
	pathEnv, calls := goLogger(t)
	c := startLSPEnv(t, bin, dir, "LIFETIMEVET_CACHE="+t.TempDir(), pathEnv)
	initialize(t, c, dir)
	meta := func() string { return c.lastLog("lifetimevet: " + bdir + " metadata ") }
	// Each analysis of b publishes the diagnostics of every file of b, in
	// no set order: it is over when each has had one more publication.
	bfiles := []string{bfile, mfile, tfile}
	want := map[string]int{}
	settle := func() {
		t.Helper()
		for _, f := range bfiles {
			want[f]++
			c.waitN(t, fileURI(f), want[f])
		}
	}
	// save saves name after edit, waits for the analyses of b it brings
	// (b's own, or b's as wrap's importer), and returns the diagnostics of
	// name and the go commands the save ran
	save := func(name string, edit func()) ([]lspDiagnostic, []string) {
		t.Helper()
		before := len(calls())
		edit()
		didSave(t, c, name)
		settle()
		return c.last(name), calls()[before:]
	}

	// wrap.go, open too: its metadata is known before it changes
	didOpen(t, c, wfile)
	c.waitN(t, fileURI(wfile), 1)
	didOpen(t, c, bfile)
	settle()
	if ds := c.last(bfile); len(ds) != 1 || ds[0].Code != "doublerelease" {
		t.Fatalf("b.go: %+v", ds)
	}
	if ds := c.last(mfile); len(ds) != 0 {
		t.Fatalf("more.go: %+v", ds)
	}
	if len(calls()) == 0 || !strings.Contains(meta(), "loaded by go list") {
		t.Fatalf("opening b.go ran no go list: %q, %q", calls(), meta())
	}

	// more.go gains a second release: no go command, and the finding
	ds, ran := save(mfile, func() { replaceIn(t, mfile, "\twrap.Free(o)\n", "\twrap.Free(o)\n\twrap.Free(o)\n") })
	if len(ds) != 1 || ds[0].Code != "doublerelease" || ds[0].Range.Start.Line != 8 {
		t.Errorf("more.go with a double release: %+v", ds)
	}
	if len(ran) != 0 || !strings.Contains(meta(), "kept, no go command (more.go changed)") {
		t.Errorf("saving a change of a function body ran %q; metadata: %q", ran, meta())
	}
	if done := c.lastDone(bdir); !strings.Contains(done, " analysed: example.com/inc/b") || strings.Contains(done, "example.com/inc/wrap") {
		t.Errorf("after more.go changed: %q, want b analysed again, not wrap", done)
	}
	// a test function's body: no go command either
	_, ran = save(tfile, func() { replaceIn(t, tfile, "(t *testing.T) {}", "(t *testing.T) { t.Log() }") })
	if len(ran) != 0 {
		t.Errorf("saving a test's body ran %q; metadata: %q", ran, meta())
	}

	// an import added: loaded again
	ds, ran = save(mfile, func() {
		replaceIn(t, mfile, `import "example.com/inc/wrap"`, "import (\n\t\"fmt\"\n\n\t\"example.com/inc/wrap\"\n)\n\nvar _ = fmt.Sprint")
	})
	if len(ds) != 1 || ds[0].Code != "doublerelease" || ds[0].Range.Start.Line != 14 {
		t.Errorf("more.go with an import more: %+v", ds)
	}
	if !hasCall(ran, "list", "-deps=true") || !strings.Contains(meta(), "imports or build constraints of "+mfile+" changed") {
		t.Errorf("saving a new import ran %q; metadata: %q", ran, meta())
	}

	// a //go:build line that brings extra.go in: loaded again, and its
	// finding
	bfiles = append(bfiles, xfile)
	ds, ran = save(xfile, func() { replaceIn(t, xfile, "//go:build never", "//go:build !never") })
	if len(ds) != 1 || ds[0].Code != "doublerelease" {
		t.Errorf("extra.go built: %+v", ds)
	}
	if !hasCall(ran, "list", "-deps=true") {
		t.Errorf("saving a changed //go:build line ran %q; metadata: %q", ran, meta())
	}

	// a new test function: the test main changes, loaded again
	_, ran = save(tfile, func() { appendFile(t, tfile, "\nfunc TestOnce(t *testing.T) {}\n") })
	if !hasCall(ran, "list", "-deps=true", "-test=true") {
		t.Errorf("saving a new test ran %q; metadata: %q", ran, meta())
	}

	// a new file of b, saved: loaded again, and its finding
	nfile := filepath.Join(bdir, "new.go")
	bfiles = append(bfiles, nfile)
	ds, ran = save(nfile, func() {
		writeFiles(t, bdir, map[string]string{"new.go": "package b\n\nimport \"example.com/inc/wrap\"\n\nfunc Four() {\n\to := wrap.New()\n\twrap.Free(o)\n\twrap.Free(o)\n}\n"})
	})
	if len(ds) != 1 || ds[0].Code != "doublerelease" || !hasCall(ran, "list", "-deps=true") || !strings.Contains(meta(), "files were added to or removed from "+bdir) {
		t.Errorf("a new file saved: %+v; ran %q; metadata: %q", ds, ran, meta())
	}

	// go.mod saved with a change: every open package is loaded again (b,
	// then wrap, then b again as wrap's importer, from the metadata of
	// its new load)
	gomod := filepath.Join(dir, "go.mod")
	nw, before := c.published(fileURI(wfile)), len(calls())
	c.mu.Lock()
	nlogs := len(c.logs)
	c.mu.Unlock()
	appendFile(t, gomod, "\n// a comment\n")
	didSave(t, c, gomod)
	for _, f := range bfiles {
		want[f] += 2
		c.waitN(t, fileURI(f), want[f])
	}
	c.waitN(t, fileURI(wfile), nw+1)
	ran = calls()[before:]
	c.mu.Lock()
	logs := strings.Join(c.logs[nlogs:], "\n")
	c.mu.Unlock()
	if !hasCall(ran, "list", "-deps=true") ||
		!strings.Contains(logs, bdir+" metadata loaded by go list -deps -compiled -test in ") || !strings.Contains(logs, "("+gomod+" changed)") ||
		!strings.Contains(logs, wdir+" metadata loaded by go list -deps -compiled -test in ") {
		t.Errorf("go.mod saved: ran %q; log:\n%s", ran, logs)
	}

	// wrap stops releasing (a file that imports "C"): cgo reruns through
	// go list on wrap alone, and b's findings go (b, open, imports wrap:
	// it is analysed after wrap)
	_, ran = save(wfile, func() { replaceIn(t, wfile, "func Free(o *Obj) { C.obj_free(o) }", "func Free(o *Obj) { _ = o }") })
	if !hasCall(ran, "list", "-compiled=true", "-deps=false", "-test=false", "example.com/inc/wrap") || hasCall(ran, "list", "-deps=true") {
		t.Errorf("saving wrap.go ran %q; metadata: %q", ran, c.lastLog("lifetimevet: "+wdir+" metadata "))
	}
	for _, f := range bfiles {
		if ds := c.last(f); len(ds) != 0 {
			t.Errorf("%s after wrap stopped releasing: %v", filepath.Base(f), codes(ds))
		}
	}
	if m := meta(); !strings.Contains(m, "cgo output of example.com/inc/wrap refreshed") {
		t.Errorf("b after wrap.go changed: metadata %q", m)
	}
}

// hasCall reports whether one of the go commands calls has every word.
func hasCall(calls []string, words ...string) bool {
	for _, c := range calls {
		fields := strings.Fields(c)
		ok := true
		for _, w := range words {
			found := false
			for _, f := range fields {
				found = found || f == w
			}
			ok = ok && found
		}
		if ok {
			return true
		}
	}
	return false
}
