package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"go/token"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/lifetimevet/lifetimevet/internal/driver"
	"github.com/lifetimevet/lifetimevet/internal/fixes"
	"github.com/lifetimevet/lifetimevet/passes/cpreamble"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// lspMain is `lifetimevet lsp`: a language server on standard input and
// output, meant to run beside gopls (which cannot load third-party
// analyzers, golang/go#59869). When a Go file is opened or saved it
// analyses the file's package as saved on disk, publishes lifetimevet's
// findings as diagnostics for the package's files, and offers the
// analyzers' suggested fixes as quick-fix code actions. Changes on disk
// that the client reports (watched files), or that a document reloaded
// from disk shows, are analysed too (lspfiles.go).
func lspMain(args []string) int {
	fs := flag.NewFlagSet(progName()+" lsp", flag.ContinueOnError)
	var files model.Files
	fs.Var(&files, "model", "add a model `file` of C functions (repeatable)")
	tags := fs.String("tags", "", "comma-separated build `tags`")
	tests := fs.Bool("test", true, "analyse test files too")
	cacheMode := newCacheFlag(fs, "keep each package's facts and findings in the analysis cache (`on` or off; see LIFETIMEVET_CACHE), so that a save re-analyses only the packages whose content changed")
	all := suite(false)
	enable := map[*analysis.Analyzer]*triState{}
	for _, a := range all {
		t := new(triState)
		enable[a] = t
		fs.Var(t, a.Name, "enable the "+a.Name+" analyzer (-"+a.Name+"=false disables it)")
	}
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `usage: %s lsp [flags]

A language server (LSP on standard input and output) that publishes
lifetimevet's findings as diagnostics when a Go file is opened, saved or
changed on disk, and offers suggested fixes as code actions. Run it beside gopls.

Flags:
`, progName())
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		// the server analyses the files the editor opens: a package
		// pattern here would be ignored
		fmt.Fprintf(os.Stderr, "%s: lsp takes no arguments (got %q); it analyses the files the editor opens\n", progName(), strings.Join(fs.Args(), " "))
		return 2
	}
	if _, err := model.Load(files); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", progName(), err)
		return 1
	}
	*model.FlagSet().Lookup("model").Value.(*model.Files) = files
	ls := &langServer{
		analyzers: selectAnalyzers(all, enable),
		tests:     *tests,
		pubs:      map[string]*lspPub{},
		deps:      map[string]map[string]bool{},
		outside:   map[string]map[string]bool{},
		watched:   map[string]bool{},
		broken:    map[string]bool{},
		models:    map[string]bool{},
		fixes:     map[string][]lspFix{},
		open:      map[string]bool{},
		paths:     map[string][]string{},
		imports:   map[string]map[string]bool{},
		docs:      map[string]*lspDoc{},
		meta:      map[string]*lspMeta{},
	}
	if len(ls.analyzers) == 0 {
		fatalf("no analyzers selected")
	}
	for _, m := range files {
		if abs, err := filepath.Abs(m); err == nil {
			ls.models[abs] = true
		}
	}
	// (the model files' content is each package's key, read again at
	// each analysis: configs.packageKey)
	if c, key := openCache(*cacheMode, []byte("tags="+*tags)); c != nil {
		defer c.Close()
		// the memo of file hashes too: a save re-keys every dependency
		ls.cacheOpts = driver.Options{Cache: c, CacheKey: key, FileHashes: fileHashes()}
	}
	tagsGiven := false
	fs.Visit(func(f *flag.Flag) { tagsGiven = tagsGiven || f.Name == "tags" })
	if *tags != "" || tagsGiven {
		// (an empty -tags= too: it overrides GOFLAGS's, as in go list)
		ls.buildFlags = []string{"-tags=" + *tags}
		lspBuildTags = splitTags(*tags)
		cpreamble.BuildTags = append([]string{}, splitTags(*tags)...)
	} else {
		cpreamble.BuildTags = append([]string{}, cpreamble.GOFLAGSTags()...)
	}
	ls.handler = protocol.Handler{
		Initialize:  ls.initialize,
		Initialized: func(c *glsp.Context, _ *protocol.InitializedParams) error { ls.initialized(c); return nil },
		Shutdown: func(*glsp.Context) error {
			ls.mu.Lock()
			ls.shutdown = true
			ls.mu.Unlock()
			return nil
		},
		Exit:     func(*glsp.Context) error { ls.exit(); return nil },
		SetTrace: func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		TextDocumentDidOpen: func(c *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
			ls.opened(p.TextDocument)
			return ls.schedule(c, p.TextDocument.URI, false)
		},
		TextDocumentDidSave: func(c *glsp.Context, p *protocol.DidSaveTextDocumentParams) error {
			ls.saved(p.TextDocument.URI)
			return ls.schedule(c, p.TextDocument.URI, true)
		},
		TextDocumentDidChange: func(c *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
			ls.changed(c, p)
			return nil
		},
		TextDocumentDidClose: func(c *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
			if name, ok := uriPath(p.TextDocument.URI); ok {
				ls.mu.Lock()
				delete(ls.open, name)
				ls.mu.Unlock()
			}
			ls.closed(c, p.TextDocument.URI)
			return nil
		},
		TextDocumentCodeAction: ls.codeAction,
		// sent when the client watches files for the server (registered
		// in initialized), and by some clients unasked
		WorkspaceDidChangeWatchedFiles: func(c *glsp.Context, p *protocol.DidChangeWatchedFilesParams) error {
			var names []string
			for _, ch := range p.Changes {
				if name, ok := uriPath(ch.URI); ok {
					names = append(names, name)
				}
			}
			ls.filesChanged(c.Notify, names)
			return nil
		},
	}
	// Standard output carries only the protocol. The stream answers a
	// malformed frame with an error and reads on (see lspStream).
	stream := newLSPStream(os.Stdin, os.Stdout, stdioCloser{})
	conn := jsonrpc2.NewConn(context.Background(), stream, jsonrpc2.HandlerWithError(ls.handle))
	<-conn.DisconnectNotify()
	return 0
}

