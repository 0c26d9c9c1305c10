package cpreamble

import (
	"bytes"
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
// are dropped, both arms of an #if are kept.
func blank(src []byte) []byte {
	out := make([]byte, len(src))
	copy(out, src)
	space := func(i, j int) {
		for k := i; k < j && k < len(out); k++ {
			if out[k] != '\n' {
				out[k] = ' '
			}
		}
	}
	lineStart := true
	// conditionals: only the first arm of each #if is read (#else and
	// #elif arms are blanked), so that the braces of alternative arms do
	// not pile up
	var conds []bool // per open #if: in a later arm
	skipping := func() bool { return slices.Contains(conds, true) }
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
		case c == '#' && lineStart:
			d := directive(src[i+1:])
			switch d {
			case "if", "ifdef", "ifndef":
				conds = append(conds, false)
			case "elif", "else", "elifdef", "elifndef":
				if len(conds) > 0 {
					conds[len(conds)-1] = true
				}
			case "endif":
				if len(conds) > 0 {
					conds = conds[:len(conds)-1]
				}
			}
			fallthrough
		case c == '#' && lineStart || skipping() && lineStart:
			// a directive, with backslash continuations and comments
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
	return out
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
