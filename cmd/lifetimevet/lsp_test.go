package main_test

import (
	"context"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// lspClient is a scripted LSP client talking to `lifetimevet lsp` over its
// standard input and output.
type lspClient struct {
	conn *jsonrpc2.Conn
	cmd  *exec.Cmd

	mu    sync.Mutex
	diag  map[string][]lspDiagnostic // by URI, the last published
	raw   map[string]string          // by URI, the last publication's parameters
	count map[string]int             // by URI, the publications so far
	logs  []string
	ch    chan string // URIs as diagnostics arrive
	// the server's requests to the client, each its method and
	// parameters (the client answers null)
	requests []string
}

type lspDiagnostic struct {
	Range struct {
		Start struct{ Line, Character int }
		End   struct{ Line, Character int }
	}
	Severity int
	Code     string
	Source   string
	Message  string
}

type stdio struct {
	io.ReadCloser
	io.WriteCloser
}

func (s stdio) Close() error { s.WriteCloser.Close(); return s.ReadCloser.Close() }

func startLSP(t *testing.T, bin, dir string) *lspClient {
	t.Helper()
	return startLSPWith(t, bin, dir, nil)
}

// startLSPEnv starts the server with env added to the environment.
func startLSPEnv(t *testing.T, bin, dir string, env ...string) *lspClient {
	t.Helper()
	return startLSPWith(t, bin, dir, env)
}

// startLSPWith starts `lifetimevet lsp ARGS...` in dir with more
// environment.
func startLSPWith(t *testing.T, bin, dir string, env []string, args ...string) *lspClient {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"lsp"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod"), env...)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &lspClient{cmd: cmd, diag: map[string][]lspDiagnostic{}, raw: map[string]string{}, count: map[string]int{}, ch: make(chan string, 100)}
	handler := jsonrpc2.HandlerWithError(func(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		switch req.Method {
		case "textDocument/publishDiagnostics":
			var p struct {
				URI         string
				Diagnostics []lspDiagnostic
			}
			json.Unmarshal(*req.Params, &p)
			c.mu.Lock()
			c.diag[p.URI] = p.Diagnostics
			c.raw[p.URI] = string(*req.Params)
			c.count[p.URI]++
			c.mu.Unlock()
			c.ch <- p.URI
		case "window/logMessage":
			var p struct{ Message string }
			json.Unmarshal(*req.Params, &p)
			c.mu.Lock()
			c.logs = append(c.logs, p.Message)
			c.mu.Unlock()
		default:
			if !req.Notif {
				params := ""
				if req.Params != nil {
					params = string(*req.Params)
				}
				c.mu.Lock()
				c.requests = append(c.requests, req.Method+" "+params)
				c.mu.Unlock()
			}
		}
		return nil, nil
	})
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(stdio{out, in}, jsonrpc2.VSCodeObjectCodec{}), handler)
	t.Cleanup(func() {
		c.conn.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	return c
}

func (c *lspClient) call(t *testing.T, method string, params, result any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.conn.Call(ctx, method, params, result); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
}

func (c *lspClient) notify(t *testing.T, method string, params any) {
	t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
}

// wait waits for diagnostics for uri.
func (c *lspClient) wait(t *testing.T, uri string) []lspDiagnostic {
	t.Helper()
	timeout := time.After(3 * time.Minute)
	for {
		select {
		case u := <-c.ch:
			if u == uri {
				c.mu.Lock()
				defer c.mu.Unlock()
				return c.diag[uri]
			}
		case <-timeout:
			c.mu.Lock()
			defer c.mu.Unlock()
			t.Fatalf("no diagnostics for %s; log: %q", uri, c.logs)
		}
	}
}

// waitN waits until uri has had n publications, and returns the last.
func (c *lspClient) waitN(t *testing.T, uri string, n int) []lspDiagnostic {
	t.Helper()
	timeout := time.After(3 * time.Minute)
	for {
		c.mu.Lock()
		k, ds := c.count[uri], c.diag[uri]
		c.mu.Unlock()
		if k >= n {
			return ds
		}
		select {
		case <-c.ch:
		case <-timeout:
			c.mu.Lock()
			defer c.mu.Unlock()
			t.Fatalf("%d diagnostics publications for %s, want %d; log: %q", k, uri, n, c.logs)
		}
	}
}

// lastDone returns the last "done" log line of the analysis of dir (what
// it took from the cache and what it analysed).
func (c *lspClient) lastDone(dir string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.logs) - 1; i >= 0; i-- {
		if strings.HasPrefix(c.logs[i], "lifetimevet: "+dir+" done in ") {
			return c.logs[i]
		}
	}
	return ""
}

func fileURI(name string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(name)}).String()
}