type stdioCloser struct{}

func (stdioCloser) Close() error {
	os.Stdin.Close()
	return os.Stdout.Close()
}

// exit ends the server, as the exit notification asks: status 0 after a
// shutdown request, 1 without one (the LSP specification's codes).
func (ls *langServer) exit() {
	ls.mu.Lock()
	code := 1
	if ls.shutdown {
		code = 0
	}
	ls.mu.Unlock()
	os.Exit(code)
}

// handle dispatches a request or notification to the protocol handler, as
// glsp's server does.
func (ls *langServer) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	gc := glsp.Context{
		Method: req.Method,
		Notify: func(method string, params any) { conn.Notify(ctx, method, params) },
		Call:   func(method string, params, result any) { conn.Call(ctx, method, params, result) },
	}
	if req.Params != nil {
		gc.Params = *req.Params
	}
	if req.Method == protocol.MethodExit {
		// glsp's handler refuses every method but initialize once
		// shutdown has been answered, exit included
		ls.exit()
	}
	r, validMethod, validParams, err := ls.handler.Handle(&gc)
	switch {
	case !validMethod:
		if req.Notif {
			return nil, nil
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + clip(req.Method, 100)}
	case !validParams:
		msg := "invalid params"
		if err != nil {
			msg = err.Error()
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
	case err != nil:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: err.Error()}
	}
	return r, nil
}

type langServer struct {
	handler    protocol.Handler
	analyzers  []*analysis.Analyzer
	tests      bool
	buildFlags []string
	cacheOpts  driver.Options // the analysis cache, if any

	mu    sync.Mutex
	pubs  map[string]*lspPub  // by file: what was published for it (lspfiles.go)
	fixes map[string][]lspFix // by file: the fixes of its diagnostics
	open  map[string]bool     // files open in the client
	// by package directory analysed, from its last analysis: the
	// directories of the packages it loaded (its own and every one it
	// imports, directly or not), and whether it could not be analysed or
	// had errors (a missing import that a new package may provide)
	deps   map[string]map[string]bool
	broken map[string]bool
	// outside: by package directory analysed, from its last analysis, the
	// files outside its packages that it read or looked for (the module's
	// headers its C includes, whatever their names); watched: those the
	// client was asked to watch
	outside map[string]map[string]bool
	watched map[string]bool
	// the model files (-model, and those the configuration files read by
	// an analysis name), absolute; a change to one re-analyses every
	// open package
	models map[string]bool
	// watched-file registration: whether the client takes it, its
	// client/registerCapability call, and how many were made
	watch         bool
	call          glsp.CallFunc
	registrations int
	// by package directory analysed, from its last analysis: the paths
	// of its packages, and of every package they import, directly or not
	paths   map[string][]string
	imports map[string]map[string]bool
	// by package directory analysed: its last load (lspmeta.go); a
	// load's metadata is reused only while metaGen is the one it was made
	// at (a watched-file event for a module file moves it on), and
	// metaWhy says why it moved
	meta    map[string]*lspMeta
	metaGen int
	metaWhy string
	// The package directories to analyse, in order, each once: a save
	// that arrives while its package is being analysed queues one more
	// analysis, however many saves arrive meanwhile. One worker takes
	// them one at a time: each analysis uses every processor already,
	// and the memory of concurrent ones adds up (twelve files of twelve
	// packages opened at once took 3 GB).
	queue   []lspJob
	working bool // the worker is running
	notify  glsp.NotifyFunc
	docs    map[string]*lspDoc // the documents open in the client, by file name
	// whether the client takes versioned edits (documentChanges)
	versionedEdits bool
	shutdown       bool // the client asked for shutdown
}

