package lifetime

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// This file follows an acquisition's status through the Go code that tests
// it: helpers that map a status to an error (result(C.cuInit(0)) != nil),
// boolean helpers (ok(rc)), and errcode_ret out-parameters (OpenCL's
// q := C.clCreateCommandQueue(…, &err)). The principle is the one of the
// direct test: a failed acquisition acquires nothing. Where the status
// reaches a branch in a way this cannot read, the branch says nothing and
// the acquisition is unsure (no leak is reported for it).

// A StatusMap says that a function maps a status argument to one of its
// results the way a status check does: when argument Param is zero
// (success, nil), result Result is zero too (nil, false, 0), or, with
// Inverse, result Result is true (ok(rc) is rc == 0).
type StatusMap struct {
	Param   int // the parameter, in go/ssa's numbering (the receiver first)
	Result  int
	Inverse bool
}

// derivation is how a value of a function follows from an acquisition's
// status (or from another derived value): through a helper's StatusMap, or
// unknown (a call the analysis cannot read that takes the status).
type derivation struct {
	src     *tok
	inverse bool
	unknown bool
}

// maxStatusSteps bounds the blocks the status inference visits per
// parameter.
const maxStatusSteps = 512

// statusMaps infers the StatusMaps of fn from its body: for each parameter
// that can carry a status (an integer, a boolean, an error) and each result
// that can report one (an error or a boolean), whether every return
// reachable while the parameter is zero returns zero (or, for a boolean,
// true) there.
func (pa *pkgAnalysis) statusMaps(fn *ssa.Function) []StatusMap {
	res := fn.Signature.Results()
	if res.Len() == 0 || len(fn.Blocks) == 0 {
		return nil
	}
	var results []int
	for i := range res.Len() {
		if t := res.At(i).Type(); isError(t) || isBool(t) {
			results = append(results, i)
		}
	}
	if len(results) == 0 {
		return nil
	}
	var out []StatusMap
	for j, p := range fn.Params {
		if !statusType(p.Type()) {
			continue
		}
		inf := &statusInference{pa: pa, fn: fn, param: p}
		vals, ok := inf.run(results)
		if !ok || !inf.zeroTest {
			continue
		}
		for k, i := range results {
			switch vals[k] {
			case zAlways:
				out = append(out, StatusMap{Param: j, Result: i})
			case zNever:
				if isBool(res.At(i).Type()) {
					out = append(out, StatusMap{Param: j, Result: i, Inverse: true})
				}
			}
		}
	}
	return out
}

