// Package fixes maps the suggested fixes of lifetimevet's analyzers back to
// the files the user wrote, and applies them.
//
// A driver hands an analyzer cgo's output in place of every file that
// imports "C": a generated file whose //line and /*line*/ directives map
// each position back to the user's file. go/analysis drivers refuse to edit
// such files (they count as generated). An edit in one can still be carried
// to the user's file when the mapping around it is exact: both ends map to
// the same file with known columns, the text the edit replaces is the same
// in both files, and the bytes just outside the edit map to the bytes just
// outside it in the user's file (so that the edit does not straddle text that
// cgo rewrote, such as a C.f reference). Map does that, and says why when it
// cannot.
//
// A fix is only ever written to content identical to what was analysed:
// Map takes the package's source set (the files go/packages lists) and
// refuses an edit of any other file (a //line directive naming a file
// outside the package does not redirect it), and, given the digests of
// what the analysis read (Files.Digest), an edit of a file that changed
// since; Apply reads each file again before it writes it and refuses a file
// that changed in between, and writes each file once however many names
// (symlinks, hard links) and packages reach it. No fix is offered in a file
// marked as generated ("// Code generated ... DO NOT EDIT."), nor in a file
// an -overlay replaces (what was analysed is not on disk).
//
// Edits are of the bytes of the files themselves, never of positions a
// //line directive gives: in a file the user wrote, a fix is placed by its
// raw offsets; through cgo's output, whose positions are the ones cgo's
// parser saw (through the user's own directives), only into the file cgo
// read, and only when that file has no //line directive of its own. A fix
// that would leave a Go file unparsable is refused (by Map, so that no
// driver offers it, and again by Apply for the fixes of a file together).
// A file is replaced whole (WriteFile): a write that fails leaves it as it
// was.
package fixes

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ErrStale is wrapped by the errors of Map and Apply that refuse a file
// whose content is not the one analysed (edited during the run).
var ErrStale = errors.New("the file is not what was analysed")

// errStale wraps ErrStale without adding to the message.
var errStale = quiet{ErrStale}

type quiet struct{ err error }

func (quiet) Error() string   { return "" }
func (q quiet) Unwrap() error { return q.err }

// An Edit replaces the bytes [Start, End) of File with New.
type Edit struct {
	File       string // absolute name of a file the user wrote
	Start, End int    // byte offsets
	New        string
}

// A Fix is a suggested fix mapped to the user's files.
type Fix struct {
	Message string
	Edits   []Edit
}

// Files reads files, caching their contents.
type Files struct {
	data map[string][]byte
	// ReadFile reads a file; os.ReadFile when nil.
	ReadFile func(string) ([]byte, error)
	// Digest, if not nil, returns the SHA-256 of a file's content as the
	// analysis read it, and false for a file the analysis did not read.
	// Map then refuses an edit of a file whose content is not the one
	// analysed (it changed since, or was never analysed).
	Digest func(name string) (sum [sha256.Size]byte, ok bool)

	// Overlaid, if not nil, reports whether a file is replaced by an
	// overlay (the go command's -overlay): the analysis saw another
	// content than the file's, and no edit of it is made.
	Overlaid func(name string) bool

	// Editable, if not nil, returns why a file is not the user's to
	// edit (a dependency's, GOROOT's), or nil: Map refuses an edit of such
	// a file with that reason.
	Editable func(name string) error

	stats      map[string]os.FileInfo // of the source files, for sameFile
	fixed      map[string]bool        // files Apply wrote
	directives map[string]bool        // whether a user's file has //line directives
	notices    []string               // what Apply says besides its errors
}

// Notices returns what the caller should say of the files Apply wrote
// besides its errors: that a file was written on a file system where a
// save made meanwhile may be lost (ErrUnchecked), said once.
func (fs *Files) Notices() []string { return fs.notices }

func (fs *Files) readFile(name string) ([]byte, error) {
	read := fs.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	return read(name)
}

