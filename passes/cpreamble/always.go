package cpreamble

import (
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// A ParamCall is a call that a function makes on every path by which it
// returns (see Func.Always), with the parameters it passes.
type ParamCall struct {
	Name string
	Pos  token.Pos
	// Args holds, for each argument, the index of the function's
	// parameter that the argument is, as received (possibly cast:
	// free((void *)h)), or -1 for any other expression.
	Args []int
}

// always finds the calls a function body makes on every path by which it
// returns, reading its statements in order:
//
//   - a call statement (f(x);, rc = f(x);, T r = f(x);, (void)f(x);,
//     return f(x);) at the top level of the body, or of a block there, is
//     made on every path, until the first statement that can leave the
//     function first: a return or goto anywhere in an if, a loop or a
//     switch ends the reading (what follows is not on every path);
//   - a NULL test of a parameter p that guards nothing else: "if (p) S" or
//     "if (p != NULL) S" runs S on every path where p is not NULL, and
//     "if (!p) return;" or "if (p == NULL) return …;" leaves only on those
//     where it is: in both, a call of S (or after the return) counts for p
//     (there is nothing to release in a NULL handle), not for the other
//     parameters;
//   - calls in any other condition, loop or switch are not on every path.
//
// An argument is a parameter only while the body has not assigned the
// parameter (p = p->next, p++): after that it may hold something else.
// Everything the reading does not understand ends it: the result is the
// calls certainly made, never more.
func (p *parser) always(fn *Func, start, end int) []ParamCall {
	w := &alwaysWalk{p: p, fn: fn, params: map[string]int{}, written: map[string]bool{}, start: start, end: end}
	for i, name := range fn.Params {
		if name != "" {
			w.params[name] = i
		}
	}
	w.block(start, end, nil)
	return w.out
}

type alwaysWalk struct {
	p       *parser
	fn      *Func
	params  map[string]int
	written map[string]bool
	out     []ParamCall
	stopped bool
	// the body's extent, and the function pointers it declares
	start, end int
	ptrs       map[string]bool
}

// block reads the statements of toks[start:end]; guard, when not nil, is
// the set of parameters whose non-NULL value the statements run under:
// only those count as passed.
func (w *alwaysWalk) block(start, end int, guard map[int]bool) {
	toks := w.p.toks
	for i := start; i < end && !w.stopped; {
		t := toks[i]
		switch {
		case t.text == ";":
			i++
		case t.text == "{":
			close := match(toks, i)
			w.block(i+1, min(close, end), guard)
			i = close + 1
		case t.text == "}":
			return
		case t.kind == ident && t.text == "if":
			i = w.ifStmt(i, end, guard)
		case t.kind == ident && t.text == "do" && w.onceDo(i, end) > 0:
			// do { S } while (0): S once, as a block (the idiom of
			// statement-like macros written out). A break or continue
			// of the do leaves S for the statement after it: S is read
			// up to the first of its statements that holds one, and
			// the reading goes on after the do, unless what was not
			// read can leave the function.
			next := w.onceDo(i, end)
			close := match(toks, i+1)
			stop := w.beforeBreak(i+2, close)
			w.block(i+2, stop, guard)
			if stop < close && !w.stopped {
				if leaves(toks[stop:close]) || w.opaque(stop, close) {
					w.stopped = true
					return
				}
				w.noteWrites(stop, close)
			}
			i = next
		case t.kind == ident && (t.text == "for" || t.text == "while" || t.text == "switch" || t.text == "do"):
			next := w.skipStmt(i, end)
			if leaves(toks[i:next]) {
				w.stopped = true
				return
			}
			// a loop may run any number of times: a parameter it
			// assigns may hold something else after it
			w.noteWrites(i, next)
			i = next
		case t.kind == ident && (t.text == "goto" || t.text == "else" || t.text == "case" || t.text == "default"):
			w.stopped = true
			return
		case t.kind == ident && i+1 < end && toks[i+1].text == ":" && !keywords[t.text]:
			// a label: a goto may jump here from a path not read
			w.stopped = true
			return
		default:
			semi := w.p.stmtEnd(i, end)
			if semi < 0 {
				w.stopped = true
				return
			}
			ret := t.text == "return"
			if !ret && (leaves(toks[i:semi]) || w.opaque(i, semi)) {
				// a call that does not return (longjmp, exit), or a
				// macro that may leave the function: nothing after it
				// is known to run
				w.stopped = true
				return
			}
			w.callStmt(i, semi, guard)
			w.noteWrites(i, semi)
			if ret {
				w.stopped = true
				return
			}
			i = semi + 1
		}
	}
}

// ifStmt reads the if statement at i and returns where the statement after
// it starts.
func (w *alwaysWalk) ifStmt(i, end int, guard map[int]bool) int {
	toks := w.p.toks
	if i+1 >= end || toks[i+1].text != "(" {
		w.stopped = true
		return end
	}
	cl := match(toks, i+1)
	thenStart := cl + 1
	thenEnd := w.skipStmt(thenStart, end)
	next := thenEnd
	hasElse := next < end && toks[next].text == "else"
	if hasElse {
		next = w.skipStmt(next+1, end)
	}
	param, nonNull, ok := w.nullTest(i+2, cl)
	switch {
	case ok && nonNull && !hasElse:
		// if (p) S: S runs whenever p is not NULL
		g := map[int]bool{param: true}
		if guard != nil {
			g = map[int]bool{}
			if guard[param] {
				g[param] = true
			}
		}
		w.block(thenStart, thenEnd, g)
		if leaves(toks[thenStart:thenEnd]) {
			// after S left: only the NULL path goes on
			w.stopped = true
		}
		return next
	case ok && !nonNull && !hasElse && leaves(toks[thenStart:thenEnd]):
		// if (!p) return: the rest runs whenever p is not NULL
		g := map[int]bool{param: true}
		if guard != nil {
			g = map[int]bool{}
			if guard[param] {
				g[param] = true
			}
		}
		w.block(next, end, g)
		w.stopped = true
		return end
	}
	if leaves(toks[i:next]) {
		w.stopped = true
		return end
	}
	w.noteWrites(i, next)
	return next
}

// nullTest reads the condition toks[start:end] as the NULL test of one
// parameter not written so far: p, p != NULL, NULL != p, p != 0 (nonNull),
// or !p, p == NULL, NULL == p, p == 0.
func (w *alwaysWalk) nullTest(start, end int) (param int, nonNull, ok bool) {
	toks := w.p.toks
	// outer parentheses: if ((p))
	for end-start >= 2 && toks[start].text == "(" && match(toks, start) == end-1 {
		start, end = start+1, end-1
	}
	c := toks[start:end]
	pidx := func(t tok) (int, bool) {
		i, ok := w.params[t.text]
		return i, ok && t.kind == ident && !w.written[t.text]
	}
	null := func(t tok) bool { return t.text == "NULL" || t.text == "0" || t.text == "nullptr" }
	switch len(c) {
	case 1:
		if i, ok := pidx(c[0]); ok {
			return i, true, true
		}
	case 2:
		if c[0].text == "!" {
			if i, ok := pidx(c[1]); ok {
				return i, false, true
			}
		}
	case 3:
		op := c[1].text
		if op != "==" && op != "!=" {
			break
		}
		if i, ok := pidx(c[0]); ok && null(c[2]) {
			return i, op == "!=", true
		}
		if i, ok := pidx(c[2]); ok && null(c[0]) {
			return i, op == "!=", true
		}
	}
	return 0, false, false
}

// skipStmt returns the index just past the statement starting at i.
func (w *alwaysWalk) skipStmt(i, end int) int {
	toks := w.p.toks
	if i >= end {
		return end
	}
	switch toks[i].text {
	case "{":
		return min(match(toks, i)+1, end)
	case "if", "for", "while", "switch":
		if i+1 < end && toks[i+1].text == "(" {
			n := w.skipStmt(match(toks, i+1)+1, end)
			if toks[i].text == "if" && n < end && toks[n].text == "else" {
				n = w.skipStmt(n+1, end)
			}
			return n
		}
	case "do":
		n := w.skipStmt(i+1, end) // the body, then while (…);
		for n < end && toks[n].text != ";" {
			if toks[n].text == "(" {
				n = match(toks, n)
			}
			n++
		}
		return min(n+1, end)
	}
	if semi := w.p.stmtEnd(i, end); semi >= 0 {
		return semi + 1
	}
	return end
}

// leaves reports whether toks can leave the function, or end the
// program, without reaching what follows: a return, a goto, or a call of
// a function that does not return.
func leaves(toks []tok) bool {
	for _, t := range toks {
		if t.kind == ident && (t.text == "return" || t.text == "goto" || noReturn[t.text]) {
			return true
		}
	}
	return false
}

// noReturn are the C library's functions that do not return.
var noReturn = map[string]bool{
	"longjmp": true, "siglongjmp": true, "_longjmp": true, "exit": true, "_exit": true, "_Exit": true,
	"quick_exit": true, "abort": true, "pthread_exit": true, "thrd_exit": true,
	"__builtin_trap": true, "__builtin_unreachable": true,
}

// opaque reports whether the statement toks[start:end] uses a macro whose
// expansion may leave the function: one the text (or a package header it
// includes, or a -D) defines with a return, goto, break, continue or a
// call that does not return in its replacement; a call of an
// all-capitals name the text does not define (by C's convention a macro,
// from a header the scanner does not read); or a call of a name that
// says it returns (g_return_if_fail, return_unless) that the text does
// not define as a function: a function cannot make its caller return,
// so such a name is a macro that may.
func (w *alwaysWalk) opaque(start, end int) bool {
	toks := w.p.toks
	for i := start; i < end; i++ {
		t := toks[i]
		if t.kind != ident {
			continue
		}
		if def, ok := macroAt(w.p.macros[t.text], t.off); ok {
			if leaves(tokenize([]byte(def.body))) || strings.Contains(def.body, "break") || strings.Contains(def.body, "continue") {
				return true
			}
			if !def.maybe {
				continue
			}
			// maybe not a macro at all: as a name the text does not
			// define
		}
		if i+1 < end && toks[i+1].text == "(" && (allCaps(t.text) || saysReturn(t.text)) && !w.p.definesFunc(t.text) {
			return true
		}
	}
	return false
}

// saysReturn reports whether name says it returns under a condition:
// the word "return" and after it "if", "unless", "on" or "when"
// (g_return_if_fail, g_return_val_if_fail, return_unless,
// RETURN_ON_ERROR, returnIfNull), words being parts between underscores
// and capitals.
func saysReturn(name string) bool {
	ret := false
	for _, w := range words(name) {
		switch w {
		case "return":
			ret = true
		case "if", "unless", "on", "when":
			if ret {
				return true
			}
		}
	}
	return false
}

// words splits a C name into its lower-case words: at underscores and
// where a capital follows a lower-case letter or a digit.
func words(name string) []string {
	var out []string
	start := 0
	flush := func(end int) {
		if end > start {
			out = append(out, strings.ToLower(name[start:end]))
		}
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_':
			flush(i)
			start = i + 1
		case c >= 'A' && c <= 'Z' && i > 0 && (name[i-1] >= 'a' && name[i-1] <= 'z' || name[i-1] >= '0' && name[i-1] <= '9'):
			flush(i)
			start = i
		}
	}
	flush(len(name))
	return out
}

