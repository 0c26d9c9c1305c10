package cgocall

import (
	"go/ast"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lifetimevet/lifetimevet/internal/cgofile"
	"github.com/lifetimevet/lifetimevet/passes/cpreamble"
)

// funcDef finds C function definitions: a name, a parameter list, and an
// opening brace. Tolerant by design: no preprocessing, no headers.
var funcDef = regexp.MustCompile(`\b([A-Za-z_]\w*)\s*\(([^;{}()]|\([^;{}()]*\))*\)\s*\{`)

var cKeywords = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "return": true, "sizeof": true, "do": true, "else": true}

// definedInC returns the names of the C functions the package's preambles
// and small .c files define, and their const pointer parameters, read in
// the whole text (every arm of every conditional: a function that may be
// the package's own may keep what it is given). The functions that
// forward a parameter (forwards) are read in the text the build certainly
// compiles (cpreamble.Compiled): a free in a comment, a string or an arm
// the build leaves out forwards nothing.
func definedInC(pass *analysis.Pass, files []*ast.File, forwards map[string][]string) (map[string]bool, map[string][]bool) {
	out := map[string]bool{}
	consts := map[string][]bool{}
	scan := func(text string) {
		for _, ix := range funcDef.FindAllStringSubmatchIndex(text, -1) {
			name, def := text[ix[2]:ix[3]], text[ix[0]:ix[1]]
			if !cKeywords[name] {
				out[name] = true
				if open := strings.Index(def, "("); open >= 0 {
					if end := strings.LastIndex(def, ")"); end > open && !passesDestructor(body(text, ix[1])) {
						consts[name] = constParams(def[open+1 : end])
					}
				}
			}
		}
		compiled := string(cpreamble.Compiled([]byte(text)))
		for _, ix := range funcDef.FindAllStringSubmatchIndex(compiled, -1) {
			name, def := compiled[ix[2]:ix[3]], compiled[ix[0]:ix[1]]
			if cKeywords[name] {
				continue
			}
			if open, end := strings.Index(def, "("), strings.LastIndex(def, ")"); open >= 0 && end > open {
				if fw := forwarded(def[open+1:end], body(compiled, ix[1])); len(fw) > 0 {
					forwards[name] = fw
				}
			}
		}
	}
	for _, f := range files {
		if pre := cgofile.Preamble(f); pre != nil {
			var b strings.Builder
			for _, c := range pre.List {
				t := strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(c.Text, "/*"), "*/"), "//")
				b.WriteString(t)
				b.WriteByte('\n')
			}
			scan(b.String())
		}
	}
	// the .c files the build selects (cgofile.Sources)
	cfiles, readFile := cgofile.CFiles(pass)
	for _, name := range cfiles {
		data, err := readFile(name)
		if err != nil || len(data) > 1<<20 {
			continue // large vendored C (an amalgamation) is a library
		}
		scan(string(data))
	}
	return out, consts
}

// singleArgCall matches a call whose only argument is a name, possibly
// cast: free(p), g_free((gpointer)p).
var singleArgCall = regexp.MustCompile(`\b([A-Za-z_]\w*)\s*\(\s*(?:\(\s*[A-Za-z_][\w\s\*]*\)\s*)?([A-Za-z_]\w*)\s*\)`)

// forwarded returns the functions a C function body calls with one of its
// parameters as the only argument (static void cfree(void *p) { free(p); }
// gives free), in order.
func forwarded(params, body string) []string {
	names := map[string]bool{}
	for _, p := range strings.Split(params, ",") {
		p = strings.TrimSpace(p)
		if i := strings.IndexByte(p, '['); i >= 0 {
			p = p[:i]
		}
		f := strings.FieldsFunc(p, func(r rune) bool { return r == ' ' || r == '*' || r == '\t' || r == '\n' })
		if len(f) >= 2 {
			names[f[len(f)-1]] = true
		}
	}
	var out []string
	for _, m := range singleArgCall.FindAllStringSubmatch(body, -1) {
		if names[m[2]] && !cKeywords[m[1]] {
			out = append(out, m[1])
		}
	}
	return out
}