func initialize(t *testing.T, c *lspClient, dir string) {
	var res struct {
		Capabilities struct {
			TextDocumentSync   struct{ OpenClose bool }
			CodeActionProvider any
		}
		ServerInfo struct{ Name string }
	}
	c.call(t, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": fileURI(dir), "capabilities": map[string]any{}}, &res)
	if !res.Capabilities.TextDocumentSync.OpenClose || res.Capabilities.CodeActionProvider == nil || res.ServerInfo.Name != "lifetimevet" {
		t.Errorf("initialize: %+v", res)
	}
	c.notify(t, "initialized", map[string]any{})
}

func didOpen(t *testing.T, c *lspClient, name string) {
	data, _ := os.ReadFile(name)
	c.notify(t, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": fileURI(name), "languageId": "go", "version": 1, "text": string(data)}})
}

// TestLSP drives `lifetimevet lsp` over stdio: it opens the buggy file of
// the test module and receives its diagnostic; after the file is fixed and
// saved, the diagnostic is cleared.
func TestLSP(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "gpubug.go"} {
		data, err := os.ReadFile(filepath.Join(moduleDir(t), name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), data, 0o666)
	}
	c := startLSP(t, bin, dir)
	initialize(t, c, dir)
	file := filepath.Join(dir, "gpubug.go")
	didOpen(t, c, file)
	ds := c.wait(t, fileURI(file))
	if len(ds) != 1 {
		t.Fatalf("diagnostics: %+v", ds)
	}
	d := ds[0]
	// gpubug.go:18:12, zero-based.
	if d.Range.Start.Line != 17 || d.Range.Start.Character != 11 || d.Source != "lifetimevet" || d.Code != "doublerelease" ||
		!strings.Contains(d.Message, "o is released twice") {
		t.Errorf("diagnostic: %+v", d)
	}

	// Fix the bug and save: the diagnostic goes.
	data, _ := os.ReadFile(file)
	os.WriteFile(file, []byte(strings.Replace(string(data), "\tC.obj_free(o)\n\tC.obj_free(o)\n", "\tC.obj_free(o)\n", 1)), 0o666)
	c.notify(t, "textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": fileURI(file)}})
	if ds := c.wait(t, fileURI(file)); len(ds) != 0 {
		t.Errorf("after the fix: %+v", ds)
	}
	c.mu.Lock()
	if raw := c.raw[fileURI(file)]; !strings.Contains(raw, `"diagnostics":[]`) {
		t.Errorf("diagnostics cleared with %s, want an empty list", raw)
	}
	c.mu.Unlock()

	var none any
	c.call(t, "shutdown", nil, &none)
}

