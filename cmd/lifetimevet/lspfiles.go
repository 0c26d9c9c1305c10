package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
	"golang.org/x/tools/go/packages"
)

// The language server's view of the files on disk: what it published for
// each file, and which changes made outside the editor call for an
// analysis.
//
// Diagnostics are positions in the text that was analysed (the file on
// disk when the package was loaded). A document open in the client whose
// text is another (unsaved changes) does not get a new list: the client
// keeps the one it has, which it moved along with the user's edits, until
// the document's text is the analysed one again (saved, or the changes
// undone), when the withheld list is published. A file that is gone from
// disk, or is no longer one of its package's files, gets an empty list.

// An lspPub is what the server published for a file.
type lspPub struct {
	dir string // the package directory whose analysis published it
	n   int    // the diagnostics in the list the client has
	// the SHA-256 of the file's content as that analysis read it (known
	// is false when the driver did not read it)
	sum   [sha256.Size]byte
	known bool
	// withheld says that the analysis's list (pending) was not published:
	// the client's text of the document was not the analysed text
	withheld bool
	pending  []protocol.Diagnostic
}

// publishPackage publishes the diagnostics of an analysis of the package in
// dir: every file in byFile gets its list, perhaps empty, unless the
// client's text of it is not the analysed one (withheld); a file the last
// analysis of dir published for that is no longer among them (deleted,
// renamed, or excluded by a build constraint now) gets an empty list. It
// records the directories of the packages loaded (for filesChanged).
// ls.mu is held.
func (ls *langServer) publishPackage(notify glsp.NotifyFunc, dir string, pkgs []*packages.Package, byFile map[string][]protocol.Diagnostic, digest func(string) ([sha256.Size]byte, bool)) {
	deps := map[string]bool{}
	broken := false
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Dir != "" {
			deps[p.Dir] = true
		}
		for _, f := range p.GoFiles {
			deps[filepath.Dir(f)] = true
		}
		broken = broken || len(p.Errors) > 0
	})
	ls.deps[dir], ls.broken[dir] = deps, broken
	for _, name := range slices.Sorted(maps.Keys(byFile)) {
		ds := byFile[name]
		p := ls.pubs[name]
		if p == nil {
			p = &lspPub{}
			ls.pubs[name] = p
		}
		p.dir = dir
		p.sum, p.known = digest(name)
		if d := ls.docs[name]; d != nil && d.text != nil && p.known && sha256.Sum256(d.text) != p.sum {
			p.withheld, p.pending = true, ds
			continue
		}
		ls.show(notify, name, p, ds)
	}
	for _, name := range slices.Sorted(maps.Keys(ls.pubs)) {
		if ls.pubs[name].dir == dir && byFile[name] == nil {
			ls.clear(notify, name)
		}
	}
}

// show publishes ds for file name (a clean file gets its empty list too:
// the client can tell "clean" from "not analysed yet"). ls.mu is held.
func (ls *langServer) show(notify glsp.NotifyFunc, name string, p *lspPub, ds []protocol.Diagnostic) {
	p.n, p.withheld, p.pending = len(ds), false, nil
	notify(string(protocol.ServerTextDocumentPublishDiagnostics), protocol.PublishDiagnosticsParams{
		URI:         pathURI(name),
		Diagnostics: ds,
	})
}

// clear forgets file name, and publishes an empty list for it if the
// client has diagnostics for it. ls.mu is held.
func (ls *langServer) clear(notify glsp.NotifyFunc, name string) {
	p := ls.pubs[name]
	if p == nil {
		return
	}
	if p.n > 0 {
		notify(string(protocol.ServerTextDocumentPublishDiagnostics), protocol.PublishDiagnosticsParams{
			URI:         pathURI(name),
			Diagnostics: []protocol.Diagnostic{},
		})
	}
	delete(ls.pubs, name)
	delete(ls.fixes, name)
}

// clearGone clears the files that are root or under it and no longer
// exist. ls.mu is held.
func (ls *langServer) clearGone(notify glsp.NotifyFunc, root string, dirOnly bool) {
	for _, name := range slices.Sorted(maps.Keys(ls.pubs)) {
		if dirOnly && ls.pubs[name].dir != root || !dirOnly && !inTree(name, root) {
			continue
		}
		if _, err := os.Lstat(name); os.IsNotExist(err) {
			ls.clear(notify, name)
		}
	}
}

// failed is called when the package in dir could not be analysed: the files
// its analyses published that are gone get an empty list. ls.mu is held.
func (ls *langServer) failed(notify glsp.NotifyFunc, dir string) {
	ls.broken[dir] = true
	ls.clearGone(notify, dir, true)
}

