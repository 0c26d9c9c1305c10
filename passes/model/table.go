package model

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// WriteTable prints the model as a table, one entry a line, sorted by
// library and then by function (a function's entries in source order):
// the library, the C function, the role and arguments as Entry.String gives
// them (without the function name), the kind, the kind it belongs to, where
// the entry was read (file:line) and the documentation it comes from.
// Entries that belong to no library (//lifetime: directives) come first.
// Empty cells print as "-".
func (m *Model) WriteTable(w io.Writer) error {
	// The parent of each kind, by library; a later section of the same name
	// (a model file extending a built-in library) overrides an earlier one.
	parents := map[string]map[string]string{}
	for _, l := range m.Libraries {
		if parents[l.Name] == nil {
			parents[l.Name] = map[string]string{}
		}
		for k, p := range l.Kinds {
			parents[l.Name][k] = p
		}
	}
	var entries []*Entry
	for _, name := range m.Funcs() {
		entries = append(entries, m.funcs[name]...)
	}
	slices.SortStableFunc(entries, func(a, b *Entry) int {
		return cmp.Or(cmp.Compare(a.Library, b.Library), cmp.Compare(a.Func, b.Func))
	})

	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	var err error
	row := func(cells ...string) {
		for i, c := range cells {
			if c == "" {
				cells[i] = "-"
			}
		}
		if _, werr := fmt.Fprintln(tw, strings.Join(cells, "\t")); err == nil {
			err = werr
		}
	}
	row("LIBRARY", "FUNCTION", "ENTRY", "KIND", "PARENT", "SOURCE", "DOC")
	for _, e := range entries {
		row(e.Library, e.Func, entryArgs(e), e.Kind, parents[e.Library][e.Kind], e.Source, e.Doc)
	}
	if ferr := tw.Flush(); err == nil {
		err = ferr
	}
	return err
}

// entryArgs is e.String() without the function name: the role and its
// arguments ("acquire out=0 parent=1 kind=stream").
func entryArgs(e *Entry) string {
	role, rest, _ := strings.Cut(e.String(), " ")
	_, args, _ := strings.Cut(rest, " ")
	return strings.TrimSpace(role + " " + args)
}
