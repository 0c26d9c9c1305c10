// Package cgocall is the pass that finds the calls into C a package makes,
// in every form a driver can hand over, and names their arguments in the
// frame of the user's function.
//
// A driver hands an analyzer either the files as written (C.f(x)), or, far
// more often (go vet, go/packages, golangci-lint), the files cgo rewrote:
//
//	C.f(x)          _Cfunc_f(x)                      direct call
//	r, err := C.f() _C2func_f()                      errno-returning call
//	C.malloc(n)     _CMalloc(n)
//	C.f(p)          func() { _cgo0 := p; _cgoCheckPointer(_cgo0, nil); _Cfunc_f(_cgo0) }()
//	defer C.f(p)    defer func() func() { _cgo0 := p; return func() { …; _Cfunc_f(_cgo0) } }()()
//
// The last two forms appear whenever an argument may hold a Go pointer. The
// pass sees through them: the deferred form still reads as "call f on p,
// deferred, with p evaluated at the defer statement", and the wrapper
// closures are not functions of their own for any analyzer (Result.Funcs
// leaves them out). cgo's support files (_cgo_gotypes.go, _cgo_import.go)
// are never analysed, though the user's rewritten files, which
// ast.IsGenerated calls generated, are.
package cgocall

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
	"github.com/lifetimevet/lifetimevet/internal/cgofile"
)

// Analyzer is the cgocall pass. Its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "cgocalls",
	Doc:        "find the calls into C, in source form and after cgo, and name their arguments (a pass: reports nothing)",
	URL:        "https://github.com/lifetimevet/lifetimevet/tree/main/passes/cgocall",
	Run:        run,
	Requires:   []*analysis.Analyzer{buildssa.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
}

// Mode says when a call into C runs.
type Mode uint8

const (
	Direct   Mode = iota // where it is written
	Deferred             // when the function returns or panics (defer)
	Spawned              // on a new goroutine (go)
)

// A Call is one call into C made by a user function.
type Call struct {
	Name  string              // the C function as named after "C.": "free", "cuMemFree", "CString", "malloc"
	Func  *ssa.Function       // the user function that makes the call
	Instr ssa.CallInstruction // the instruction of Func that performs it: *ssa.Call, *ssa.Defer or *ssa.Go
	Mode  Mode
	Pos   token.Pos        // the position of the call in the user's file
	Sig   *types.Signature // the Go signature cgo gave the C function (parameters of C types)
	Args  []access.Ref     // the arguments, in Func's frame; an invalid Ref where one cannot be named
	// Raw are the arguments as the C function receives them, in the frame
	// of the call (cgo's wrapper for a wrapped call): for reading a value
	// Args cannot name, such as a C function pointer the wrapper computes.
	Raw   []ssa.Value
	Value ssa.Value         // the call's result in Func's frame (Direct mode only; nil otherwise)
	aux   []ssa.Instruction // cgo plumbing in Func that belongs to this call

	// Nested lists the calls into C made while cgo's wrapper evaluates
	// this call's arguments, as in C.free(C.malloc(n)): they run just
	// before it, at the statement (Mode Direct), share its Instr and have
	// no Value (their results stay inside the wrapper). Calls lists them;
	// Lookup returns only the outer call.
	Nested []*Call
	// Feeds is, for a nested call whose result is passed straight as an
	// argument of the outer call (C.open(C.CString(s), &h)), the index of
	// that argument; -1 otherwise. Result is then the nested call's value,
	// inside cgo's wrapper.
	Feeds  int
	Result *ssa.Call

	argExprs []ast.Expr
}

