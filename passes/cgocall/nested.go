package cgocall

import (
	"regexp"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/access"
)

// feeds returns the index of the argument of the wrapper's C call inner
// that is the result of call (cgo's _cgo1 := _Cfunc_CString(s)), through
// conversions; -1 when the result goes elsewhere.
func feeds(inner, call *ssa.Call) int {
	for i, a := range inner.Call.Args {
		if v := access.StripConv(a); v == ssa.Value(call) {
			return i
		}
		if c, ok := a.(*ssa.Convert); ok && c.X == ssa.Value(call) {
			return i
		}
	}
	return -1
}

// ConstPointerParam reports whether parameter i of the C function name,
// as the package's own C defines it, points to const data (const char *,
// const void *): the function reads what it is given and does not take
// ownership of it.
func (r *Result) ConstPointerParam(name string, i int) bool {
	ps := r.constParams[name]
	return i >= 0 && i < len(ps) && ps[i]
}

var constWord = regexp.MustCompile(`\bconst\b`)

// constParams parses the parameter list of a C function definition: for
// each parameter, whether it is a pointer to const.
func constParams(params string) []bool {
	params = strings.TrimSpace(params)
	if params == "" || params == "void" {
		return nil
	}
	var out []bool
	depth, start := 0, 0
	emit := func(p string) {
		star := strings.LastIndex(p, "*")
		out = append(out, star >= 0 && !strings.Contains(p, "(") && constWord.MatchString(p[:star]))
	}
	for i, c := range params {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				emit(params[start:i])
				start = i + 1
			}
		}
	}
	emit(params[start:])
	return out
}

// body returns the C function body that starts just after the opening
// brace at text[start-1], up to its matching brace (or the end of text).
func body(text string, start int) string {
	depth := 1
	for i := start; i < len(text); i++ {
		switch text[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return text[start:i]
			}
		}
	}
	return text[start:]
}

// destructorRef matches a freeing function named in C code (free, g_free,
// sqlite3_free, xmlFree), as a value or a call.
var destructorRef = regexp.MustCompile(`\b[A-Za-z_0-9]*(free|Free)\b`)

// passesDestructor reports whether a C function body names a freeing
// function: it may hand what it is given to a library with that function
// as its destructor (sqlite3_result_text(ctx, s, n, &free)), so a const
// parameter does not tell that it keeps nothing.
func passesDestructor(body string) bool { return destructorRef.MatchString(body) }
