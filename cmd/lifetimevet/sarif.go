package main

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/analysis/lint"

	"github.com/lifetimevet/lifetimevet/analyzers"
	"github.com/lifetimevet/lifetimevet/internal/fixes"
)

const informationURI = "https://github.com/lifetimevet/lifetimevet"

// srcRoot is the uriBaseId of the files under the directory lifetimevet
// ran in (for GitHub code scanning, the repository's root).
const srcRoot = "%SRCROOT%"

// sarifReport builds a SARIF 2.1.0 log of findings: one rule per analyzer
// that ran (its id is the analyzer's name, its help the analyzer's
// documentation), one result per finding, with the fixes that map back to
// the user's files. Files under dir are named relative to it.
func sarifReport(ran []*analysis.Analyzer, findings []finding, dir string, files *fixes.Files, errs []string) *sarif.Report {
	run := sarif.NewRunWithInformationURI("lifetimevet", informationURI)
	if v := readBuildVersion().sarif(); v != "" {
		run.Tool.Driver.WithVersion(v) // as -version prints it; left out when unknown
	}
	run.WithColumnKind("utf16CodeUnits")
	run.WithOriginalUriBaseIds(map[string]sarif.ArtifactLocation{srcRoot: *sarif.NewArtifactLocation().WithURI(fileURI(dir) + "/")})
	for _, a := range ran {
		rule := run.AddRule(a.Name).WithName(a.Name)
		title, text, help, markdown := ruleDoc(a)
		rule.WithShortDescription(sarif.NewMultiformatMessageString().WithText(title))
		if text != "" {
			rule.WithFullDescription(sarif.NewMultiformatMessageString().WithText(text))
		}
		rule.WithHelp(sarif.NewMultiformatMessageString().WithText(help).WithMarkdown(markdown))
		if a.URL != "" {
			rule.WithHelpURI(a.URL)
		}
		rule.WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(dirLevel(a, dir)))
	}
	cols := columnConverter{}
	artifacts := map[string]int{}
	location := func(name string, line, col, endLine, endCol int) *sarif.PhysicalLocation {
		uri, base := artifactURI(dir, name)
		idx, ok := artifacts[uri]
		if !ok {
			idx = len(run.Artifacts)
			artifacts[uri] = idx
			a := run.AddDistinctArtifact(uri)
			a.Location.WithIndex(idx)
			if base != "" {
				a.Location.WithURIBaseID(base)
			}
			a.WithSourceLanguage("go")
		}
		loc := sarif.NewArtifactLocation().WithURI(uri).WithIndex(idx)
		if base != "" {
			loc.WithURIBaseID(base)
		}
		region := sarif.NewRegion().WithStartLine(line)
		if col > 0 {
			region.WithStartColumn(cols.utf16(name, line, col))
		}
		if endLine > 0 && (endLine > line || endCol > col) {
			region.WithEndLine(endLine)
			if endCol > 0 {
				region.WithEndColumn(cols.utf16(name, endLine, endCol))
			}
		}
		return sarif.NewPhysicalLocation().WithArtifactLocation(loc).WithRegion(region)
	}
	var notices []string
	for _, f := range findings {
		res := run.CreateResultForRule(f.analyzer.Name).
			WithLevel(findingLevel(f)).
			WithMessage(sarif.NewTextMessage(f.msg))
		var endLine, endCol int
		if f.d.End.IsValid() {
			end := f.fset.Position(f.d.End)
			if end.Filename == f.posn.Filename {
				endLine, endCol = end.Line, end.Column
			}
		}
		res.AddLocation(sarif.NewLocationWithPhysicalLocation(location(f.posn.Filename, f.posn.Line, f.posn.Column, endLine, endCol)))
		for _, rel := range f.d.Related {
			p := f.fset.Position(rel.Pos)
			if !p.IsValid() {
				continue
			}
			res.AddRelatedLocation(sarif.NewLocationWithPhysicalLocation(location(p.Filename, p.Line, p.Column, 0, 0)).
				WithMessage(sarif.NewTextMessage(rel.Message)))
		}
		for _, sf := range f.d.SuggestedFixes {
			fix, err := files.Map(f.fset, sf, f.sources)
			if err != nil {
				// SARIF fixes are edits of the user's files, made on
				// the content analysed
				notices = append(notices, fmt.Sprintf("%s:%d: the fix %q is not offered: %v", f.posn.Filename, f.posn.Line, sf.Message, err))
				continue
			}
			// one change per file, its replacements in the file's order
			// (the specification: the artifactChanges are unique)
			sfix := sarif.NewFix().WithDescription(sarif.NewTextMessage(fix.Message))
			changes := map[string]*sarif.ArtifactChange{}
			edits := slices.Clone(fix.Edits)
			slices.SortStableFunc(edits, func(a, b fixes.Edit) int { return cmp.Compare(a.Start, b.Start) })
			for _, e := range edits {
				ch := changes[e.File]
				if ch == nil {
					uri, base := artifactURI(dir, e.File)
					loc := sarif.NewArtifactLocation().WithURI(uri)
					if base != "" {
						loc.WithURIBaseID(base)
					}
					ch = sarif.NewArtifactChange().WithArtifactLocation(loc)
					changes[e.File] = ch
					sfix.AddArtifactChange(ch)
				}
				region := sarif.NewRegion().WithByteOffset(e.Start).WithByteLength(e.End - e.Start)
				ch.AddReplacement(sarif.NewReplacement().WithDeletedRegion(region).
					WithInsertedContent(sarif.NewArtifactContent().WithText(e.New)))
			}
			res.AddFixe(sfix)
		}
	}
	inv := sarif.NewInvocation().WithExecutionSuccessful(len(errs) == 0).
		WithWorkingDirectory(sarif.NewArtifactLocation().WithURI(fileURI(dir) + "/"))
	for _, e := range errs {
		inv.AddToolExecutionNotification(sarif.NewNotification().WithLevel("error").WithMessage(sarif.NewTextMessage(e)))
	}
	for _, n := range notices {
		inv.AddToolExecutionNotification(sarif.NewNotification().WithLevel("note").WithMessage(sarif.NewTextMessage(n)))
	}
	run.AddInvocation(inv)
	return sarif.NewReport().AddRun(run)
}