// inTree reports whether name is root or under it.
func inTree(name, root string) bool {
	rel, err := filepath.Rel(root, name)
	return err == nil && filepath.IsLocal(rel)
}

// docChanged follows a new text of the open document name. Its withheld
// diagnostics are published once its text is the analysed one again. A
// text that is the file on disk when the disk is not what the last
// analysis of its directory saw (the editor reloaded a file changed
// outside it: a branch switch, a pull, a generator) is analysed, as a
// save would be; so is a Go file that analysis did not read (one that a
// build constraint excluded, and a change on disk may bring in), unless
// its load saw this text. ls.mu is held.
func (ls *langServer) docChanged(notify glsp.NotifyFunc, name string, d *lspDoc) {
	if d.text == nil {
		return
	}
	p := ls.pubs[name]
	if p != nil && p.known && p.withheld {
		if sha256.Sum256(d.text) == p.sum {
			ls.show(notify, name, p, p.pending)
			return
		}
	}
	// what the last analysis of the directory saw of the file: the
	// content the driver read, or else the one its load's snapshot
	// recorded (none: the file was not part of it)
	var seen [sha256.Size]byte
	known := false
	switch {
	case p != nil && p.known:
		seen, known = p.sum, true
	case (p == nil || !p.known) && strings.HasSuffix(name, ".go"):
		// (published without being analysed: a notice of why not)
		if m := ls.meta[filepath.Dir(name)]; m != nil {
			if st, ok := m.snap.files[name]; ok && st.exists {
				seen, known = st.sum, true
			}
		}
	default:
		return
	}
	// (the size first: a keystroke changes it, most of the time)
	if fi, err := os.Stat(name); err != nil || fi.Size() != int64(len(d.text)) || known && sha256.Sum256(d.text) == seen {
		return
	}
	if disk, err := os.ReadFile(name); err != nil || !bytes.Equal(disk, d.text) {
		return
	}
	ls.notify = notify
	ls.enqueue(filepath.Dir(name), true)
	ls.startWorker()
}

// docClosed: a document closed with its diagnostics withheld gets them if
// the file on disk is the analysed text (the client's unsaved changes were
// dropped). ls.mu is held.
func (ls *langServer) docClosed(notify glsp.NotifyFunc, name string) {
	p := ls.pubs[name]
	if p == nil || !p.withheld {
		return
	}
	if disk, err := os.ReadFile(name); err == nil && sha256.Sum256(disk) == p.sum {
		ls.show(notify, name, p, p.pending)
	}
}

// startWorker starts the worker if it is not running and the queue has
// work. ls.mu is held.
func (ls *langServer) startWorker() {
	if !ls.working && len(ls.queue) > 0 {
		ls.working = true
		go ls.work()
	}
}

// The inputs of an analysis that files on disk hold, by kind.
type inputKind int

const (
	notInput  inputKind = iota
	goInput             // a Go file: its package's input
	cInput              // a C or C++ source or header: its package's, or an include directory's
	allInputs           // a configuration, model or module file: every package's
)

// cgoSuffixes are the suffixes of the C, C++ and Objective-C sources and
// headers that cgo compiles or includes.
var cgoSuffixes = []string{".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".m"}

// moduleFiles are the files of the go command that decide what a package
// is and what it imports.
var moduleFiles = []string{"go.mod", "go.sum", "go.work", "go.work.sum"}

// kindOf classifies file name. ls.mu is held.
func (ls *langServer) kindOf(name string) inputKind {
	base := filepath.Base(name)
	switch {
	case strings.HasSuffix(base, ".go"):
		return goInput
	case slices.Contains(cgoSuffixes, filepath.Ext(base)):
		return cInput
	case base == configName, slices.Contains(moduleFiles, base), ls.models[name]:
		return allInputs
	}
	for _, set := range ls.outside {
		if set[name] {
			return cInput // a header an analysis read, whatever its name
		}
	}
	return notInput
}

// filesChanged queues the analyses that changes on disk to files (created,
// changed or deleted; told by the client's watched-file notification, or
// seen when a document is closed) call for, coalesced with the saves' in
// the one queue: for a Go file or a C file of a package directory, that
// package if open and the open packages that import it, directly or not
// (and the open packages that could not be analysed or had errors, which
// a new file may mend); for a C file elsewhere (an include directory), a
// configuration, model or module file, every open package. Each package
// loads its files again, so a created or deleted file is seen. A file with
// diagnostics that no longer exists gets an empty list at once; so do the
// files under a deleted directory.
func (ls *langServer) filesChanged(notify glsp.NotifyFunc, names []string) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	open := map[string]bool{}
	for f := range ls.open {
		open[filepath.Dir(f)] = true
	}
	dirs := slices.Sorted(maps.Keys(open))
	all := false
	for _, name := range names {
		name = filepath.Clean(name)
		ls.clearGone(notify, name, false)
		kind := ls.kindOf(name)
		if kind == notInput {
			// a directory deleted (a client may tell only that)
			if _, err := os.Lstat(name); !os.IsNotExist(err) {
				continue
			}
		}
		if kind == allInputs {
			all = true
			if slices.Contains(moduleFiles, filepath.Base(name)) {
				// what a package is, and where, may have changed in
				// ways no snapshot records: no metadata is reused
				ls.metaGen++
				ls.metaWhy = name + " changed on disk (a watched-file event)"
			}
			continue
		}
		dir := filepath.Dir(name)
		if kind == notInput {
			dir = name
		}
		hit := false
		for _, d := range dirs {
			mine := d == dir || kind == notInput && inTree(d, dir) || ls.outside[d][name]
			if !mine {
				for dep := range ls.deps[d] {
					if dep == dir || kind == notInput && inTree(dep, dir) {
						mine = true
						break
					}
				}
			}
			if mine || kind == goInput && ls.broken[d] {
				ls.enqueue(d, mine && d == dir)
				hit = true
			}
		}
		if !hit && kind == cInput {
			all = true
		}
	}
	if all {
		for _, d := range dirs {
			ls.enqueue(d, true)
		}
	}
	if len(ls.queue) > 0 {
		ls.notify = notify
		ls.startWorker()
	}
}