// An lspJob is a package directory to analyse; saved says that one of its
// files was saved, so its open importers are analysed after it.
type lspJob struct {
	dir   string
	saved bool
}

// An lspDoc is a document open in the client: its version and its text as
// the client has it (nil when the server could not follow a change).
type lspDoc struct {
	version protocol.Integer
	text    []byte
}

func (ls *langServer) opened(d protocol.TextDocumentItem) {
	name, ok := uriPath(d.URI)
	if !ok {
		return
	}
	ls.mu.Lock()
	ls.docs[name] = &lspDoc{version: d.Version, text: []byte(d.Text)}
	ls.mu.Unlock()
}

// closed forgets a document closed in the client. A file that is gone
// from disk (deleted or renamed, in the editor or not) is a change to its
// package (filesChanged); a file still there keeps its diagnostics, as
// gopls does.
func (ls *langServer) closed(c *glsp.Context, uri protocol.DocumentUri) {
	name, ok := uriPath(uri)
	if !ok {
		return
	}
	ls.mu.Lock()
	delete(ls.docs, name)
	ls.docClosed(c.Notify, name)
	ls.mu.Unlock()
	if _, err := os.Lstat(name); os.IsNotExist(err) {
		ls.filesChanged(c.Notify, []string{name})
	}
}

// changed follows the client's edits of an open document, whole or by
// range (a range the text does not have makes the text unknown: no fix is
// offered in it until it is opened again), and publishes or analyses what
// the new text calls for (docChanged).
func (ls *langServer) changed(c *glsp.Context, p *protocol.DidChangeTextDocumentParams) {
	name, ok := uriPath(p.TextDocument.URI)
	if !ok {
		return
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	d := ls.docs[name]
	if d == nil {
		// not opened (or opened before a restart): its text is unknown
		d = &lspDoc{}
		ls.docs[name] = d
	}
	d.version = p.TextDocument.Version
	for _, ch := range p.ContentChanges {
		switch ch := ch.(type) {
		case protocol.TextDocumentContentChangeEventWhole:
			d.text = []byte(ch.Text)
		case protocol.TextDocumentContentChangeEvent:
			if d.text == nil || ch.Range == nil {
				d.text = nil
				continue
			}
			start, ok1 := utf16Offset(d.text, ch.Range.Start)
			end, ok2 := utf16Offset(d.text, ch.Range.End)
			if !ok1 || !ok2 || end < start {
				d.text = nil
				continue
			}
			d.text = slices.Concat(d.text[:start], []byte(ch.Text), d.text[end:])
		default:
			d.text = nil
		}
	}
	ls.docChanged(c.Notify, name, d)
}

// utf16Offset returns the byte offset in text of an LSP position (a
// zero-based line, a character in UTF-16 code units).
func utf16Offset(text []byte, p protocol.Position) (int, bool) {
	lines := lspLines(text)
	if int(p.Line) >= len(lines) {
		return 0, false
	}
	off := 0
	for _, l := range lines[:p.Line] {
		off += len(l)
	}
	line := bytes.TrimRight(lines[p.Line], "\r\n")
	n := 0
	for i, r := range string(line) {
		if n >= int(p.Character) {
			return off + i, n == int(p.Character)
		}
		n += utf16.RuneLen(r)
	}
	if n == int(p.Character) {
		return off + len(line), true
	}
	return 0, false
}

// An lspFix is a diagnostic with a fix that maps to the user's files.
type lspFix struct {
	diag protocol.Diagnostic
	fix  *fixes.Fix
	sums map[string][sha256.Size]byte // of the files it edits, as analysed
}

func (ls *langServer) initialize(c *glsp.Context, p *protocol.InitializeParams) (any, error) {
	if w := p.Capabilities.Workspace; w != nil && w.WorkspaceEdit != nil && w.WorkspaceEdit.DocumentChanges != nil {
		ls.mu.Lock()
		ls.versionedEdits = *w.WorkspaceEdit.DocumentChanges
		ls.mu.Unlock()
	}
	if w := p.Capabilities.Workspace; w != nil && w.DidChangeWatchedFiles != nil && w.DidChangeWatchedFiles.DynamicRegistration != nil {
		ls.mu.Lock()
		ls.watch = *w.DidChangeWatchedFiles.DynamicRegistration
		ls.mu.Unlock()
	}
	caps := ls.handler.CreateServerCapabilities()
	yes := true
	caps.TextDocumentSync = &protocol.TextDocumentSyncOptions{
		OpenClose: &yes,
		// the documents' text, to offer a fix only in the text it was
		// computed on
		Change: ptr(protocol.TextDocumentSyncKindIncremental),
		Save:   &protocol.SaveOptions{IncludeText: new(bool)},
	}
	caps.CodeActionProvider = &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix}}
	return protocol.InitializeResult{
		Capabilities: caps,
		ServerInfo:   &protocol.InitializeResultServerInfo{Name: "lifetimevet"},
	}, nil
}

