package cpreamble

import (
	"go/build"
	"go/types"
	"math"
	"strconv"
	"strings"
)

// The scanner does not preprocess, but code the build does not compile is
// no evidence, and code it may not compile is no evidence of a write: a
// global written under `#ifdef RACY`, with RACY defined nowhere the
// scanner can see, may never be written. So each arm of a conditional is
// one of three kinds:
//
//   - compiled: its condition is decided true from what the scanner knows
//     (0 and 1, `defined` or the integer value of a macro the text, a
//     package header it includes or a -D of the build defines or
//     undefines above, of a macro the C compiler predefines for the
//     build's GOOS and GOARCH, include guards), or it is the #else of
//     arms all decided false. It is read as plain code.
//   - not compiled: decided false, or after the compiled arm. It is
//     blanked, as are all arms after the first one read.
//   - undecided: the first arm whose condition the scanner cannot decide
//     (a macro a system header may define, a comparison). It is read, so
//     that its declarations and braces are seen, but its writes and calls
//     are dropped (calls of lock functions are kept: a lock there only
//     makes the pass more cautious). The arms after it are blanked.

// tri is a three-valued truth: unknown, false or true.
type tri int8

const (
	unknown tri = iota
	no
	yes
)

func (t tri) not() tri {
	switch t {
	case yes:
		return no
	case no:
		return yes
	}
	return unknown
}

// predefined says, for the macros by which C code tells platforms apart,
// whether the C compiler defines them when building for goos and goarch
// (gcc's and clang's predefined macros; cgo compiles the preamble and the
// .c files as C, so __cplusplus is never defined). A macro not listed is
// unknown.
func predefined(goos, goarch string) map[string]bool {
	unix := goos != "windows" && goos != "plan9" && goos != "js" && goos != "wasip1"
	m := map[string]bool{
		"__cplusplus":   false,
		"_WIN32":        goos == "windows",
		"_WIN64":        goos == "windows" && (goarch == "amd64" || goarch == "arm64"),
		"__CYGWIN__":    false,
		"__MINGW32__":   goos == "windows",
		"__linux__":     goos == "linux" || goos == "android",
		"__linux":       goos == "linux" || goos == "android",
		"__gnu_linux__": goos == "linux",
		"__ANDROID__":   goos == "android",
		"__APPLE__":     goos == "darwin" || goos == "ios",
		"__MACH__":      goos == "darwin" || goos == "ios",
		"__FreeBSD__":   goos == "freebsd",
		"__NetBSD__":    goos == "netbsd",
		"__OpenBSD__":   goos == "openbsd",
		"__DragonFly__": goos == "dragonfly",
		"__sun":         goos == "solaris" || goos == "illumos",
		"_AIX":          goos == "aix",
		"__unix__":      unix && goos != "darwin" && goos != "ios",
		"__unix":        unix && goos != "darwin" && goos != "ios",
		"__x86_64__":    goarch == "amd64",
		"__amd64__":     goarch == "amd64",
		"_M_X64":        false,
		"__i386__":      goarch == "386",
		"__aarch64__":   goarch == "arm64",
		"__arm__":       goarch == "arm",
		"__powerpc64__": goarch == "ppc64" || goarch == "ppc64le",
		"__s390x__":     goarch == "s390x",
		"__riscv":       goarch == "riscv64",
		"__mips__":      strings.HasPrefix(goarch, "mips"),
		"__loongarch64": goarch == "loong64",
		// the C standard's: a hosted implementation, and NDEBUG, which
		// only the build's flags define (assert.h's convention; a -D
		// in the package's #cgo flags is read as such, flags.go)
		"__STDC__":        true,
		"__STDC_HOSTED__": true,
		"NDEBUG":          false,
	}
	return m
}

// predefinedValues are the macros the C compiler cgo runs (gcc, or clang,
// which defines __GNUC__ too) defines to a value the scanner knows only a
// range of, for goarch (see predefinedRanges) or not at all: defined, so
// #ifdef and defined() are decided.
var predefinedValues = []string{"__GNUC__", "__GNUC_MINOR__", "__STDC_VERSION__", "__SIZEOF_POINTER__", "__SIZEOF_LONG__", "__has_include", "__BYTE_ORDER__", "__ORDER_LITTLE_ENDIAN__"}