// allCaps reports whether name has two letters or more, all capitals.
func allCaps(name string) bool {
	letters := 0
	for _, c := range name {
		switch {
		case c >= 'A' && c <= 'Z':
			letters++
		case c >= 'a' && c <= 'z':
			return false
		}
	}
	return letters >= 2
}

// onceDo returns, for a `do { S } while (0);` at i, the index past it; 0
// for any other do statement. S may break or continue (beforeBreak).
func (w *alwaysWalk) onceDo(i, end int) int {
	toks := w.p.toks
	if i+1 >= end || toks[i+1].text != "{" {
		return 0
	}
	close := match(toks, i+1)
	j := close + 1
	if j+4 < end+1 && j+4 <= len(toks)-1 && toks[j].text == "while" && toks[j+1].text == "(" && toks[j+3].text == ")" && toks[j+4].text == ";" {
		if n, err := strconv.ParseUint(strings.TrimRight(toks[j+2].text, "uUlL"), 0, 64); err == nil && n == 0 && toks[j+2].kind == number {
			return j + 5
		}
	}
	return 0
}

// beforeBreak returns where the first statement of toks[start:end] (the
// statements of a do's body) that holds a break or continue of the do
// itself starts, not one of a loop or switch inside it; end if none does.
// The statements before it run whenever the do does.
func (w *alwaysWalk) beforeBreak(start, end int) int {
	for s := start; s < end; {
		next := w.skipStmt(s, end)
		if next <= s {
			return s
		}
		if w.ownBreak(s, next) {
			return s
		}
		s = next
	}
	return end
}