func ptr[T any](v T) *T { return &v }

// schedule queues the analysis of the package of the file at uri (opened,
// or saved when saved is set), unless it is queued already, and starts
// the worker if it is not running.
//
// A saved file that is not Go source may still be an input of the
// analysis (a C header or source file of a package, a lifetimevet.toml, a
// model file): its save queues every open package, and the analysis cache
// re-analyses only those whose inputs it changed.
func (ls *langServer) schedule(c *glsp.Context, uri protocol.DocumentUri, saved bool) error {
	name, ok := uriPath(uri)
	if !ok {
		return nil
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if !strings.HasSuffix(name, ".go") {
		if !saved {
			return nil
		}
		var dirs []string
		for f := range ls.open {
			if d := filepath.Dir(f); !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
		if len(dirs) == 0 {
			return nil
		}
		slices.Sort(dirs)
		ls.notify = c.Notify
		for _, d := range dirs {
			ls.enqueue(d, true)
		}
	} else {
		ls.open[name] = true
		ls.notify = c.Notify
		ls.enqueue(filepath.Dir(name), saved)
	}
	if !ls.working {
		ls.working = true
		go ls.work()
	}
	return nil
}

// enqueue queues dir unless it is queued, and marks it saved if saved.
// ls.mu is held.
func (ls *langServer) enqueue(dir string, saved bool) {
	for i := range ls.queue {
		if ls.queue[i].dir == dir {
			ls.queue[i].saved = ls.queue[i].saved || saved
			return
		}
	}
	ls.queue = append(ls.queue, lspJob{dir, saved})
}

// work analyses the queued packages one at a time until none is left.
// After a package whose file was saved, it queues the open packages that
// import it, directly or not: their findings depend on its facts. Through
// the analysis cache, each of those analyses only the packages whose key
// changed.
func (ls *langServer) work() {
	for {
		ls.mu.Lock()
		if len(ls.queue) == 0 {
			ls.working = false
			ls.mu.Unlock()
			return
		}
		job := ls.queue[0]
		ls.queue = ls.queue[1:]
		notify := ls.notify
		ls.mu.Unlock()

		paths, imports := ls.analyse(notify, job.dir)

		ls.mu.Lock()
		if paths != nil {
			ls.paths[job.dir], ls.imports[job.dir] = paths, imports
		} else {
			ls.failed(notify, job.dir)
		}
		if job.saved {
			dirs := map[string]bool{}
			for name := range ls.open {
				dirs[filepath.Dir(name)] = true
			}
			for _, other := range slices.Sorted(maps.Keys(dirs)) {
				if other == job.dir {
					continue
				}
				for _, path := range ls.paths[job.dir] {
					if ls.imports[other][path] {
						ls.enqueue(other, false)
						break
					}
				}
			}
		}
		ls.mu.Unlock()
	}
}

// analyse analyses the package in dir and publishes the diagnostics of
// its files (an empty list for files without findings, which clears what
// an earlier run published; see publishPackage). It returns the paths of the packages
// analysed and of every package they import, directly or not (nil when
// the packages could not be analysed).
func (ls *langServer) analyse(notify glsp.NotifyFunc, dir string) (paths []string, imports map[string]bool) {
	began := time.Now()
	cfg := &packages.Config{
		Mode:       driver.LoadMode,
		Fset:       token.NewFileSet(),
		Dir:        dir,
		Tests:      ls.tests,
		BuildFlags: ls.buildFlags,
	}
	// the go command, run in a directory that is not there, says
	// only "fork/exec .../go: no such file or directory"
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		why := "does not exist"
		if err == nil {
			why = "is not a directory"
		} else if !os.IsNotExist(err) {
			why = "cannot be read: " + err.Error()
		}
		ls.log(notify, protocol.MessageTypeError, fmt.Sprintf("lifetimevet: cannot analyse the package: the directory %s %s", dir, why))
		return
	}
	// the metadata: go list's, or the last load's when the files it rests
	// on cannot have changed it (lspmeta.go)
	pkgs, overlay, how, err := ls.load(cfg)
	if err != nil {
		ls.log(notify, protocol.MessageTypeError, fmt.Sprintf("lifetimevet: loading %s: %v", dir, loadError(err)))
		ls.unanalysed(notify, dir, nil, fmt.Sprint(loadError(err)))
		return
	}
	ls.log(notify, protocol.MessageTypeLog, fmt.Sprintf("lifetimevet: %s metadata %s", dir, how))
	// the configuration files, read again at each analysis (config.go)
	configs := newConfigs()
	if errs := configs.checkDirs(packageDirs(pkgs)); len(errs) > 0 {
		var msgs []string
		for _, err := range errs {
			ls.log(notify, protocol.MessageTypeError, "lifetimevet: "+err.Error())
			msgs = append(msgs, err.Error())
		}
		ls.unanalysed(notify, dir, pkgs, strings.Join(msgs, "; "))
		return
	}
	useConfigs(configs)
	incomplete := newIncompleteLog(pkgs)
	opts := ls.cacheOpts
	opts.Overlay = overlay
	opts.Result, opts.Notes, opts.Replay = incomplete.record, incomplete.notes, incomplete.replay
	if opts.Cache != nil {
		// the model and configuration files as this analysis reads them
		opts.PackageKey = configs.packageKey(modelFlagFiles())
	}
	graph, err := driver.Analyze(configs.configured(ls.analyzers), cfg.Fset, pkgs, &opts)
	opts.FileHashes.Save() // (best effort: a memo not written is rebuilt)
	for _, msg := range incomplete.messages("") {
		fmt.Fprintf(os.Stderr, "%s: %s\n", progName(), msg)
		ls.log(notify, protocol.MessageTypeWarning, "lifetimevet: "+msg)
	}
	if err != nil {
		ls.log(notify, protocol.MessageTypeError, err.Error())
		ls.unanalysed(notify, dir, pkgs, err.Error())
		return
	}
	var loadErrs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			loadErrs = append(loadErrs, errorText(e))
		}
	})
	if len(loadErrs) > 0 {
		ls.log(notify, protocol.MessageTypeWarning, "lifetimevet: "+strings.Join(loadErrs, "\n"))
	}
	// Every user file of the packages gets a list, perhaps empty.
	byFile := map[string][]protocol.Diagnostic{}
	for _, p := range pkgs {
		for _, f := range ownGoFiles(p) {
			if byFile[f] == nil {
				byFile[f] = []protocol.Diagnostic{} // [], not null
			}
		}
	}
	// A package left unanalysed says so in each of its files, where the
	// editor shows it: an empty list would read as clean.
	for file, msg := range notAnalysed(pkgs) {
		if byFile[file] != nil {
			byFile[file] = append(byFile[file], protocol.Diagnostic{
				Severity: ptr(protocol.DiagnosticSeverityWarning),
				Source:   ptr("lifetimevet"),
				Message:  msg,
			})
		}
	}
	// A function the analysis did not finish says so where it is (the
	// log alone would leave its file looking clean).
	for _, n := range incomplete.positioned() {
		if byFile[n.file] != nil {
			pos := lineCache{}.position(n.file, n.line, n.column)
			byFile[n.file] = append(byFile[n.file], protocol.Diagnostic{
				Range:    protocol.Range{Start: pos, End: pos},
				Severity: ptr(protocol.DiagnosticSeverityInformation),
				Source:   ptr("lifetimevet"),
				Message:  "lifetimevet: " + n.msg,
			})
		}
	}
	fileFixes := map[string][]lspFix{}
	files := &fixes.Files{Digest: graph.Digest, ReadFile: graph.ReadFile, Overlaid: graph.Overlaid, Editable: notEditable(graph)}
	conv := lineCache{}
	for _, f := range collectFindings(graph) {
		name := f.posn.Filename
		start := conv.position(name, f.posn.Line, f.posn.Column)
		end := start
		if f.d.End.IsValid() {
			if e := f.fset.Position(f.d.End); e.Filename == name && e.Column > 0 {
				end = conv.position(name, e.Line, e.Column)
			}
		}
		d := protocol.Diagnostic{
			Range:    protocol.Range{Start: start, End: end},
			Severity: ptr(lspSeverity(findingLevel(f))),
			Code:     &protocol.IntegerOrString{Value: f.analyzer.Name},
			Source:   ptr("lifetimevet"),
			Message:  f.msg,
		}
		if f.analyzer.URL != "" {
			d.CodeDescription = &protocol.CodeDescription{HRef: f.analyzer.URL}
		}
		for _, rel := range f.d.Related {
			p := f.fset.Position(rel.Pos)
			if !p.IsValid() {
				continue
			}
			pos := conv.position(p.Filename, p.Line, p.Column)
			d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: pathURI(p.Filename), Range: protocol.Range{Start: pos, End: pos}},
				Message:  rel.Message,
			})
		}
		byFile[name] = append(byFile[name], d)
		for _, sf := range f.d.SuggestedFixes {
			fix, err := files.Map(f.fset, sf, f.sources)
			if err != nil {
				ls.log(notify, protocol.MessageTypeInfo, fmt.Sprintf("lifetimevet: %s:%d: the fix %q is not offered: %v", name, f.posn.Line, sf.Message, err))
				continue
			}
			sums := map[string][sha256.Size]byte{}
			for _, e := range fix.Edits {
				sums[e.File], _ = graph.Digest(e.File)
			}
			fileFixes[name] = append(fileFixes[name], lspFix{d, fix, sums})
		}
	}
	// what the run analysed, for the client's log: with the cache, the
	// packages whose key changed
	if ls.cacheOpts.Cache != nil {
		analysed := strings.Join(graph.Missed, ", ")
		if len(graph.Missed) > 10 {
			analysed = strings.Join(graph.Missed[:10], ", ") + fmt.Sprintf(" and %d more", len(graph.Missed)-10)
		}
		if len(graph.Missed) > 0 {
			analysed = ": " + analysed
		}
		ls.log(notify, protocol.MessageTypeLog, fmt.Sprintf("lifetimevet: %s done in %.1fs: %d packages from the analysis cache, %d analysed%s",
			dir, time.Since(began).Seconds(), graph.CacheHits, graph.CacheMisses, analysed))
	} else {
		ls.log(notify, protocol.MessageTypeLog, fmt.Sprintf("lifetimevet: %s done in %.1fs (no analysis cache)", dir, time.Since(began).Seconds()))
	}
	imports = map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		imports[p.PkgPath] = true
	})
	for _, p := range pkgs {
		if !slices.Contains(paths, p.PkgPath) {
			paths = append(paths, p.PkgPath)
		}
	}
	ls.mu.Lock()
	for name, ds := range ls.notListedNotices(dir, pkgs, "") {
		if byFile[name] == nil {
			byFile[name] = ds
		}
	}
	for name := range byFile {
		ls.fixes[name] = fileFixes[name]
	}
	ls.publishPackage(notify, dir, pkgs, byFile, graph.Digest)
	ls.noteOutside(dir, graph.Outside)
	ls.noteModels(configs.snap.names())
	ls.mu.Unlock()
	return paths, imports
}