// Result is what the pass found in the package.
type Result struct {
	// Funcs lists the package's user functions in source order: declared
	// functions and function literals of the user's files, without cgo's
	// support code and call wrappers.
	Funcs []*ssa.Function

	calls    map[ssa.Instruction]*Call
	plumbing map[ssa.Instruction]*Call
	byFunc   map[*ssa.Function][]*Call
	wrappers map[*ssa.Function]bool

	info      *types.Info
	callExprs map[token.Pos]*ast.CallExpr
	definedC  map[string]bool
	// forwards: for the C functions the package defines, the functions
	// they call with a parameter as the only argument
	forwards map[string][]string
	// constParams: for the C functions the package defines, which
	// parameters point to const data
	constParams map[string][]bool
	exports     map[types.Object]bool
}

// ExportedToC reports whether obj is a function of the package marked
// //export: C may call it, with arguments C owns.
func (r *Result) ExportedToC(obj types.Object) bool { return r.exports[obj] }

// DefinedInC reports whether the package's own C (its cgo preambles and .c
// files) defines the C function name, rather than a library it links.
func (r *Result) DefinedInC(name string) bool { return r.definedC[name] }

// Forwards returns the functions that name, a C function the package
// defines, calls with one of its parameters as the only argument
// (void cfree(void *p) { free(p); } forwards to free).
func (r *Result) Forwards(name string) []string { return r.forwards[name] }

// Lookup returns the call into C that instr performs, or nil.
func (r *Result) Lookup(instr ssa.Instruction) *Call { return r.calls[instr] }

// Plumbing reports whether instr is part of cgo's rewriting of a call into C
// (building and calling the wrapper closures) rather than code of the user.
// Analyzers skip such instructions; the call itself is reported by Lookup on
// its Instr.
func (r *Result) Plumbing(instr ssa.Instruction) bool { return r.plumbing[instr] != nil }

// Calls returns the calls into C made by fn, in instruction order.
func (r *Result) Calls(fn *ssa.Function) []*Call { return r.byFunc[fn] }

// IsWrapper reports whether fn is a closure cgo wrote around a call into C.
func (r *Result) IsWrapper(fn *ssa.Function) bool { return r.wrappers[fn] }

func run(pass *analysis.Pass) (any, error) {
	ssaRes := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	res := &Result{
		calls:    map[ssa.Instruction]*Call{},
		plumbing: map[ssa.Instruction]*Call{},
		byFunc:   map[*ssa.Function][]*Call{},
		wrappers: map[*ssa.Function]bool{},
		info:     pass.TypesInfo,
	}
	support := map[*token.File]bool{}
	var user []*ast.File
	for _, f := range pass.Files {
		if cgofile.IsSupport(pass.Fset, f) {
			support[pass.Fset.File(f.Pos())] = true
		} else {
			user = append(user, f)
		}
	}
	res.indexCalls(user)
	res.exports = exportedToC(pass, user)
	res.forwards = map[string][]string{}
	res.definedC, res.constParams = definedInC(pass, user, res.forwards)
	for _, fn := range sourceFuncs(ssaRes) {
		if fn.Pos().IsValid() && support[pass.Fset.File(fn.Pos())] {
			continue
		}
		if isWrapperSyntax(fn) {
			res.wrappers[fn] = true
			continue
		}
		res.Funcs = append(res.Funcs, fn)
	}
	for _, fn := range res.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				ci, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if c := res.normalize(fn, ci); c != nil {
					res.calls[instr] = c
					res.byFunc[fn] = append(res.byFunc[fn], c.Nested...)
					res.byFunc[fn] = append(res.byFunc[fn], c)
					for _, a := range c.aux {
						res.plumbing[a] = c
					}
				}
			}
		}
	}
	return res, nil
}

// CName returns the C function name behind a cgo-generated Go function name
// (_Cfunc_f, _C2func_f, _CMalloc), or "".
func CName(goName string) string {
	if goName == "_CMalloc" {
		return "malloc"
	}
	for _, p := range []string{"_Cfunc_", "_C2func_"} {
		if n, ok := strings.CutPrefix(goName, p); ok && n != "" {
			if n == "_CMalloc" {
				return "malloc" // C.malloc is cgo's own wrapper, _Cfunc__CMalloc
			}
			return n
		}
	}
	return ""
}

