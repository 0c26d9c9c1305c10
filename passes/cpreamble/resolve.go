package cpreamble

import "strings"

// The scanner does not preprocess, but what a declaration declares and
// what a statement calls are judged on the text as the compiler sees it,
// as far as the package's own C tells:
//
//   - A declaration's type is judged after the text's own typedefs, struct
//     and union tags and macros are resolved. A typedef, tag or macro whose
//     replacement holds _Atomic makes a variable declared with it atomic
//     (typedef _Atomic long counter_t; static counter_t n;), and a macro
//     whose replacement holds _Thread_local, thread_local, __thread or
//     __declspec(thread) makes it thread-local (#define THREAD_LOCAL
//     _Thread_local). A typedef cannot carry a storage class, so a typedef
//     never makes a variable thread-local.
//   - The C11 standard's <stdatomic.h> typedef names (atomic_int,
//     atomic_long, atomic_size_t, atomic_uintptr_t, … : the standard's,
//     not a library's) are _Atomic types. A name is the standard's only
//     when the text does not define it itself.
//   - A name the package's C does not define (a typedef from a header the
//     scanner does not read: CUcontext, PyObject *, sqlite3 *) is taken as
//     what almost every such name is, a type that is not atomic. Being
//     silent on every variable of such a type would be silent on the
//     global handles and counters this check is for; a library that hides
//     _Atomic in a typedef of its own header is rare, and the package's own
//     headers are read for their typedefs and macros (below).
//   - A name written that the text defines as an object-like macro is
//     the macro's replacement: a single identifier (#define count g_count)
//     is the variable of that name, anything else (#define n
//     (*tls_slot())) is no variable the scanner can name, and the write is
//     not taken as one.
//
// The package's .h files are read for their typedefs, tags and macros too:
// a header's definitions reach only the files that include it, but a name
// that a package header defines as atomic is defined nowhere else the
// build could take it from. The text's own definitions come first.

// stdAtomic are the atomic type names <stdatomic.h> defines (C11 7.17.6,
// C23's atomic_char8_t). atomic_flag is a structure type, not an atomic
// type, and is not one of them.
var stdAtomic = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`bool char schar uchar short ushort int uint long ulong llong ullong
		char8_t char16_t char32_t wchar_t
		int_least8_t uint_least8_t int_least16_t uint_least16_t int_least32_t uint_least32_t int_least64_t uint_least64_t
		int_fast8_t uint_fast8_t int_fast16_t uint_fast16_t int_fast32_t uint_fast32_t int_fast64_t uint_fast64_t
		intptr_t uintptr_t size_t ptrdiff_t intmax_t uintmax_t`) {
		stdAtomic["atomic_"+n] = true
	}
}

// defs are the typedefs and tags a text defines, and, for the package's
// headers, their macros.
type defs struct {
	atomicTypes map[string]bool // typedef names: is the type atomic
	atomicTags  map[string]bool // struct and union tags: does the body hold an atomic member
	// typeTags are the typedef names of a struct or union type by its tag
	// alone (typedef struct stats stats_t;), whose body may come later
	typeTags map[string]string
	macros   map[string]string
}

func newDefs() *defs {
	return &defs{atomicTypes: map[string]bool{}, atomicTags: map[string]bool{}, typeTags: map[string]string{}, macros: map[string]string{}}
}

// maxExpand bounds the depth of macro expansion (a macro that names
// itself, or a chain of them), and maxExpansions the expansions of one
// use (macros that each use several others).
const (
	maxExpand     = 8
	maxExpansions = 64
)

// expansion returns the replacement tokens of the macro name used at
// offset off of the text: the text's own definition in effect there
// (none if it #undefs it), else a package header's. Of a function-like
// macro, the replacement without its parameter list (the arguments are
// not substituted). funcLike reports which.
func (p *parser) expansion(name string, off int) (toks []tok, funcLike, ok bool) {
	var body string
	own := false
	for _, d := range p.macros[name] {
		if d.off >= off {
			break
		}
		own = true
		body, ok = d.body, !d.undef
	}
	if !own && p.hdr != nil {
		body, ok = p.hdr.macros[name]
	}
	if !ok {
		return nil, false, false
	}
	if p.repl == nil {
		p.repl = map[string][]tok{}
	}
	toks, cached := p.repl[body]
	if !cached {
		toks = tokenize([]byte(body))
		p.repl[body] = toks
	}
	if strings.HasPrefix(body, "(") && len(toks) > 0 {
		funcLike = true
		toks = toks[min(match(toks, 0)+1, len(toks)):]
	}
	return toks, funcLike, true
}

// qualifiers reports whether the type the tokens toks spell (a
// declaration's, at offset off of the text) is atomic or thread-local,
// after the text's typedefs, tags and macros are resolved.
func (p *parser) qualifiers(toks []tok, off, depth int) (atomic, tls bool) {
	budget := maxExpansions
	return p.quals(toks, off, depth, &budget)
}

