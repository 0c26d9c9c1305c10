package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// counts returns how many publications each of files has had so far.
func (c *lspClient) counts(files ...string) map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := map[string]int{}
	for _, f := range files {
		n[f] = c.count[fileURI(f)]
	}
	return n
}

// next waits for the publication of file that follows those counted in
// before, and returns it.
func (c *lspClient) next(t *testing.T, before map[string]int, file string) []lspDiagnostic {
	t.Helper()
	return c.waitN(t, fileURI(file), before[file]+1)
}

func watched(t *testing.T, c *lspClient, typ int, files ...string) {
	t.Helper()
	var changes []any
	for _, f := range files {
		changes = append(changes, map[string]any{"uri": fileURI(f), "type": typ})
	}
	c.notify(t, "workspace/didChangeWatchedFiles", map[string]any{"changes": changes})
}

const (
	created = 1
	changed = 2
	deleted = 3
)

// TestLSPWatchedFiles: a client that takes dynamic registration is asked
// to watch the files whose change outside the editor changes an analysis
// (Go files, C sources and headers, configuration, module and model
// files), and its notifications re-analyse the open packages they
// affect: a model file (-model) gaining a release, a configuration file
// created and deleted (every open package), a Go file created in an open
// package (published, then cleared when it is deleted), and a Go file of a
// package that is not open but that an open one imports.
func TestLSPWatchedFiles(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	writeIncModule(t, dir)
	writeFiles(t, dir, map[string]string{
		"a/a.go": retirePackage("a"),
		// a model file that a configuration file names (for a function
		// the code does not call)
		"wrap/lifetimevet.toml": "models = [\"wrapped.model\"]\n",
		"wrap/wrapped.model":    "library wrapped\nacquire absent_make result\n",
	})
	models := t.TempDir()
	writeFiles(t, models, map[string]string{"mine.model": acquireOnly})
	model := filepath.Join(models, "mine.model")
	afile, bfile, wfile := filepath.Join(dir, "a", "a.go"), filepath.Join(dir, "b", "b.go"), filepath.Join(dir, "wrap", "wrap.go")
	more := filepath.Join(dir, "b", "more.go")
	toml := filepath.Join(dir, "lifetimevet.toml")

	c := startLSPWith(t, bin, dir, []string{"LIFETIMEVET_CACHE=" + t.TempDir()}, "-model="+model)
	c.call(t, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": fileURI(dir), "capabilities": map[string]any{
		"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}}, new(any))
	c.notify(t, "initialized", map[string]any{})

	didOpen(t, c, afile)
	if ds := c.waitN(t, fileURI(afile), 1); len(ds) != 0 {
		t.Fatalf("a.go before the model makes thing_retire a release: %+v", ds)
	}
	didOpen(t, c, bfile)
	if ds := c.waitN(t, fileURI(bfile), 1); len(ds) != 1 {
		t.Fatalf("b.go: %+v", ds)
	}

	// the registration, asked for before any change, and one for the
	// model file that wrap's configuration names, once read
	var globs []string
	var requests []string
	wants := []string{"**/*.go", "**/*.c", "**/*.h", "**/*.cpp", "**/lifetimevet.toml", "**/go.mod", "**/go.sum", "**/go.work",
		filepath.ToSlash(model), filepath.ToSlash(filepath.Join(dir, "wrap", "wrapped.model"))}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		c.mu.Lock()
		requests = slices.Clone(c.requests)
		c.mu.Unlock()
		globs = nil
		for _, r := range requests {
			method, params, _ := strings.Cut(r, " ")
			if method != "client/registerCapability" {
				continue
			}
			var p struct {
				Registrations []struct {
					Method          string
					RegisterOptions struct {
						Watchers []struct{ GlobPattern string }
					}
				}
			}
			json.Unmarshal([]byte(params), &p)
			for _, reg := range p.Registrations {
				if reg.Method != "workspace/didChangeWatchedFiles" {
					t.Fatalf("registered %s", reg.Method)
				}
				for _, w := range reg.RegisterOptions.Watchers {
					globs = append(globs, w.GlobPattern)
				}
			}
		}
		missing := slices.DeleteFunc(slices.Clone(wants), func(w string) bool { return slices.Contains(globs, w) })
		if len(missing) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("watched %q; missing %q (requests: %q)", globs, missing, requests)
			break
		}
	}

	// the -model file gains the release: every open package
	before := c.counts(afile, bfile)
	writeFiles(t, models, map[string]string{"mine.model": withRelease})
	watched(t, c, changed, model)
	if ds := c.next(t, before, afile); len(ds) != 1 || ds[0].Code != "doublerelease" {
		t.Errorf("a.go after the model file gained the release: %+v, want the double release", ds)
	}
	c.next(t, before, bfile)

	// a configuration file created, turning every analyzer off, then
	// deleted
	before = c.counts(afile, bfile)
	writeFiles(t, dir, map[string]string{"lifetimevet.toml": "analyzers = []\n"})
	watched(t, c, created, toml)
	if a, b := c.next(t, before, afile), c.next(t, before, bfile); len(a) != 0 || len(b) != 0 {
		t.Errorf("after lifetimevet.toml turned every analyzer off: a.go %+v, b.go %+v, want none", a, b)
	}
	before = c.counts(afile, bfile)
	os.Remove(toml)
	watched(t, c, deleted, toml)
	if a, b := c.next(t, before, afile), c.next(t, before, bfile); len(a) != 1 || len(b) != 1 {
		t.Errorf("after lifetimevet.toml was deleted: a.go %+v, b.go %+v, want one each", a, b)
	}

	// a Go file created in an open package, then deleted
	before = c.counts(bfile, more)
	writeFiles(t, dir, map[string]string{"b/more.go": "package b\n\nimport \"example.com/inc/wrap\"\n\n// More releases an object twice.\nfunc More() {\n\to := wrap.New()\n\twrap.Free(o)\n\twrap.Free(o)\n}\n"})
	watched(t, c, created, more)
	if ds := c.next(t, before, more); len(ds) != 1 || ds[0].Code != "doublerelease" {
		t.Errorf("more.go, created: %+v, want its double release", ds)
	}
	c.next(t, before, bfile)
	before = c.counts(bfile, more)
	os.Remove(more)
	watched(t, c, deleted, more)
	if ds := c.next(t, before, more); len(ds) != 0 {
		t.Errorf("more.go, deleted: %+v, want an empty list", ds)
	}
	c.next(t, before, bfile)

	// a Go file of wrap, which is not open, stops releasing: b, which
	// imports it, is analysed again and its finding goes; a, which does
	// not, is not
	before = c.counts(afile, bfile)
	data, _ := os.ReadFile(wfile)
	os.WriteFile(wfile, []byte(strings.Replace(string(data), "func Free(o *Obj) { C.obj_free(o) }", "func Free(o *Obj) { _ = o }", 1)), 0o666)
	watched(t, c, changed, wfile)
	if ds := c.next(t, before, bfile); len(ds) != 0 {
		t.Errorf("b.go after wrap.go stopped releasing: %+v, want none", ds)
	}
	if n := c.counts(afile)[afile]; n != before[afile] {
		t.Errorf("a.go published %d times after a change to wrap.go, which it does not import", n-before[afile])
	}
	var none any
	c.call(t, "shutdown", nil, &none)
}

