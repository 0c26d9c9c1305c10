package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"reflect"
	"slices"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/objectpath"
	"honnef.co/go/tools/lintcmd/cache"
)

// The persistent cache keeps, of each package that was analysed without
// errors, what its importers and the user need of it: its export data,
// the facts its analyzers exported and the diagnostics they reported. A
// package whose key is in the cache is neither parsed nor type-checked
// nor analysed: its types come from the export data, its facts and
// diagnostics from the entry.
//
// A package's key is the hash of everything its analysis depends on:
//   - the driver's cache format (cacheVersion) and the caller's key
//     material (Options.CacheKey: the executable's identity, the model
//     files' content, the build flags and environment, any configuration
//     file);
//   - Options.PackageKey's material for the package (the configuration
//     and model files that apply in its directory);
//   - the package's identity (ID, path, name), its module's Go version,
//     its type sizes;
//   - the names and contents of its Go files, compiled Go files (cgo's
//     output, which reflects the C headers and cgo flags), other files
//     and embedded files, and the names of its ignored files (no
//     analyzer of lifetimevet reads them);
//   - its actions: each analyzer's name and the values of its flags;
//   - the keys of its imports, so that a change in a dependency (a
//     wrapper that stops releasing) changes the key of every importer;
//   - the files its last analysis read outside its own (a header of an
//     -I directory; see outside.go), through a manifest the key of the
//     above names.
//
// An entry that cannot be read or decoded (truncated, corrupt, of another
// format) is a miss: the package is analysed as if there were no cache.

// cacheVersion changes when the entry's format or the meaning of the key
// does.
const cacheVersion = "lifetimevet-driver-cache-4"

// A cacheEntry is what the cache keeps of a package (see encodeEntry).
type cacheEntry struct {
	Export      []byte // gcexportdata of its types
	ObjectFacts []cachedObjectFact
	PkgFacts    []cachedPackageFact
	Facts       []byte         // the facts' values: one gob stream (see factSet)
	Actions     []cachedAction // in the order of the node's actions
	Files       []cachedFile   // the files its diagnostics point into
}

type cachedObjectFact struct {
	Path objectpath.Path
	Type string // the fact type's name (see factTypeName)
}

type cachedPackageFact struct {
	Type string
}

type cachedAction struct {
	Analyzer    string
	Diagnostics []cachedDiagnostic
	Notes       []string // Options.Notes of its result
}

// A cachedPos is a position as a file (index into cacheEntry.Files) and
// an offset; File < 0 is token.NoPos.
type cachedPos struct {
	File   int
	Offset int
}

type cachedDiagnostic struct {
	Pos, End       cachedPos
	Category       string
	Message        string
	URL            string
	SuggestedFixes []cachedFix
	Related        []cachedRelated
}

type cachedFix struct {
	Message   string
	TextEdits []cachedEdit
}

type cachedEdit struct {
	Pos, End cachedPos
	NewText  []byte
}

type cachedRelated struct {
	Pos, End cachedPos
	Message  string
}

type cachedFile struct {
	Name string
	Size int
}

// factTypeName names a fact type in an entry.
func factTypeName(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		return "*" + t.Elem().PkgPath() + "." + t.Elem().Name()
	}
	return t.PkgPath() + "." + t.Name()
}