// ownBreak reports whether toks[start:end] holds a break or continue that
// is not of a loop or switch inside it.
func (w *alwaysWalk) ownBreak(start, end int) bool {
	toks := w.p.toks
	for k := start; k < end; {
		t := toks[k]
		switch {
		case t.kind == ident && (t.text == "for" || t.text == "while" || t.text == "switch" || t.text == "do"):
			// a loop's or switch's own: skip its header and body (a
			// do's while (…) too)
			n := w.skipStmt(k, end)
			if n <= k {
				return true
			}
			k = n
			continue
		case t.kind == ident && (t.text == "break" || t.text == "continue"):
			return true
		}
		k++
	}
	return false
}

// callStmt records the call that the statement toks[start:semi] is, if it
// is one: [return] [(void)] [lhs =] f(args).
func (w *alwaysWalk) callStmt(start, semi int, guard map[int]bool) {
	toks := w.p.toks
	i := start
	if toks[i].text == "return" {
		i++
	}
	if eq := topIndex(toks[i:semi], "="); eq >= 0 {
		i += eq + 1
	}
	i = skipCasts(toks, i, semi)
	if i+1 >= semi || toks[i].kind != ident || keywords[toks[i].text] || stmtKeywords[toks[i].text] || toks[i+1].text != "(" {
		return
	}
	cl := match(toks, i+1)
	if cl != semi-1 {
		return // f(x)->y, f(x) + 1, a()(b): not one call of f
	}
	if !w.p.decided(toks[i].off) {
		return // under a condition the build may not compile (cond.go)
	}
	if _, local := w.params[toks[i].text]; local || w.fn.locals[toks[i].text] || w.pointerDecl(toks[i].text) {
		return // a function pointer the function was given or holds, not the function of that name
	}
	name := toks[i].text
	if def, ok := macroAt(w.p.macros[name], toks[i].off); ok {
		// a macro the text defines: the call is of the function it
		// renames (#define free(x) my_free(x), #define free my_free),
		// or of none (#define free(x) ((void)(x))); of a macro the
		// text may or may not define, the scanner cannot tell
		if def.maybe {
			return
		}
		target, ok := renames(def.body)
		if !ok {
			return
		}
		name = target
	}
	c := ParamCall{Name: name, Pos: w.p.file.pos(toks[i].off)}
	if cl > i+2 {
		for _, arg := range splitTop(toks[i+2:cl], ",") {
			c.Args = append(c.Args, w.argParam(arg, guard))
		}
	}
	w.out = append(w.out, c)
}

