// Package analyzers holds lifetimevet's suite: the reporting analyzers, one
// package each. Each depends on the passes under passes/, never on another
// analyzer.
package analyzers

import (
	"golang.org/x/tools/go/analysis"

	"github.com/lifetimevet/lifetimevet/analyzers/doublerelease"
	"github.com/lifetimevet/lifetimevet/analyzers/lifetimedirective"
)

// All is the suite, in the order findings are documented.
var All = []*analysis.Analyzer{
	doublerelease.Analyzer,
	lifetimedirective.Analyzer,
}