// cacheKey computes the node's key, once all its imports have theirs.
// It also takes the digests of a root package's files (see typeCheck),
// which a hit needs as much as a miss. It reports false when a file
// cannot be read: such a package is not cached, nor are its importers.
func (d *driver) cacheKey(n *node) bool {
	pkg := n.pkg
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%x\x00", cacheVersion, d.opts.CacheKey)
	if d.opts.PackageKey != nil {
		k, ok := d.opts.PackageKey(pkg)
		if !ok {
			return false
		}
		fmt.Fprintf(h, "package %d %x\x00", len(k), k)
	}
	fmt.Fprintf(h, "id %q path %q name %q\x00", pkg.ID, pkg.PkgPath, pkg.Name)
	if pkg.Module != nil {
		fmt.Fprintf(h, "go %q\x00", pkg.Module.GoVersion)
	}
	if pkg.TypesSizes != nil {
		fmt.Fprintf(h, "sizes %#v\x00", pkg.TypesSizes)
	}
	sums := map[string][sha256.Size]byte{}
	var buf []byte
	hashFile := func(kind, name string) bool {
		sum, err := d.sum(name)
		if err != nil {
			return false
		}
		sums[name] = sum
		// kind, the name's length and the name, the hash (fmt's %q
		// was a tenth of the keying)
		buf = append(buf[:0], kind...)
		buf = append(buf, ' ')
		buf = binary.AppendUvarint(buf, uint64(len(name)))
		buf = append(buf, name...)
		buf = append(buf, sum[:]...)
		h.Write(buf)
		return true
	}
	for _, name := range pkg.CompiledGoFiles {
		if !hashFile("compiled", name) {
			return false
		}
	}
	for _, name := range pkg.GoFiles {
		if slices.Contains(pkg.CompiledGoFiles, name) {
			continue
		}
		if !hashFile("go", name) {
			return false
		}
	}
	for _, name := range pkg.OtherFiles {
		if !hashFile("other", name) {
			return false
		}
	}
	for _, name := range pkg.EmbedFiles {
		if !hashFile("embed", name) {
			return false
		}
	}
	for _, name := range pkg.IgnoredFiles {
		fmt.Fprintf(h, "ignored %q\x00", name)
	}
	for _, act := range n.actions {
		h.Write(d.analyzerKey(act.Analyzer))
	}
	for _, path := range sortedKeys(pkg.Imports) {
		imp := d.nodes[pkg.Imports[path]]
		if imp == nil || !imp.keyed {
			return false
		}
		buf = append(buf[:0], "import "...)
		buf = binary.AppendUvarint(buf, uint64(len(path)))
		buf = append(buf, path...)
		buf = append(buf, imp.key[:]...)
		h.Write(buf)
	}
	h.Sum(n.key[:0])
	n.keyed = true
	n.sums = sums
	return true
}

// analyzerKey returns an action's part of its package's key: its
// analyzer's name and the values of its flags, written once per run (the
// flags do not change during the analysis).
func (d *driver) analyzerKey(a *analysis.Analyzer) []byte {
	if k, ok := d.analyzerKeys.Load(a); ok {
		return k.([]byte)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "action %q\x00", a.Name)
	a.Flags.VisitAll(func(f *flag.Flag) {
		fmt.Fprintf(&b, "flag %q=%q\x00", f.Name, f.Value.String())
	})
	k, _ := d.analyzerKeys.LoadOrStore(a, b.Bytes())
	return k.([]byte)
}

// sum returns the SHA-256 of file name's content as the build sees it
// (through the overlay), from Options.FileHashes.
// A file is hashed once per run, however many packages have it (a
// package and its test variant share theirs): a file that changes during
// the run is seen by their analyses, which check what they read against
// their keys (see verify).
func (d *driver) sum(name string) ([sha256.Size]byte, error) {
	d.sumsMu.Lock()
	sum, ok := d.sums[name]
	d.sumsMu.Unlock()
	if ok {
		return sum, nil
	}
	file := name
	if to, ok := d.opts.Overlay.replacement(name); ok {
		if to == "" {
			return [sha256.Size]byte{}, &os.PathError{Op: "open", Path: name, Err: os.ErrNotExist}
		}
		file = to
	}
	sum, err := d.opts.FileHashes.Sum(file)
	if err != nil {
		return sum, err
	}
	d.sumsMu.Lock()
	d.sums[name] = sum
	d.sumsMu.Unlock()
	return sum, nil
}

// verify checks that what the package's analysis read of file name is
// what its key hashed (the file may have changed in between): if not,
// the outcome is not cached, nor are its importers' (see analyse).
func (n *node) verify(name string, raw []byte) {
	if want, ok := n.sums[name]; n.keyed && (!ok || sha256.Sum256(raw) != want) {
		n.unstable = true
	}
}