// writeSARIF writes the report, indented.
func writeSARIF(w io.Writer, r *sarif.Report) error {
	var buf bytes.Buffer
	if err := r.PrettyWrite(&buf); err != nil {
		return err
	}
	data, err := cleanSARIF(buf.Bytes())
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// ruleDoc returns an analyzer's title, text, and its whole documentation
// as plain text and Markdown: from analyzers.Docs, the source of its Doc,
// or from Doc itself for analyzers without one (go vet's).
func ruleDoc(a *analysis.Analyzer) (title, text, help, markdown string) {
	if raw, ok := analyzers.Docs[a.Name]; ok {
		doc := raw.Compile()
		return doc.Title, doc.Text, doc.Format(false), doc.FormatMarkdown(false)
	}
	title, text, _ = strings.Cut(a.Doc, "\n")
	return title, strings.TrimSpace(text), a.Doc, a.Doc
}

// ruleLevel is the SARIF level of an analyzer's findings.
func ruleLevel(a *analysis.Analyzer) string {
	if raw, ok := analyzers.Docs[a.Name]; ok {
		switch raw.Severity {
		case lint.SeverityError:
			return "error"
		case lint.SeverityInfo, lint.SeverityHint, lint.SeverityDeprecated:
			return "note"
		}
	}
	return "warning"
}

// artifactURI returns the URI of file name: relative to %SRCROOT% when it
// lies under dir, an absolute file URI otherwise.
func artifactURI(dir, name string) (uri, base string) {
	if rel, err := filepath.Rel(dir, name); err == nil && filepath.IsLocal(rel) {
		return (&url.URL{Path: filepath.ToSlash(rel)}).EscapedPath(), srcRoot
	}
	return fileURI(name), ""
}

func fileURI(name string) string {
	p := filepath.ToSlash(name)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// columnConverter turns go/token's byte columns into SARIF's default UTF-16
// code unit columns.
type columnConverter map[string][][]byte

func (c columnConverter) utf16(name string, line, col int) int {
	lines, ok := c[name]
	if !ok {
		data, _ := os.ReadFile(name)
		lines = bytes.Split(data, []byte("\n"))
		c[name] = lines
	}
	if line < 1 || line > len(lines) || col-1 > len(lines[line-1]) {
		return col
	}
	n := 1
	for b := lines[line-1][:col-1]; len(b) > 0; {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}