// read returns the content of file name, read once, and checks it against
// the digest of what the analysis read.
func (fs *Files) read(name string) ([]byte, error) {
	if data, ok := fs.data[name]; ok {
		return data, nil
	}
	if fs.Overlaid != nil && fs.Overlaid(name) {
		return nil, fmt.Errorf("%s is replaced by an -overlay: the analysis saw the overlay's content, not the file's, and no fix is written to it", name)
	}
	data, err := fs.readFile(name)
	if err != nil {
		return nil, err
	}
	if fs.Digest != nil {
		want, ok := fs.Digest(name)
		if !ok {
			return nil, fmt.Errorf("%s was not analysed", name)
		}
		if sha256.Sum256(data) != want {
			return nil, fmt.Errorf("%s changed since it was analysed%w", name, errStale)
		}
	}
	if fs.data == nil {
		fs.data = map[string][]byte{}
	}
	fs.data[name] = data
	return data, nil
}

// Map maps fix, whose positions are in fset, to the user's files. sources
// are the files of the package the fix was reported in (its GoFiles, as
// go/packages lists them): an edit of any other file is refused. Its error
// says why an edit does not map cleanly or may not be made.
func (fs *Files) Map(fset *token.FileSet, fix analysis.SuggestedFix, sources []string) (*Fix, error) {
	out := &Fix{Message: fix.Message}
	for _, e := range fix.TextEdits {
		m, err := fs.mapEdit(fset, e, sources)
		if err != nil {
			return nil, err
		}
		if err := fs.check(m, sources); err != nil {
			return nil, err
		}
		out.Edits = append(out.Edits, m)
	}
	// The fix alone must leave each Go file it edits parseable. Each
	// edit's new text takes the line ends of the line it edits (CRLF in a
	// CRLF line) here, not only when -fix writes it: the language
	// server's and SARIF's edits are applied by clients as given.
	byFile := map[string][]Edit{}
	for _, e := range out.Edits {
		byFile[e.File] = append(byFile[e.File], e)
	}
	for name, edits := range byFile {
		data, err := fs.read(name)
		if err != nil {
			return nil, err
		}
		for i := range out.Edits {
			if out.Edits[i].File == name && out.Edits[i].Start <= len(data) {
				out.Edits[i].New = lineEnds(data, out.Edits[i])
			}
		}
		result, err := splice(data, edits)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if err := parses(name, result); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// splice returns data with edits (of one file, not overlapping) made, new
// lines taking the line ends of the lines they edit.
func splice(data []byte, edits []Edit) ([]byte, error) {
	edits = slices.Clone(edits)
	slices.SortStableFunc(edits, func(a, b Edit) int { return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End)) })
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.Start < last || e.End < e.Start || e.End > len(data) {
			return nil, errors.New("an edit lies past the end of the file or overlaps another")
		}
		out.Write(data[last:e.Start])
		out.WriteString(lineEnds(data, e))
		last = e.End
	}
	out.Write(data[last:])
	return out.Bytes(), nil
}

// parses returns why data, the content a fix gives Go file name, does not
// parse (a fix that breaks the syntax of a file is never made), or nil.
// Files whose name does not end in .go are not checked.
func parses(name string, data []byte) error {
	if !strings.HasSuffix(name, ".go") {
		return nil
	}
	_, err := parser.ParseFile(token.NewFileSet(), name, data, parser.ParseComments|parser.SkipObjectResolution)
	if err == nil {
		return nil
	}
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		err = list[0]
	}
	return fmt.Errorf("the fixed %s would not parse (%v)", filepath.Base(name), err)
}