// TestLSPNotAnalysed: a package the server could not analyse (its C
// header is missing, or it imports a package with errors) gets a warning
// in each of its files, never an empty list, which would read as clean.
func TestLSPNotAnalysed(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":   "module m\n\ngo 1.22\n",
		"bad/b.go": "package bad\n\nfunc B() int { return \"x\" }\n",
		"imp/i.go": "package imp\n\n// #include <stdlib.h>\nimport \"C\"\n\nimport (\n\t\"m/bad\"\n\t\"unsafe\"\n)\n\nfunc F() int {\n\tp := C.malloc(8)\n\tC.free(unsafe.Pointer(p))\n\tC.free(unsafe.Pointer(p))\n\treturn bad.B()\n}\n",
		"hdr/h.go": "package hdr\n\n// #include \"missing.h\"\nimport \"C\"\n\nfunc F() { C.free(nil) }\n",
	})
	c := startLSP(t, bin, dir)
	initialize(t, c, dir)
	for file, want := range map[string]string{
		"imp/i.go": "lifetimevet did not analyse m/imp: it imports m/bad, which has errors",
		"hdr/h.go": "lifetimevet did not analyse m/hdr: ",
	} {
		path := filepath.Join(dir, file)
		didOpen(t, c, path)
		ds := c.wait(t, fileURI(path))
		if len(ds) != 1 || !strings.HasPrefix(ds[0].Message, want) || ds[0].Severity != 2 {
			t.Errorf("%s: diagnostics %+v, want one warning %q", file, ds, want)
		}
	}
	var none any
	c.call(t, "shutdown", nil, &none)
}

// TestLSPNotListed: an open Go file that no package lists says why in a
// warning: one that a build constraint excludes, one in a directory outside
// go.work's modules (go list fails there); so does a package with a bad
// lifetimevet.toml. A test-only package with an
// error says so in its _test.go file, and nothing is published for the
// test binary's main file, which the go command generates in its cache.
func TestLSPNotListed(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.work":                "go 1.22\n\nuse ./a\n",
		"a/go.mod":               "module a\n\ngo 1.22\n",
		"a/tonly/t_test.go":      "package tonly\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) { var s string = 1; _ = s }\n",
		"a/tagged/doc.go":        "package tagged\n",
		"a/tagged/t.go":          "//go:build never\n\npackage tagged\n\n// #include <stdlib.h>\nimport \"C\"\n\nfunc F() { p := C.malloc(8); C.free(p); C.free(p) }\n",
		"loose/l.go":             "package loose\n\n// #include <stdlib.h>\nimport \"C\"\n\nfunc F() { p := C.malloc(8); C.free(p); C.free(p) }\n",
		"a/cfg/lifetimevet.toml": "[analyzers\n",
		"a/cfg/c.go":             "package cfg\n",
	})
	c := startLSPEnv(t, bin, dir, "GOWORK="+filepath.Join(dir, "go.work"), "GOFLAGS=")
	initialize(t, c, dir)
	for file, want := range map[string]string{
		"a/tonly/t_test.go": "lifetimevet did not analyse a/tonly [a/tonly.test]: ",
		"a/tagged/t.go":     "lifetimevet did not analyse t.go: build constraints exclude it",
		"loose/l.go":        "lifetimevet did not analyse l.go: current directory outside modules listed in go.work",
		"a/cfg/c.go":        "lifetimevet did not analyse a/cfg: ",
	} {
		path := filepath.Join(dir, file)
		didOpen(t, c, path)
		ds := c.wait(t, fileURI(path))
		severity := 2 // warning
		if strings.Contains(want, "build constraints") {
			severity = 3 // information
		}
		if len(ds) != 1 || !strings.HasPrefix(ds[0].Message, want) || ds[0].Severity != severity {
			t.Errorf("%s: diagnostics %+v, want one of severity %d: %q", file, ds, severity, want)
		}
	}
	c.mu.Lock()
	for uri := range c.count {
		if !strings.HasPrefix(uri, fileURI(dir)+"/") {
			t.Errorf("diagnostics published for %s, outside the workspace", uri)
		}
	}
	c.mu.Unlock()
	var none any
	c.call(t, "shutdown", nil, &none)
	// without the go.work, in no module: go list fails
	c = startLSP(t, bin, dir)
	initialize(t, c, dir)
	path := filepath.Join(dir, "loose", "l.go")
	didOpen(t, c, path)
	want := "lifetimevet did not analyse l.go: go: go.mod file not found"
	if ds := c.wait(t, fileURI(path)); len(ds) != 1 || !strings.HasPrefix(ds[0].Message, want) || ds[0].Severity != 2 {
		t.Errorf("loose/l.go in no module: diagnostics %+v, want one warning %q", ds, want)
	}
	c.call(t, "shutdown", nil, &none)
}