// loadCached fills the node from its cache entry, and reports whether it
// could: the entry is there and intact, and the package's imports are
// well typed.
func (d *driver) loadCached(n *node) bool {
	pkg := n.pkg
	for _, imp := range pkg.Imports {
		if imp.IllTyped {
			return false
		}
	}
	data, _, err := cache.GetBytes(d.opts.Cache, cache.ActionID(n.key))
	if err != nil {
		return false
	}
	e, heads, ok := decodeEntry(data)
	if !ok {
		return false
	}
	if len(e.Actions) != len(n.actions) {
		return false
	}
	for i, act := range n.actions {
		if e.Actions[i].Analyzer != act.Analyzer.Name {
			return false
		}
	}
	// the types and facts, for importers: read when one of them is
	// analysed (see need), not now
	var lazy *lazyTypes
	if len(n.importers) > 0 {
		lazy = &lazyTypes{export: e.Export, heads: heads, stream: e.Facts}
	}
	// the files the diagnostics point into, as the parser would have
	// laid them out (lines and //line directives)
	files := make([]*token.File, len(e.Files))
	for i, cf := range e.Files {
		f, ok := d.rebuildFile(n, cf)
		if !ok {
			return false
		}
		files[i] = f
	}
	pos := func(p cachedPos) (token.Pos, bool) {
		if p.File < 0 {
			return token.NoPos, true
		}
		if p.File >= len(files) || p.Offset < 0 || p.Offset > files[p.File].Size() {
			return token.NoPos, false
		}
		return files[p.File].Pos(p.Offset), true
	}
	diags := make([][]analysis.Diagnostic, len(e.Actions))
	for i, ca := range e.Actions {
		for _, cd := range ca.Diagnostics {
			diag, ok := decodeDiagnostic(cd, pos)
			if !ok {
				return false
			}
			diags[i] = append(diags[i], diag)
		}
	}

	// a hit: set everything
	pkg.Fset = d.fset
	pkg.Types = nil // (see need)
	n.lazy = lazy
	for i, act := range n.actions {
		act.Diagnostics = diags[i]
		act.Err = nil
		if d.opts.Replay != nil && len(e.Actions[i].Notes) > 0 {
			d.opts.Replay(act, e.Actions[i].Notes)
		}
	}
	return true
}

// lazyTypes is what a package loaded from the cache keeps for its
// importers until one of them is analysed: its export data and its facts,
// undecoded. On a run where every package comes from the cache no
// importer needs them, and decoding every dependency's export data and
// facts was a third of such a run.
type lazyTypes struct {
	export []byte
	heads  []byte // the facts' objects and types (see encodeEntry)
	stream []byte // their values
}

// facts returns the facts' set, with their types as the node's actions
// declare them (an unknown one is nil: the set does not decode).
func (lz *lazyTypes) facts(n *node) (*factSet, bool) {
	var e cacheEntry
	if !decodeHeads(lz.heads, &e) {
		return nil, false
	}
	factTypes := map[string]reflect.Type{}
	for _, act := range n.actions {
		for _, f := range act.Analyzer.FactTypes {
			t := reflect.TypeOf(f)
			factTypes[factTypeName(t)] = t
		}
	}
	fs := &factSet{objects: e.ObjectFacts, packages: e.PkgFacts, stream: lz.stream}
	for _, f := range e.ObjectFacts {
		fs.types = append(fs.types, factTypes[f.Type])
	}
	for _, f := range e.PkgFacts {
		fs.types = append(fs.types, factTypes[f.Type])
	}
	return fs, true
}

// need makes ready the types and facts of the package's dependencies,
// all of them (an analysis may reach any object of its import graph,
// through the types, and ask for its facts), before the package is
// type-checked and analysed.
func (d *driver) need(n *node) {
	for _, imp := range n.pkg.Imports {
		if in := d.nodes[imp]; in != nil {
			d.ready(in)
		}
	}
}