func (p *parser) quals(toks []tok, off, depth int, budget *int) (atomic, tls bool) {
	if depth > maxExpand || *budget <= 0 {
		return false, false
	}
	*budget--
	toks, tls = stripAttrs(toks)
	for i, t := range toks {
		if t.kind != ident {
			continue
		}
		switch t.text {
		case "_Atomic":
			atomic = true
			continue
		case "_Thread_local", "thread_local", "__thread":
			tls = true
			continue
		}
		if keywords[t.text] {
			continue
		}
		if i > 0 && (toks[i-1].text == "struct" || toks[i-1].text == "union") {
			atomic = atomic || p.tagAtomic(t.text)
			continue
		}
		if rep, _, ok := p.expansion(t.text, off); ok {
			a, l := p.quals(rep, off, depth+1, budget)
			atomic, tls = atomic || a, tls || l
			continue
		}
		atomic = atomic || p.typeAtomic(t.text)
	}
	return atomic, tls
}

// typeAtomic reports whether the typedef name is an atomic type: the
// text's typedef, else a package header's, else the standard's.
func (p *parser) typeAtomic(name string) bool {
	for _, d := range []*defs{p.own, p.hdr} {
		if d == nil {
			continue
		}
		if a, ok := d.atomicTypes[name]; ok {
			if tag, ok := d.typeTags[name]; ok && !a {
				return p.tagAtomic(tag) // the tag's body, as far as read
			}
			return a
		}
	}
	return stdAtomic[name]
}

func (p *parser) tagAtomic(name string) bool {
	if a, ok := p.own.atomicTags[name]; ok {
		return a
	}
	return p.hdr != nil && p.hdr.atomicTags[name]
}

// noteTypes records the typedef names and the struct and union tags that
// the declaration toks defines, with whether each is atomic.
func (p *parser) noteTypes(toks []tok, typedef, atomic bool) {
	for i := 0; i+2 < len(toks); i++ {
		if (toks[i].text == "struct" || toks[i].text == "union") && toks[i+1].kind == ident && toks[i+2].text == "{" {
			// the body's own atomic: the members' types, resolved
			end := match(toks, i+2)
			a, _ := p.qualifiers(toks[i+3:end], toks[i+2].off, 0)
			p.own.atomicTags[toks[i+1].text] = a
		}
	}
	if !typedef {
		return
	}
	// typedef struct stats stats_t: the tag, with no body here
	tag := ""
	for i := 0; i+1 < len(toks); i++ {
		if (toks[i].text == "struct" || toks[i].text == "union") && toks[i+1].kind == ident && (i+2 >= len(toks) || toks[i+2].text != "{") {
			tag = toks[i+1].text
			break
		}
	}
	for n, part := range splitTop(toks, ",") {
		name, _, _, ok := declarator(part, n == 0)
		if ok {
			p.own.atomicTypes[name.text] = atomic
			if tag != "" {
				p.own.typeTags[name.text] = tag
			}
		}
	}
}

// varName returns the variable a name written (or declared) at offset off
// is: the name itself, or, if the text defines it as an object-like
// macro, the identifier it is replaced by; "" when the replacement is no
// single identifier (an expression: no variable the scanner can name).
func (p *parser) varName(name string, off int) string {
	for range maxExpand {
		rep, funcLike, ok := p.expansion(name, off)
		if !ok || funcLike {
			return name
		}
		if len(rep) != 1 || rep[0].kind != ident {
			return ""
		}
		if rep[0].text == name {
			return name
		}
		name = rep[0].text
	}
	return name
}

// callsThrough returns the functions a use of the macro at toks[i] calls,
// as its replacement spells them (through the macros it uses in turn):
// #define LOCK() pthread_mutex_lock(&mu) calls pthread_mutex_lock, and
// #define lock_it pthread_mutex_lock used as lock_it(&mu) calls it too.
func (p *parser) callsThrough(toks []tok, i int) []string {
	rep, funcLike, ok := p.expansion(toks[i].text, toks[i].off)
	if !ok {
		return nil
	}
	called := i+1 < len(toks) && toks[i+1].text == "("
	if !funcLike && called {
		// the use's own parentheses follow the replacement
		rep = append(append([]tok(nil), rep...), tok{punct, "(", 0}, tok{punct, ")", 0})
	}
	var out []string
	seen := map[string]bool{toks[i].text: true}
	budget := maxExpansions
	p.callsIn(rep, toks[i].off, seen, &out, 0, &budget)
	return out
}

func (p *parser) callsIn(toks []tok, off int, seen map[string]bool, out *[]string, depth int, budget *int) {
	if depth > maxExpand || *budget <= 0 {
		return
	}
	*budget--
	for k, t := range toks {
		if t.kind != ident || keywords[t.text] || stmtKeywords[t.text] {
			continue
		}
		call := k+1 < len(toks) && toks[k+1].text == "("
		if rep, funcLike, ok := p.expansion(t.text, off); ok && !seen[t.text] {
			if funcLike && !call {
				continue // not expanded
			}
			if !funcLike && call {
				rep = append(append([]tok(nil), rep...), tok{punct, "(", 0}, tok{punct, ")", 0})
			}
			seen[t.text] = true
			p.callsIn(rep, off, seen, out, depth+1, budget)
			delete(seen, t.text)
			continue
		}
		if call {
			*out = append(*out, t.text)
		}
	}
}