// TestLSPCodeAction asks for the code actions of a diagnostic whose fix (from
// a test-only analyzer) maps back through cgo's //line directives.
func TestLSPCodeAction(t *testing.T) {
	bin := buildTags(t, "lifetimevet_testfix")
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "keepalive.go"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "internal", "fixes", "testdata", "keepalive", name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), data, 0o666)
	}
	c := startLSP(t, bin, dir)
	initialize(t, c, dir)
	file := filepath.Join(dir, "keepalive.go")
	didOpen(t, c, file)
	ds := c.wait(t, fileURI(file))
	var keep *lspDiagnostic
	for i, d := range ds {
		if d.Code == "testkeepalive" && d.Range.Start.Line == 20 && strings.HasPrefix(d.Message, "keep p's owner alive") {
			keep = &ds[i]
		}
	}
	if keep == nil {
		t.Fatalf("no diagnostic at keepalive.go:21: %+v", ds)
	}
	var actions []struct {
		Title string
		Kind  string
		Edit  struct {
			Changes map[string][]struct {
				Range   struct{ Start, End struct{ Line, Character int } }
				NewText string
			}
		}
	}
	c.call(t, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(file)},
		"range":        keep.Range,
		"context":      map[string]any{"diagnostics": []any{}},
	}, &actions)
	if len(actions) != 1 || actions[0].Title != "add runtime.KeepAlive(p)" || actions[0].Kind != "quickfix" {
		t.Fatalf("code actions: %+v", actions)
	}
	edits := actions[0].Edit.Changes[fileURI(file)]
	// Insert after "\tC.obj_use(p)" on line 21 (zero-based 20, column 13).
	if len(edits) != 1 || edits[0].Range.Start.Line != 20 || edits[0].Range.Start.Character != 13 || edits[0].NewText != "\n\truntime.KeepAlive(p)" {
		t.Errorf("edits: %+v", edits)
	}
}

