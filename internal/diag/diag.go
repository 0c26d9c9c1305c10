// Package diag is how lifetimevet's analyzers report: only in the user's
// files (never in cgo's support files), once per position and message, and
// not where a //lifetime:ignore directive says so.
package diag

import (
	"fmt"
	"go/token"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/lifetimevet/lifetimevet/internal/cgofile"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// A Reporter reports the findings of one analyzer on one package.
type Reporter struct {
	pass  *analysis.Pass
	model *model.Result
	seen  map[string]bool
	used  map[*model.Ignore]bool // the //lifetime:ignore directives that suppressed a finding
}

// New returns a Reporter for pass; m supplies the //lifetime:ignore directives.
func New(pass *analysis.Pass, m *model.Result) *Reporter {
	return &Reporter{pass: pass, model: m, seen: map[string]bool{}, used: map[*model.Ignore]bool{}}
}

// ReportUnused reports the //lifetime:ignore directives naming the
// analyzer that suppressed none of its findings, as staticcheck does for
// //lint:ignore: a stale directive would hide the next finding on its line.
// Call it once the analyzer has reported everything.
func (r *Reporter) ReportUnused() {
	if r.model == nil {
		return
	}
	name := r.pass.Analyzer.Name
	for _, ig := range r.model.Ignores {
		if r.used[ig] || !slices.Contains(ig.Analyzers, name) || cgofile.IsSupportPos(r.pass.Fset, r.pass.Files, ig.Pos) {
			continue
		}
		r.pass.Report(analysis.Diagnostic{Pos: ig.Pos, Message: fmt.Sprintf(
			"//lifetime:ignore %s matches no %s finding on line %d: remove it, or move it onto or above the line it means",
			name, name, ig.Line)})
	}
}

// Report reports d, unless it lies outside the user's files, repeats an
// earlier finding, or is suppressed by //lifetime:ignore.
func (r *Reporter) Report(d analysis.Diagnostic) {
	if cgofile.IsSupportPos(r.pass.Fset, r.pass.Files, d.Pos) {
		return
	}
	posn := r.pass.Fset.Position(d.Pos)
	key := fmt.Sprintf("%s:%d:%d:%s", posn.Filename, posn.Line, posn.Column, d.Message)
	if r.seen[key] {
		return
	}
	r.seen[key] = true
	if r.model != nil {
		if ig := r.model.IgnoreFor(r.pass.Analyzer.Name, posn.Filename, posn.Line); ig != nil {
			r.used[ig] = true
			return
		}
	}
	if OmitCgoFixes && len(d.SuggestedFixes) > 0 {
		for _, f := range d.SuggestedFixes {
			for _, e := range f.TextEdits {
				if r.pass.Fset.PositionFor(e.Pos, false).Filename != r.pass.Fset.PositionFor(e.Pos, true).Filename {
					d.SuggestedFixes = nil
				}
			}
		}
	}
	r.pass.Report(d)
}

// OmitCgoFixes, set by the command when go vet runs it, leaves out the
// suggested fixes whose edits fall in cgo's rewrite of a file: go vet -json
// gives edits as offsets into the file the analyzer saw, under the name of
// the user's file, and those offsets would be wrong. The standalone command
// maps such edits back itself.
var OmitCgoFixes bool

// Ignored reports whether a //lifetime:ignore directive naming the
// analyzer stands on or above the line of pos, and counts it as used: one
// directive at the main position of a finding reported in several places
// (an acquisition and the return that leaks it) silences them all.
func (r *Reporter) Ignored(pos token.Pos) bool {
	if r.model == nil || !pos.IsValid() {
		return false
	}
	posn := r.pass.Fset.Position(pos)
	if ig := r.model.IgnoreFor(r.pass.Analyzer.Name, posn.Filename, posn.Line); ig != nil {
		r.used[ig] = true
		return true
	}
	return false
}

// Reportf reports a finding at pos.
func (r *Reporter) Reportf(pos token.Pos, format string, args ...any) {
	r.Report(analysis.Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)})
}

// Where describes pos for a message about a finding at at: "line 12" in the
// same file, "file.go:12" in another, "" when unknown.
func Where(fset *token.FileSet, pos, at token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	p, q := fset.Position(pos), fset.Position(at)
	if p.Filename == q.Filename {
		return fmt.Sprintf("line %d", p.Line)
	}
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}
