package releaseorder

import (
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/diag"
	"github.com/lifetimevet/lifetimevet/internal/srcname"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// Analyzer reports child handles released after their parent.
var Analyzer = &analysis.Analyzer{
	Name:     "releaseorder",
	Doc:      Doc.Compile().Format(false),
	URL:      "https://github.com/lifetimevet/lifetimevet/blob/main/analyzers/releaseorder/doc.go",
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
			if ev.Kind != lifetime.ReleaseOrder {
				continue
			}
			report(pass, rep, fn, ev)
		}
	}
	wrappers(pass, rep, calls, lt, mres)
	return nil, nil
}

func name(s *lifetime.Site) string {
	if s.Release != nil && s.CalleeName != "" {
		return s.CalleeName
	}
	return "C." + s.CFunc
}

func report(pass *analysis.Pass, rep *diag.Reporter, fn *ssa.Function, ev *lifetime.Event) {
	parent, child := ev.First, ev.Second
	ph := parent.Handle
	if ph == "" {
		ph = "its parent"
	}
	ch := child.Handle
	if ch == "" {
		ch = "a child handle"
	}
	where := diag.Where(pass.Fset, parent.Pos, child.Pos)
	if child.Deferred && !parent.Deferred {
		rep.Reportf(child.Pos, "%s is released by the deferred %s when %s returns, after %s was destroyed by %s at %s: a child outliving its parent fails (or crashes) when released; defer the release of %s before this one, so that it runs last",
			ch, strings.TrimPrefix(name(child), "the "), srcname.Func(fn), ph, name(parent), where, ph)
		return
	}
	rep.Reportf(child.Pos, "%s is released by %s after %s was destroyed by %s at %s: a child outliving its parent fails (or crashes) when released; release children first",
		ch, name(child), ph, name(parent), where)
}