// TestLSPCodeActionStale: a fix is offered only in the text it was computed
// on. The client's text of an open document counts: an unsaved change
// (whole or by range) withdraws the fix, undoing it brings the fix back
// with the document's new version (documentChanges, for a client that
// takes them); a closed file changed on disk gets no fix either. The log
// says why.
func TestLSPCodeActionStale(t *testing.T) {
	bin := buildTags(t, "lifetimevet_testfix")
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "keepalive.go"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "internal", "fixes", "testdata", "keepalive", name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), data, 0o666)
	}
	file := filepath.Join(dir, "keepalive.go")
	c := startLSP(t, bin, dir)
	c.call(t, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": fileURI(dir), "capabilities": map[string]any{
		"workspace": map[string]any{"workspaceEdit": map[string]any{"documentChanges": true}}}}, new(any))
	c.notify(t, "initialized", map[string]any{})
	didOpen(t, c, file)
	var keep *lspDiagnostic
	for _, d := range c.wait(t, fileURI(file)) {
		if d.Code == "testkeepalive" && d.Range.Start.Line == 20 && strings.HasPrefix(d.Message, "keep p's owner alive") {
			keep = &d
			break
		}
	}
	if keep == nil {
		t.Fatal("no KeepAlive diagnostic")
	}
	data, _ := os.ReadFile(file)
	type action struct {
		Title string
		Edit  struct {
			Changes         map[string]any
			DocumentChanges []struct {
				TextDocument struct {
					URI     string
					Version *int
				}
				Edits []struct {
					Range   struct{ Start, End struct{ Line, Character int } }
					NewText string
				}
			}
		}
	}
	actions := func() []action {
		var out []action
		c.call(t, "textDocument/codeAction", map[string]any{
			"textDocument": map[string]any{"uri": fileURI(file)},
			"range":        keep.Range,
			"context":      map[string]any{"diagnostics": []any{}},
		}, &out)
		return out
	}
	logs := func() string {
		c.mu.Lock()
		defer c.mu.Unlock()
		return strings.Join(c.logs, "\n")
	}
	// versioned: check the edit carries the version and its place
	offered := func(version int) {
		t.Helper()
		as := actions()
		if len(as) != 1 || as[0].Edit.Changes != nil || len(as[0].Edit.DocumentChanges) != 1 {
			t.Fatalf("code actions at version %d: %+v", version, as)
		}
		dc := as[0].Edit.DocumentChanges[0]
		if dc.TextDocument.URI != fileURI(file) || dc.TextDocument.Version == nil || *dc.TextDocument.Version != version ||
			len(dc.Edits) != 1 || dc.Edits[0].Range.Start.Line != 20 || dc.Edits[0].Range.Start.Character != 13 {
			t.Errorf("the versioned edit at version %d: %+v", version, dc)
		}
	}
	offered(1)

	// an unsaved line at the top, the whole text sent
	added := "// Package keepalive: an unsaved line.\n"
	c.notify(t, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": fileURI(file), "version": 2},
		"contentChanges": []any{map[string]any{"text": added + string(data)}},
	})
	if as := actions(); len(as) != 0 {
		t.Errorf("code actions on a document with unsaved changes: %+v", as)
	}
	if !strings.Contains(logs(), "keepalive.go has changes in the editor that the analysis has not seen") {
		t.Errorf("log: %s", logs())
	}
	// undone, by range: the text is the analysed one again
	c.notify(t, "textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(file), "version": 3},
		"contentChanges": []any{map[string]any{
			"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 1, "character": 0}},
			"text":  "",
		}},
	})
	offered(3)
	// a change by range that does not fit the text: unknown, no fix
	c.notify(t, "textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": fileURI(file), "version": 4},
		"contentChanges": []any{map[string]any{
			"range": map[string]any{"start": map[string]any{"line": 9999, "character": 0}, "end": map[string]any{"line": 9999, "character": 0}},
			"text":  "x",
		}},
	})
	if as := actions(); len(as) != 0 {
		t.Errorf("code actions on a document the server lost track of: %+v", as)
	}
	if !strings.Contains(logs(), "keepalive.go has changes in the editor that the server could not follow") {
		t.Errorf("log: %s", logs())
	}

	// closed, then changed on disk
	c.notify(t, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fileURI(file)}})
	os.WriteFile(file, append([]byte("// a line added outside the editor\n"), data...), 0o666)
	if as := actions(); len(as) != 0 {
		t.Errorf("code actions on a changed file: %+v", as)
	}
	if !strings.Contains(logs(), "keepalive.go changed since it was analysed") {
		t.Errorf("log: %s", logs())
	}
}

// writeIncModule writes a module of two packages: wrap, a C object's
// wrapper whose Free releases it, and b, which frees an object twice
// through it (a finding that depends on wrap's facts), with a clean
// second file.
func writeIncModule(t *testing.T, dir string) {
	files := map[string]string{
		"go.mod": "module example.com/inc\n\ngo 1.24\n",
		"wrap/wrap.go": `// Package wrap wraps a C object.
package wrap

/*
#include <stdlib.h>
typedef struct { int live; } obj;
static obj* obj_new(void) { return malloc(sizeof(obj)); }
static void obj_free(obj* o) { free(o); }
*/
import "C"

// Obj is a C object.
type Obj = C.obj

// New allocates an object.
func New() *Obj { return C.obj_new() }

// Free releases it.
func Free(o *Obj) { C.obj_free(o) }
`,
		"b/b.go": `// Package b uses wrap.
package b

import "example.com/inc/wrap"

// Twice releases an object twice.
func Twice() {
	o := wrap.New()
	wrap.Free(o)
	wrap.Free(o)
}
`,
		"b/clean.go": `package b

// Clean has nothing to report.
func Clean() int { return 1 }
`,
	}
	for name, src := range files {
		name = filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(name), 0o777)
		if err := os.WriteFile(name, []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

func didSave(t *testing.T, c *lspClient, name string) {
	c.notify(t, "textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": fileURI(name)}})
}