// notListedNotices returns a diagnostic for each open Go file of dir that
// no package of pkgs lists, which says why it has no findings, as gopls
// does: nothing would read as clean. It is a warning when go list failed
// for the directory (loadErr, or an error of pkgs), information when a
// build constraint excludes the file. ls.mu is held.
func (ls *langServer) notListedNotices(dir string, pkgs []*packages.Package, loadErr string) map[string][]protocol.Diagnostic {
	out := map[string][]protocol.Diagnostic{}
	listed := map[string]bool{}
	for _, p := range pkgs {
		for _, f := range p.GoFiles {
			listed[f] = true
		}
	}
	for name := range ls.open {
		if filepath.Dir(name) != filepath.Clean(dir) || !strings.HasSuffix(name, ".go") || listed[name] {
			continue
		}
		msg, excluded := notListed(pkgs, name)
		if msg == "" && !ls.tests && strings.HasSuffix(name, "_test.go") {
			msg, excluded = notAnalysedMsg(filepath.Base(name), "-test=false leaves test files out"), true
		}
		if msg == "" && loadErr != "" {
			msg = notAnalysedMsg(filepath.Base(name), loadErr)
		}
		if msg != "" {
			out[name] = []protocol.Diagnostic{notAnalysedNotice(msg, excluded)}
		}
	}
	return out
}