// cfunc returns the C name and signature when v is cgo's Go function for a
// C function.
func cfunc(v ssa.Value) (string, *types.Signature) {
	fn, ok := v.(*ssa.Function)
	if !ok || fn.Parent() != nil || fn.Signature.Recv() != nil {
		return "", nil
	}
	return CName(fn.Name()), fn.Signature
}

// closureFunc returns the function v evaluates to, or nil.
func closureFunc(v ssa.Value) *ssa.Function {
	fn, _ := closureOf(v)
	return fn
}

// closureOf returns the function and the MakeClosure (nil for a literal with
// no free variables) that v evaluates to.
func closureOf(v ssa.Value) (*ssa.Function, *ssa.MakeClosure) {
	switch v := v.(type) {
	case *ssa.Function:
		return v, nil
	case *ssa.MakeClosure:
		fn, _ := v.Fn.(*ssa.Function)
		return fn, v
	}
	return nil, nil
}

// frame resolves values of the wrapper closures of one call into the user
// function's frame.
type frame struct {
	user    *ssa.Function
	closure map[*ssa.Function]*ssa.MakeClosure // wrapper -> the MakeClosure that created it (nil: no free vars)
}

func (r *Result) normalize(fn *ssa.Function, ci ssa.CallInstruction) *Call {
	com := ci.Common()
	if com.IsInvoke() {
		return nil
	}
	mode := Direct
	switch ci.(type) {
	case *ssa.Defer:
		mode = Deferred
	case *ssa.Go:
		mode = Spawned
	}
	// Direct: _Cfunc_f(args).
	if name, sig := cfunc(com.Value); name != "" {
		c := &Call{Name: name, Func: fn, Instr: ci, Mode: mode, Pos: com.Pos(), Sig: sig, Feeds: -1}
		if call := r.callExprs[com.Pos()]; call != nil {
			c.argExprs = call.Args
		}
		c.Raw = com.Args
		for _, a := range com.Args {
			c.Args = append(c.Args, access.Of(a))
		}
		if mode == Direct {
			c.Value = ci.(*ssa.Call)
		}
		return c
	}
	fr := &frame{user: fn, closure: map[*ssa.Function]*ssa.MakeClosure{}}
	var aux []ssa.Instruction
	wrapper, mc := closureOf(com.Value)
	if mode == Deferred {
		// defer (func() func() { …; return func() { … } }())()
		outerCall, ok := com.Value.(*ssa.Call)
		if !ok || outerCall.Call.IsInvoke() {
			return nil
		}
		outer, omc := closureOf(outerCall.Call.Value)
		if outer == nil || !r.wrappers[outer] {
			return nil
		}
		fr.closure[outer] = omc
		aux = append(aux, outerCall)
		if omc != nil {
			aux = append(aux, omc)
		}
		wrapper, mc = innerClosure(outer)
		if wrapper == nil {
			return nil
		}
	} else {
		if wrapper != nil {
			if in, _ := innerClosure(wrapper); in != nil {
				// the outer function of a deferred call, evaluating its
				// arguments at the defer statement: the Defer is the call
				return nil
			}
		}
		if mc != nil {
			aux = append(aux, mc)
		}
	}
	if wrapper == nil || !r.wrappers[wrapper] {
		return nil
	}
	fr.closure[wrapper] = mc
	inner := innerCCall(wrapper)
	if inner == nil {
		return nil
	}
	name, sig := cfunc(inner.Call.Value)
	// The wrapper stands where the user wrote C.f(...), and cgo keeps the
	// text before it, so its start is the column of the user's call; the
	// positions cgo gives the inner call map past it.
	pos := wrapper.Pos()
	if mode == Deferred {
		if outer := closureFunc(com.Value.(*ssa.Call).Call.Value); outer != nil {
			pos = outer.Pos()
		}
	}
	if !pos.IsValid() {
		pos = inner.Pos()
	}
	c := &Call{Name: name, Func: fn, Instr: ci, Mode: mode, Pos: pos, Sig: sig, aux: aux, Feeds: -1,
		argExprs: r.argExprs(inner, wrapper)}
	c.Args = fr.expandAll(inner.Call.Args)
	c.Raw = inner.Call.Args
	var subs []*ssa.Call
	for w := range fr.closure {
		for _, b := range w.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || call == inner {
					continue
				}
				if sub, _ := closureOf(call.Call.Value); sub != nil && sub != w && r.wrappers[sub] {
					subs = append(subs, call)
					continue
				}
				if name, sig := cfunc(call.Call.Value); name != "" {
					n := &Call{Name: name, Func: fn, Instr: ci, Mode: Direct, Pos: call.Pos(), Sig: sig,
						Args: fr.expandAll(call.Call.Args), Feeds: feeds(inner, call)}
					if n.Feeds >= 0 {
						n.Result = call
					}
					if ce := r.callExprs[call.Pos()]; ce != nil {
						n.argExprs = ce.Args
					}
					c.Nested = append(c.Nested, n)
				}
			}
		}
	}
	// An argument that is itself a call wrapped by cgo (C.CBytes(b), whose
	// argument holds Go memory): its wrapper's C call is nested too.
	for _, call := range subs {
		sub, smc := closureOf(call.Call.Value)
		fr.closure[sub] = smc
		subInner := innerCCall(sub)
		if subInner == nil {
			continue
		}
		name, sig := cfunc(subInner.Call.Value)
		pos := sub.Pos()
		if !pos.IsValid() {
			pos = subInner.Pos()
		}
		n := &Call{Name: name, Func: fn, Instr: ci, Mode: Direct, Pos: pos, Sig: sig,
			Args: fr.expandAll(subInner.Call.Args), Feeds: feeds(inner, call)}
		if n.Feeds >= 0 {
			n.Result = call
		}
		c.Nested = append(c.Nested, n)
	}
	slices.SortFunc(c.Nested, func(a, b *Call) int { return cmp.Compare(a.Pos, b.Pos) })
	if mode == Direct {
		if call, ok := ci.(*ssa.Call); ok && call.Type() != nil {
			c.Value = call
		}
	}
	return c
}