// TestLSPIncremental: through the analysis cache, a save re-analyses only
// the packages whose key changed (nothing for a save without a change,
// the saved package for a change to it; never runtime, whose analysis
// stops at the work budget), and a change to a dependency re-analyses the
// open packages that import it, so that a finding that rests on the
// dependency's facts goes when the dependency stops releasing. A file
// without findings gets an empty list from the start.
func TestLSPIncremental(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	writeIncModule(t, dir)
	bdir, wdir := filepath.Join(dir, "b"), filepath.Join(dir, "wrap")
	bfile, cfile, wfile := filepath.Join(bdir, "b.go"), filepath.Join(bdir, "clean.go"), filepath.Join(wdir, "wrap.go")
	c := startLSPEnv(t, bin, dir, "LIFETIMEVET_CACHE="+t.TempDir())
	initialize(t, c, dir)

	didOpen(t, c, bfile)
	if ds := c.waitN(t, fileURI(bfile), 1); len(ds) != 1 || ds[0].Code != "doublerelease" {
		t.Fatalf("b.go: %+v", ds)
	}
	// the clean file of the package: an empty list, not nothing
	if ds := c.waitN(t, fileURI(cfile), 1); len(ds) != 0 {
		t.Errorf("clean.go: %+v", ds)
	}
	c.mu.Lock()
	if raw := c.raw[fileURI(cfile)]; !strings.Contains(raw, `"diagnostics":[]`) {
		t.Errorf("clean.go's diagnostics: %s, want an empty list", raw)
	}
	c.mu.Unlock()
	if done := c.lastDone(bdir); !strings.Contains(done, "example.com/inc/wrap") || !strings.Contains(done, "example.com/inc/b") {
		t.Errorf("first analysis: %q, want wrap and b analysed", done)
	}

	// wrap was analysed for b's facts, but not by the reporting
	// analyzers: opening it analyses wrap, and only wrap (its
	// dependencies come from the cache)
	didOpen(t, c, wfile)
	if ds := c.waitN(t, fileURI(wfile), 1); len(ds) != 0 {
		t.Errorf("wrap.go: %+v", ds)
	}
	if done := c.lastDone(wdir); !strings.HasSuffix(done, " 1 analysed: example.com/inc/wrap") {
		t.Errorf("opening wrap.go: %q, want wrap analysed", done)
	}

	// a save without a change analyses nothing
	didSave(t, c, bfile)
	if ds := c.waitN(t, fileURI(bfile), 2); len(ds) != 1 {
		t.Errorf("b.go saved unchanged: %+v", ds)
	}
	if done := c.lastDone(bdir); !strings.HasSuffix(done, " 0 analysed") {
		t.Errorf("b.go saved unchanged: %q, want nothing analysed", done)
	}

	// a change to b analyses b only
	appendFile(t, bfile, "\n// a comment\n")
	didSave(t, c, bfile)
	if ds := c.waitN(t, fileURI(bfile), 3); len(ds) != 1 {
		t.Errorf("b.go changed: %+v", ds)
	}
	if done := c.lastDone(bdir); !strings.HasSuffix(done, " 1 analysed: example.com/inc/b") {
		t.Errorf("b.go changed: %q, want b analysed", done)
	}

	// wrap stops releasing: b.go, open, is analysed again (b, and wrap as
	// its dependency: its content changed), and its finding goes
	data, _ := os.ReadFile(wfile)
	os.WriteFile(wfile, []byte(strings.Replace(string(data), "func Free(o *Obj) { C.obj_free(o) }", "func Free(o *Obj) { _ = o }", 1)), 0o666)
	didSave(t, c, wfile)
	if ds := c.waitN(t, fileURI(wfile), 2); len(ds) != 0 {
		t.Errorf("wrap.go changed: %+v", ds)
	}
	if done := c.lastDone(wdir); !strings.HasSuffix(done, " 1 analysed: example.com/inc/wrap") {
		t.Errorf("wrap.go changed: %q, want wrap analysed", done)
	}
	if ds := c.waitN(t, fileURI(bfile), 4); len(ds) != 0 {
		t.Errorf("b.go after wrap stopped releasing: %+v", ds)
	}
	if done := c.lastDone(bdir); !strings.HasSuffix(done, " 2 analysed: example.com/inc/b, example.com/inc/wrap") {
		t.Errorf("b.go after wrap.go changed: %q, want b and wrap analysed", done)
	}
}

