package cpreamble

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
)

// tokKind is the kind of a C token.
type tokKind uint8

const (
	ident tokKind = iota + 1
	number
	punct
)

type tok struct {
	kind tokKind
	text string
	off  int // offset in the scanned text
}

// blank returns src with comments, string and character literals and
// preprocessor lines replaced by spaces (newlines kept), so that offsets
// and lines stay those of src. Nothing is expanded: #include and #define
// are dropped. Of each conditional, the arms not compiled are blanked and
// the first undecided arm is read; undecided returns the offset ranges of
// the undecided arms read (cond.go).
func blank(src []byte) (out []byte, undecided [][2]int, macros map[string][]macroDef) {
	out, undecided, _, macros = blankArms(src)
	return out, undecided, macros
}

// blankArms is blank, and also returns the offset ranges of the lines of
// the arms not compiled (blanked as a whole: decided false, after the
// compiled or the undecided arm, or inside such an arm).
func blankArms(src []byte) (out []byte, undecided, skipped [][2]int, macros map[string][]macroDef) {
	macros = map[string][]macroDef{}
	out = make([]byte, len(src))
	copy(out, src)
	space := func(i, j int) {
		for k := i; k < j && k < len(out); k++ {
			if out[k] != '\n' {
				out[k] = ' '
			}
		}
	}
	lineStart := true
	ms := newMacros()
	// one per open conditional
	type cond struct {
		skip  bool // the current arm is blanked
		done  bool // an arm was read: the later ones are blanked
		outer bool // the whole conditional is inside a blanked arm
		start int  // the start of the undecided arm being read, or -1
		// maybe: the current arm is blanked only because an earlier
		// one was undecided, so the build may compile it (or it is
		// inside such an arm)
		maybe bool
		undec bool // an arm of this conditional was undecided
	}
	var conds []*cond
	skipping := func() bool {
		return len(conds) > 0 && (conds[len(conds)-1].skip || conds[len(conds)-1].outer)
	}
	inUndecided := func() bool {
		for _, c := range conds {
			if c.start >= 0 || c.maybe {
				return true
			}
		}
		return false
	}
	// maybeSkipped: the blanked arm being read may be compiled
	maybeSkipped := func() bool {
		return len(conds) > 0 && conds[len(conds)-1].maybe
	}
	// enter starts reading an arm of c whose condition is v, at offset at
	enter := func(c *cond, v tri, at int) {
		switch v {
		case yes:
			c.skip, c.done = false, true
		case no:
			c.skip = true
		default:
			c.skip, c.done, c.start, c.undec = false, true, at, true
		}
	}
	leave := func(c *cond, at int) {
		if c.start >= 0 {
			undecided = append(undecided, [2]int{c.start, at})
			c.start = -1
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '#' && lineStart || skipping() && lineStart:
			// a line: a directive (with backslash continuations and
			// comments), or a line of a blanked arm
			j := i
			for j < len(src) && src[j] != '\n' {
				if src[j] == '\\' && j+1 < len(src) && src[j+1] == '\n' {
					j += 2
					continue
				}
				if src[j] == '/' && j+1 < len(src) && src[j+1] == '*' {
					if e := bytes.Index(src[j+2:], []byte("*/")); e >= 0 {
						j += 2 + e + 2
						continue
					}
					j = len(src)
					break
				}
				j++
			}
			if c != '#' {
				skipped = append(skipped, [2]int{i, j})
			}
			if c == '#' {
				d := directive(src[i+1 : j])
				rest := condText(src[i+1 : j])
				rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), d))
				switch d {
				case "if", "ifdef", "ifndef":
					nc := &cond{start: -1, outer: skipping(), maybe: maybeSkipped()}
					if !nc.outer {
						var v tri
						switch d {
						case "if":
							v = ms.eval(rest)
						case "ifdef":
							v = ms.defined(firstWord(rest))
						case "ifndef":
							name := firstWord(rest)
							v = ms.defined(name).not()
							if v == unknown && guards(src[j:], name) {
								v = yes // an include guard
							}
						}
						enter(nc, v, j)
					} else {
						nc.skip, nc.done = true, true
					}
					conds = append(conds, nc)
				case "elif", "else", "elifdef", "elifndef":
					if len(conds) == 0 {
						break
					}
					top := conds[len(conds)-1]
					if top.outer {
						break
					}
					if top.done {
						leave(top, i)
						top.skip = true
						top.maybe = top.undec
						break
					}
					var v tri
					switch d {
					case "else":
						v = yes
					case "elif":
						v = ms.eval(rest)
					case "elifdef":
						v = ms.defined(firstWord(rest))
					case "elifndef":
						v = ms.defined(firstWord(rest)).not()
					}
					enter(top, v, j)
				case "endif":
					if len(conds) > 0 {
						leave(conds[len(conds)-1], i)
						conds = conds[:len(conds)-1]
					}
				case "define", "undef":
					name := firstWord(rest)
					if name == "" || skipping() && !maybeSkipped() {
						break
					}
					macros[name] = append(macros[name], macroDef{off: i, body: rest[len(name):], undef: d == "undef"})
					switch {
					case inUndecided():
						delete(ms, name) // defined or not, the scanner cannot tell
					case d == "undef":
						ms[name] = undefined
					default:
						ms[name] = defined
					}
				}
			}
			space(i, j)
			i = j
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := i
			for j < len(src) && src[j] != '\n' {
				if src[j] == '\\' && j+1 < len(src) && src[j+1] == '\n' {
					j += 2
					continue
				}
				j++
			}
			space(i, j)
			i = j
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := len(src)
			if e := bytes.Index(src[i+2:], []byte("*/")); e >= 0 {
				j = i + 2 + e + 2
			}
			space(i, j)
			i = j
			lineStart = false
			continue
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j < len(src) && src[j] == c {
				j++
			}
			space(i, j)
			i = j
			lineStart = false
			continue
		}
		lineStart = false
		i++
	}
	for _, c := range conds {
		leave(c, len(src)) // an unterminated conditional
	}
	return out, undecided, skipped, macros
}