// unanalysed publishes, in each Go file of the packages pkgs of dir and
// each open Go file of dir, a warning that dir was not analysed and why
// (msg): the files' earlier findings would otherwise stand, or an empty
// list read as clean.
func (ls *langServer) unanalysed(notify glsp.NotifyFunc, dir string, pkgs []*packages.Package, msg string) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	byFile := ls.notListedNotices(dir, nil, msg)
	for _, p := range pkgs {
		for _, f := range ownGoFiles(p) {
			byFile[f] = []protocol.Diagnostic{notAnalysedNotice(notAnalysedMsg(p.ID, msg), false)}
		}
	}
	for name := range byFile {
		delete(ls.fixes, name)
	}
	deps := ls.deps[dir] // (what the last analysis rested on still counts)
	ls.publishPackage(notify, dir, nil, byFile, func(string) ([sha256.Size]byte, bool) { return [sha256.Size]byte{}, false })
	ls.deps[dir] = deps
	ls.broken[dir] = true
}

// notAnalysedNotice is the diagnostic, at a file's start, that carries msg:
// a warning, or a note (information) for a file the build leaves out by
// design (excluded: a build constraint, -test=false).
func notAnalysedNotice(msg string, excluded bool) protocol.Diagnostic {
	severity := protocol.DiagnosticSeverityWarning
	if excluded {
		severity = protocol.DiagnosticSeverityInformation
	}
	return protocol.Diagnostic{Severity: ptr(severity), Source: ptr("lifetimevet"), Message: msg}
}