// ready reads the types and facts of a package loaded from the cache,
// once, after its dependencies' (its export data refers to their types).
// An entry whose export data or facts do not decode was a miss after
// all: the package is analysed now, as it would have been without the
// cache, and its entry written again.
func (d *driver) ready(n *node) {
	n.once.Do(func() {
		lz := n.lazy
		if lz == nil {
			return // analysed: its types and facts are in place
		}
		n.lazy = nil
		d.need(n)
		light, err := d.readExportData(n.pkg, lz.export)
		var objectFacts map[objectFactKey]analysis.Fact
		var packageFacts map[packageFactKey]analysis.Fact
		ok := err == nil
		var fs *factSet
		if ok {
			fs, ok = lz.facts(n)
		}
		if ok {
			objectFacts, packageFacts, ok = fs.decode(light)
		}
		if !ok {
			d.hits.Add(-1)
			d.miss(n)
			for _, act := range n.actions {
				act.Diagnostics = nil // (the entry's; the analysis reports them again)
			}
			d.analyse(n)
			return
		}
		d.mu.Lock()
		n.pkg.Types = light
		for k, f := range objectFacts {
			d.objectFacts[k] = f
		}
		for k, f := range packageFacts {
			d.packageFacts[k] = f
		}
		d.mu.Unlock()
	})
}

func decodeDiagnostic(cd cachedDiagnostic, pos func(cachedPos) (token.Pos, bool)) (analysis.Diagnostic, bool) {
	ok := true
	p := func(c cachedPos) token.Pos {
		v, good := pos(c)
		ok = ok && good
		return v
	}
	diag := analysis.Diagnostic{Pos: p(cd.Pos), End: p(cd.End), Category: cd.Category, Message: cd.Message, URL: cd.URL}
	for _, cf := range cd.SuggestedFixes {
		fix := analysis.SuggestedFix{Message: cf.Message}
		for _, ce := range cf.TextEdits {
			fix.TextEdits = append(fix.TextEdits, analysis.TextEdit{Pos: p(ce.Pos), End: p(ce.End), NewText: ce.NewText})
		}
		diag.SuggestedFixes = append(diag.SuggestedFixes, fix)
	}
	for _, cr := range cd.Related {
		diag.Related = append(diag.Related, analysis.RelatedInformation{Pos: p(cr.Pos), End: p(cr.End), Message: cr.Message})
	}
	return diag, ok
}

// rebuildFile adds to the file set a file a cached diagnostic points
// into, with its lines and the //line directives the parser would have
// seen: the content is the one the key hashed (a Go file read as the
// parser reads it, see typeCheck, scanned for its lines and directives;
// another file by its lines).
func (d *driver) rebuildFile(n *node, cf cachedFile) (*token.File, bool) {
	pkg := n.pkg
	src, err := d.opts.Overlay.read(cf.Name)
	if err != nil {
		return nil, false
	}
	if want, ok := n.sums[cf.Name]; !ok || sha256.Sum256(src) != want {
		return nil, false // changed since the key was taken
	}
	goFile := slices.Contains(pkg.CompiledGoFiles, cf.Name) || slices.Contains(pkg.GoFiles, cf.Name)
	if goFile && !slices.Contains(pkg.GoFiles, cf.Name) {
		if fixed, ok := resolveLineDirectives(src); ok {
			src = fixed
		}
	}
	if len(src) != cf.Size {
		return nil, false
	}
	f := d.fset.AddFile(cf.Name, -1, len(src))
	if !goFile {
		f.SetLinesForContent(src)
		return f, true
	}
	var s scanner.Scanner
	s.Init(f, src, nil, scanner.ScanComments)
	for {
		if _, tok, _ := s.Scan(); tok == token.EOF {
			break
		}
	}
	return f, true
}