// expandAll expands args, with an invalid Ref for an argument that cannot
// be named in the user's frame.
func (fr *frame) expandAll(args []ssa.Value) []access.Ref {
	refs := make([]access.Ref, len(args))
	for i, a := range args {
		if ref, ok := fr.expand(a); ok {
			refs[i] = ref
		}
	}
	return refs
}

// innerClosure returns the closure the outer function of a deferred cgo
// call returns.
func innerClosure(outer *ssa.Function) (*ssa.Function, *ssa.MakeClosure) {
	for _, b := range outer.Blocks {
		for _, instr := range b.Instrs {
			if ret, ok := instr.(*ssa.Return); ok && len(ret.Results) == 1 {
				return closureOf(ret.Results[0])
			}
		}
	}
	return nil, nil
}

// innerCCall returns the call of the C function inside a wrapper: the last
// one, because the wrapper first binds the arguments, and an argument may
// itself call C (C.free(C.malloc(n)), C.open(C.CString(s), &h)).
func innerCCall(w *ssa.Function) *ssa.Call {
	var last *ssa.Call
	for _, b := range w.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok {
				if name, _ := cfunc(call.Call.Value); name != "" {
					last = call
				}
			}
		}
	}
	return last
}

// expand names v, a value of one of the wrapper closures (or of the user
// function), as an access path in the user function's frame. Loads inside
// the wrappers happen at the call, so they become Load steps.
func (fr *frame) expand(v ssa.Value) (access.Ref, bool) {
	v = access.StripConv(v)
	if v.Parent() == fr.user {
		return access.Of(v), true
	}
	switch v := v.(type) {
	case *ssa.Const:
		return access.Ref{Root: v}, true
	case *ssa.Global, *ssa.Function:
		return access.Ref{Root: v}, true
	case *ssa.FieldAddr:
		r, ok := fr.expand(v.X)
		return r.With(access.Op{Kind: access.FieldAddr, Index: v.Field}), ok
	case *ssa.Field:
		r, ok := fr.expand(v.X)
		return r.With(access.Op{Kind: access.Field, Index: v.Field}), ok
	case *ssa.IndexAddr:
		r, ok := fr.expand(v.X)
		return r.With(access.Op{Kind: access.IndexAddr}), ok
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return access.Ref{}, false
		}
		addr := v.X
		for {
			fv, ok := addr.(*ssa.FreeVar)
			if !ok || fv.Parent() == fr.user {
				break
			}
			b, ok := fr.binding(fv)
			if !ok {
				return access.Ref{}, false
			}
			addr = b
		}
		if alloc, ok := addr.(*ssa.Alloc); ok && alloc.Parent() != fr.user {
			if stored := singleStore(alloc); stored != nil {
				return fr.expand(stored)
			}
			return access.Ref{}, false
		}
		r, ok := fr.expand(addr)
		return r.With(access.Op{Kind: access.Load}), ok
	case *ssa.FreeVar:
		if b, ok := fr.binding(v); ok {
			return fr.expand(b)
		}
	case *ssa.Call:
		// unsafe.SliceData(s), which cgo evaluates in the wrapper: the
		// address of s's first element, &s[0]
		if b, ok := v.Call.Value.(*ssa.Builtin); ok && b.Name() == "SliceData" && len(v.Call.Args) == 1 {
			r, ok := fr.expand(v.Call.Args[0])
			return r.With(access.Op{Kind: access.IndexAddr}), ok
		}
	}
	return access.Ref{}, false
}

