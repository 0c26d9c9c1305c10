package cpreamble

import "slices"

// parser reads the declarations and function definitions of one file's
// tokens.
type parser struct {
	file  *File
	toks  []tok
	vars  []*Var
	funcs []*Func
	// undecided are the offset ranges of conditional arms the scanner
	// read without knowing whether the build compiles them (blank)
	undecided [][2]int
	// macros are the macros the text #defines, with what follows the
	// name (parameters and replacement)
	macros map[string][]macroDef
	// own are the typedefs and tags the text defines, as read so far;
	// hdr those of the package's headers (resolve.go), or nil
	own, hdr *defs
	repl     map[string][]tok // macro replacements, tokenized
}

// decided reports whether the token at offset off is in code the build
// compiles, as far as the scanner can tell (not in an undecided arm).
func (p *parser) decided(off int) bool {
	for _, r := range p.undecided {
		if off >= r[0] && off < r[1] {
			return false
		}
	}
	return true
}

// parse reads the file scope: declarations end at a ';' outside brackets;
// a '{' after a parameter list starts a function body; other braces
// (struct and enum bodies, initialisers, extern "C") are skipped over.
func (p *parser) parse() {
	toks := p.toks
	for i := 0; i < len(toks); {
		start := i
		j := i
	decl:
		for ; j < len(toks); j++ {
			t := toks[j]
			if t.kind != punct {
				continue
			}
			switch t.text {
			case "(", "[":
				j = match(toks, j)
			case "{":
				if j > start && toks[j-1].text == "=" {
					j = match(toks, j) // an initialiser
					continue
				}
				if j == start+1 && toks[start].text == "extern" || j == start {
					i = j + 1 // extern "C" { (the string is blanked)
					break decl
				}
				if name, params, ok := funcDef(toks[start:j]); ok {
					end := match(toks, j)
					p.function(toks[start:j], start+name, start+params, j, end)
					i = end + 1
					break decl
				}
				j = match(toks, j) // a struct, union or enum body
			case "}":
				i = j + 1 // the end of extern "C" {
				break decl
			case ";":
				p.declaration(toks[start:j], nil)
				i = j + 1
				break decl
			}
		}
		if j >= len(toks) {
			break
		}
	}
}

// stripAttrs drops __attribute__((…)), __declspec(…), asm labels and
// alignment specifiers, and reports whether one said the variable is
// thread-local (__declspec(thread)).
func stripAttrs(toks []tok) ([]tok, bool) {
	var out []tok
	tls := false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == ident {
			switch t.text {
			case "__attribute__", "__attribute", "__declspec", "__asm__", "__asm", "asm", "_Alignas", "alignas", "__extension__":
				if i+1 < len(toks) && toks[i+1].text == "(" {
					end := match(toks, i+1)
					for _, x := range toks[i+1 : end] {
						if x.text == "thread" && t.text == "__declspec" {
							tls = true
						}
					}
					i = end
				}
				continue
			}
		}
		out = append(out, t)
	}
	return out, tls
}

// funcDef reports whether toks (everything before a '{') is a function
// definition's head, and returns the indices of its name and of the '(' of
// its parameter list.
func funcDef(toks []tok) (name, params int, ok bool) {
	// trailing attributes: int f(void) __attribute__((unused)) {
	end := len(toks)
	for end >= 2 && toks[end-1].text == ")" {
		open := openOf(toks[:end], end-1)
		if open > 0 && (toks[open-1].text == "__attribute__" || toks[open-1].text == "__attribute") {
			end = open - 1
			continue
		}
		break
	}
	if end < 2 || toks[end-1].text != ")" {
		return 0, 0, false
	}
	for _, t := range toks[:end] {
		if t.text == "=" || t.text == "typedef" {
			return 0, 0, false
		}
	}
	open := openOf(toks[:end], end-1)
	if open < 1 || toks[open-1].kind != ident || keywords[toks[open-1].text] {
		return 0, 0, false
	}
	return open - 1, open, true
}