// statusType reports whether values of t can be a status: an integer (not
// a character), a boolean, an error, or a C error message.
func statusType(t types.Type) bool {
	if isError(t) || statusOut(t) {
		return true // an error, a status code, an error message (char *)
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// zval is what a value is known to be while the parameter is zero.
type zval uint8

const (
	zUnknown zval = iota
	zAlways       // zero, nil, false
	zNever        // non-zero, non-nil, true
	zNone         // no return seen yet (for the meet)
)

func meetZ(a, b zval) zval {
	switch {
	case a == zNone:
		return b
	case b == zNone:
		return a
	case a == b:
		return a
	}
	return zUnknown
}

type statusInference struct {
	pa    *pkgAnalysis
	fn    *ssa.Function
	param *ssa.Parameter
	steps int
	// zeroTest is set when the function tells zero from the rest: it
	// compares the parameter with zero, or hands it to a status helper. A
	// function that only compares it with other values (rc == 1, for a
	// library whose success is 1) maps nothing.
	zeroTest bool
}

// run walks the paths on which the parameter can be zero, from the entry,
// and meets, over the returns they reach, what each result is there.
func (inf *statusInference) run(results []int) ([]zval, bool) {
	vals := make([]zval, len(results))
	for k := range vals {
		vals[k] = zNone
	}
	type item struct {
		b    *ssa.BasicBlock
		pred int
		env  map[*ssa.Phi]ssa.Value
		seen map[*ssa.BasicBlock]bool
	}
	stack := []item{{b: inf.fn.Blocks[0], pred: -1, env: map[*ssa.Phi]ssa.Value{}, seen: map[*ssa.BasicBlock]bool{}}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		inf.steps++
		if inf.steps > maxStatusSteps {
			return nil, false
		}
		if it.seen[it.b] {
			continue // a loop: its other iterations add nothing here
		}
		seen := copyOf(it.seen)
		seen[it.b] = true
		env := copyOf(it.env)
		for _, instr := range it.b.Instrs {
			phi, ok := instr.(*ssa.Phi)
			if !ok {
				break
			}
			if it.pred >= 0 && it.pred < len(phi.Edges) {
				env[phi] = phi.Edges[it.pred]
			}
		}
		last := it.b.Instrs[len(it.b.Instrs)-1]
		switch last := last.(type) {
		case *ssa.Return:
			for k, i := range results {
				vals[k] = meetZ(vals[k], inf.eval(last.Results[i], env, 0))
			}
			continue
		case *ssa.Panic:
			continue
		}
		for si, succ := range it.b.Succs {
			if iff, ok := last.(*ssa.If); ok && !inf.feasible(iff.Cond, si == 0, env) {
				continue
			}
			stack = append(stack, item{b: succ, pred: indexOf(succ.Preds, it.b), env: env, seen: seen})
		}
	}
	for k := range vals {
		if vals[k] == zNone {
			vals[k] = zUnknown // no return reachable: nothing is said
		}
	}
	return vals, true
}

func indexOf(bs []*ssa.BasicBlock, b *ssa.BasicBlock) int {
	for i, x := range bs {
		if x == b {
			return i
		}
	}
	return -1
}

// isParam reports whether v is the parameter, through conversions between
// integer types (err := cuError(x)) and phis the path chose.
func (inf *statusInference) isParam(v ssa.Value, env map[*ssa.Phi]ssa.Value, depth int) bool {
	for depth < 8 {
		switch x := v.(type) {
		case *ssa.Parameter:
			return x == inf.param
		case *ssa.Convert:
			if !statusType(x.X.Type()) || isBool(x.X.Type()) != isBool(x.Type()) {
				return false
			}
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Phi:
			e, ok := env[x]
			if !ok {
				return false
			}
			v = e
		default:
			return false
		}
		depth++
	}
	return false
}

// feasible reports whether the branch cond can be truth while the parameter
// is zero.
func (inf *statusInference) feasible(cond ssa.Value, truth bool, env map[*ssa.Phi]ssa.Value) bool {
	switch z := inf.eval(cond, env, 0); z {
	case zAlways:
		return !truth
	case zNever:
		return truth
	}
	return true
}

// eval says what v is while the parameter is zero.
func (inf *statusInference) eval(v ssa.Value, env map[*ssa.Phi]ssa.Value, depth int) zval {
	if depth > 8 {
		return zUnknown
	}
	if inf.isParam(v, env, 0) {
		return zAlways
	}
	switch x := v.(type) {
	case *ssa.Const:
		if x.Value == nil || isZero(x) {
			return zAlways
		}
		switch x.Value.Kind() {
		case constant.Bool, constant.Int:
			return zNever
		}
	case *ssa.MakeInterface:
		return zNever // a non-nil error, whatever it holds
	case *ssa.UnOp:
		if x.Op == token.NOT {
			switch inf.eval(x.X, env, depth+1) {
			case zAlways:
				return zNever
			case zNever:
				return zAlways
			}
		}
	case *ssa.ChangeType:
		return inf.eval(x.X, env, depth+1)
	case *ssa.Phi:
		if e, ok := env[x]; ok {
			return inf.eval(e, env, depth+1)
		}
	case *ssa.BinOp:
		y, k := x.Y, x.X
		op := x.Op
		kc, ok := k.(*ssa.Const)
		if ok {
			op = swap(op)
		} else {
			kc, ok = x.Y.(*ssa.Const)
			y = x.X
		}
		if !ok {
			break
		}
		switch inf.eval(y, env, depth+1) {
		case zAlways:
			// y is zero: the comparison is "0 op k"
			if isZero(kc) && inf.isParam(y, env, 0) {
				inf.zeroTest = true
			}
			if zero, ok := zeroSatisfies(op, kc); ok {
				if zero {
					return zNever // the comparison holds: true
				}
				return zAlways
			}
		case zNever:
			// y is not zero: only a comparison with zero is known
			if isZero(kc) {
				switch op {
				case token.EQL:
					return zAlways
				case token.NEQ:
					return zNever
				}
			}
		}
	case *ssa.Call:
		return inf.evalCall(x.Common(), -1, env, depth)
	case *ssa.Extract:
		if c, ok := x.Tuple.(*ssa.Call); ok {
			return inf.evalCall(c.Common(), x.Index, env, depth)
		}
	}
	return zUnknown
}

// evalCall says what result index (-1: the only one) of a call is while the
// parameter is zero: through the callee's StatusMaps, when the parameter is
// the argument they map.
func (inf *statusInference) evalCall(com *ssa.CallCommon, index int, env map[*ssa.Phi]ssa.Value, depth int) zval {
	callee := com.StaticCallee()
	if callee == nil || com.IsInvoke() || callee == inf.fn {
		return zUnknown
	}
	sum := inf.pa.summaryOf(callee)
	if sum == nil {
		return zUnknown
	}
	if index < 0 {
		index = 0
	}
	for _, m := range sum.Status {
		if m.Result != index || m.Param >= len(com.Args) {
			continue
		}
		arg := com.Args[m.Param]
		z := zUnknown
		if inf.isParam(arg, env, 0) {
			z = zAlways
		} else {
			z = inf.eval(arg, env, depth+1)
		}
		if z != zAlways {
			continue
		}
		inf.zeroTest = true
		if m.Inverse {
			return zNever
		}
		return zAlways
	}
	return zUnknown
}

// deriveStatus records, at a call of a Go function, the results that follow
// from an acquisition's status passed to it: through the callee's
// StatusMaps, or, when the callee maps nothing for that argument, as an
// unknown derivation (a branch on it makes the acquisition unsure).
func (a *fnAnalysis) deriveStatus(s *state, instr ssa.CallInstruction, sum *Summary, args []*tok) {
	c, ok := instr.(*ssa.Call)
	if !ok {
		return
	}
	nres := c.Call.Signature().Results().Len()
	if nres == 0 {
		return
	}
	result := func(i int) *tok {
		t := a.ts.rootOf(c)
		if nres > 1 {
			t = a.ts.field(t, i)
		}
		return t
	}
	mapped := map[int]bool{}
	for i, t := range args {
		if t == nil || !a.isStatus(s, t) {
			continue
		}
		if sum != nil {
			for _, m := range sum.Status {
				if m.Param == i && m.Result < nres {
					a.derived[result(m.Result)] = &derivation{src: t, inverse: m.Inverse}
					mapped[m.Result] = true
				}
			}
		}
		for r := range nres {
			if !mapped[r] {
				if _, ok := a.derived[result(r)]; !ok {
					a.derived[result(r)] = &derivation{src: t, unknown: true}
				}
			}
		}
	}
}

// isStatus reports whether t is the status of an acquisition held on this
// path, or derived from one.
func (a *fnAnalysis) isStatus(s *state, t *tok) bool {
	if _, ok := a.derived[t]; ok {
		return true
	}
	for h, aq := range s.acquired {
		// a returned handle is its own status only in that nil is
		// failure: handing the handle to a function is not a test
		if aq.status == t && t != h || aq.errcode == t {
			return true
		}
	}
	return false
}

// resolveDerived follows the derivations of t to an acquisition's status:
// the status, whether t is inverted with respect to it, and whether the
// chain passes through a call the analysis cannot read.
func (a *fnAnalysis) resolveDerived(t *tok) (src *tok, inverse, unknown, ok bool) {
	d := a.derived[t]
	if d == nil {
		return nil, false, false, false
	}
	for range 16 {
		src = d.src
		inverse = inverse != d.inverse
		unknown = unknown || d.unknown
		next := a.derived[src]
		if next == nil {
			return src, inverse, unknown, true
		}
		d = next
	}
	return src, inverse, true, true
}

// refineDerived narrows the state on the edge of a branch that tests a
// value derived from an acquisition's status. It reports whether the branch
// was such a test.
func (a *fnAnalysis) refineDerived(ns, out *state, br *branch, truth bool, failed func(*tok)) bool {
	if br.x == nil {
		return false
	}
	src, inverse, unknown, ok := a.resolveDerived(br.x)
	if !ok {
		return false
	}
	unsure := func() {
		for h, aq := range out.acquired {
			if aq.status == src || aq.errcode == src || h == src {
				ns.unsure[aq.status] = true
				ns.unsure[h] = true
			}
		}
	}
	if unknown {
		unsure()
		return true
	}
	// can the derived value be zero on this edge, must it be?
	var canZero, mustZero bool
	if br.op == token.ILLEGAL {
		canZero, mustZero = !truth, !truth
	} else {
		zero, ok := zeroSatisfies(br.op, br.k)
		if !ok {
			unsure()
			return true
		}
		canZero = zero == truth
		mustZero = canZero && isZero(br.k) && exactlyZero(br.op, truth)
	}
	if !inverse && !canZero || inverse && mustZero {
		failed(src) // the status cannot be success here
	}
	return true
}

// errcodeAt is an acquisition whose status comes back through argument arg.
type errcodeAt struct {
	aq  *acq
	arg int
}

// statusOut reports whether a variable of type t, given by address, can
// receive a status: an integer (cl_int errcode_ret, ICU's UErrorCode), not
// a character, or a C string (char **errptr, as RocksDB and LevelDB report
// errors: non-nil on failure).
func statusOut(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	if ok {
		return b.Info()&types.IsInteger != 0 && b.Kind() != types.Int8 && b.Kind() != types.Uint8
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		if b, ok := p.Elem().Underlying().(*types.Basic); ok {
			return b.Kind() == types.Int8 || b.Kind() == types.Uint8
		}
	}
	return false
}

// errcodeArg returns the argument through which a C function whose result
// is not a status reports one (errcode_ret, errptr): its only parameter
// that statusOut accepts given the address of a variable; -1 when there is
// none or more than one.
func errcodeArg(sig *types.Signature, args []*tok) int {
	if sig == nil {
		return -1
	}
	if r := sig.Results(); r.Len() == 1 {
		if b, ok := r.At(0).Type().Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			return -1 // the result is the status
		}
	}
	found := -1
	for i := range sig.Params().Len() {
		if i >= len(args) || args[i] == nil || !args[i].location() {
			continue // not the address of a variable (a C string, nil)
		}
		ptr, ok := sig.Params().At(i).Type().Underlying().(*types.Pointer)
		if !ok || !statusOut(ptr.Elem()) {
			continue
		}
		if found >= 0 {
			return -1
		}
		found = i
	}
	return found
}