// finalizerPackage is a package whose finalizer frees the C object during
// the C call of Use (the object's last use is the call's argument).
const finalizerPackage = finPreamble + "\nfunc (t *T) Use() int {\n\tn := C.obj_use(t.o)\n\treturn int(n)\n}\n"

// keptAlive is finalizerPackage fixed.
var keptAlive = strings.Replace(finalizerPackage, "\treturn int(n)\n}", "\truntime.KeepAlive(t)\n\treturn int(n)\n}", 1)

func didChangeWhole(t *testing.T, c *lspClient, name string, version int, text string) {
	t.Helper()
	c.notify(t, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": fileURI(name), "version": version},
		"contentChanges": []any{map[string]any{"text": text}},
	})
}

// TestLSPChangedOnDisk, with a client that does not take watched-file
// registration (and is not asked to): a document that the editor reloads
// from disk after a change outside it (a didChange whose text is the file
// on disk, which the analysis has not seen; no save) is analysed; an
// edit that is not the disk's text is not, nor a reload of the analysed
// text; a watched-file notification sent unasked is followed (a file of
// the package that is not open, changed on disk).
func TestLSPChangedOnDisk(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"go.mod": "module example.com/disk\n\ngo 1.22\n", "p/p.go": keptAlive, "p/u.go": "package p\n\nfunc Other() int { return 1 }\n"})
	pfile, ufile := filepath.Join(dir, "p", "p.go"), filepath.Join(dir, "p", "u.go")
	c := startLSPEnv(t, bin, dir, "LIFETIMEVET_CACHE="+t.TempDir())
	initialize(t, c, dir)
	didOpen(t, c, pfile)
	if ds := c.waitN(t, fileURI(pfile), 1); len(ds) != 0 {
		t.Fatalf("p.go kept alive: %+v", ds)
	}
	// an unsaved edit: nothing to analyse
	didChangeWhole(t, c, pfile, 2, "// an unsaved line\n"+keptAlive)
	// a branch switch rewrites p.go with the bug; the editor reloads it
	writeFiles(t, dir, map[string]string{"p/p.go": finalizerPackage})
	didChangeWhole(t, c, pfile, 3, finalizerPackage)
	if ds := c.waitN(t, fileURI(pfile), 2); len(ds) != 1 || ds[0].Code != "finalizer" || ds[0].Range.Start.Line != 22 {
		t.Errorf("p.go reloaded from disk with the bug: %+v, want the finalizer finding at line 23", ds)
	}
	c.waitN(t, fileURI(ufile), 2) // (published after p.go)
	// reloaded again unchanged (text = disk = analysed): nothing; then
	// u.go, not open, gains the same bug, told by a watched-file
	// notification the client sends unasked
	didChangeWhole(t, c, pfile, 4, finalizerPackage)
	before := c.counts(ufile)
	writeFiles(t, dir, map[string]string{"p/u.go": "package p\n\n// #include <stdlib.h>\n// typedef struct obj { int x; } obj;\n// static int obj_use(obj *o) { return o->x; }\nimport \"C\"\n\n" +
		"func Other() int { return 1 }\n\nfunc (t *T) Use2() int {\n\tn := C.obj_use(t.o)\n\treturn int(n)\n}\n"})
	watched(t, c, changed, ufile)
	if ds := c.next(t, before, ufile); len(ds) != 1 || ds[0].Code != "finalizer" {
		t.Errorf("u.go changed on disk, told by an unasked notification: %+v, want its finalizer finding", ds)
	}
	c.mu.Lock()
	n, requests := c.count[fileURI(pfile)], slices.Clone(c.requests)
	c.mu.Unlock()
	if n != 3 {
		t.Errorf("p.go published %d times, want 3 (an analysis for an edit that is not the disk's text, or for a reload of the analysed text)", n)
	}
	for _, r := range requests {
		if strings.HasPrefix(r, "client/registerCapability ") {
			t.Errorf("registered with a client that does not take it: %s", r)
		}
	}
}

