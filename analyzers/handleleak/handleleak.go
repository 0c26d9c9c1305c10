package handleleak

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"

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
		// One leak, one finding: the acquisition, naming the returns that
		// leak it (related locations).
		type leak struct {
			acq  *lifetime.Site
			rets []ssa.Instruction
		}
		var leaks []*leak
		byAcq := map[*lifetime.Site]*leak{}
		for _, ev := range tr.Events {
			if ev.Kind == lifetime.Overwrite {
				reportOverwrite(pass, rep, mres.Model, ev)
				continue
			}
			if ev.Kind != lifetime.Leak {
				continue
			}
			l := byAcq[ev.First]
			if l == nil {
				l = &leak{acq: ev.First}
				byAcq[ev.First] = l
				leaks = append(leaks, l)
			}
			l.rets = append(l.rets, ev.Return)
		}
		slices.SortStableFunc(leaks, func(x, y *leak) int { return cmp.Compare(x.acq.Pos, y.acq.Pos) })
		for _, l := range leaks {
			slices.SortStableFunc(l.rets, func(x, y ssa.Instruction) int {
				px, _ := returnPos(fn, x)
				py, _ := returnPos(fn, y)
				return cmp.Compare(px, py)
			})
			acq := l.acq
			if rep.Ignored(acq.Pos) {
				continue
			}
			what := "C." + acq.CFunc
			if acq.Callee != nil {
				what = acq.CalleeName
			}
			fix := releaseFor(mres.Model, acq)
			d := analysis.Diagnostic{Pos: acq.Pos}
			var exits, lines []string
			for _, r := range l.rets {
				ret, implicit := returnPos(fn, r)
				this := "this return"
				if implicit {
					this = "the end of the function"
				}
				exit := "the return at " + diag.Where(pass.Fset, ret, acq.Pos)
				if implicit {
					exit = "the end of the function at " + diag.Where(pass.Fset, ret, acq.Pos)
				}
				exits = append(exits, exit)
				if !implicit {
					lines = append(lines, diag.Where(pass.Fset, ret, acq.Pos))
				}
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: ret,
					Message: fmt.Sprintf("%s can be reached without releasing the handle %s returned at %s", this, what, diag.Where(pass.Fset, acq.Pos, ret))})
			}
			where := joinAnd(exits) + " leaks it"
			switch {
			case len(exits) > 1 && len(lines) == len(exits) && allLines(lines):
				where = "the returns at lines " + joinAnd(trimLine(lines)) + " leak it"
			case len(exits) > 1:
				where = joinAnd(exits) + " leak it"
			}
			how := "returns"
			if into := outText(pass, calls, mres.Model, acq); into != "" {
				how = "acquires into " + into
			}
			d.Message = fmt.Sprintf("the handle %s %s is not released on every path (%s); release it%s on that path, or defer the release right after acquiring it",
				what, how, where, fix)
			rep.Report(d)
		}
	}
	return nil, nil
}

// reportOverwrite reports a live handle replaced by a new acquisition into
// the same location, at the first acquisition.
func reportOverwrite(pass *analysis.Pass, rep *diag.Reporter, m *model.Model, ev *lifetime.Event) {
	acq, again := ev.First, ev.Second
	if rep.Ignored(acq.Pos) {
		return
	}
	what := "C." + acq.CFunc
	if acq.Callee != nil {
		what = acq.CalleeName
	}
	by := "C." + again.CFunc
	if again.CFunc == "" || strings.HasPrefix(again.CFunc, "(") || strings.Contains(again.CFunc, ".") {
		by = again.CFunc
	}
	into := ""
	if ev.Handle != "" {
		into = " into " + ev.Handle
	}
	fix := releaseFor(m, acq)
	rep.Report(analysis.Diagnostic{
		Pos: acq.Pos,
		Message: fmt.Sprintf("the handle %s acquires%s is overwritten by %s at %s while still held, and leaks; release it%s before acquiring again, or make %s release or refuse a live handle",
			what, into, by, diag.Where(pass.Fset, again.Pos, acq.Pos), fix, by),
		Related: []analysis.RelatedInformation{{Pos: again.Pos,
			Message: fmt.Sprintf("acquires again%s without releasing the handle acquired at %s", into, diag.Where(pass.Fset, acq.Pos, again.Pos))}},
	})
}

// allLines reports whether every place is a line of the same file.
func allLines(xs []string) bool {
	for _, x := range xs {
		if !strings.HasPrefix(x, "line ") {
			return false
		}
	}
	return true
}

func trimLine(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strings.TrimPrefix(x, "line ")
	}
	return out
}

// joinAnd joins phrases as prose: "a", "a and b", "a, b and c".
func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// outText returns the out-parameter, as written, into which a C
// acquisition writes the handle (res_open(&r, path): "r"), or "" for one
// that returns it.
func outText(pass *analysis.Pass, calls *cgocall.Result, m *model.Model, acq *lifetime.Site) string {
	if acq.Callee != nil {
		return ""
	}
	c := calls.Lookup(acq.Instr)
	if c == nil {
		return ""
	}
	for _, e := range m.Acquires(acq.CFunc) {
		if e.Role == model.Acquire && e.Out >= 0 && e.Out < len(c.Args) {
			return strings.TrimPrefix(cgocall.Text(pass.TypesInfo, c.ArgExpr(e.Out)), "&")
		}
	}
	return ""
}

// releaseFor names the model's release for what a C acquisition acquires.
func releaseFor(m *model.Model, acq *lifetime.Site) string {
	if acq.Callee != nil {
		return ""
	}
	for _, e := range m.Acquires(acq.CFunc) {
		if e.Pair != "" {
			return fmt.Sprintf(" (C.%s)", e.Pair)
		}
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
