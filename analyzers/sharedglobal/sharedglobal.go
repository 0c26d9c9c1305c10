package sharedglobal

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/concurrency"
	"github.com/lifetimevet/lifetimevet/passes/guards"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// Analyzer reports package-level state mutated where goroutines can overlap.
var Analyzer = &analysis.Analyzer{
	Name:     "sharedglobal",
	Doc:      Doc.Compile().Format(false),
	URL:      "https://github.com/lifetimevet/lifetimevet/blob/main/analyzers/sharedglobal/doc.go",
	Requires: []*analysis.Analyzer{cgocall.Analyzer, model.Analyzer, concurrency.Analyzer, guards.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) { return nil, nil }
