package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"go/token"
	"io"

	"golang.org/x/tools/go/analysis"

	"github.com/lifetimevet/lifetimevet/internal/driver"
	"github.com/lifetimevet/lifetimevet/internal/fixes"
)

// The JSON output has the shape of go vet's -json (and of x/tools'
// checker.Graph.PrintJSON): package ID → analyzer → diagnostics or error.
// It differs in one point: a suggested fix's edits are offsets into the
// file the user wrote, mapped back through cgo's //line directives, and a
// fix that does not map back is left out. checker's printer gives the
// offsets of cgo's output under the user's file name.

type jsonEdit struct {
	Filename string `json:"filename"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	New      string `json:"new"`
}

type jsonFix struct {
	Message string     `json:"message"`
	Edits   []jsonEdit `json:"edits"`
}

type jsonRelated struct {
	Posn    string `json:"posn"`
	End     string `json:"end"`
	Message string `json:"message"`
}

type jsonDiagnostic struct {
	Category       string        `json:"category,omitempty"`
	Posn           string        `json:"posn"`
	End            string        `json:"end"`
	Message        string        `json:"message"`
	SuggestedFixes []jsonFix     `json:"suggested_fixes,omitempty"`
	Related        []jsonRelated `json:"related,omitempty"`
}

type jsonError struct {
	Err string `json:"error"`
}

// printJSON writes the diagnostics of g's root actions and the errors of
// every action, as go vet -json does.
func printJSON(w io.Writer, g *driver.Graph, files *fixes.Files) error {
	tree := map[string]map[string]any{}
	add := func(id, name string, v any) {
		if tree[id] == nil {
			tree[id] = map[string]any{}
		}
		tree[id][name] = v
	}
	for act := range g.All() {
		fset := act.Package.Fset
		switch {
		case act.Err != nil:
			add(act.Package.ID, act.Analyzer.Name, jsonError{act.Err.Error()})
		case act.IsRoot && len(act.Diagnostics) > 0:
			diags := make([]jsonDiagnostic, 0, len(act.Diagnostics))
			for _, d := range act.Diagnostics {
				diags = append(diags, jsonDiag(fset, d, files, act.Package.GoFiles))
			}
			add(act.Package.ID, act.Analyzer.Name, diags)
		}
	}
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

func jsonDiag(fset *token.FileSet, d analysis.Diagnostic, files *fixes.Files, sources []string) jsonDiagnostic {
	jd := jsonDiagnostic{
		Category: d.Category,
		Posn:     fset.Position(d.Pos).String(),
		End:      fset.Position(cmp.Or(d.End, d.Pos)).String(),
		Message:  d.Message,
	}
	for _, sf := range d.SuggestedFixes {
		m, err := files.Map(fset, sf, sources)
		if err != nil {
			continue // it does not map back to the user's file, or may not be made
		}
		jf := jsonFix{Message: m.Message}
		for _, e := range m.Edits {
			jf.Edits = append(jf.Edits, jsonEdit{Filename: e.File, Start: e.Start, End: e.End, New: e.New})
		}
		jd.SuggestedFixes = append(jd.SuggestedFixes, jf)
	}
	for _, r := range d.Related {
		jd.Related = append(jd.Related, jsonRelated{
			Posn:    fset.Position(r.Pos).String(),
			End:     fset.Position(cmp.Or(r.End, r.Pos)).String(),
			Message: r.Message,
		})
	}
	return jd
}