// binding returns the value a wrapper's free variable is bound to in the
// enclosing frame.
func (fr *frame) binding(v *ssa.FreeVar) (ssa.Value, bool) {
	w := v.Parent()
	mc, ok := fr.closure[w]
	if !ok || mc == nil {
		return nil, false
	}
	for i, fv := range w.FreeVars {
		if fv == v && i < len(mc.Bindings) {
			return mc.Bindings[i], true
		}
	}
	return nil, false
}

// singleStore returns the value stored in a wrapper-local variable that is
// assigned once (cgo's _cgo0 := p), or nil.
func singleStore(a *ssa.Alloc) ssa.Value {
	var stored ssa.Value
	for _, ref := range *a.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != a || stored != nil {
				return nil
			}
			stored = ref.Val
		case *ssa.UnOp, *ssa.MakeClosure, *ssa.DebugRef:
		default:
			return nil
		}
	}
	return stored
}

// isWrapperSyntax reports whether fn is a function literal that cgo wrote
// around a call into C: either its body starts by binding _cgo0 (or
// _cgoBase0, _cgoIndex0) and calls a _Cfunc_ function, possibly in a nested
// literal; or it is the inner literal of the deferred form, made only of
// _cgoCheckPointer calls and the call of the _Cfunc_ function.
func isWrapperSyntax(fn *ssa.Function) bool {
	lit, ok := fn.Syntax().(*ast.FuncLit)
	if !ok || lit.Body == nil || len(lit.Body.List) == 0 {
		return false
	}
	binds := false
	switch s := lit.Body.List[0].(type) {
	case *ast.AssignStmt:
		if id, ok := s.Lhs[0].(*ast.Ident); ok && strings.HasPrefix(id.Name, "_cgo") {
			binds = true
		}
	case *ast.DeclStmt:
		if gd, ok := s.Decl.(*ast.GenDecl); ok && len(gd.Specs) > 0 {
			if vs, ok := gd.Specs[0].(*ast.ValueSpec); ok && strings.HasPrefix(vs.Names[0].Name, "_cgo") {
				binds = true
			}
		}
	}
	if !binds {
		return isInnerWrapper(lit)
	}
	calls := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && CName(id.Name) != "" {
				calls = true
			}
		}
		return !calls
	})
	return calls
}