// TestLSPClearsGoneFiles: a file the server published diagnostics for
// gets an empty list once it is gone (renamed: closed under its old name
// and opened under the new; deleted and closed, with no other
// notification) or is no longer a file of its package (a build
// constraint that excludes it). A file closed but still on disk keeps its
// diagnostics, as with gopls.
func TestLSPClearsGoneFiles(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	writeIncModule(t, dir)
	bdir := filepath.Join(dir, "b")
	bfile, renamed, cfile := filepath.Join(bdir, "b.go"), filepath.Join(bdir, "renamed.go"), filepath.Join(bdir, "clean.go")
	c := startLSPEnv(t, bin, dir, "LIFETIMEVET_CACHE="+t.TempDir())
	initialize(t, c, dir)
	didOpen(t, c, bfile)
	if ds := c.waitN(t, fileURI(bfile), 1); len(ds) != 1 {
		t.Fatalf("b.go: %+v", ds)
	}
	src, _ := os.ReadFile(bfile)
	closeDoc := func(name string) {
		c.notify(t, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fileURI(name)}})
	}
	// closed, on disk: nothing published; opened again, analysed
	closeDoc(bfile)
	didOpen(t, c, bfile)
	if ds := c.waitN(t, fileURI(bfile), 2); len(ds) != 1 {
		t.Fatalf("b.go reopened: %+v", ds)
	}

	// renamed on disk, and in the editor
	before := c.counts(bfile, renamed, cfile)
	if err := os.Rename(bfile, renamed); err != nil {
		t.Fatal(err)
	}
	closeDoc(bfile)
	didOpen(t, c, renamed)
	if ds := c.next(t, before, bfile); len(ds) != 0 {
		t.Errorf("b.go, renamed: %+v, want an empty list", ds)
	}
	if ds := c.next(t, before, renamed); len(ds) != 1 {
		t.Errorf("renamed.go: %+v, want the double release", ds)
	}
	c.next(t, before, cfile)

	// excluded by a build constraint, saved
	before = c.counts(renamed, cfile)
	excluded := "//go:build ignore\n\n" + string(src)
	writeFiles(t, bdir, map[string]string{"renamed.go": excluded})
	didChangeWhole(t, c, renamed, 2, excluded)
	didSave(t, c, renamed)
	if ds := c.next(t, before, renamed); len(ds) != 1 || ds[0].Severity != 3 || !strings.Contains(ds[0].Message, "build constraints exclude it") {
		t.Errorf("renamed.go, excluded by //go:build ignore: %+v, want only the notice that it is not analysed", ds)
	}
	c.next(t, before, cfile)

	// included again, saved; then deleted and closed
	before = c.counts(renamed, cfile)
	writeFiles(t, bdir, map[string]string{"renamed.go": string(src)})
	didChangeWhole(t, c, renamed, 3, string(src))
	didSave(t, c, renamed)
	if ds := c.next(t, before, renamed); len(ds) != 1 {
		t.Fatalf("renamed.go, included again: %+v", ds)
	}
	c.next(t, before, cfile)
	before = c.counts(renamed)
	os.Remove(renamed)
	closeDoc(renamed)
	if ds := c.next(t, before, renamed); len(ds) != 0 {
		t.Errorf("renamed.go, deleted and closed: %+v, want an empty list", ds)
	}
	c.mu.Lock()
	n := c.count[fileURI(bfile)]
	c.mu.Unlock()
	if n != 3 {
		t.Errorf("b.go published %d times, want 3 (open, open again, cleared; nothing on a close while on disk)", n)
	}
}