// predefinedRanges returns the values, as ranges, of the compiler's
// predefined macros that the scanner evaluates, for goos and goarch:
// the sizes of the C types (LP64 on 64-bit Unix, LLP64 on Windows), the
// byte order, __GNUC__ (gcc 5 and later, and clang, which says 4), and
// __STDC_VERSION__ (gnu17, the default of gcc 8 to 14 and of clang, or a
// later one: gcc 15 defaults to C23; a -std flag makes it exact, flags.go).
func predefinedRanges(goos, goarch string) map[string]mval {
	ptr := int64(8)
	if types.SizesFor("gc", goarch) != nil {
		ptr = types.SizesFor("gc", goarch).Sizeof(types.Typ[types.UnsafePointer])
	}
	long := ptr
	if goos == "windows" {
		long = 4
	}
	order := int64(1234)
	switch goarch {
	case "s390x", "ppc64", "mips", "mips64", "sparc64":
		order = 4321
	}
	return map[string]mval{
		"__SIZEOF_POINTER__":      exact(ptr),
		"__SIZEOF_LONG__":         exact(long),
		"__SIZEOF_INT__":          exact(4),
		"__SIZEOF_SHORT__":        exact(2),
		"__SIZEOF_LONG_LONG__":    exact(8),
		"__SIZEOF_SIZE_T__":       exact(ptr),
		"__CHAR_BIT__":            exact(8),
		"__ORDER_LITTLE_ENDIAN__": exact(1234),
		"__ORDER_BIG_ENDIAN__":    exact(4321),
		"__ORDER_PDP_ENDIAN__":    exact(3412),
		"__BYTE_ORDER__":          exact(order),
		"__GNUC__":                {def: true, lo: 4, hi: math.MaxInt64},
		"__STDC_VERSION__":        {def: true, lo: 201710, hi: math.MaxInt64},
	}
}

// stdVersion returns the value of __STDC_VERSION__ under a C compiler's
// -std=std, and false for a standard that does not define it (C90) or
// one it does not know.
func stdVersion(std string) (mval, bool) {
	switch std {
	case "c99", "c9x", "gnu99", "gnu9x", "iso9899:1999", "iso9899:199x":
		return exact(199901), true
	case "c11", "c1x", "gnu11", "gnu1x", "iso9899:2011":
		return exact(201112), true
	case "c17", "c18", "gnu17", "gnu18", "iso9899:2017", "iso9899:2018":
		return exact(201710), true
	case "c2x", "c23", "gnu2x", "gnu23", "iso9899:2024":
		return mval{def: true, lo: 202000, hi: 202311}, true
	case "iso9899:199409":
		return exact(199409), true
	case "c89", "c90", "gnu89", "gnu90", "iso9899:1990", "ansi":
		return undefined, true
	}
	return mval{}, false
}

// An mval is what the scanner knows of a macro: undefined, or defined to
// a value in [lo, hi] (the whole range: one it does not evaluate, a
// function-like macro, text).
type mval struct {
	def    bool
	lo, hi int64
	uns    bool // an unsigned constant (0u, 1UL): see condParser.uns
}

func exact(n int64) mval { return mval{def: true, lo: n, hi: n} }

var (
	undefined   = mval{}
	definedOne  = exact(1)
	definedZero = exact(0)
	defined     = mval{def: true, lo: math.MinInt64, hi: math.MaxInt64}
)

// macros is what the scanner knows of macros at a point of the text;
// absent for unknown (defined or not).
type macros map[string]mval

func newMacros() macros {
	m := macros{}
	for k, v := range predefined(build.Default.GOOS, build.Default.GOARCH) {
		m[k] = undefined
		if v {
			m[k] = definedOne
		}
	}
	for _, k := range predefinedValues {
		m[k] = defined
	}
	for k, v := range predefinedRanges(build.Default.GOOS, build.Default.GOARCH) {
		m[k] = v
	}
	return m
}

