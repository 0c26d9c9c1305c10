package model

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// nearMiss reads a comment that is not a //lifetime: directive and says,
// when it looks like one written wrong, how to spell it: another case
// (//LIFETIME:release), a misspelt prefix within two edits of "lifetime"
// (//liftime:handle), another separator than the colon (//lifetime-handle,
// a full-width colon), a space after the slashes (// lifetime:ignore), more
// slashes (///lifetime:handle), an invisible format character
// (lifetime\u200b:handle), a letter of another script that looks like a
// Latin one (a Cyrillic е), a tool's namespace or a + before it
// (//lint:lifetime:release, //+lifetime:release), the tool's name
// (//lifetimevet:release), the word split (//life-time:release), or a
// block comment (/*lifetime:handle*/). The verb must follow the separator
// at once and be a directive verb (or within one edit of one), so prose
// ("// Lifetime: the handle lives until Close", "// lifetime: release in
// Close") is left alone.
func nearMiss(text string) (suggestion string, ok bool) {
	var body string
	block := false
	switch {
	case strings.HasPrefix(text, "//"):
		body = text[2:]
	case strings.HasPrefix(text, "/*"):
		body, block = strings.TrimSuffix(text[2:], "*/"), true
	default:
		return "", false
	}
	if i := strings.Index(body, " //"); i >= 0 {
		body = body[:i] // a trailing comment ends the directive
	}
	// more slashes (///lifetime:handle, a doc-comment habit)
	slashes := false
	if !block && strings.HasPrefix(body, "/") {
		body, slashes = strings.TrimLeft(body, "/"), true
	}
	// invisible format characters (a zero-width space pasted from a web
	// page, a soft hyphen, a byte order mark): not there for the reader
	invisible := false
	if c := dropFormat(body); c != body {
		body, invisible = c, true
	}
	// other spaces than ASCII's (a no-break space, an ideographic
	// space): read as spaces, so the placement rules below apply
	uspace := false
	if u := asciiSpaces(body); u != body {
		body, uspace = u, true
	}
	wide := false
	if h := halfWidth(body); h != body {
		body, wide = h, true
	}
	spaced := strings.TrimLeft(body, " \t")
	space := len(spaced) < len(body)
	body = spaced
	// a tool's namespace put before it (//go:lifetime:handle,
	// //lint:lifetime:release), or the + of a build tag's old syntax
	// (//+lifetime:release)
	ns := false
	if rest, ok := strings.CutPrefix(body, "+"); ok {
		body, ns = rest, true
	}
	if k := strings.IndexByte(body, ':'); k > 0 && k <= 8 && strings.Trim(body[:k], "abcdefghijklmnopqrstuvwxyz") == "" && editDistance(strings.ToLower(body[:k]), "lifetime") > 2 {
		body, ns = body[k+1:], true
	}
	// the prefix word, whole: a letter of another script that looks like
	// a Latin one (a Cyrillic е) is a letter of the word, one edit away
	i := 0
	for i < len(body) {
		r, size := utf8.DecodeRuneInString(body[i:])
		if !unicode.IsLetter(r) {
			break
		}
		i += size
	}
	word, rest := body[:i], body[i:]
	// the word split by a hyphen or an underscore (//life-time:release)
	split := false
	if len(rest) > 1 && (rest[0] == '-' || rest[0] == '_') {
		j := 1
		for j < len(rest) && rest[j] < utf8.RuneSelf && unicode.IsLetter(rune(rest[j])) {
			j++
		}
		if w := word + rest[1:j]; strings.EqualFold(w, "lifetime") && j < len(rest) && rest[j] != rest[0] {
			word, rest, split = w, rest[j:], true
		}
	}
	// the tool's name for the directives' (//lifetimevet:release)
	if strings.EqualFold(word, "lifetimevet") {
		word, ns = "lifetime", true
	}
	if word == "" || editDistance(strings.ToLower(word), "lifetime") > 2 {
		return "", false
	}
	// the separator, with spaces before it (//lifetime :handle); a space
	// alone (//lifetime handle) only right after the slashes, where prose
	// is not written, and with the word spelt right
	trimmed := strings.TrimLeft(rest, " \t")
	spacedSep := len(trimmed) < len(rest)
	sep, size := utf8.DecodeRuneInString(trimmed)
	colon := sep == ':' || sep == '\uff1a' || sep == '\ufe55'
	switch {
	case colon || !space && (sep == '-' || sep == '.' || sep == '=' || sep == ';' || sep == '_' || sep == '/'):
		// (after "// ", prose's spacing, only a colon: "// lifetime_release
		// is called from C", "// lifetime/handle.go" are prose)
		rest = trimmed[size:]
	case spacedSep && !space && !block && strings.EqualFold(word, "lifetime"):
		rest = trimmed
	default:
		return "", false
	}
	// the verb, right after the separator (after a colon and a space, "//
	// lifetime: release in Close" is prose as often as a directive)
	j := 0
	for j < len(rest) && rest[j] < utf8.RuneSelf && unicode.IsLetter(rune(rest[j])) {
		j++
	}
	verb, args := rest[:j], rest[j:]
	known := ""
	for _, v := range allVerbs {
		if strings.EqualFold(verb, v) || editDistance(strings.ToLower(verb), v) <= 1 && len(verb) > 3 {
			known = v
			break
		}
	}
	if known == "" {
		return "", false
	}
	if word == "lifetime" && sep == ':' && !space && !block && !ns && !spacedSep && !wide && !slashes && !invisible && !uspace && !split {
		return "", false // a directive (an unknown verb is reported as such)
	}
	if block {
		args = strings.TrimRight(args, " \t\r\n")
	}
	return "//lifetime:" + known + args, true
}