// TestLSPSavesCoalesce: saves that arrive while a package is being
// analysed give one more analysis, not one per save, and that one sees
// the last save.
func TestLSPSavesCoalesce(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	writeIncModule(t, dir)
	bfile, wfile := filepath.Join(dir, "b", "b.go"), filepath.Join(dir, "wrap", "wrap.go")
	c := startLSPEnv(t, bin, dir, "LIFETIMEVET_CACHE="+t.TempDir())
	initialize(t, c, dir)
	didOpen(t, c, bfile)
	// the fix, saved five times while the open's analysis runs (it takes
	// a go list and more: the notifications arrive long before it ends)
	data, _ := os.ReadFile(bfile)
	os.WriteFile(bfile, []byte(strings.Replace(string(data), "\twrap.Free(o)\n\twrap.Free(o)\n", "\twrap.Free(o)\n", 1)), 0o666)
	for range 5 {
		didSave(t, c, bfile)
	}
	// a package opened after the saves is analysed after every analysis
	// they queued
	didOpen(t, c, wfile)
	c.waitN(t, fileURI(wfile), 1)
	c.mu.Lock()
	n, ds := c.count[fileURI(bfile)], c.diag[fileURI(bfile)]
	c.mu.Unlock()
	if n < 1 || n > 2 {
		t.Errorf("b.go published %d times for an open and five saves during its analysis, want 1 or 2", n)
	}
	if len(ds) != 0 {
		t.Errorf("b.go after the fix: %+v", ds)
	}
}

func appendFile(t *testing.T, name, text string) {
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(text)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestLSPSaveOfCHeader checks that saving a file that is not Go source but
// an input of the analysis (here a C header of the open package, which
// gains a //lifetime:release directive) analyses the open packages again.
func TestLSPSaveOfCHeader(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":  "module example.com/hsave\n\ngo 1.24\n",
		"p/lib.h": "typedef struct res { int x; } res;\nstatic void res_drop(res *r) { (void)r; }\n",
		"p/p.go": `package p

// #include <stdlib.h>
// #include "lib.h"
import "C"

func Twice(r *C.res) {
	C.res_drop(r)
	C.res_drop(r)
}
`,
	}
	writeFiles(t, dir, files)
	pfile, hfile := filepath.Join(dir, "p", "p.go"), filepath.Join(dir, "p", "lib.h")
	c := startLSPEnv(t, bin, dir, "LIFETIMEVET_CACHE="+t.TempDir())
	initialize(t, c, dir)
	didOpen(t, c, pfile)
	if ds := c.waitN(t, fileURI(pfile), 1); len(ds) != 0 {
		t.Fatalf("p.go before the directive: %+v", ds)
	}
	os.WriteFile(hfile, []byte("//lifetime:release res_drop arg=0\n"+files["p/lib.h"]), 0o666)
	didSave(t, c, hfile)
	if ds := c.waitN(t, fileURI(pfile), 2); len(ds) != 1 || ds[0].Code != "doublerelease" {
		t.Errorf("p.go after lib.h gained a release directive: %+v, want the double release", ds)
	}
}