// condText returns a directive line's text after its name, without
// comments and line continuations.
//
// A string literal or header name is copied as it is: the // of
// "inc//arena.h" or "http://x" is no comment.
func condText(line []byte) string {
	s := string(line)
	var b strings.Builder
	// the offset of an #include's <header-name>, if the line is one
	angle := -1
	t := strings.TrimLeft(s, " \t")
	for _, d := range []string{"include_next", "include", "import"} {
		if rest, ok := strings.CutPrefix(t, d); ok {
			if r := strings.TrimLeft(rest, " \t"); strings.HasPrefix(r, "<") {
				angle = len(s) - len(r)
			}
			break
		}
	}
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '"' || i == angle:
			end := byte('"')
			if i == angle {
				end = '>'
			}
			j := i + 1
			for j < len(s) && s[j] != end && s[j] != '\n' {
				if s[j] == '\\' && end == '"' && j+1 < len(s) {
					j++
				}
				j++
			}
			if j < len(s) && s[j] == end {
				j++
			}
			b.WriteString(s[i:j])
			i = j - 1
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i++
			b.WriteByte(' ')
		case strings.HasPrefix(s[i:], "/*"):
			e := strings.Index(s[i+2:], "*/")
			if e < 0 {
				return b.String()
			}
			i += 2 + e + 1
			b.WriteByte(' ')
		case strings.HasPrefix(s[i:], "//"):
			return b.String()
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// eval decides the condition of #if or #elif (expr) from ms, as the
// preprocessor evaluates it: integers (in ranges, for what the scanner
// knows only bounds of), defined, the C operators; an identifier that is
// not a macro is 0. Anything else (a function-like macro's call such as
// __has_include(<x.h>), a character constant) is any value.
func (ms macros) eval(expr string) tri {
	toks := tokenize([]byte(expr))
	p := condParser{toks: toks, ms: ms}
	for _, t := range toks {
		if t.kind == number && (strings.ContainsAny(t.text, "uU") || !fitsInt64(t.text)) || t.kind == ident && ms[t.text].uns {
			p.uns = true
		}
	}
	v := p.ternary()
	if p.bad || p.i != len(p.toks) {
		return unknown
	}
	return v.truth()
}

// defined decides `defined(name)`.
func (ms macros) defined(name string) tri {
	d, ok := ms[name]
	switch {
	case !ok:
		return unknown
	case !d.def:
		return no
	}
	return yes
}

// An ival is the range [lo, hi] an expression's value is in.
type ival struct{ lo, hi int64 }

var anyVal = ival{math.MinInt64, math.MaxInt64}

func val(n int64) ival { return ival{n, n} }

func (v ival) exact() bool { return v.lo == v.hi }

func (v ival) truth() tri {
	switch {
	case v.lo == 0 && v.hi == 0:
		return no
	case v.lo > 0 || v.hi < 0:
		return yes
	}
	return unknown
}

func boolVal(t tri) ival {
	switch t {
	case yes:
		return val(1)
	case no:
		return val(0)
	}
	return ival{0, 1}
}

func hull(a, b ival) ival { return ival{min(a.lo, b.lo), max(a.hi, b.hi)} }

type condParser struct {
	toks []tok
	i    int
	ms   macros
	bad  bool // not an expression the parser reads
	// uns: an unsigned constant (1u, or one past INTMAX_MAX) is in the
	// expression, so some operations may be unsigned (C's usual
	// arithmetic conversions): a negative value there is any value
	uns bool
}

// fitsInt64 reports whether integer literal text, without its suffixes,
// is at most INTMAX_MAX.
func fitsInt64(text string) bool {
	_, ok := intLiteral(text)
	return ok
}

// intLiteral returns the value of a C integer literal (decimal, octal or
// hex, with its u/U/l/L suffixes), false for one it is not or one past
// INTMAX_MAX.
func intLiteral(text string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimRight(text, "uUlL"), 0, 64)
	return n, err == nil
}