func (ls *langServer) log(notify glsp.NotifyFunc, t protocol.MessageType, msg string) {
	notify(string(protocol.ServerWindowLogMessage), protocol.LogMessageParams{Type: t, Message: msg})
}

// codeAction offers the fixes of the diagnostics in the requested range.
// A fix is made of byte offsets into the files as analysed: it is offered
// only when the text the client edits is that content, for each file it
// edits: the client's text of a document open in it (which unsaved
// changes make another text), the file on disk otherwise. Its edits are
// positions in that text, and carry the document's version when the
// client takes versioned edits (it then refuses them once the document
// changed).
func (ls *langServer) codeAction(c *glsp.Context, p *protocol.CodeActionParams) (any, error) {
	name, ok := uriPath(p.TextDocument.URI)
	if !ok {
		return nil, nil
	}
	ls.mu.Lock()
	fs := slices.Clone(ls.fixes[name])
	type doc struct {
		version protocol.Integer
		text    []byte
		open    bool
	}
	docs := map[string]doc{}
	for _, f := range fs {
		for _, e := range f.fix.Edits {
			if d := ls.docs[e.File]; d != nil {
				docs[e.File] = doc{d.version, d.text, true}
			}
		}
	}
	versioned := ls.versionedEdits
	ls.mu.Unlock()
	actions := []protocol.CodeAction{}
	for _, f := range fs {
		if !overlaps(f.diag.Range, p.Range) {
			continue
		}
		// The text each file has where the client will apply the edit.
		texts := map[string][]byte{}
		stale := ""
		for _, e := range f.fix.Edits {
			if _, ok := texts[e.File]; ok {
				continue
			}
			var text []byte
			if d, ok := docs[e.File]; ok {
				if d.text == nil {
					stale = e.File + " has changes in the editor that the server could not follow"
					break
				}
				text = d.text
				if sha256.Sum256(text) != f.sums[e.File] {
					stale = e.File + " has changes in the editor that the analysis has not seen (save it to analyse it again)"
					break
				}
			} else {
				data, err := os.ReadFile(e.File)
				if err != nil || sha256.Sum256(data) != f.sums[e.File] {
					stale = e.File + " changed since it was analysed"
					break
				}
				text = data
			}
			texts[e.File] = text
		}
		if stale != "" {
			ls.log(c.Notify, protocol.MessageTypeInfo, fmt.Sprintf("lifetimevet: the fix %q is not offered: %s", f.fix.Message, stale))
			continue
		}
		conv := lineCache{}
		for name, text := range texts {
			conv[name] = text
		}
		changes := map[protocol.DocumentUri][]protocol.TextEdit{}
		var order []string
		complete := true
		for _, e := range f.fix.Edits {
			start, ok1 := conv.offsetPosition(e.File, e.Start)
			end, ok2 := conv.offsetPosition(e.File, e.End)
			if !ok1 || !ok2 {
				complete = false
				break
			}
			uri := pathURI(e.File)
			if changes[uri] == nil {
				order = append(order, e.File)
			}
			changes[uri] = append(changes[uri], protocol.TextEdit{Range: protocol.Range{Start: start, End: end}, NewText: e.New})
		}
		if !complete {
			continue
		}
		edit := &protocol.WorkspaceEdit{Changes: changes}
		if versioned {
			edit = &protocol.WorkspaceEdit{}
			for _, name := range order {
				id := protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: pathURI(name)}}
				if d, ok := docs[name]; ok {
					id.Version = ptr(d.version)
				}
				var edits []any
				for _, te := range changes[pathURI(name)] {
					edits = append(edits, te)
				}
				edit.DocumentChanges = append(edit.DocumentChanges, protocol.TextDocumentEdit{TextDocument: id, Edits: edits})
			}
		}
		actions = append(actions, protocol.CodeAction{
			Title:       f.fix.Message,
			Kind:        ptr(protocol.CodeActionKindQuickFix),
			Diagnostics: []protocol.Diagnostic{f.diag},
			Edit:        edit,
		})
	}
	return actions, nil
}

