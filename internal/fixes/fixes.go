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
package fixes

import (
	"bytes"
	"cmp"
	"fmt"
	"go/format"
	"go/token"
	"os"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/analysis"
)

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
}

func (fs *Files) read(name string) ([]byte, error) {
	if data, ok := fs.data[name]; ok {
		return data, nil
	}
	read := fs.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	data, err := read(name)
	if err != nil {
		return nil, err
	}
	if fs.data == nil {
		fs.data = map[string][]byte{}
	}
	fs.data[name] = data
	return data, nil
}

// Map maps fix, whose positions are in fset, to the user's files. Its error
// says why an edit does not map cleanly.
func (fs *Files) Map(fset *token.FileSet, fix analysis.SuggestedFix) (*Fix, error) {
	out := &Fix{Message: fix.Message}
	for _, e := range fix.TextEdits {
		m, err := fs.mapEdit(fset, e)
		if err != nil {
			return nil, err
		}
		out.Edits = append(out.Edits, m)
	}
	return out, nil
}

func (fs *Files) mapEdit(fset *token.FileSet, e analysis.TextEdit) (Edit, error) {
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
		rawEnd.Line == adjEnd.Line && rawEnd.Column == adjEnd.Column {
		// No //line directive in play: the file is the user's.
		return Edit{File: raw.Filename, Start: raw.Offset, End: rawEnd.Offset, New: string(e.NewText)}, nil
	}
	where := fmt.Sprintf("%s:%d:%d", filepath.Base(adj.Filename), adj.Line, adj.Column)
	if adj.Filename != adjEnd.Filename || adj.Column == 0 || adjEnd.Column == 0 {
		return Edit{}, fmt.Errorf("the edit at %s spans text that cgo's //line directives do not map to columns of one file", where)
	}
	gen, err := fs.read(raw.Filename)
	if err != nil {
		return Edit{}, fmt.Errorf("reading cgo's output: %v", err)
	}
	user, err := fs.read(adj.Filename)
	if err != nil {
		return Edit{}, err
	}
	if raw.Offset == rawEnd.Offset && (raw.Offset == len(gen) || gen[raw.Offset] == '\n') {
		// An insertion at the end of a line of cgo's output (after a
		// statement cgo rewrote and any comment that ends it): the end of
		// the same line of the user's file, whatever the columns say.
		if eol, ok := endOfLine(user, adj.Line); ok {
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

// endOfLine returns the offset of the end of line (from 1) in data: its
// newline, or the end of data.
func endOfLine(data []byte, line int) (int, bool) {
	start, ok := offsetOf(data, line, 1)
	if !ok {
		return 0, false
	}
	if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
		return start + i, true
	}
	return len(data), true
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
// (os.WriteFile when nil). Identical edits (a fix reported in a package
// and in its test variant) are applied once; a fix with an edit that
// overlaps an edit of another is left out, and Apply returns it in
// conflicts. A file that was gofmt-formatted is formatted again after its
// edits.
func (fs *Files) Apply(fixes []*Fix, write func(name string, data []byte) error) (changed []string, conflicts []*Fix, err error) {
	if write == nil {
		write = func(name string, data []byte) error { return os.WriteFile(name, data, 0o666) }
	}
	byFile := map[string][]Edit{}
	for _, f := range fixes {
		var add []Edit
		ok := true
		for _, e := range f.Edits {
			dup := false
			for _, o := range slices.Concat(byFile[e.File], add) {
				if o == e {
					dup = true
					break
				}
				if o.Start < e.End && e.Start < o.End || o.Start == e.Start && o.End == e.End {
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
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range byFile {
			if !yield(k) {
				return
			}
		}
	}) {
		data, err := fs.read(name)
		if err != nil {
			return changed, conflicts, err
		}
		edits := byFile[name]
		slices.SortFunc(edits, func(a, b Edit) int { return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End)) })
		var out bytes.Buffer
		last := 0
		for _, e := range edits {
			if e.End > len(data) {
				return changed, conflicts, fmt.Errorf("%s: an edit lies past the end of the file", name)
			}
			out.Write(data[last:e.Start])
			out.WriteString(e.New)
			last = e.End
		}
		out.Write(data[last:])
		result := out.Bytes()
		if formatted, err := format.Source(data); err == nil && bytes.Equal(formatted, data) {
			if f, err := format.Source(result); err == nil {
				result = f
			}
		}
		if err := write(name, result); err != nil {
			return changed, conflicts, err
		}
		fs.data[name] = result
		changed = append(changed, name)
	}
	return changed, conflicts, nil
}