// TestLSPSaveOfIncludeHeader: a header of an -I directory outside the
// package (none of its files) decides what its C means, and the analysis
// cache is keyed on it: saving it analyses the open package again, and the
// cached result of the header's old content is not reused.
func TestLSPSaveOfIncludeHeader(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":      "module example.com/isave\n\ngo 1.24\n",
		"inc/arena.h": "#define free(x) ((void)(x))\n",
		"p/p.go": `package p

// #cgo CFLAGS: -I${SRCDIR}/../inc
// #include <stdlib.h>
// #include "arena.h"
// static void *mk(void) { return calloc(1, 8); }
// static void done(void *p) { free(p); }
import "C"

func Twice() {
	p := C.mk()
	C.done(p)
	C.done(p)
}
`,
	}
	writeFiles(t, dir, files)
	pfile, hfile := filepath.Join(dir, "p", "p.go"), filepath.Join(dir, "inc", "arena.h")
	c := startLSPEnv(t, bin, dir, "LIFETIMEVET_CACHE="+t.TempDir())
	initialize(t, c, dir)
	didOpen(t, c, pfile)
	if ds := c.waitN(t, fileURI(pfile), 1); len(ds) != 0 {
		t.Fatalf("p.go while arena.h makes free keep the block: %+v", ds)
	}
	os.WriteFile(hfile, []byte("/* free is libc's */\n"), 0o666)
	didSave(t, c, hfile)
	if ds := c.waitN(t, fileURI(pfile), 2); len(ds) != 1 || ds[0].Code != "doublerelease" {
		t.Errorf("p.go after arena.h stopped redefining free: %+v, want the double release", ds)
	}
	os.WriteFile(hfile, []byte(files["inc/arena.h"]), 0o666)
	didSave(t, c, hfile)
	if ds := c.waitN(t, fileURI(pfile), 3); len(ds) != 0 {
		t.Errorf("p.go after arena.h redefined free again: %+v, want none", ds)
	}
}

// TestLSPWatchedOutsideFiles: a change on disk, told by a watched-file
// event, to a file outside the open package that its analysis read (an
// X-macro header not named .h; a header in another Go package's
// directory) analyses the open package again.
func TestLSPWatchedOutsideFiles(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	noop := "#define free(x) ((void)(x))\n"
	files := map[string]string{
		"go.mod":          "module example.com/wout\n\ngo 1.24\n",
		"inc/arena.inc":   noop,
		"shared/arena.h":  noop,
		"shared/share.go": "package shared\n\n// #include \"arena.h\"\nimport \"C\"\n",
		"p/p.go": `package p

// #include <stdlib.h>
// #include "../inc/arena.inc"
// static void *mk(void) { return calloc(1, 8); }
// static void done(void *p) { free(p); }
import "C"

func Twice() {
	p := C.mk()
	C.done(p)
	C.done(p)
}
`,
		"q/q.go": `package q

// #include <stdlib.h>
// #include "../shared/arena.h"
// static void *mk(void) { return calloc(1, 8); }
// static void done(void *p) { free(p); }
import "C"

func Twice() {
	p := C.mk()
	C.done(p)
	C.done(p)
}
`,
	}
	writeFiles(t, dir, files)
	c := startLSPEnv(t, bin, dir, "LIFETIMEVET_CACHE="+t.TempDir())
	initialize(t, c, dir)
	for _, tc := range []struct{ pkg, header string }{{"p", "inc/arena.inc"}, {"q", "shared/arena.h"}} {
		gofile, hfile := filepath.Join(dir, tc.pkg, tc.pkg+".go"), filepath.Join(dir, tc.header)
		didOpen(t, c, gofile)
		if ds := c.waitN(t, fileURI(gofile), 1); len(ds) != 0 {
			t.Fatalf("%s while %s makes free keep the block: %+v", tc.pkg, tc.header, ds)
		}
		os.WriteFile(hfile, []byte("/* free is libc's */\n"), 0o666)
		watched(t, c, changed, hfile)
		if ds := c.waitN(t, fileURI(gofile), 2); len(ds) != 1 || ds[0].Code != "doublerelease" {
			t.Errorf("%s after %s changed on disk: %+v, want the double release", tc.pkg, tc.header, ds)
		}
	}
}

// TestLSPExit checks that the server ends on the exit notification after
// shutdown, with status 0 (glsp's handler refused exit once shutdown had
// been answered, so the server ran until its input closed).
func TestLSPExit(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n\ngo 1.22\n"), 0o666)
	c := startLSP(t, bin, dir)
	initialize(t, c, dir)
	c.call(t, "shutdown", nil, nil)
	c.notify(t, "exit", nil)
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("after shutdown and exit: %v, want status 0", err)
		}
	case <-time.After(20 * time.Second):
		t.Errorf("the server still runs 20 s after the exit notification")
		c.cmd.Process.Kill()
	}
}