func overlaps(a, b protocol.Range) bool {
	before := func(x, y protocol.Position) bool {
		return x.Line < y.Line || x.Line == y.Line && x.Character < y.Character
	}
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

// uriPath returns the file name of a file: URI.
func uriPath(uri protocol.DocumentUri) (string, bool) {
	u, err := url.Parse(string(uri))
	if err != nil || u.Scheme != "file" {
		return "", false
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		p = strings.TrimPrefix(p, "/")
	}
	return filepath.FromSlash(p), true
}

func pathURI(name string) protocol.DocumentUri {
	return protocol.DocumentUri(fileURI(name))
}

// lineCache converts between go/token's byte positions and LSP positions
// (zero-based lines, UTF-16 code units), reading each file once. The two
// count lines differently: go/token ends a line at "\n" only, LSP at
// "\r\n", "\r" or "\n" (a lone carriage return, which Go allows in a
// comment, is a line end for the client), so every conversion goes through
// the byte offset.
type lineCache map[string][]byte

func (c lineCache) text(name string) []byte {
	data, ok := c[name]
	if !ok {
		data, _ = os.ReadFile(name)
		c[name] = data
	}
	return data
}

// lspLines splits text after each LSP line end ("\r\n", "\r", "\n").
func lspLines(text []byte) [][]byte {
	var out [][]byte
	for len(text) > 0 {
		i := bytes.IndexAny(text, "\r\n")
		if i < 0 {
			break
		}
		n := i + 1
		if text[i] == '\r' && n < len(text) && text[n] == '\n' {
			n++
		}
		out = append(out, text[:n])
		text = text[n:]
	}
	return append(out, text)
}

// position converts go/token's line:col (from 1, col in bytes).
func (c lineCache) position(name string, line, col int) protocol.Position {
	lines := bytes.SplitAfter(c.text(name), []byte("\n"))
	if line < 1 || line > len(lines) || col < 1 {
		return protocol.Position{Line: protocol.UInteger(max(line-1, 0))}
	}
	off := 0
	for _, l := range lines[:line-1] {
		off += len(l)
	}
	pos, _ := c.offsetPosition(name, off+min(col-1, len(lines[line-1])))
	return pos
}

// offsetPosition converts a byte offset.
func (c lineCache) offsetPosition(name string, off int) (protocol.Position, bool) {
	lines := lspLines(c.text(name))
	for i, l := range lines {
		if off < len(l) || i == len(lines)-1 && off == len(l) {
			b := l[:off]
			n := 0
			for len(b) > 0 {
				r, size := utf8.DecodeRune(b)
				b = b[size:]
				n += utf16.RuneLen(r)
			}
			return protocol.Position{Line: protocol.UInteger(i), Character: protocol.UInteger(n)}, true
		}
		off -= len(l)
	}
	return protocol.Position{}, false
}