// TestLSPDirtyDocument: diagnostics are positions in the analysed text.
// When a sibling file is saved while a document has unsaved changes, the
// document does not get the analysis's list (its lines are the file's on
// disk, not the editor's): the client keeps the one it has. Once the
// document's text is the analysed one again (the changes undone), the
// withheld list is published; once saved, it is analysed and published.
func TestLSPDirtyDocument(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/dirty\n\ngo 1.22\n",
		"p/p.go": finalizerPackage,
		"p/u.go": "package p\n\nfunc Other() int { return 1 }\n",
	})
	pfile, ufile := filepath.Join(dir, "p", "p.go"), filepath.Join(dir, "p", "u.go")
	c := startLSPEnv(t, bin, dir, "LIFETIMEVET_CACHE="+t.TempDir())
	initialize(t, c, dir)
	didOpen(t, c, pfile)
	if ds := c.waitN(t, fileURI(pfile), 1); len(ds) != 1 || ds[0].Range.Start.Line != 22 {
		t.Fatalf("p.go: %+v, want the finding at line 23", ds)
	}
	c.waitN(t, fileURI(ufile), 1) // (published after p.go)
	didOpen(t, c, ufile)
	c.waitN(t, fileURI(ufile), 2)

	dirty := "// a\n// b\n// c\n" + finalizerPackage
	before := c.counts(pfile, ufile)
	didChangeWhole(t, c, pfile, 2, dirty)
	didSave(t, c, ufile)
	c.next(t, before, ufile) // (published after p.go, which comes first)
	if n := c.counts(pfile)[pfile]; n != before[pfile] {
		c.mu.Lock()
		t.Errorf("p.go, with unsaved changes, got diagnostics of its text on disk when u.go was saved: %+v", c.diag[fileURI(pfile)])
		c.mu.Unlock()
	}
	// undone: the withheld list
	didChangeWhole(t, c, pfile, 3, finalizerPackage)
	if ds := c.next(t, before, pfile); len(ds) != 1 || ds[0].Range.Start.Line != 22 {
		t.Errorf("p.go, its changes undone: %+v, want the withheld finding at line 23", ds)
	}
	// changed again, saved
	before = c.counts(pfile)
	didChangeWhole(t, c, pfile, 4, dirty)
	writeFiles(t, dir, map[string]string{"p/p.go": dirty})
	didSave(t, c, pfile)
	if ds := c.next(t, before, pfile); len(ds) != 1 || ds[0].Range.Start.Line != 25 {
		t.Errorf("p.go, saved with 3 more lines: %+v, want the finding at line 26", ds)
	}
}