// isInnerWrapper reports whether lit takes no parameters and is made only
// of calls of _cgoCheck* functions and one call of a _Cfunc_ function
// (possibly returned) whose arguments are cgo's _cgoN variables.
func isInnerWrapper(lit *ast.FuncLit) bool {
	if lit.Type.Params != nil && len(lit.Type.Params.List) > 0 {
		return false
	}
	cfuncs := 0
	for _, st := range lit.Body.List {
		var e ast.Expr
		switch st := st.(type) {
		case *ast.ExprStmt:
			e = st.X
		case *ast.ReturnStmt:
			if len(st.Results) != 1 {
				return false
			}
			e = st.Results[0]
		default:
			return false
		}
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		switch {
		case !ok:
			return false
		case strings.HasPrefix(id.Name, "_cgoCheck"):
		case CName(id.Name) != "":
			for _, a := range call.Args {
				if aid, ok := ast.Unparen(a).(*ast.Ident); !ok || !strings.HasPrefix(aid.Name, "_cgo") {
					return false
				}
			}
			cfuncs++
		default:
			return false
		}
	}
	return cfuncs == 1
}

// Name returns the C function a call expression calls, in any of the forms
// of the package documentation, and whether it is a call into C at all.
// info may be nil for rewritten files (the names suffice there).
func Name(info *types.Info, call *ast.CallExpr) (string, bool) {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		if id, ok := fun.X.(*ast.Ident); ok && id.Name == "C" {
			if info == nil {
				return fun.Sel.Name, true
			}
			if pn, ok := info.Uses[id].(*types.PkgName); ok && pn.Imported().Path() == "C" {
				return fun.Sel.Name, true
			}
		}
	case *ast.Ident:
		if n := CName(fun.Name); n != "" {
			return n, true
		}
	case *ast.FuncLit:
		name := ""
		ast.Inspect(fun.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && name == "" {
				if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok {
					name = CName(id.Name)
				}
			}
			return name == ""
		})
		if name != "" {
			return name, true
		}
	case *ast.CallExpr: // deferred form: (func() func() {…}())()
		if lit, ok := ast.Unparen(fun.Fun).(*ast.FuncLit); ok {
			return Name(info, &ast.CallExpr{Fun: lit})
		}
	}
	return "", false
}

// exportedToC returns the functions of files marked //export.
func exportedToC(pass *analysis.Pass, files []*ast.File) map[types.Object]bool {
	out := map[types.Object]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil {
				continue
			}
			for _, c := range fd.Doc.List {
				if strings.HasPrefix(c.Text, "//export ") {
					if obj := pass.TypesInfo.Defs[fd.Name]; obj != nil {
						out[obj] = true
					}
				}
			}
		}
	}
	return out
}

// sourceFuncs returns the functions of the package's source: buildssa's
// SrcFuncs, and the function literals of package-level variables'
// initializers (var OnClose = func(h C.handle) {...}, a map of
// callbacks), nested ones included, which SrcFuncs leaves out: they are
// the synthetic init function's, which is no declaration.
func sourceFuncs(res *buildssa.SSA) []*ssa.Function {
	out := res.SrcFuncs
	init := res.Pkg.Func("init")
	if init == nil || init.Synthetic == "" {
		return out
	}
	out = slices.Clone(out)
	seen := map[*ssa.Function]bool{}
	for _, fn := range out {
		seen[fn] = true
	}
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		for _, anon := range fn.AnonFuncs {
			if !seen[anon] {
				seen[anon] = true
				out = append(out, anon)
				add(anon)
			}
		}
	}
	add(init)
	return out
}