// argParam returns the parameter that the argument arg is, through casts
// and parentheses, or -1.
func (w *alwaysWalk) argParam(arg []tok, guard map[int]bool) int {
	arg = unwrapArg(arg)
	if len(arg) != 1 || arg[0].kind != ident || w.written[arg[0].text] {
		return -1
	}
	i, ok := w.params[arg[0].text]
	if !ok || guard != nil && !guard[i] {
		return -1
	}
	return i
}

// skipCasts returns the index past the casts that start toks[i:end]:
// (void *), (uintptr_t), (struct obj *), (const char *).
func skipCasts(toks []tok, i, end int) int {
	for i < end && toks[i].text == "(" {
		cl := match(toks, i)
		if cl >= end-1 || cl == i+1 {
			return i
		}
		for _, t := range toks[i+1 : cl] {
			if t.kind != ident && t.text != "*" {
				return i
			}
		}
		// (x) y is a cast only when something follows it as its operand
		// and x is a type: one name (a typedef), or type words and stars
		if next := toks[cl+1]; next.kind == punct && next.text != "(" && next.text != "*" && next.text != "&" {
			return i
		}
		i = cl + 1
	}
	return i
}

// noteWrites marks the parameters that toks[start:end] assigns or
// increments, or takes the address of, directly or through a macro whose
// replacement does so to an argument (#define CLEAR(x) ((x) = 0)) or to
// the parameter's name; a declaration of a local of a parameter's name
// (void *p __attribute__((unused)) = …) hides the parameter, as a write.
func (w *alwaysWalk) noteWrites(start, end int) {
	toks := w.p.toks
	for i := start; i < end; i++ {
		t := toks[i]
		if t.kind != ident {
			continue
		}
		if _, ok := w.params[t.text]; !ok {
			if def, ok := macroAt(w.p.macros[t.text], t.off); ok {
				for _, name := range w.macroWrites(def, i, end) {
					w.written[name] = true
				}
			}
			continue
		}
		if i > start && (toks[i-1].text == "." || toks[i-1].text == "->") {
			continue
		}
		if i > start && (toks[i-1].text == "++" || toks[i-1].text == "--" || toks[i-1].text == "&") {
			w.written[t.text] = true // ++p, or its address taken: anything may change it
			continue
		}
		k := i + 1
		for k+1 < end && (toks[k].text == "__attribute__" || toks[k].text == "__attribute") && toks[k+1].text == "(" {
			k = match(toks, k+1) + 1
		}
		if k < end && (assignOps[toks[k].text] || toks[k].text == "++" || toks[k].text == "--") {
			w.written[t.text] = true
		}
	}
}