// check reports why edit e may not be made: its file is not one of the
// package's sources, its content is not what was analysed, it is
// generated, or the edit lies outside it.
func (fs *Files) check(e Edit, sources []string) error {
	if fs.wasFixed(e.File) {
		return fmt.Errorf("%s was fixed in this run", e.File)
	}
	if !fs.inSources(e.File, sources) {
		return notInSources(e.File)
	}
	if fs.Editable != nil {
		if err := fs.Editable(e.File); err != nil {
			return err
		}
	}
	data, err := fs.read(e.File)
	if err != nil {
		return err
	}
	if e.Start < 0 || e.End < e.Start || e.End > len(data) {
		return fmt.Errorf("the edit lies outside %s", e.File)
	}
	if generated(data) {
		return fmt.Errorf("%s is generated (it says \"Code generated ... DO NOT EDIT.\"); fix its generator instead", e.File)
	}
	return nil
}

// wasFixed reports whether Apply wrote file name (by any of its names).
func (fs *Files) wasFixed(name string) bool {
	if fs.fixed[name] {
		return true
	}
	fi := fs.stat(name)
	for f := range fs.fixed {
		if fi != nil && os.SameFile(fi, fs.stat(f)) {
			return true
		}
	}
	return false
}

func notInSources(name string) error {
	return fmt.Errorf("the edit is in %s, which is not a file of the package (a //line directive names it)", name)
}

// inSources reports whether name is one of sources: the same name once
// both are cleaned, or the same file (a symlink, a hard link).
func (fs *Files) inSources(name string, sources []string) bool {
	name = filepath.Clean(name)
	for _, s := range sources {
		if filepath.Clean(s) == name {
			return true
		}
	}
	fi := fs.stat(name)
	if fi == nil {
		return false
	}
	for _, s := range sources {
		if si := fs.stat(s); si != nil && os.SameFile(fi, si) {
			return true
		}
	}
	return false
}

func (fs *Files) stat(name string) os.FileInfo {
	if fi, ok := fs.stats[name]; ok {
		return fi
	}
	fi, err := os.Stat(name)
	if err != nil {
		fi = nil
	}
	if fs.stats == nil {
		fs.stats = map[string]os.FileInfo{}
	}
	fs.stats[name] = fi
	return fi
}