// TestLSPReloadExcluded, with a client that does not take watched-file
// registration: an open document that a build constraint excluded from
// the last analysis (nothing was published for it) and that the editor
// reloads from disk without the constraint (a didChange whose text is the
// file on disk, no save) is analysed, as a save would be; a reload of the
// text the last load saw is not.
func TestLSPReloadExcluded(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	const bad = "package p\n\nfunc Bad() {\n\th := New()\n\th.Close()\n\th.Close()\n}\n"
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/excl\n\ngo 1.22\n",
		"p/p.go": `package p

/*
#include <stdlib.h>
typedef struct obj { int x; } obj;
static obj *obj_new(void) { return calloc(1, sizeof(obj)); }
static void obj_free(obj *o) { free(o); }
*/
import "C"

type H struct{ o *C.obj }

func New() *H { return &H{C.obj_new()} }

func (h *H) Close() { C.obj_free(h.o) }
`,
		"p/x.go": "//go:build ignore\n\n" + bad,
	})
	pfile, xfile := filepath.Join(dir, "p", "p.go"), filepath.Join(dir, "p", "x.go")
	c := startLSPEnv(t, bin, dir, "LIFETIMEVET_CACHE="+t.TempDir())
	initialize(t, c, dir)
	didOpen(t, c, pfile)
	didOpen(t, c, xfile)
	if ds := c.waitN(t, fileURI(pfile), 1); len(ds) != 0 {
		t.Fatalf("p.go with x.go excluded: %+v", ds)
	}
	// (the open of x.go queued p again while p was analysed, or not)
	time.Sleep(2 * time.Second)
	counts := c.counts(pfile, xfile)
	n, nx := counts[pfile], counts[xfile]
	// reloaded as the load saw it: nothing to analyse
	didChangeWhole(t, c, xfile, 2, "//go:build ignore\n\n"+bad)
	// a branch switch removes the constraint on disk; the editor reloads
	writeFiles(t, dir, map[string]string{"p/x.go": bad})
	didChangeWhole(t, c, xfile, 3, bad)
	if ds := c.waitN(t, fileURI(pfile), n+1); len(ds) != 1 || ds[0].Code != "doublerelease" {
		t.Errorf("x.go reloaded from disk without its constraint: p.go has %+v, want its doublerelease", ds)
	}
	if ds := c.waitN(t, fileURI(xfile), nx+1); len(ds) != 0 {
		t.Errorf("x.go: %+v, want an empty list (after the notice that it was not analysed)", ds)
	}
}
