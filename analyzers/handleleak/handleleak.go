package handleleak

import (
	"fmt"
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/diag"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// Analyzer reports handles that can reach a return without a release.
var Analyzer = &analysis.Analyzer{
	Name:     "handleleak",
	Doc:      Doc.Compile().Format(false),
	URL:      "https://github.com/lifetimevet/lifetimevet/blob/main/analyzers/handleleak/doc.go",
	Requires: []*analysis.Analyzer{cgocall.Analyzer, model.Analyzer, lifetime.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	calls := pass.ResultOf[cgocall.Analyzer].(*cgocall.Result)
	mres := pass.ResultOf[model.Analyzer].(*model.Result)
	lt := pass.ResultOf[lifetime.Analyzer].(*lifetime.Result)
	rep := diag.New(pass, mres)
	defer rep.ReportUnused()
	for _, fn := range calls.Funcs {
		tr := lt.Traces[fn]
		if tr == nil {
			continue
		}
		for _, ev := range tr.Events {
			if ev.Kind != lifetime.Leak {
				continue
			}
			acq := ev.First
			what := "C." + acq.CFunc
			if acq.Callee != nil {
				what = acq.CalleeName
			}
			if rep.Ignored(acq.Pos) {
				continue // one directive at the acquisition covers its returns
			}
			fix := releaseFor(mres.Model, acq)
			ret, implicit := returnPos(fn, ev.Return)
			exit, this := "the return at "+diag.Where(pass.Fset, ret, acq.Pos), "this return"
			if implicit {
				exit, this = "the end of the function at "+diag.Where(pass.Fset, ret, acq.Pos), "the end of the function"
			}
			rep.Reportf(acq.Pos, "the handle %s returns is not released on every path (%s leaks it); release it%s on that path, or defer the release right after acquiring it",
				what, exit, fix)
			rep.Reportf(ret, "%s can be reached without releasing the handle %s returned at %s", this, what, diag.Where(pass.Fset, acq.Pos, ret))
		}
	}
	return nil, nil
}

// releaseFor names the model's release for what a C acquisition acquires.
func releaseFor(m *model.Model, acq *lifetime.Site) string {
	if acq.Callee != nil {
		return ""
	}
	for _, e := range m.Acquires(acq.CFunc) {
		if e.Kind == "" {
			continue
		}
		for _, name := range m.Funcs() {
			for _, r := range m.Entries(name) {
				if r.Role == model.Release && r.Kind == e.Kind && r.Library == e.Library {
					return fmt.Sprintf(" (C.%s)", r.Func)
				}
			}
		}
	}
	return ""
}

// returnPos returns the position of the return statement ret stands for,
// or, for the implicit return at the end of a function, its closing brace
// (implicit true).
func returnPos(fn *ssa.Function, ret ssa.Instruction) (pos token.Pos, implicit bool) {
	if ret.Pos().IsValid() {
		return ret.Pos(), false
	}
	switch syn := fn.Syntax().(type) {
	case *ast.FuncDecl:
		if syn.Body != nil {
			return syn.Body.Rbrace, true
		}
	case *ast.FuncLit:
		return syn.Body.Rbrace, true
	}
	return fn.Pos(), true
}