// generated reports whether Go source data says it is generated, as
// ast.IsGenerated decides.
func generated(data []byte) bool {
	if !bytes.Contains(data, []byte("DO NOT EDIT")) {
		return false
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", data, parser.PackageClauseOnly|parser.ParseComments)
	return err == nil && ast.IsGenerated(f)
}

func (fs *Files) mapEdit(fset *token.FileSet, e analysis.TextEdit, sources []string) (Edit, error) {
	end := e.End
	if !end.IsValid() {
		end = e.Pos
	}
	tf := fset.File(e.Pos)
	if tf == nil || fset.File(end) != tf || end < e.Pos {
		return Edit{}, fmt.Errorf("the edit has no valid position")
	}
	raw, rawEnd := tf.PositionFor(e.Pos, false), tf.PositionFor(end, false)
	adj, adjEnd := tf.PositionFor(e.Pos, true), tf.PositionFor(end, true)
	if raw.Filename == adj.Filename && raw.Line == adj.Line && raw.Column == adj.Column &&
		rawEnd.Line == adjEnd.Line && rawEnd.Column == adjEnd.Column || fs.inSources(raw.Filename, sources) {
		// No //line directive in play, or the file the analysis read
		// is one the user has (a //line directive in it names where
		// it came from, such as a grammar, which is not what the
		// edit is of): the edit is of that file.
		return Edit{File: raw.Filename, Start: raw.Offset, End: rawEnd.Offset, New: string(e.NewText)}, nil
	}
	where := fmt.Sprintf("%s:%d:%d", filepath.Base(adj.Filename), adj.Line, adj.Column)
	if adj.Filename != adjEnd.Filename || adj.Column == 0 || adjEnd.Column == 0 {
		return Edit{}, fmt.Errorf("the edit at %s spans text that cgo's //line directives do not map to columns of one file", where)
	}
	if !fs.inSources(adj.Filename, sources) {
		return Edit{}, notInSources(adj.Filename)
	}
	gen, err := fs.read(raw.Filename)
	if err != nil {
		return Edit{}, fmt.Errorf("reading cgo's output: %v", err)
	}
	// The positions that cgo's output gives are of the file it was made
	// from (its first //line directive names it), as cgo's parser saw
	// them: through the user's own //line directives, if the file has
	// any. Such a position may name another file of the package or
	// another line of the same file (the physical position is lost), so
	// an edit is carried only into the file cgo read, and only when that
	// file has no //line directive of its own.
	origin := cgoOrigin(gen)
	if origin == "" {
		return Edit{}, fmt.Errorf("the edit at %s is in a generated file that does not say which file it was made from", where)
	}
	if !fs.sameName(adj.Filename, origin) {
		return Edit{}, fmt.Errorf("the edit at %s is in %s only by a //line directive in %s, which cgo's output is of", where, filepath.Base(adj.Filename), filepath.Base(origin))
	}
	user, err := fs.read(adj.Filename)
	if err != nil {
		return Edit{}, err
	}
	if fs.hasLineDirectives(adj.Filename, user) {
		return Edit{}, fmt.Errorf("%s has //line directives of its own: the positions cgo's output gives are not those of its lines", filepath.Base(adj.Filename))
	}
	if raw.Offset == rawEnd.Offset && (raw.Offset == len(gen) || bytes.HasPrefix(gen[raw.Offset:], []byte("\n")) || bytes.HasPrefix(gen[raw.Offset:], []byte("\r\n"))) {
		// An insertion at the end of a line of cgo's output (after a
		// statement cgo rewrote and any comment that ends it, before
		// the line's \n or \r\n): the end of
		// the same line of the user's file, whatever the columns say.
		// The lines must end alike (the analysis saw this line).
		if eol, ok := endOfLine(user, adj.Line); ok && lastByte(gen[:raw.Offset]) == lastByte(user[:eol]) {
			return Edit{File: adj.Filename, Start: eol, End: eol, New: string(e.NewText)}, nil
		}
	}
	start, ok1 := offsetOf(user, adj.Line, adj.Column)
	stop, ok2 := offsetOf(user, adjEnd.Line, adjEnd.Column)
	if !ok1 || !ok2 || stop < start || rawEnd.Offset > len(gen) {
		return Edit{}, fmt.Errorf("the edit at %s touches text that cgo rewrote (it maps past the line in %s)", where, filepath.Base(adj.Filename))
	}
	if !bytes.Equal(gen[raw.Offset:rawEnd.Offset], user[start:stop]) {
		return Edit{}, fmt.Errorf("the edit at %s touches text that cgo rewrote (it replaces other text than the user's)", where)
	}
	// The byte before the edit and the byte after it must map to the bytes
	// before and after it in the user's file.
	if raw.Offset > 0 && start > 0 {
		p := tf.PositionFor(tf.Pos(raw.Offset-1), true)
		o, ok := offsetOf(user, p.Line, p.Column)
		if !ok || p.Filename != adj.Filename || o != start-1 || gen[raw.Offset-1] != user[start-1] {
			return Edit{}, fmt.Errorf("the edit at %s touches text that cgo rewrote (at its start)", where)
		}
	}
	if rawEnd.Offset < len(gen) && stop < len(user) {
		p := tf.PositionFor(tf.Pos(rawEnd.Offset), true)
		o, ok := offsetOf(user, p.Line, p.Column)
		if !ok || p.Filename != adj.Filename || o != stop || gen[rawEnd.Offset] != user[stop] {
			return Edit{}, fmt.Errorf("the edit at %s touches text that cgo rewrote (at its end)", where)
		}
	}
	return Edit{File: adj.Filename, Start: start, End: stop, New: string(e.NewText)}, nil
}

// cgoOrigin returns the file that cgo's output gen was made from, which
// cgo names in the first //line directive it writes ("//line NAME:1:1"),
// or "".
func cgoOrigin(gen []byte) string {
	for line := range bytes.Lines(gen) {
		rest, ok := bytes.CutPrefix(line, []byte("//line "))
		if !ok {
			continue
		}
		rest = bytes.TrimRight(rest, "\r\n")
		name, ok := bytes.CutSuffix(rest, []byte(":1:1"))
		if !ok || !filepath.IsAbs(string(name)) {
			return ""
		}
		return string(name)
	}
	return ""
}

// sameName reports whether a and b name the same file.
func (fs *Files) sameName(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ai, bi := fs.stat(a), fs.stat(b)
	return ai != nil && bi != nil && os.SameFile(ai, bi)
}

// hasLineDirectives reports whether Go source data (of file name) has a
// //line or /*line directive: a comment the scanner reads as one.
func (fs *Files) hasLineDirectives(name string, data []byte) bool {
	if has, ok := fs.directives[name]; ok {
		return has
	}
	has := false
	if bytes.Contains(data, []byte("line ")) {
		var s scanner.Scanner
		fset := token.NewFileSet()
		s.Init(fset.AddFile(name, -1, len(data)), data, nil, scanner.ScanComments)
		for !has {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok != token.COMMENT {
				continue
			}
			off := fset.File(pos).Offset(pos)
			has = strings.HasPrefix(lit, "/*line ") ||
				strings.HasPrefix(lit, "//line ") && (off == 0 || data[off-1] == '\n')
		}
	}
	if fs.directives == nil {
		fs.directives = map[string]bool{}
	}
	fs.directives[name] = has
	return has
}

// endOfLine returns the offset of the end of line (from 1) in data: its
// newline (its carriage return in a CRLF line), or the end of data.
func endOfLine(data []byte, line int) (int, bool) {
	start, ok := offsetOf(data, line, 1)
	if !ok {
		return 0, false
	}
	if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
		if i > 0 && data[start+i-1] == '\r' {
			i--
		}
		return start + i, true
	}
	return len(data), true
}