// signedOK reports whether an operation of p on vs is read as signed: no
// unsigned constant is in the expression, or no operand may be negative.
func (p *condParser) signedOK(vs ...ival) bool {
	if !p.uns {
		return true
	}
	for _, v := range vs {
		if v.lo < 0 {
			return false
		}
	}
	return true
}

func (p *condParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i].text
	}
	return ""
}

func (p *condParser) fail() ival {
	p.bad = true
	p.i = len(p.toks)
	return anyVal
}

func (p *condParser) ternary() ival {
	c := p.or()
	if p.peek() != "?" {
		return c
	}
	p.i++
	a := p.ternary()
	if p.peek() != ":" {
		return p.fail()
	}
	p.i++
	b := p.ternary()
	switch c.truth() {
	case yes:
		return a
	case no:
		return b
	}
	return hull(a, b)
}

func (p *condParser) or() ival {
	v := p.and()
	for p.peek() == "||" {
		p.i++
		w := p.and()
		switch a, b := v.truth(), w.truth(); {
		case a == yes || b == yes:
			v = val(1)
		case a == no && b == no:
			v = val(0)
		default:
			v = boolVal(unknown)
		}
	}
	return v
}

func (p *condParser) and() ival {
	v := p.bits(0)
	for p.peek() == "&&" {
		p.i++
		w := p.bits(0)
		switch a, b := v.truth(), w.truth(); {
		case a == no || b == no:
			v = val(0)
		case a == yes && b == yes:
			v = val(1)
		default:
			v = boolVal(unknown)
		}
	}
	return v
}

// bitOps are |, ^ and &, loosest first.
var bitOps = []string{"|", "^", "&"}

// bits reads the bitwise operators from bitOps[level] on: exact values
// only.
func (p *condParser) bits(level int) ival {
	if level == len(bitOps) {
		return p.equality()
	}
	v := p.bits(level + 1)
	for p.peek() == bitOps[level] {
		p.i++
		w := p.bits(level + 1)
		if !v.exact() || !w.exact() || !p.signedOK(v, w) {
			v = anyVal
			continue
		}
		switch bitOps[level] {
		case "|":
			v = val(v.lo | w.lo)
		case "^":
			v = val(v.lo ^ w.lo)
		default:
			v = val(v.lo & w.lo)
		}
	}
	return v
}

func (p *condParser) equality() ival {
	v := p.relational()
	for op := p.peek(); op == "==" || op == "!="; op = p.peek() {
		p.i++
		w := p.relational()
		t := unknown
		switch {
		case !p.signedOK(v, w):
		case v.exact() && w.exact() && v.lo == w.lo:
			t = yes
		case v.hi < w.lo || w.hi < v.lo:
			t = no
		}
		if op == "!=" {
			t = t.not()
		}
		v = boolVal(t)
	}
	return v
}

func (p *condParser) relational() ival {
	v := p.shift()
	for op := p.peek(); op == "<" || op == ">" || op == "<=" || op == ">="; op = p.peek() {
		p.i++
		w := p.shift()
		a, b := v, w
		if op == ">" || op == ">=" {
			a, b = w, v // a < b, a <= b
		}
		t := unknown
		switch {
		case !p.signedOK(a, b):
		case op == "<" || op == ">":
			switch {
			case a.hi < b.lo:
				t = yes
			case a.lo >= b.hi:
				t = no
			}
		default:
			switch {
			case a.hi <= b.lo:
				t = yes
			case a.lo > b.hi:
				t = no
			}
		}
		v = boolVal(t)
	}
	return v
}

func (p *condParser) shift() ival {
	v := p.additive()
	for op := p.peek(); op == "<<" || op == ">>"; op = p.peek() {
		p.i++
		w := p.additive()
		if !v.exact() || !w.exact() || w.lo < 0 || w.lo > 62 || !p.signedOK(v) {
			v = anyVal
			continue
		}
		if op == "<<" {
			if r := v.lo << w.lo; r>>w.lo == v.lo {
				v = val(r)
			} else {
				v = anyVal
			}
		} else {
			v = val(v.lo >> w.lo)
		}
	}
	return v
}

