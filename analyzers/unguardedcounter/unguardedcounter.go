package unguardedcounter

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/concurrency"
	"github.com/lifetimevet/lifetimevet/passes/guards"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// Analyzer reports counters and reference counts updated without atomics
// or a lock.
var Analyzer = &analysis.Analyzer{
	Name:     "unguardedcounter",
	Doc:      Doc.Compile().Format(false),
	URL:      "https://github.com/lifetimevet/lifetimevet/blob/main/analyzers/unguardedcounter/doc.go",
	Requires: []*analysis.Analyzer{cgocall.Analyzer, model.Analyzer, concurrency.Analyzer, guards.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) { return nil, nil }