// lastByte returns the last byte of the last line of data that is not
// white space, or 0.
func lastByte(data []byte) byte {
	line := data[bytes.LastIndexByte(data, '\n')+1:]
	line = bytes.TrimRight(line, " \t\r")
	if len(line) == 0 {
		return 0
	}
	return line[len(line)-1]
}

// offsetOf returns the byte offset of line:column (both from 1) in data.
func offsetOf(data []byte, line, column int) (int, bool) {
	if line < 1 || column < 1 {
		return 0, false
	}
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
	}
	eol := bytes.IndexByte(data[off:], '\n')
	if eol < 0 {
		eol = len(data) - off
	}
	if column-1 > eol {
		return 0, false
	}
	return off + column - 1, true
}

// Apply applies fixes to the files they edit, writing them with write
// (WriteFile when nil, which replaces a file only once its new content is
// safely written). The edits of one file (by any of its names: a
// symlink or a hard link counts as the same file) are applied together and
// the file written once. Identical edits (a fix reported in a package and
// in its test variant, or in two packages that share the file) are applied
// once; insertions at one point are all made, in the order of fixes; a fix
// with an edit that overlaps an edit of another is left out, and Apply
// returns it in conflicts. Each file is read again before it is written: a
// file that is not what Map saw (it changed in the meantime) is not
// written; with write nil, files are written by WriteFileIf, which also
// keeps a save made while the new content is being written. A file that was gofmt-formatted is formatted again after its
// edits; edits of CRLF lines get CRLF line ends. A Go file whose
// edited content would not parse is not written. A file that cannot be
// read or written is an error, one per file, and the other files are still
// written.
func (fs *Files) Apply(fixes []*Fix, write func(name string, data []byte) error) (changed []string, conflicts []*Fix, err error) {
	// canonical returns the first name seen of the file name is.
	var names []string
	canonical := func(name string) string {
		if slices.Contains(names, name) {
			return name
		}
		if fi := fs.stat(name); fi != nil {
			for _, o := range names {
				if oi := fs.stat(o); oi != nil && os.SameFile(fi, oi) {
					return o
				}
			}
		}
		names = append(names, name)
		return name
	}
	byFile := map[string][]Edit{}
	for _, f := range fixes {
		var add []Edit
		ok := true
		for _, e := range f.Edits {
			e.File = canonical(e.File)
			dup := false
			for _, o := range slices.Concat(byFile[e.File], add) {
				if o == e {
					dup = true
					break
				}
				if o.Start < e.End && e.Start < o.End || o.Start == e.Start && o.End == e.End && o.Start != o.End {
					ok = false
				}
			}
			if !dup {
				add = append(add, e)
			}
		}
		if !ok {
			conflicts = append(conflicts, f)
			continue
		}
		for _, e := range add {
			byFile[e.File] = append(byFile[e.File], e)
		}
	}
	var errs []error
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range byFile {
			if !yield(k) {
				return
			}
		}
	}) {
		seen, result, err := fs.edit(name, byFile[name])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var werr error
		if write != nil {
			werr = write(name, result)
		} else {
			// what was checked is what is replaced: a save made
			// since is kept
			werr = WriteFileIf(name, seen, result)
		}
		if errors.Is(werr, ErrUnchecked) {
			// written, but a save made meanwhile may be lost: said
			// once, naming the first such file
			if len(fs.notices) == 0 {
				fs.notices = append(fs.notices, fmt.Sprintf("%s: fixed, but %v", name, werr))
			}
			werr = nil
		}
		if errors.Is(werr, ErrChanged) {
			errs = append(errs, fmt.Errorf("%s: not fixed: %w", name, werr))
			continue
		}
		if err := werr; err != nil {
			if pe, ok := err.(*os.PathError); ok {
				err = pe.Err
			}
			errs = append(errs, fmt.Errorf("%s: not fixed: writing it: %w (the file is as it was)", name, err))
			continue
		}
		if fs.fixed == nil {
			fs.fixed = map[string]bool{}
		}
		fs.fixed[name] = true
		changed = append(changed, name)
	}
	return changed, conflicts, errors.Join(errs...)
}

