// Package analyzers holds lifetimevet's suite: the reporting analyzers, one
// package each. Each depends on the passes under passes/, never on another
// analyzer.
package analyzers

import (
	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/analysis/lint"

	"github.com/lifetimevet/lifetimevet/analyzers/checkthendestroy"
	"github.com/lifetimevet/lifetimevet/analyzers/doublerelease"
	"github.com/lifetimevet/lifetimevet/analyzers/finalizer"
	"github.com/lifetimevet/lifetimevet/analyzers/handleleak"
	"github.com/lifetimevet/lifetimevet/analyzers/lifetimedirective"
	"github.com/lifetimevet/lifetimevet/analyzers/releaseorder"
	"github.com/lifetimevet/lifetimevet/analyzers/sharedglobal"
	"github.com/lifetimevet/lifetimevet/analyzers/unguardedcounter"
	"github.com/lifetimevet/lifetimevet/analyzers/useafterrelease"
)

// All is the suite, in the order findings are documented.
var All = []*analysis.Analyzer{
	doublerelease.Analyzer,
	checkthendestroy.Analyzer,
	finalizer.Analyzer,
	useafterrelease.Analyzer,
	sharedglobal.Analyzer,
	unguardedcounter.Analyzer,
	releaseorder.Analyzer,
	handleleak.Analyzer,
	lifetimedirective.Analyzer,
}

// Docs holds each analyzer's structured documentation (title, text, a bad
// and a good example), by analyzer name: the source of Analyzer.Doc, of
// -explain and of SARIF rule help.
var Docs = map[string]*lint.RawDocumentation{
	doublerelease.Analyzer.Name:     doublerelease.Doc,
	checkthendestroy.Analyzer.Name:  checkthendestroy.Doc,
	finalizer.Analyzer.Name:         finalizer.Doc,
	useafterrelease.Analyzer.Name:   useafterrelease.Doc,
	sharedglobal.Analyzer.Name:      sharedglobal.Doc,
	unguardedcounter.Analyzer.Name:  unguardedcounter.Doc,
	releaseorder.Analyzer.Name:      releaseorder.Doc,
	handleleak.Analyzer.Name:        handleleak.Doc,
	lifetimedirective.Analyzer.Name: lifetimedirective.Doc,
}

// KeptWhenSelecting reports whether a stays in the suite when the user
// selects analyzers by name (-doublerelease, a golangci-lint enable list):
// lifetimedirective, which checks the //lifetime: directives every other
// analyzer reads, so that a misspelt directive never turns a selected
// analyzer silent. Only naming it off (-lifetimedirective=false, disable)
// drops it.
func KeptWhenSelecting(a *analysis.Analyzer) bool {
	return a == lifetimedirective.Analyzer
}