// macroWrites returns the parameters of the function that the use of the
// macro def at toks[i] (its name) writes: an argument that is a
// parameter where the replacement assigns, increments or takes the
// address of the macro's parameter, and a parameter the replacement
// names so itself.
func (w *alwaysWalk) macroWrites(def macroDef, i, end int) []string {
	toks := w.p.toks
	body := tokenize([]byte(def.body))
	var mparams []string
	var args [][]tok
	if strings.HasPrefix(def.body, "(") && len(body) > 0 {
		cl := match(body, 0)
		if body[cl].text != ")" || cl == 0 {
			return nil // an unclosed parameter list
		}
		for _, part := range splitTop(body[1:cl], ",") {
			if len(part) == 1 {
				mparams = append(mparams, part[0].text)
			} else {
				mparams = append(mparams, "")
			}
		}
		body = body[cl+1:]
		if i+1 < end && toks[i+1].text == "(" {
			cl := min(match(toks, i+1), end)
			if cl > i+2 {
				args = splitTop(toks[i+2:cl], ",")
			}
		}
	}
	var out []string
	write := func(name string) {
		if k := slices.Index(mparams, name); k >= 0 || name == "__VA_ARGS__" {
			for n, arg := range args {
				if name != "__VA_ARGS__" && n != k || name == "__VA_ARGS__" && n < len(mparams)-1 {
					continue
				}
				if a := unwrapArg(arg); len(a) == 1 && a[0].kind == ident {
					if _, ok := w.params[a[0].text]; ok {
						out = append(out, a[0].text)
					}
				}
			}
			return
		}
		if _, ok := w.params[name]; ok {
			out = append(out, name)
		}
	}
	for k, t := range body {
		if t.kind != ident {
			continue
		}
		// the name, or the name in parentheses: (x) = 0, ++(x)
		lo, hi := k, k
		for lo > 0 && hi+1 < len(body) && body[lo-1].text == "(" && body[hi+1].text == ")" {
			lo, hi = lo-1, hi+1
		}
		prev, next := "", ""
		if lo > 0 {
			prev = body[lo-1].text
		}
		if hi+1 < len(body) {
			next = body[hi+1].text
		}
		if lo > 0 && (body[lo-1].text == "." || body[lo-1].text == "->") {
			continue
		}
		if prev == "++" || prev == "--" || prev == "&" || assignOps[next] || next == "++" || next == "--" {
			write(t.text)
		}
	}
	return out
}

// pointerDecl reports whether the function's body declares a function
// pointer named name: (*name) in a declaration, void (*free)(void *) = f.
func (w *alwaysWalk) pointerDecl(name string) bool {
	if w.ptrs == nil {
		w.ptrs = map[string]bool{}
		toks := w.p.toks
		for i := w.start; i+3 < w.end; i++ {
			if toks[i].text == "(" && toks[i+1].text == "*" && toks[i+2].kind == ident && toks[i+3].text == ")" {
				w.ptrs[toks[i+2].text] = true
			}
		}
	}
	return w.ptrs[name]
}

// renames returns the function a macro's replacement (what follows its
// name in the #define) calls with its parameters unchanged: "(x) f(x)"
// and " f" rename f; anything else renames nothing.
func renames(body string) (string, bool) {
	toks := tokenize([]byte(body))
	if len(toks) == 1 && toks[0].kind == ident {
		return toks[0].text, true // #define free my_free
	}
	if len(toks) < 3 || toks[0].text != "(" {
		return "", false
	}
	cl := match(toks, 0)
	params := toks[1:cl]
	rest := toks[cl+1:]
	if len(rest) < 3 || rest[0].kind != ident || rest[1].text != "(" || match(rest, 1) != len(rest)-1 {
		return "", false
	}
	args := rest[2 : len(rest)-1]
	if len(args) != len(params) {
		return "", false
	}
	for k := range args {
		if args[k].text != params[k].text {
			return "", false
		}
	}
	return rest[0].text, true // #define free(x) my_free(x)
}

// unwrapArg returns an argument without the casts and parentheses around
// it: (void *)(h) is h.
func unwrapArg(arg []tok) []tok {
	for {
		n := skipCasts(arg, 0, len(arg))
		arg = arg[n:]
		if len(arg) >= 2 && arg[0].text == "(" && match(arg, 0) == len(arg)-1 {
			arg = arg[1 : len(arg)-1]
			continue
		}
		if n == 0 {
			return arg
		}
	}
}