// initialized asks a client that takes it to watch the files whose change
// outside the editor changes an analysis: Go files, C sources and headers,
// configuration, module and model files. It notifies the server
// (workspace/didChangeWatchedFiles), which analyses the packages they
// affect (filesChanged).
func (ls *langServer) initialized(c *glsp.Context) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.call = c.Call
	if !ls.watch {
		return
	}
	globs := []string{"**/*.go"}
	for _, s := range cgoSuffixes {
		globs = append(globs, "**/*"+s)
	}
	globs = append(globs, "**/"+configName)
	for _, m := range moduleFiles {
		globs = append(globs, "**/"+m)
	}
	for _, m := range slices.Sorted(maps.Keys(ls.models)) {
		globs = append(globs, filepath.ToSlash(m))
	}
	ls.register(globs)
}

// noteModels records the model files an analysis read (names: the
// configuration and model files it read), and has the client watch those
// it does not watch yet. ls.mu is held.
func (ls *langServer) noteModels(names []string) {
	var globs []string
	for _, name := range names {
		if filepath.Base(name) == configName {
			continue
		}
		abs, err := filepath.Abs(name)
		if err != nil || ls.models[abs] {
			continue
		}
		ls.models[abs] = true
		globs = append(globs, filepath.ToSlash(abs))
	}
	if ls.watch && ls.call != nil && len(globs) > 0 {
		ls.register(globs)
	}
}

// noteOutside records the files outside its packages that the analysis of
// dir read or looked for (a header of an -I directory, an X-macro .inc
// file), and has the client watch those it does not watch yet: a change
// to one analyses dir again (filesChanged). ls.mu is held.
func (ls *langServer) noteOutside(dir string, names []string) {
	set := map[string]bool{}
	var globs []string
	for _, name := range names {
		set[name] = true
		if ls.watched[name] {
			continue
		}
		ls.watched[name] = true
		// (the static globs cover the usual C suffixes already)
		if !slices.Contains(cgoSuffixes, filepath.Ext(name)) {
			globs = append(globs, filepath.ToSlash(name))
		}
	}
	ls.outside[dir] = set
	if ls.watch && ls.call != nil && len(globs) > 0 {
		ls.register(globs)
	}
}

// register asks the client to watch files matching globs. ls.mu is held;
// the call waits for the client's answer, so it runs on its own.
func (ls *langServer) register(globs []string) {
	var ws []protocol.FileSystemWatcher
	for _, g := range globs {
		ws = append(ws, protocol.FileSystemWatcher{GlobPattern: g})
	}
	ls.registrations++
	params := protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID:              fmt.Sprintf("lifetimevet-watch-%d", ls.registrations),
		Method:          string(protocol.MethodWorkspaceDidChangeWatchedFiles),
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: ws},
	}}}
	call := ls.call
	go call(string(protocol.ServerClientRegisterCapability), params, nil)
}

// saved follows the save of an open document: its text is the file's on
// disk now, whatever changes the server followed or missed (a client that
// wrote the file without telling each change, a range it could not apply).
func (ls *langServer) saved(uri protocol.DocumentUri) {
	name, ok := uriPath(uri)
	if !ok {
		return
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if d := ls.docs[name]; d != nil {
		if data, err := os.ReadFile(name); err == nil {
			d.text = data
		}
	}
}
