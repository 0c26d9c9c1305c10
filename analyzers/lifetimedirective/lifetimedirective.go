// Package lifetimedirective defines an Analyzer that reports malformed,
// misplaced and unknown //lifetime: directives.
//
// # Analyzer lifetimedirective
//
// lifetimedirective: report //lifetime: directives that say nothing valid
//
// A directive with a typo must never switch a check off silently, so every
// directive is validated where it stands: the verb must exist and belong
// where it is (a type, a function, a cgo preamble, a statement), its
// arguments must parse, a named parameter must exist, and a
// //lifetime:ignore must name a known analyzer and give a reason.
package lifetimedirective

import (
	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/analysis/lint"

	"github.com/lifetimevet/lifetimevet/internal/diag"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// Doc is the analyzer's documentation, in staticcheck's structure.
var Doc = &lint.RawDocumentation{
	Title: "Malformed, misplaced or unknown //lifetime: directives",
	Text: `Directives teach lifetimevet about a package's own handles and silence
reviewed findings. A typo must never switch a check off silently, so each
directive is validated where it stands: the verb must exist and belong where
it is written (a type, a function, a cgo preamble, a statement), its
arguments must parse, a named parameter must exist (in a cgo preamble: the
arg=, out=, key= and parent= indices must name parameters of the C
function, whose arity cgo gives), and a //lifetime:ignore
must name a known analyzer and give a reason. A comment that looks like a
directive but is not one is reported too, with the spelling meant: a space
after the slashes (// lifetime:ignore), another case (//LIFETIME:release), a
prefix within two edits of "lifetime" (//liftime:handle), another separator
(//lifetime-handle, a full-width colon), a block comment
(/*lifetime:handle*/); so is an unknown verb close to a known one. In a cgo
preamble, a directive that repeats another, gives one C function two roles
for one argument (borrow and transfer), or redefines what a built-in model
or a model file says of a function without //lifetime:override is an
error naming both places.`,
	Before: `//lifetime:relase ctx_destroy   (typo: never read)`,
	After:  `//lifetime:release ctx_destroy`,
	Since:  "v0.1.0",
}

// Analyzer reports the problems the model pass found in directives.
var Analyzer = &analysis.Analyzer{
	Name:     "lifetimedirective",
	Doc:      Doc.Compile().Format(false),
	URL:      "https://github.com/lifetimevet/lifetimevet/blob/main/analyzers/lifetimedirective/lifetimedirective.go",
	Requires: []*analysis.Analyzer{model.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		m := pass.ResultOf[model.Analyzer].(*model.Result)
		rep := diag.New(pass, nil)
		for _, p := range m.Problems {
			rep.Reportf(p.Pos, "%s", model.ClipWords(p.Msg))
		}
		return nil, nil
	},
}