// storeCached writes the node's entry, once its actions have run and
// before lighten drops what the entry needs. A package with errors (its
// own, an action's) is not cached: its analysis is redone, with its
// errors, every time.
func (d *driver) storeCached(n *node) {
	pkg := n.pkg
	if pkg.IllTyped || pkg.Types == nil || len(pkg.Syntax) == 0 || n.unstable {
		return
	}
	var e cacheEntry
	for _, act := range n.actions {
		if act.Err != nil {
			return
		}
		if d.opts.Cacheable != nil && !d.opts.Cacheable(act, act.result) {
			return
		}
	}
	exp, err := d.writeExportData(pkg)
	if err != nil {
		return
	}
	e.Export = exp
	if len(n.importers) > 0 {
		n.export = exp // for lighten
	}
	fs := d.encodeFacts(n)
	e.ObjectFacts, e.PkgFacts, e.Facts = fs.objects, fs.packages, fs.stream
	if len(n.importers) > 0 {
		n.facts = fs // for lighten
	}

	fileIndex := map[*token.File]int{}
	bad := false
	pos := func(p token.Pos) cachedPos {
		if !p.IsValid() {
			return cachedPos{File: -1}
		}
		f := d.fset.File(p)
		if f == nil {
			bad = true
			return cachedPos{File: -1}
		}
		i, ok := fileIndex[f]
		if !ok {
			i = len(e.Files)
			fileIndex[f] = i
			e.Files = append(e.Files, cachedFile{Name: f.Name(), Size: f.Size()})
		}
		return cachedPos{File: i, Offset: f.Offset(p)}
	}
	for _, act := range n.actions {
		ca := cachedAction{Analyzer: act.Analyzer.Name}
		if d.opts.Notes != nil {
			ca.Notes = d.opts.Notes(act, act.result)
		}
		for _, diag := range act.Diagnostics {
			cd := cachedDiagnostic{Pos: pos(diag.Pos), End: pos(diag.End), Category: diag.Category, Message: diag.Message, URL: diag.URL}
			for _, fix := range diag.SuggestedFixes {
				cf := cachedFix{Message: fix.Message}
				for _, te := range fix.TextEdits {
					cf.TextEdits = append(cf.TextEdits, cachedEdit{pos(te.Pos), pos(te.End), te.NewText})
				}
				cd.SuggestedFixes = append(cd.SuggestedFixes, cf)
			}
			for _, r := range diag.Related {
				cd.Related = append(cd.Related, cachedRelated{pos(r.Pos), pos(r.End), r.Message})
			}
			ca.Diagnostics = append(ca.Diagnostics, cd)
		}
		e.Actions = append(e.Actions, ca)
	}
	if bad {
		return
	}
	for _, cf := range e.Files {
		// a file the diagnostics point into must be one a hit can lay
		// out again: one of the package's files
		if !slices.Contains(pkg.CompiledGoFiles, cf.Name) && !slices.Contains(pkg.GoFiles, cf.Name) && !slices.Contains(pkg.OtherFiles, cf.Name) {
			return
		}
	}
	data, err := encodeEntry(&e)
	if err != nil {
		return
	}
	// best effort: a write that fails leaves a miss
	cache.PutBytes(d.opts.Cache, cache.ActionID(n.key), data)
}

// An entry is written in four parts, each but the last after its length
// (a uvarint): its actions and files (entryMeta, as JSON), the objects
// and types of its facts (entryHeads, as JSON), its export data, and its
// facts' values (a gob stream, see factSet). A hit decodes the first part
// only; the others are for importers, decoded when one is analysed (see
// lazyTypes). (JSON: encoding/json keeps each type's decoder for the
// process, where gob compiles it again for each stream, which was most of
// the time of decoding an entry; the cache layer checks each entry's
// checksum.)
type entryMeta struct {
	Actions []cachedAction
	Files   []cachedFile
}

type entryHeads struct {
	ObjectFacts []cachedObjectFact
	PkgFacts    []cachedPackageFact
}