// nearMissProblem is the message for a near miss of a directive.
func nearMissProblem(text, suggestion string) string {
	if i := strings.Index(text, " //"); i > 0 {
		text = text[:i] // leave out a trailing comment
	}
	why := "write //lifetime:VERB, in lower case, with a colon and no space after //"
	switch {
	case strings.HasPrefix(text, "/*"):
		why = "a directive is a line comment"
	case dropFormat(text) != text:
		r, _ := utf8.DecodeRuneInString(text[strings.IndexFunc(text, isFormat):])
		what := "the invisible character"
		if unicode.Is(unicode.Mn, r) {
			what = "the combining mark"
		}
		why = fmt.Sprintf("it holds %s U+%04X; write //lifetime:VERB without it", what, r)
	case asciiSpaces(text) != text:
		r, _ := utf8.DecodeRuneInString(text[strings.IndexFunc(text, isOtherSpace):])
		why = fmt.Sprintf("it holds the space U+%04X, which is not an ASCII space; write //lifetime:VERB with no space after // or before the colon", r)
	case strings.HasPrefix(text, "///"):
		why = "write //lifetime:VERB, with two slashes"
	default:
		// a letter of another script in the prefix word
		word := strings.TrimLeft(strings.TrimPrefix(text, "//"), " \t")
		if i := strings.IndexFunc(word, func(r rune) bool { return !unicode.IsLetter(r) }); i >= 0 {
			word = word[:i]
		}
		if i := strings.IndexFunc(word, func(r rune) bool { return r >= utf8.RuneSelf }); i >= 0 {
			r, _ := utf8.DecodeRuneInString(word[i:])
			why = fmt.Sprintf("%q in %q is not the Latin letter it looks like (U+%04X); write //lifetime:VERB in ASCII", r, word, r)
		}
	}
	return fmt.Sprintf("malformed directive %q: %s; did you mean %s?", firstWords(text), why, firstWords(suggestion))
}

// closestVerb returns the known directive verb within two edits of verb,
// or "".
func closestVerb(verb string) string {
	best, bestD := "", 3
	for _, v := range allVerbs {
		if d := editDistance(strings.ToLower(verb), v); d < bestD {
			best, bestD = v, d
		}
	}
	return best
}

// isFormat reports whether r is an invisible format character (Unicode
// category Cf: zero-width spaces and joiners, the soft hyphen, the byte
// order mark, directional marks) or a combining mark (Mn: an accent
// written as a mark of its own, as decomposed text brings).
func isFormat(r rune) bool { return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Mn, r) }

// isOtherSpace reports whether r is a space that is not ASCII's (Unicode
// category Zs: the no-break space, the ideographic space, U+2000-U+200A).
func isOtherSpace(r rune) bool { return r >= utf8.RuneSelf && unicode.Is(unicode.Zs, r) }

// asciiSpaces returns s with its other spaces (isOtherSpace) as ASCII
// spaces.
func asciiSpaces(s string) string {
	if strings.IndexFunc(s, isOtherSpace) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isOtherSpace(r) {
			return ' '
		}
		return r
	}, s)
}

// dropFormat returns s without its format characters.
func dropFormat(s string) string {
	if strings.IndexFunc(s, isFormat) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isFormat(r) {
			return -1
		}
		return r
	}, s)
}

// editDistance is the optimal string alignment distance between a and b
// (insertions, deletions, substitutions and transpositions of neighbours),
// on runes (a letter of another script counts one); it gives up above 3.
func editDistance(as, bs string) int {
	a, b := []rune(as), []rune(bs)
	if d := len(a) - len(b); d > 3 || d < -3 {
		return 4
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// halfWidth maps full-width ASCII letters and punctuation (U+FF01 to
// U+FF5E, typed by an input method) to ASCII, except the full-width colon,
// which the separator check names on its own.
func halfWidth(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 0xFF01 && r <= 0xFF5E && r != 0xFF1A {
			return r - 0xFEE0
		}
		return r
	}, s)
}
