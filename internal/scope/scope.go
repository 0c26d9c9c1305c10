// Package scope restricts where lifetimevet's analyzers report without
// changing what they compute.
//
// The passes under passes/ export facts (function summaries, finalizers)
// that a package's importers need, so they must run on every package,
// pure Go or not: a pure-Go wrapper between a cgo binding and the code that
// misuses it carries the binding's release summaries through. Restricting
// where findings are reported is therefore done on the reporting analyzers
// only, by wrapping them; their prerequisites are left alone.
package scope

import (
	"go/ast"
	"strconv"

	"golang.org/x/tools/go/analysis"

	"github.com/lifetimevet/lifetimevet/internal/cgofile"
)

// UsesCgo reports whether the package of pass imports "C": whether some of
// its files were written by cmd/cgo (go vet, go/packages, golangci-lint) or
// still import "C" as written (drivers that do not run cgo).
func UsesCgo(pass *analysis.Pass) bool {
	for _, f := range pass.Files {
		if cgofile.GeneratedByCgo(f) || importsC(f) {
			return true
		}
	}
	return false
}

func importsC(f *ast.File) bool {
	for _, is := range f.Imports {
		if p, _ := strconv.Unquote(is.Path.Value); p == "C" {
			return true
		}
	}
	return false
}

// CgoOnly returns a copy of the reporting analyzer a that reports only in
// packages that import "C". In a pure-Go package the copy does not run a at
// all when a has neither facts nor a result (nothing can depend on it);
// otherwise it runs a and drops its findings, so that the facts and the
// result it computes are the same as a's.
//
// The copy keeps a's name, flags, documentation and prerequisites. Its
// prerequisites are a's own analyzers, so facts still flow through pure-Go
// packages: the passes run there unchanged.
func CgoOnly(a *analysis.Analyzer) *analysis.Analyzer {
	c := *a
	c.Run = func(pass *analysis.Pass) (any, error) {
		if UsesCgo(pass) {
			return a.Run(pass)
		}
		if len(a.FactTypes) == 0 && a.ResultType == nil {
			return nil, nil
		}
		quiet := *pass
		quiet.Report = func(analysis.Diagnostic) {}
		return a.Run(&quiet)
	}
	return &c
}