// edit returns the content of file name with edits applied, after checking
// that the file holds what Map saw.
func (fs *Files) edit(name string, edits []Edit) (seen, result []byte, err error) {
	seen, err = fs.read(name)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: not fixed: %w", name, err)
	}
	data, err := fs.readFile(name)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: not fixed: %v", name, err)
	}
	if !bytes.Equal(data, seen) {
		return nil, nil, fmt.Errorf("%s: not fixed: the file changed since it was analysed%w", name, errStale)
	}
	if generated(data) {
		return nil, nil, fmt.Errorf("%s: not fixed: the file is generated", name)
	}
	result, err = splice(data, edits)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: not fixed: %v", name, err)
	}
	if err := parses(name, result); err != nil {
		return nil, nil, fmt.Errorf("%s: not fixed: %v", name, err)
	}
	if formatted, err := format.Source(data); err == nil && bytes.Equal(formatted, data) {
		if f, err := format.Source(result); err == nil {
			result = f
		}
	}
	return seen, result, nil
}

// lineEnds returns the new text of e with the line ends of the line it
// edits: CRLF for a line that ends in CRLF.
func lineEnds(data []byte, e Edit) string {
	i := bytes.IndexByte(data[e.Start:], '\n')
	if i < 0 || !strings.Contains(e.New, "\n") {
		return e.New
	}
	if j := e.Start + i; j == 0 || data[j-1] != '\r' {
		return e.New
	}
	return strings.ReplaceAll(strings.ReplaceAll(e.New, "\r\n", "\n"), "\n", "\r\n")
}