func (p *condParser) additive() ival {
	v := p.multiplicative()
	for op := p.peek(); op == "+" || op == "-"; op = p.peek() {
		p.i++
		w := p.multiplicative()
		if op == "-" {
			w = neg(w)
		}
		lo, ok1 := addOK(v.lo, w.lo)
		hi, ok2 := addOK(v.hi, w.hi)
		if ok1 && ok2 && p.signedOK(v, w, ival{lo, hi}) {
			v = ival{lo, hi}
		} else {
			v = anyVal
		}
	}
	return v
}

func (p *condParser) multiplicative() ival {
	v := p.unary()
	for op := p.peek(); op == "*" || op == "/" || op == "%"; op = p.peek() {
		p.i++
		w := p.unary()
		if !v.exact() || !w.exact() || (op != "*" && w.lo == 0) || !p.signedOK(v, w) {
			v = anyVal
			continue
		}
		switch op {
		case "*":
			if r := v.lo * w.lo; v.lo == 0 || r/v.lo == w.lo && !(v.lo == -1 && w.lo == math.MinInt64) {
				v = val(r)
			} else {
				v = anyVal
			}
		case "/":
			if v.lo == math.MinInt64 && w.lo == -1 {
				v = anyVal
			} else {
				v = val(v.lo / w.lo)
			}
		default:
			if w.lo == -1 {
				v = val(0)
			} else {
				v = val(v.lo % w.lo)
			}
		}
	}
	return v
}

func neg(v ival) ival {
	if v.lo == math.MinInt64 {
		return anyVal
	}
	return ival{-v.hi, -v.lo}
}

// addOK returns a+b, false on overflow.
func addOK(a, b int64) (int64, bool) {
	r := a + b
	if (b > 0 && r < a) || (b < 0 && r > a) {
		return 0, false
	}
	return r, true
}

func (p *condParser) unary() ival {
	switch p.peek() {
	case "!":
		p.i++
		return boolVal(p.unary().truth().not())
	case "-":
		p.i++
		if v := neg(p.unary()); p.signedOK(v) {
			return v
		}
		return anyVal
	case "+":
		p.i++
		return p.unary()
	case "~":
		p.i++
		if v := p.unary(); v.exact() && !p.uns {
			return val(^v.lo)
		}
		return anyVal
	}
	return p.primary()
}

func (p *condParser) primary() ival {
	if p.i >= len(p.toks) {
		return p.fail()
	}
	t := p.toks[p.i]
	switch {
	case t.text == "(":
		p.i++
		v := p.ternary()
		if p.peek() != ")" {
			return p.fail()
		}
		p.i++
		return v
	case t.text == "defined":
		p.i++
		paren := p.peek() == "("
		if paren {
			p.i++
		}
		if p.i >= len(p.toks) || p.toks[p.i].kind != ident {
			return p.fail()
		}
		v := p.ms.defined(p.toks[p.i].text)
		p.i++
		if paren {
			if p.peek() != ")" {
				return p.fail()
			}
			p.i++
		}
		return boolVal(v)
	case t.kind == number:
		p.i++
		// an integer literal, decimal, octal or hex, with its suffixes
		// (an unsigned one is read as signed: a value past MaxInt64, or
		// a suffix of another kind, is any value)
		n, ok := intLiteral(t.text)
		if !ok {
			return anyVal
		}
		return val(n)
	case t.kind == ident:
		p.i++
		if p.peek() == "(" {
			// a function-like macro's call (__has_include(<x.h>),
			// __has_attribute(x)): any value
			depth := 0
			for ; p.i < len(p.toks); p.i++ {
				switch p.toks[p.i].text {
				case "(":
					depth++
				case ")":
					depth--
				}
				if depth == 0 {
					p.i++
					return anyVal
				}
			}
			return p.fail()
		}
		// a macro's value: 0 when it is known not to be defined (C
		// replaces an identifier that is no macro by 0)
		d, ok := p.ms[t.text]
		switch {
		case !ok:
			return anyVal
		case !d.def:
			return val(0)
		}
		return ival{d.lo, d.hi}
	}
	if t.kind == punct || t.kind == ident {
		return p.fail()
	}
	p.i++
	return anyVal // a character or string constant
}