func encodeEntry(e *cacheEntry) ([]byte, error) {
	if !validStrings(e) {
		// JSON would replace the bytes that are not UTF-8 (a message
		// quoting a C string, a file name): a hit would say something
		// else than the analysis did
		return nil, errors.New("a string of the entry is not UTF-8")
	}
	meta, err := json.Marshal(entryMeta{e.Actions, e.Files})
	if err != nil {
		return nil, err
	}
	heads, err := json.Marshal(entryHeads{e.ObjectFacts, e.PkgFacts})
	if err != nil {
		return nil, err
	}
	var buf []byte
	for _, part := range [][]byte{meta, heads, e.Export} {
		buf = binary.AppendUvarint(buf, uint64(len(part)))
		buf = append(buf, part...)
	}
	return append(buf, e.Facts...), nil
}

// validStrings reports whether every string of the entry is UTF-8, so
// that JSON keeps it as it is.
func validStrings(e *cacheEntry) bool {
	ok := true
	valid := func(ss ...string) {
		for _, s := range ss {
			ok = ok && utf8.ValidString(s)
		}
	}
	for _, a := range e.Actions {
		valid(a.Analyzer)
		valid(a.Notes...)
		for _, d := range a.Diagnostics {
			valid(d.Category, d.Message, d.URL)
			for _, f := range d.SuggestedFixes {
				valid(f.Message)
			}
			for _, r := range d.Related {
				valid(r.Message)
			}
		}
	}
	for _, f := range e.Files {
		valid(f.Name)
	}
	for _, f := range e.ObjectFacts {
		valid(string(f.Path), f.Type)
	}
	for _, f := range e.PkgFacts {
		valid(f.Type)
	}
	return ok
}

// decodeEntry decodes an entry's actions and files, and splits off the
// rest: its export data and facts' values in e, the facts' heads
// undecoded (see decodeHeads).
func decodeEntry(data []byte) (e cacheEntry, heads []byte, ok bool) {
	var parts [3][]byte
	for i := range parts {
		n, k := binary.Uvarint(data)
		if k <= 0 || n > uint64(len(data)-k) {
			return e, nil, false
		}
		parts[i], data = data[k:k+int(n)], data[k+int(n):]
	}
	var meta entryMeta
	if err := json.Unmarshal(parts[0], &meta); err != nil {
		return e, nil, false
	}
	e.Actions, e.Files = meta.Actions, meta.Files
	e.Export, e.Facts = parts[2], data
	return e, parts[1], true
}

// decodeHeads decodes an entry's facts' heads into e.
func decodeHeads(heads []byte, e *cacheEntry) bool {
	var h entryHeads
	if err := json.Unmarshal(heads, &h); err != nil {
		return false
	}
	e.ObjectFacts, e.PkgFacts = h.ObjectFacts, h.PkgFacts
	return true
}

// writeExportData returns the package's types written as export data.
func (d *driver) writeExportData(pkg *packages.Package) (_ []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("export data of %s: %v", pkg.PkgPath, r)
		}
	}()
	var buf bytes.Buffer
	if err := gcexportdata.Write(&buf, d.fset, pkg.Types); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// readExportData reads the package's export data against its imports'
// types: its declarations, without scopes.
func (d *driver) readExportData(pkg *packages.Package, data []byte) (_ *types.Package, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("export data of %s: %v", pkg.PkgPath, r)
		}
	}()
	// the export data names the packages of all the objects it mentions:
	// they are in the package's import graph, one per path
	imports := map[string]*types.Package{}
	var add func(p *packages.Package)
	add = func(p *packages.Package) {
		for _, imp := range p.Imports {
			if imp.Types != nil && imp.PkgPath != "unsafe" && imports[imp.PkgPath] == nil {
				imports[imp.PkgPath] = imp.Types
				add(imp)
			}
		}
	}
	add(pkg)
	return gcexportdata.Read(bytes.NewReader(data), d.fset, imports, pkg.PkgPath)
}