// openOf returns the index of the '(' that the ')' at close closes.
func openOf(toks []tok, close int) int {
	depth := 0
	for j := close; j >= 0; j-- {
		switch toks[j].text {
		case ")":
			depth++
		case "(":
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// declaration reads a declaration (without its ';'): the variables it
// defines, at file scope (fn == nil) or as statics of fn. It returns the
// names declared.
func (p *parser) declaration(toks []tok, fn *Func) []string {
	if len(toks) == 0 {
		return nil
	}
	// the type's qualifiers, after the text's typedefs, tags and macros
	// are resolved (resolve.go)
	atomic, tls := p.qualifiers(toks, toks[0].off, 0)
	toks, _ = stripAttrs(toks)
	if len(toks) == 0 {
		return nil
	}
	var static, extern, typedef bool
	for _, t := range toks {
		switch t.text {
		case "static":
			static = true
		case "extern":
			extern = true
		case "typedef":
			typedef = true
		}
	}
	p.noteTypes(toks, typedef, atomic)
	if typedef {
		return nil
	}
	var names []string
	parts := splitTop(toks, ",")
	for n, part := range parts {
		// the declarator, before its initialiser
		if eq := topIndex(part, "="); eq >= 0 {
			part = part[:eq]
		}
		name, isConst, isFunc, ok := declarator(part, n == 0)
		if !ok || isFunc {
			continue
		}
		if name.text = p.varName(name.text, name.off); name.text == "" {
			continue
		}
		names = append(names, name.text)
		if fn != nil && !static {
			continue // an automatic variable
		}
		v := &Var{Name: name.text, File: p.file, Func: fn, Pos: p.file.pos(name.off),
			Static: static, Extern: extern, Const: isConst, Atomic: atomic, ThreadLocal: tls}
		p.vars = append(p.vars, v)
	}
	return names
}

// topIndex returns the index of the first token s outside brackets, or -1.
func topIndex(toks []tok, s string) int {
	for i := 0; i < len(toks); i++ {
		switch toks[i].text {
		case "(", "[", "{":
			i = match(toks, i)
			continue
		case s:
			return i
		}
	}
	return -1
}

// splitTop splits toks at the separator outside brackets.
func splitTop(toks []tok, sep string) [][]tok {
	var out [][]tok
	start := 0
	for i := 0; i < len(toks); i++ {
		switch toks[i].text {
		case "(", "[", "{":
			i = match(toks, i)
			continue
		case sep:
			out = append(out, toks[start:i])
			start = i + 1
		}
	}
	return append(out, toks[start:])
}

// bodyTok stands for a struct, union or enum body in a declarator.
const bodyTok = "{…}"

// declarator finds the name a declarator declares: the identifier inside
// (*name) for a pointer to function or array, otherwise the last
// identifier before any '[' or '('. first says the specifiers come first
// (the first declarator of a declaration): a type and a name are both
// needed then. isFunc is set for a function declarator (a prototype).
func declarator(toks []tok, first bool) (name tok, isConst, isFunc, ok bool) {
	// struct, union and enum bodies: struct node { … } head
	if slices.ContainsFunc(toks, func(t tok) bool { return t.text == "{" }) {
		var out []tok
		for i := 0; i < len(toks); i++ {
			if toks[i].text == "{" {
				out = append(out, tok{ident, bodyTok, toks[i].off})
				i = match(toks, i)
				continue
			}
			out = append(out, toks[i])
		}
		toks = out
	}
	if len(toks) == 0 {
		return tok{}, false, false, false
	}
	// (*name)(params) or (*name)[n]
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].text == "(" && toks[i+1].text == "*" {
			end := match(toks, i)
			inner := toks[i+1 : end]
			for k := len(inner) - 1; k >= 0; k-- {
				if inner[k].kind == ident && !keywords[inner[k].text] {
					c := false
					if k > 0 && (inner[k-1].text == "const" || inner[k-1].text == "__const") {
						c = true
					}
					return inner[k], c, false, true
				}
			}
			return tok{}, false, false, false
		}
	}
	stop := len(toks)
	for i, t := range toks {
		if t.text == "[" || t.text == "(" {
			stop = i
			break
		}
	}
	idents := 0
	for _, t := range toks[:stop] {
		if t.kind == ident {
			idents++
		}
	}
	k := stop - 1
	if k < 0 || toks[k].kind != ident || keywords[toks[k].text] || toks[k].text == bodyTok {
		return tok{}, false, false, false
	}
	if first && idents < 2 {
		return tok{}, false, false, false // a macro, or a tag alone
	}
	if k > 0 {
		switch toks[k-1].text {
		case "struct", "union", "enum":
			return tok{}, false, false, false // a tag: struct foo;
		}
	}
	for _, t := range toks[:k] {
		if t.kind == punct && t.text != "*" && t.text != "&" {
			return tok{}, false, false, false // not a declarator
		}
	}
	if stop < len(toks) && toks[stop].text == "(" {
		isFunc = true
	}
	// const applies to the variable when it follows the last '*', or
	// when there is no '*' at all
	star := -1
	for i, t := range toks[:k] {
		if t.text == "*" {
			star = i
		}
	}
	for _, t := range toks[star+1 : k] {
		if t.text == "const" || t.text == "__const" || t.text == "constexpr" {
			isConst = true
		}
	}
	return toks[k], isConst, isFunc, true
}

// function reads a function definition: head is everything before the
// '{' at body, name and params index head (as indices of p.toks).
func (p *parser) function(head []tok, name, params, body, end int) {
	toks := p.toks
	fn := &Func{Name: toks[name].text, File: p.file, Pos: p.file.pos(toks[name].off), locals: map[string]bool{}}
	for _, t := range head {
		if t.text == "static" {
			fn.Static = true
		}
	}
	// parameters
	pend := match(toks, params)
	for _, part := range splitTop(toks[params+1:pend], ",") {
		nm, _, _, ok := declarator(part, true)
		if ok {
			fn.locals[nm.text] = true
		}
		fn.Params = append(fn.Params, nm.text) // "" for one without a name
	}
	fn.NullTested = nullTests(toks[body+1:end], fn.Params)
	fn.Always = p.always(fn, body+1, end)
	var passed map[int]bool
	fn.Passes, passed = p.passes(fn, body+1, end)
	fn.uncaptured = uncaptured(toks[body+1:end], fn.Params, passed)
	skip := map[int]bool{} // token indices of declarations
	stmtStart := true
	for i := body + 1; i < end; i++ {
		t := toks[i]
		if stmtStart && t.kind == ident && !stmtKeywords[t.text] {
			if semi := p.stmtEnd(i, end); semi > i {
				if t.text == "static" {
					// a static of fn: writes of the name are writes of it
					for _, n := range p.declaration(toks[i:semi], fn) {
						delete(fn.locals, n)
					}
					for k := i; k <= semi; k++ {
						skip[k] = true
					}
				} else if localDecl(toks[i:semi]) {
					for _, n := range p.declarationNames(toks[i:semi]) {
						fn.locals[n] = true
					}
				}
			}
		}
		stmtStart = false
		if t.kind == punct {
			switch t.text {
			case "{", "}", ";":
				stmtStart = true
			case "(":
				stmtStart = i > 0 && toks[i-1].text == "for"
			case ":":
				stmtStart = true // after a label or case
			}
			continue
		}
		if t.kind != ident || skip[i] {
			continue
		}
		member := i > 0 && (toks[i-1].text == "." || toks[i-1].text == "->")
		// a macro the text defines: what its replacement calls is called
		// here (#define LOCK() pthread_mutex_lock(&mu)), for the locks
		// the function takes and releases
		if !member && !keywords[t.text] && !stmtKeywords[t.text] {
			for _, c := range p.callsThrough(toks[:end], i) {
				fn.noteLock(c)
				fn.viaMacro = append(fn.viaMacro, c)
			}
		}
		// a call
		if i+1 < end && toks[i+1].text == "(" && !keywords[t.text] && !stmtKeywords[t.text] {
			if !member {
				// a call the build may not compile is no evidence of
				// what the function does, but a lock there makes the
				// function cautious: kept
				if p.decided(t.off) {
					fn.Calls = append(fn.Calls, Call{Name: t.text, Pos: p.file.pos(t.off)})
				}
				fn.noteLock(t.text)
			}
			continue
		}
		if keywords[t.text] || stmtKeywords[t.text] {
			continue
		}
		if i > 0 && (toks[i-1].text == "." || toks[i-1].text == "->") {
			continue // a member
		}
		// a write: name, name.f, name[i] followed by an assignment or
		// ++/--; or ++/-- before it
		op := ""
		if i > body+1 && (toks[i-1].text == "++" || toks[i-1].text == "--") {
			op = toks[i-1].text
		}
		k := i + 1
		for k < end {
			if toks[k].text == "." && k+1 < end && toks[k+1].kind == ident {
				k += 2
				continue
			}
			if toks[k].text == "[" {
				k = match(toks, k) + 1
				continue
			}
			break
		}
		if op == "" && k < end && (assignOps[toks[k].text] || toks[k].text == "++" || toks[k].text == "--") {
			op = toks[k].text
		}
		if op != "" && p.decided(t.off) {
			// a name the text defines as a macro is written as its
			// replacement (resolve.go)
			if name := p.varName(t.text, t.off); name != "" {
				fn.writes = append(fn.writes, pendingWrite{name: name, pos: p.file.pos(t.off), op: op})
			}
		}
	}
	p.funcs = append(p.funcs, fn)
}

// nullTests returns the parameters a body compares with NULL: !p, p == NULL,
// p != 0, NULL == p, and p alone as a condition (if (p), p && …).
func nullTests(toks []tok, params []string) map[string]bool {
	out := map[string]bool{}
	isParam := map[string]bool{}
	for _, p := range params {
		if p != "" {
			isParam[p] = true
		}
	}
	text := func(i int) string {
		if i < 0 || i >= len(toks) {
			return ""
		}
		return toks[i].text
	}
	null := func(s string) bool { return s == "NULL" || s == "0" || s == "nullptr" }
	cond := func(s string) bool { return s == "(" || s == "||" || s == "&&" || s == "?" || s == "return" }
	for i, t := range toks {
		if t.kind != ident || !isParam[t.text] {
			continue
		}
		next, prev := text(i+1), text(i-1)
		if next == "->" || next == "." || next == "[" || next == "(" {
			continue // a member, an element, a call: not the pointer itself
		}
		switch {
		case (next == "==" || next == "!=") && null(text(i+2)):
		case (prev == "==" || prev == "!=") && null(text(i-2)):
		case prev == "!" && cond(text(i-2)):
		case cond(prev) && (next == ")" || next == "||" || next == "&&" || next == "?") && (prev != "(" || text(i-2) == "if" || text(i-2) == "while"):
		default:
			continue
		}
		out[t.text] = true
	}
	return out
}

// stmtEnd returns the index of the ';' that ends the statement starting at
// i, or -1 when a '{' or '}' comes first.
func (p *parser) stmtEnd(i, end int) int {
	for j := i; j < end; j++ {
		switch p.toks[j].text {
		case "(", "[":
			j = match(p.toks, j)
		case "{":
			if j > i && p.toks[j-1].text == "=" {
				j = match(p.toks, j)
				continue
			}
			return -1
		case "}":
			return -1
		case ";":
			return j
		}
	}
	return -1
}

// localDecl reports whether a statement declares automatic variables:
// type words (identifiers, '*') and then a name, before any '=', ',', '['
// or the end.
func localDecl(toks []tok) bool {
	idents := 0
	for _, t := range toks {
		switch {
		case t.kind == ident:
			idents++
		case t.text == "*":
		case t.text == "=" || t.text == "," || t.text == "[":
			return idents >= 2
		default:
			return false
		}
	}
	return idents >= 2
}

// declarationNames returns the names an automatic declaration declares.
func (p *parser) declarationNames(toks []tok) []string {
	toks, _ = stripAttrs(toks)
	var names []string
	for n, part := range splitTop(toks, ",") {
		if eq := topIndex(part, "="); eq >= 0 {
			part = part[:eq]
		}
		if name, _, _, ok := declarator(part, n == 0); ok {
			names = append(names, name.text)
		}
	}
	return names
}

// definesFunc reports whether the text read so far defines a function
// named name.
func (p *parser) definesFunc(name string) bool {
	for _, fn := range p.funcs {
		if fn.Name == name {
			return true
		}
	}
	return false
}

// passes returns every call in toks[start:end] with the parameters it
// passes (as ParamCall), on any path, in any arm the scanner read, and
// the offsets of the tokens of those parameters in the calls.
func (p *parser) passes(fn *Func, start, end int) ([]ParamCall, map[int]bool) {
	toks := p.toks
	params := map[string]int{}
	for i, name := range fn.Params {
		if name != "" {
			params[name] = i
		}
	}
	var out []ParamCall
	passed := map[int]bool{}
	for i := start; i+1 < end; i++ {
		t := toks[i]
		if t.kind != ident || toks[i+1].text != "(" || keywords[t.text] || stmtKeywords[t.text] {
			continue
		}
		if _, ok := params[t.text]; ok {
			continue // a function pointer parameter
		}
		cl := match(toks, i+1)
		c := ParamCall{Name: t.text, Pos: p.file.pos(t.off)}
		if cl > i+2 {
			for _, arg := range splitTop(toks[i+2:min(cl, end)], ",") {
				idx := -1
				arg = unwrapArg(arg)
				if len(arg) == 1 && arg[0].kind == ident {
					if j, ok := params[arg[0].text]; ok {
						idx = j
						passed[arg[0].off] = true
					}
				}
				c.Args = append(c.Args, idx)
			}
		}
		out = append(out, c)
	}
	return out, passed
}

// Macro reports whether a call of name is, as far as the text tells, a
// macro's: the text defines it as one, or it is an all-capitals name that
// the text does not define as a function (C's convention).
func (r *Result) Macro(name string) bool {
	return r.macros[name] || allCaps(name) && len(r.byName[name]) == 0 && len(r.headers[name]) == 0
}