var puncts3 = []string{"<<=", ">>=", "..."}
var puncts2 = []string{"++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "==", "!=", "<=", ">=", "&&", "||", "->", "<<", ">>", "::"}

// tokenize splits blanked C text into tokens.
func tokenize(src []byte) []tok {
	var out []tok
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '\\':
			i++
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			out = append(out, tok{ident, string(src[i:j]), i})
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i + 1
			for j < len(src) && (isIdentPart(src[j]) || src[j] == '.' ||
				(src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E' || src[j-1] == 'p' || src[j-1] == 'P')) {
				j++
			}
			out = append(out, tok{number, string(src[i:j]), i})
			i = j
		default:
			n := 1
			for _, p := range puncts3 {
				if bytes.HasPrefix(src[i:min(i+3, len(src))], []byte(p)) {
					n = 3
					break
				}
			}
			if n == 1 {
				for _, p := range puncts2 {
					if i+2 <= len(src) && string(src[i:i+2]) == p {
						n = 2
						break
					}
				}
			}
			out = append(out, tok{punct, string(src[i : i+n]), i})
			i += n
		}
	}
	return out
}

// directive returns the name of a preprocessor directive, src starting
// after its '#'.
func directive(src []byte) string {
	src = bytes.TrimLeft(src, " \t")
	if bytes.HasPrefix(src, []byte("/*")) {
		if e := bytes.Index(src, []byte("*/")); e >= 0 {
			src = src[e+2:]
		}
	}
	i := 0
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	j := i
	for j < len(src) && isIdentPart(src[j]) {
		j++
	}
	return string(src[i:j])
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// match returns the index of the token that closes the bracket at i, or
// len(toks)-1 when it is not closed.
func match(toks []tok, i int) int {
	open := toks[i].text
	var close string
	switch open {
	case "(":
		close = ")"
	case "[":
		close = "]"
	case "{":
		close = "}"
	default:
		return i
	}
	depth := 0
	for j := i; j < len(toks); j++ {
		if toks[j].kind != punct {
			continue
		}
		switch toks[j].text {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(toks) - 1
}

// keywords are C's (and a few common compiler extensions') reserved words:
// never a variable's name.
var keywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`auto break case char const continue default do double else enum extern
		float for goto if inline int long register restrict return short signed sizeof static struct
		switch typedef union unsigned void volatile while _Alignas _Alignof _Atomic _Bool _Complex
		_Generic _Imaginary _Noreturn _Static_assert _Thread_local alignas alignof bool thread_local
		static_assert typeof typeof_unqual __thread __inline __inline__ __restrict __restrict__
		__volatile__ __const __const__ __signed__ __attribute__ __declspec __asm__ __asm asm
		__extension__ __typeof__ __int128 __builtin_va_list nullptr true false constexpr`) {
		keywords[k] = true
	}
}

// stmtKeywords start statements that are not declarations.
var stmtKeywords = map[string]bool{
	"return": true, "goto": true, "case": true, "default": true, "break": true, "continue": true,
	"if": true, "else": true, "while": true, "do": true, "for": true, "switch": true, "sizeof": true,
}

// lockFuncs take a lock: C code that calls one is trusted to guard what it
// writes.
var lockFuncs = map[string]bool{
	"pthread_mutex_lock": true, "pthread_mutex_trylock": true, "pthread_mutex_timedlock": true,
	"pthread_rwlock_wrlock": true, "pthread_rwlock_trywrlock": true, "pthread_spin_lock": true,
	"pthread_spin_trylock": true, "pthread_once": true, "call_once": true,
	"mtx_lock": true, "mtx_trylock": true, "mtx_timedlock": true,
	"EnterCriticalSection": true, "TryEnterCriticalSection": true, "AcquireSRWLockExclusive": true,
	"WaitForSingleObject": true, "InitOnceExecuteOnce": true, "os_unfair_lock_lock": true,
	"dispatch_once": true, "g_mutex_lock": true, "g_rec_mutex_lock": true, "g_once_init_enter": true,
	"sqlite3_mutex_enter": true, "uv_mutex_lock": true,
}

var assignOps = map[string]bool{
	"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true,
	"&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true,
}

// firstWord returns the identifier that starts s.
func firstWord(s string) string {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && isIdentPart(s[i]) {
		i++
	}
	return s[:i]
}

// guards reports whether the first directive of rest (the text after an
// `#ifndef name` line) is `#define name`: an include guard, whose arm is
// compiled the first time the file is read.
func guards(rest []byte, name string) bool {
	for line := range bytes.Lines(rest) {
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		if t[0] != '#' {
			return false
		}
		t = bytes.TrimSpace(t[1:])
		d, ok := bytes.CutPrefix(t, []byte("define"))
		return ok && name != "" && firstWord(string(d)) == name && len(d) > 0 && (d[0] == ' ' || d[0] == '\t')
	}
	return false
}

// A macroDef is a #define (or #undef) of a macro, at offset off of the
// text.
type macroDef struct {
	off   int
	body  string // what follows the name: parameters and replacement
	undef bool
}

// macroAt returns the replacement of macro name in effect at offset off
// (the last #define before it, unless an #undef came after that).
func macroAt(defs []macroDef, off int) (string, bool) {
	body, ok := "", false
	for _, d := range defs {
		if d.off >= off {
			break
		}
		body, ok = d.body, !d.undef
	}
	return body, ok
}

// Uncompiled returns a function that reports whether offset off of the C
// source src lies in a conditional arm the build does not certainly
// compile: one decided false or after the compiled arm, an undecided arm,
// or one after it (cond.go). It is the complement of Compiled for text
// that is not code, such as the //lifetime: directives in C comments: a
// directive the build may not see is not read, as the code around it is
// no evidence of what a function does (so the arms of one conditional,
// one directive per platform, never contradict each other: at most one is
// read).
//
// The source is scanned at the first question (most files hold no
// directive to ask about).
func Uncompiled(src []byte) func(off int) bool {
	var merged [][2]int // sorted, disjoint (one per arm, not one per line)
	scanned := false
	return func(off int) bool {
		if !scanned {
			scanned = true
			_, undecided, skipped, _ := blankArms(src)
			all := append(undecided, skipped...)
			slices.SortFunc(all, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
			for _, r := range all {
				if n := len(merged); n > 0 && r[0] <= merged[n-1][1]+1 {
					merged[n-1][1] = max(merged[n-1][1], r[1])
					continue
				}
				merged = append(merged, r)
			}
		}
		i, _ := slices.BinarySearchFunc(merged, off, func(r [2]int, off int) int {
			switch {
			case r[1] <= off:
				return -1
			case r[0] > off:
				return 1
			}
			return 0
		})
		return i < len(merged) && merged[i][0] <= off && off < merged[i][1]
	}
}

// Compiled returns the C source src as far as the build certainly
// compiles it, for the package's other readers of C, which match
// patterns: comments, string and character literals, preprocessor lines
// and the arms of conditionals the build does not compile, or may not
// (an undecided arm, cond.go), are spaces; newlines and offsets are those
// of src. Code the build may not compile is no evidence of what a
// function does.
func Compiled(src []byte) []byte {
	out, undecided, _ := blank(src)
	for _, r := range undecided {
		for k := r[0]; k < r[1] && k < len(out); k++ {
			if out[k] != '\n' {
				out[k] = ' '
			}
		}
	}
	return out
}
