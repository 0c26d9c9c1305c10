package cpreamble

import (
	"go/build"
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
// which defines __GNUC__ too) defines to a value the scanner does not
// evaluate: defined, so #ifdef and defined() are decided, and #if on
// their value is not.
var predefinedValues = []string{"__GNUC__", "__GNUC_MINOR__", "__STDC_VERSION__", "__SIZEOF_POINTER__", "__SIZEOF_LONG__", "__has_include", "__BYTE_ORDER__", "__ORDER_LITTLE_ENDIAN__"}

// macros is what the scanner knows of macros at a point of the text:
// undefined, definedOne (the compiler's predefined macros, which expand
// to 1, and any macro defined as a nonzero integer), definedZero (one
// defined as 0) or defined (to what the scanner does not evaluate);
// absent for unknown.
type macros map[string]int8

const (
	undefined int8 = iota
	definedOne
	defined
	definedZero
)

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
	return m
}

// condText returns a directive line's text after its name, without
// comments and line continuations.
func condText(line []byte) string {
	s := string(line)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
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

// eval decides the condition of #if or #elif (expr) from ms.
func (ms macros) eval(expr string) tri {
	toks := tokenize([]byte(expr))
	p := condParser{toks: toks, ms: ms}
	v := p.or()
	if p.i != len(p.toks) {
		return unknown
	}
	return v
}

// defined decides `defined(name)`.
func (ms macros) defined(name string) tri {
	d, ok := ms[name]
	switch {
	case !ok:
		return unknown
	case d == undefined:
		return no
	}
	return yes
}

type condParser struct {
	toks []tok
	i    int
	ms   macros
}

func (p *condParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i].text
	}
	return ""
}

func (p *condParser) or() tri {
	v := p.and()
	for p.peek() == "||" {
		p.i++
		w := p.and()
		switch {
		case v == yes || w == yes:
			v = yes
		case v == no && w == no:
			v = no
		default:
			v = unknown
		}
	}
	return v
}

func (p *condParser) and() tri {
	v := p.unary()
	for p.peek() == "&&" {
		p.i++
		w := p.unary()
		switch {
		case v == no || w == no:
			v = no
		case v == yes && w == yes:
			v = yes
		default:
			v = unknown
		}
	}
	return v
}

func (p *condParser) unary() tri {
	if p.peek() == "!" {
		p.i++
		return p.unary().not()
	}
	return p.primary()
}

func (p *condParser) primary() tri {
	if p.i >= len(p.toks) {
		return unknown
	}
	t := p.toks[p.i]
	switch {
	case t.text == "(":
		p.i++
		v := p.or()
		if p.peek() != ")" {
			p.i = len(p.toks) + 1 // not decided
			return unknown
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
			p.i = len(p.toks) + 1
			return unknown
		}
		v := p.ms.defined(p.toks[p.i].text)
		p.i++
		if paren {
			if p.peek() != ")" {
				p.i = len(p.toks) + 1
				return unknown
			}
			p.i++
		}
		return v
	case t.kind == number:
		p.i++
		// an integer literal, decimal, octal or hex, with its suffixes
		n, err := strconv.ParseUint(strings.TrimRight(t.text, "uUlL"), 0, 64)
		switch {
		case err != nil:
			return unknown
		case n == 0:
			return no
		}
		return yes
	case t.kind == ident:
		// a macro's value: 0 when it is known not to be defined (C
		// replaces an undefined identifier by 0), 1 for the compiler's;
		// otherwise unknown
		p.i++
		switch d, ok := p.ms[t.text]; {
		case ok && (d == undefined || d == definedZero):
			return no
		case ok && d == definedOne:
			return yes
		}
		return unknown
	}
	p.i = len(p.toks) + 1
	return unknown
}
