package useafterrelease

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/diag"
	"github.com/lifetimevet/lifetimevet/passes/cgocall"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// Analyzer reports handles used after their release.
var Analyzer = &analysis.Analyzer{
	Name:     "useafterrelease",
	Doc:      Doc.Compile().Format(false),
	URL:      "https://github.com/lifetimevet/lifetimevet/blob/main/analyzers/useafterrelease/doc.go",
	Requires: []*analysis.Analyzer{cgocall.Analyzer, model.Analyzer, lifetime.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	calls := pass.ResultOf[cgocall.Analyzer].(*cgocall.Result)
	mres := pass.ResultOf[model.Analyzer].(*model.Result)
	lt := pass.ResultOf[lifetime.Analyzer].(*lifetime.Result)
	rep := diag.New(pass, mres)
	defer rep.ReportUnused()
	cleared := clearedFields(calls, lt, mres)
	constructors(pass, rep, calls, lt, mres)
	for _, fn := range calls.Funcs {
		tr := lt.Traces[fn]
		if tr == nil {
			continue
		}
		for _, ev := range tr.Events {
			switch ev.Kind {
			case lifetime.UseAfterRelease:
				useAfterRelease(pass, rep, fn, ev)
			case lifetime.UncheckedUse:
				uncheckedUse(pass, rep, mres, fn, ev, cleared)
			}
		}
	}
	return nil, nil
}

func releaser(s *lifetime.Site) string {
	if s.Release != nil && s.CalleeName != "" {
		return s.CalleeName
	}
	return "C." + s.CFunc
}

func useAfterRelease(pass *analysis.Pass, rep *diag.Reporter, fn *ssa.Function, ev *lifetime.Event) {
	first, use := ev.First, ev.Second
	h := use.Handle
	if h == "" {
		h = first.Handle
	}
	if h == "" {
		h = "a handle"
	}
	where := diag.Where(pass.Fset, first.Pos, use.Pos)
	when := ""
	if first.Deferred {
		when = " (a deferred call that already ran)"
	}
	if ev.Lent {
		lender := first.Handle
		if lender == "" {
			lender = "the handle that lent it"
		}
		rep.Reportf(use.Pos, "%s is passed to C.%s after %s released %s at %s%s, and %s lives only as long as %s (it is lent, not owned): C reads freed memory; use it before the release of %s",
			h, use.CFunc, releaser(first), lender, where, when, h, lender, lender)
		return
	}
	switch use.Class {
	case "key":
		rep.Reportf(use.Pos, "%s is used as a map key after %s released it at %s%s: the next allocation can return the same address, so the registry may confuse it with a live one; update the map before the release",
			h, releaser(first), where, when)
	default:
		if use.Callee != nil {
			rep.Reportf(use.Pos, "%s is used by %s after %s released it at %s%s: passed to C it reads freed memory, and as a registry key its address may already belong to a new allocation; use it before the release, or not at all",
				h, use.CalleeName, releaser(first), where, when)
			return
		}
		rep.Reportf(use.Pos, "%s is passed to C.%s after %s released it at %s%s: C reads freed memory; use it before the release, or not at all",
			h, use.CFunc, releaser(first), where, when)
	}
}

// A field a release method clears: the handle it holds is NULL after the
// release, so a method that passes it to C unchecked hands C a NULL handle.
type field struct {
	typ *types.TypeName
	ops string // access.Path ops key
}

type clearer struct {
	method string
	pos    token.Pos
}

// clearedFields returns the fields of the package's types that a release
// method checks, releases and sets to nil or zero in Go (if c.h != nil {
// release(c.h); c.h = nil }): the type treats a nil handle as "released",
// so its other methods must too. All released fields of //lifetime:handle
// types count as well.
func clearedFields(calls *cgocall.Result, lt *lifetime.Result, mres *model.Result) map[field]clearer {
	out := map[field]clearer{}
	for _, fn := range calls.Funcs {
		recv := fn.Signature.Recv()
		if recv == nil || len(fn.Params) == 0 {
			continue
		}
		tn := named(recv.Type())
		if tn == nil {
			continue
		}
		sum := lt.Summaries[fn]
		if sum == nil {
			continue
		}
		for _, r := range sum.Releases {
			if r.Path.Root != 0 || len(r.Path.Ops) == 0 {
				continue
			}
			k := field{tn, opsKey(r.Path.Ops)}
			if mres.Types[tn].Handle || r.Guarded && storesZero(fn, r.Path.Ops) {
				if _, ok := out[k]; !ok {
					out[k] = clearer{fn.Name(), fn.Pos()}
				}
			}
		}
	}
	return out
}

func opsKey(ops []access.Op) string {
	return access.Path{Ops: ops}.Key()
}

// storesZero reports whether fn assigns nil or zero, in Go, to the field its
// receiver reaches through ops (a field address followed by a load).
func storesZero(fn *ssa.Function, ops []access.Op) bool {
	if len(ops) < 2 || ops[len(ops)-1].Kind != access.Load {
		return false
	}
	addr := ops[:len(ops)-1]
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			k, ok := st.Val.(*ssa.Const)
			if !ok || !(k.IsNil() || k.Value != nil && k.Value.ExactString() == "0") {
				continue
			}
			p, ok := lifetime.ParamPath(fn, st.Addr)
			if ok && p.Root == 0 && slices.Equal(p.Ops, addr) {
				return true
			}
		}
	}
	return false
}

func named(t types.Type) *types.TypeName {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}

func uncheckedUse(pass *analysis.Pass, rep *diag.Reporter, mres *model.Result, fn *ssa.Function, ev *lifetime.Event, cleared map[field]clearer) {
	if ev.Path.Root != 0 || fn.Signature.Recv() == nil || fn.Object() == nil || !fn.Object().Exported() {
		return
	}
	tn := named(fn.Signature.Recv().Type())
	if tn == nil {
		return
	}
	cl, ok := cleared[field{tn, opsKey(ev.Path.Ops)}]
	if !ok || cl.method == fn.Name() || mres.Model.ChecksNull(ev.Second.CFunc) {
		return
	}
	h := ev.Second.Handle
	if h == "" {
		h = access.Render(fn.Params[0].Name(), fn.Params[0].Type(), ev.Path.Ops)
	}
	rep.Reportf(ev.Second.Pos, "%s passes %s to C.%s without checking it, but %s checks it, releases it and sets it to nil: after %s this hands C a NULL handle (C's own checks may be assertions that release builds leave out); return an error such as ErrClosed when %s is nil, as %s does",
		fn.Name(), h, ev.Second.CFunc, cl.method, cl.method, h, cl.method)
}
