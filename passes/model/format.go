package model

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Role says what a C function does to a handle.
type Role uint8

const (
	// Acquire: the function creates a handle the caller owns and must release
	// (malloc, cuStreamCreate), or takes a counted reference (cuDevicePrimaryCtxRetain).
	Acquire Role = iota + 1
	// Borrow: the function yields a handle the caller does not own
	// (cuCtxGetCurrent); nothing needs releasing.
	Borrow
	// Release: the function destroys a handle or drops a counted reference
	// (free, cuMemFree, cuDevicePrimaryCtxRelease).
	Release
	// Transfer: C takes ownership of the handle (for Go code, a release: the
	// handle must not be released again by Go).
	Transfer
	// Uses: the function uses argument Arg without keeping it
	// (cuStreamSynchronize, sqlite3_bind_int): passing a handle to it does
	// not hand the handle on. Written "borrow NAME arg=N".
	Uses
)

var roleNames = map[Role]string{Acquire: "acquire", Borrow: "borrow", Release: "release", Transfer: "transfer"}

func (r Role) String() string {
	if r == Uses {
		return "borrow"
	}
	return roleNames[r]
}

// Returned is the value of Entry.Out for a handle returned as the function's result.
const Returned = -1

// None is the value of Entry.Key and Entry.Parent when they do not apply.
const None = -2

// An Entry is one fact about one C function: what it does to which argument.
// A function may have several entries (realloc releases its argument and
// acquires its result).
type Entry struct {
	Func string // C function name, as called from Go (C.Func)
	Role Role

	// Out is, for Acquire and Borrow, the index of the out-parameter that
	// receives the handle (a pointer argument), or Returned.
	Out int
	// Arg is, for Release and Transfer, the index of the released argument.
	Arg int
	// Key is, for counted references, the index of the argument that
	// identifies the reference (a device ordinal for
	// cuDevicePrimaryCtxRetain/Release); None otherwise. It may be an integer.
	Key int
	// Parent is, for Acquire, the index of the argument holding the handle the
	// new one belongs to (the context of a stream); None otherwise.
	Parent int
	// From is, for Borrow, the index of the argument that lends the handle
	// (borrowed-from=N: cuModuleGetFunction's function lives as long as its
	// module): the handle must not be used once that argument is released;
	// None otherwise.
	From int
	// FreedWithParent marks an acquisition whose handle the release of its
	// parent (argument Parent) frees as well: it needs no release of its
	// own.
	FreedWithParent bool
	// Kind names the kind of handle ("context", "stream", "c-heap"); a release
	// pairs with the acquisitions of the same kind.
	Kind string
	// Counted marks reference-counted acquisitions and releases: each acquire
	// allows exactly one release.
	Counted bool
	// Indirect is set for releases whose argument points to the handle
	// (nvrtcDestroyProgram(&prog)); Clears when the function then sets the
	// pointed-to handle to NULL.
	Indirect, Clears bool
	// Global marks an acquisition or release of the library's own state
	// rather than of an argument (nvmlInit, nvmlShutdown): counted, with no
	// handle argument.
	Global bool

	// ByName is set for entries inferred from the function's name alone
	// (the destructor-name rule).
	ByName bool
	// Pair is, for an acquisition the constructor-name rule reads, the C
	// function that releases what it makes (the rule's evidence).
	Pair string
	// Inferred is set for releases read in the body of a C function the
	// package's own C defines (it passes its parameter to a known
	// release): what the function does with its other arguments is not
	// known.
	Inferred bool
	// Override is set for a model file's entry written "override ENTRY":
	// it replaces what an earlier model (a built-in one) says of the
	// function.
	Override bool

	Library string // library section the entry belongs to ("cuda-driver")
	Doc     string // where the knowledge comes from: the library's API documentation
	Source  string // where the entry was read: "builtin:cuda-driver.model:12", "gpu.model:3", "x.go:7"
}

// Class returns what the entry's release releases, for telling whether two
// releases of one handle conflict: "kind:K" for entries with a kind, and
// "fn:NAME" otherwise (only the same function is known to release the same
// thing: ArrowSchemaRelease releases a struct's contents, free its memory),
// and Transferred for a transfer of ownership into C.
func (e *Entry) Class() string {
	if e.Role == Transfer {
		return Transferred
	}
	if e.Kind != "" && !e.ByName {
		return "kind:" + e.Kind
	}
	return "fn:" + e.Func
}

// FreesMemory reports whether a release of class c (see Entry.Class)
// frees the memory its handle points to, so that reading or writing
// through the pointer afterwards touches freed memory: the host heap
// allocators' frees, by the kinds the built-in models give them (libc's
// free and what its body-read wrappers release, sqlite3_free, g_free,
// cudaFreeHost's pinned host memory; from each library's API
// documentation of the function). A release that ends an object's use
// (close, destroy, unref, clear) may leave the struct itself readable, and
// device memory is not read through a Go pointer: neither counts.
func FreesMemory(c string) bool {
	switch c {
	case "kind:c-heap", "kind:sqlite-memory", "kind:glib-memory", "kind:pinned-host-memory":
		return true
	}
	return false
}

// Compatible reports whether two releases of the same handle, of classes a
// and b (see Entry.Class; "declared" for //lifetime:release on a Go
// function), release the same resource, so that doing both is a double
// release.
func Compatible(a, b string) bool {
	return a == b || a == "declared" || b == "declared" || a == "" || b == "" || a == Transferred || b == Transferred
}

// Transferred is the class of a transfer of ownership into C: C releases
// the handle itself later, however it was acquired, so any release of it
// by Go as well is one too many.
const Transferred = "transfer"

// Handle returns the index of the argument an entry acts on: the released
// argument, the out-parameter, or Returned.
func (e *Entry) Handle() int {
	switch e.Role {
	case Release, Transfer, Uses:
		return e.Arg
	}
	return e.Out
}

func (e *Entry) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", e.Role, e.Func)
	switch e.Role {
	case Acquire, Borrow:
		if e.Out == Returned {
			b.WriteString(" result")
		} else if e.Out != None {
			fmt.Fprintf(&b, " out=%d", e.Out)
		}
	case Release, Transfer, Uses:
		if e.Arg != None {
			fmt.Fprintf(&b, " arg=%d", e.Arg)
		}
	}
	if e.From != None {
		fmt.Fprintf(&b, " borrowed-from=%d", e.From)
	}
	if e.Key != None {
		fmt.Fprintf(&b, " key=%d", e.Key)
	}
	if e.Parent != None {
		fmt.Fprintf(&b, " parent=%d", e.Parent)
	}
	if e.FreedWithParent {
		b.WriteString(" freed-with-parent")
	}
	if e.Kind != "" {
		fmt.Fprintf(&b, " kind=%s", e.Kind)
	}
	if e.Counted && !e.Global && e.Key == None {
		b.WriteString(" counted")
	}
	if e.Indirect {
		b.WriteString(" indirect")
	}
	if e.Clears {
		b.WriteString(" clears")
	}
	if e.Global {
		b.WriteString(" global")
	}
	return b.String()
}

// position matches a word that is a source position, file:line[:col][:].
var position = regexp.MustCompile(`^[^"]+:\d+(:\d+)?:?$`)

// maxWord is the longest word of a directive or model line a message
// echoes whole.
const maxWord = 64

// ClipWords cuts each word of msg longer than maxWord bytes (a name or
// argument of a directive or model line, echoed) to its first maxWord bytes and "…",
// so that a runaway directive gives a message a person can read. A
// position (file:line or file:line:col, which names the other entry of a
// conflict) is the reader's way to the other place and stays whole.
func ClipWords(msg string) string {
	if len(msg) <= maxWord {
		return msg
	}
	words := strings.Split(msg, " ")
	for i, w := range words {
		if len(w) > maxWord && !position.MatchString(w) {
			n := maxWord
			for n > 0 && !utf8.RuneStart(w[n]) {
				n--
			}
			words[i] = w[:n] + "…"
		}
	}
	return strings.Join(words, " ")
}

// A SyntaxError is a malformed model line or directive.
type SyntaxError struct {
	File string // file name; empty for a directive (the caller knows its position)
	Line int    // 1-based line; 0 when unknown
	Msg  string
}

func (e *SyntaxError) Error() string {
	if e.File == "" {
		return e.Msg
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// ParseEntry parses one entry in the model syntax, the same that follows
// "//lifetime:" in a cgo preamble:
//
//	acquire NAME [result|out=N] [parent=N [freed-with-parent]] [borrowed-from=N] [key=N] [kind=K] [counted] [global]
//	borrow NAME [result|out=N] [borrowed-from=N] [kind=K]
//	borrow NAME arg=N
//	release NAME [arg=N] [key=N] [kind=K] [counted] [indirect [clears]] [global]
//	transfer NAME [arg=N] [kind=K] [indirect]
//
// Indices count from 0. An acquire without out= returns its handle; a release
// without arg= releases argument 0. indirect: the argument points to the
// handle (nvrtcDestroyProgram(&prog)); clears: the function then sets it to
// NULL. global: the library's own state, counted (nvmlInit/nvmlShutdown).
// borrowed-from=N: the handle is lent by argument N and lives as long as
// it (cuModuleGetFunction's function belongs to its module): nothing to
// release, and no use after N's release; an acquire with borrowed-from is a
// borrow. freed-with-parent: the release of the parent frees the handle
// too, so it needs no release of its own. borrow NAME arg=N: the function
// uses argument N without keeping it, so passing a handle to it does not
// hand the handle on.
func ParseEntry(line string) (*Entry, error) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return nil, fmt.Errorf("empty entry")
	}
	var role Role
	for r, name := range roleNames {
		if fields[0] == name {
			role = r
		}
	}
	if role == 0 {
		return nil, fmt.Errorf("unknown verb %q (want acquire, borrow, release or transfer)", fields[0])
	}
	if len(fields) < 2 {
		return nil, fmt.Errorf("%s needs a C function name", role)
	}
	e := &Entry{Func: fields[1], Role: role, Out: Returned, Arg: 0, Key: None, Parent: None, From: None}
	if !isCIdent(e.Func) {
		return nil, fmt.Errorf("%q is not a C function name", e.Func)
	}
	seen := map[string]bool{}
	for _, f := range fields[2:] {
		name, val, hasVal := strings.Cut(f, "=")
		if seen[name] {
			return nil, fmt.Errorf("%s given twice", name)
		}
		seen[name] = true
		allowed := map[Role][]string{
			Acquire:  {"result", "out", "parent", "freed-with-parent", "borrowed-from", "key", "kind", "counted", "global"},
			Borrow:   {"result", "out", "borrowed-from", "kind", "arg"},
			Release:  {"arg", "key", "kind", "counted", "indirect", "clears", "global"},
			Transfer: {"arg", "kind", "indirect"},
		}[role]
		ok := false
		for _, a := range allowed {
			ok = ok || a == name
		}
		if !ok {
			return nil, fmt.Errorf("%s does not take %q (it takes %s)", role, f, strings.Join(allowed, ", "))
		}
		switch name {
		case "result", "counted", "indirect", "clears", "global", "freed-with-parent":
			if hasVal {
				return nil, fmt.Errorf("%s takes no value", name)
			}
			switch name {
			case "freed-with-parent":
				e.FreedWithParent = true
			case "counted":
				e.Counted = true
			case "indirect":
				e.Indirect = true
			case "clears":
				e.Clears = true
			case "global":
				e.Global = true
			default:
				if seen["out"] {
					return nil, fmt.Errorf("result and out= exclude each other")
				}
			}
		case "kind":
			if !isKind(val) {
				return nil, fmt.Errorf("kind=%q: want a name of letters, digits and '-'", val)
			}
			e.Kind = val
		default: // out, arg, key, parent, borrowed-from: an argument index
			n, err := strconv.Atoi(val)
			if !hasVal || err != nil || n < 0 {
				if hasVal && val != "" && strings.Trim(val, "0123456789") == "" {
					// digits only: beyond int
					return nil, fmt.Errorf("%s=%s: out of range: an argument index counts the C function's parameters from 0, and no C function takes that many (at most %d here)", name, val, maxArg)
				}
				return nil, fmt.Errorf("%s=%q: want an argument index from 0", name, val)
			}
			if n > maxArg {
				return nil, fmt.Errorf("%s=%d: out of range: an argument index counts the C function's parameters from 0, and no C function takes that many (at most %d here)", name, n, maxArg)
			}
			switch name {
			case "out":
				if seen["result"] {
					return nil, fmt.Errorf("result and out= exclude each other")
				}
				e.Out = n
			case "arg":
				e.Arg = n
			case "key":
				e.Key = n
			case "parent":
				e.Parent = n
			case "borrowed-from":
				e.From = n
			}
		}
	}
	if role == Borrow && seen["arg"] {
		// borrow NAME arg=N: the function uses argument N
		if seen["out"] || seen["result"] || seen["borrowed-from"] || seen["kind"] {
			return nil, fmt.Errorf("borrow with arg= says the function uses argument N; it takes nothing else")
		}
		e.Role, e.Out = Uses, None
		return e, nil
	}
	if e.FreedWithParent && !seen["parent"] {
		return nil, fmt.Errorf("freed-with-parent needs parent=N: the argument whose release frees the handle")
	}
	if seen["borrowed-from"] {
		if seen["parent"] || seen["key"] || seen["counted"] || seen["global"] {
			return nil, fmt.Errorf("borrowed-from excludes parent=, key=, counted and global: a lent handle is not the caller's")
		}
		if (seen["out"] && e.Out == e.From) || e.From > 64 {
			return nil, fmt.Errorf("borrowed-from=%d names the out-parameter itself", e.From)
		}
		e.Role = Borrow // lent, not owned
	}
	if e.Clears && !e.Indirect {
		return nil, fmt.Errorf("clears needs indirect: only a pointer to the handle can be cleared")
	}
	if e.Global {
		if seen["out"] || seen["result"] || seen["arg"] || seen["key"] || seen["parent"] {
			return nil, fmt.Errorf("global takes no argument: it names the library's own state")
		}
		if e.Indirect || e.Clears {
			return nil, fmt.Errorf("global excludes indirect and clears: it releases no argument")
		}
		e.Counted, e.Out, e.Arg = true, None, None
	}
	if e.Key != None {
		e.Counted = true
		if (role == Acquire) && !seen["out"] && !seen["result"] {
			e.Out = None // a keyed reference with no new handle value (cuMemHostRegister)
		}
	}
	return e, nil
}

// ParseFile parses a model file: entries as accepted by ParseEntry, grouped
// in library sections.
//
//	# comment
//	library NAME              start a section; every entry belongs to one
//	doc URL                   the documentation the following entries come from
//	kind NAME [parent=KIND [freed-with-parent]]
//	                          a handle kind, the kind it belongs to, and
//	                          whether the parent's release frees it too
//	acquire ... / borrow ... / release ... / transfer ...
//
// name is used in errors and in Entry.Source. Every error names the file and
// the line.
//
// Lines end in LF or CRLF. A UTF-8 byte order mark at the start, as some
// editors write, is skipped (lines are counted as before). A bare CR as a
// line end (classic Mac OS) is an error that says so, as lifetimevet.toml's
// TOML rejects it: the file would otherwise read as one long line.
func ParseFile(name string, data []byte) (*Model, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if line, ok := BareCR(data); ok {
		return nil, &SyntaxError{File: name, Line: line, Msg: "line ends are bare CR; use LF or CRLF"}
	}
	m := New()
	lib, doc := "", ""
	var cur *Library
	kindLines := map[string]int{} // library and kind -> the line declaring it
	for i, raw := range strings.Split(string(data), "\n") {
		lineNo := i + 1
		line := stripComment(raw)
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		bad := func(format string, args ...any) error {
			// (a token echoed is cut, as a directive's are)
			return &SyntaxError{File: name, Line: lineNo, Msg: ClipWords(fmt.Sprintf(format, args...))}
		}
		switch fields[0] {
		case "library":
			if len(fields) != 2 || !isKind(fields[1]) {
				return nil, bad("want: library NAME")
			}
			lib, doc = fields[1], ""
			for _, l := range m.Libraries {
				if l.Name == lib {
					return nil, bad("library %s declared twice: at %s and here; declare it once", lib, l.Source)
				}
			}
			cur = &Library{Name: lib, Source: fmt.Sprintf("%s:%d", name, lineNo), Kinds: map[string]string{}}
			m.Libraries = append(m.Libraries, cur)
		case "doc":
			if len(fields) != 2 {
				return nil, bad("want: doc URL")
			}
			if lib == "" {
				return nil, bad("doc before any library line")
			}
			doc = fields[1]
			if cur.Doc == "" {
				cur.Doc = doc
			}
		case "prefix":
			if lib == "" {
				return nil, bad("prefix before any library line")
			}
			if len(fields) != 2 || !isCIdent(fields[1]) {
				return nil, bad("want: prefix NAME_ (the start of the library's function names)")
			}
			cur.Prefixes = append(cur.Prefixes, fields[1])
		case "checks-null":
			if lib == "" {
				return nil, bad("checks-null before any library line")
			}
			if len(fields) != 1 {
				return nil, bad("checks-null takes no arguments")
			}
			cur.ChecksNull = true
		case "null-safe":
			if lib == "" {
				return nil, bad("null-safe before any library line")
			}
			if len(fields) < 2 {
				return nil, bad("want: null-safe FUNC... (functions documented to reject a NULL handle with an error)")
			}
			for _, f := range fields[1:] {
				if !isCIdent(f) {
					return nil, bad("null-safe %q: want a C function name", f)
				}
			}
			cur.NullSafe = append(cur.NullSafe, fields[1:]...)
		case "kind":
			if lib == "" {
				return nil, bad("kind before any library line")
			}
			const want = "want: kind NAME [parent=KIND [freed-with-parent]]"
			freed := len(fields) == 4 && fields[3] == "freed-with-parent"
			if len(fields) < 2 || len(fields) > 4 || len(fields) == 4 && !freed || !isKind(fields[1]) {
				return nil, bad(want)
			}
			parent := ""
			if len(fields) >= 3 {
				p, ok := strings.CutPrefix(fields[2], "parent=")
				if !ok || !isKind(p) {
					if fields[2] == "freed-with-parent" {
						return nil, bad("freed-with-parent needs parent=KIND: the kind whose release frees this one")
					}
					return nil, bad(want)
				}
				parent = p
			}
			if first, dup := kindLines[lib+"\x00"+fields[1]]; dup {
				return nil, bad("kind %s declared twice in library %s: at %s:%d and here; declare it once", fields[1], lib, name, first)
			}
			kindLines[lib+"\x00"+fields[1]] = lineNo
			if _, ok := cur.Kinds[parent]; parent != "" && !ok {
				return nil, bad("parent kind %s is not declared before kind %s", parent, fields[1])
			}
			if freed {
				if cur.FreedWithParent == nil {
					cur.FreedWithParent = map[string]bool{}
				}
				cur.FreedWithParent[fields[1]] = true
			}
			cur.Kinds[fields[1]] = parent
		default:
			entry, override := line, false
			if fields[0] == "override" {
				entry, override = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "override")), true
			}
			e, err := ParseEntry(entry)
			if err != nil {
				return nil, bad("%v", err)
			}
			e.Override = override
			if lib == "" {
				return nil, bad("%s before any library line", e.Role)
			}
			if e.Kind != "" {
				if _, ok := cur.Kinds[e.Kind]; !ok {
					return nil, bad("kind %s is not declared in library %s (add: kind %s)", e.Kind, lib, e.Kind)
				}
			}
			e.Library, e.Doc = lib, doc
			e.Source = fmt.Sprintf("%s:%d", name, lineNo)
			if old := Conflict(m.Entries(e.Func), e); old != "" {
				return nil, bad("%s", old)
			}
			m.add(e)
		}
	}
	return m, nil
}

// position names what an entry acts on, for telling contradictory
// entries of one function apart from complementary ones (realloc releases
// argument 0 and acquires its result).
func (e *Entry) position() string {
	switch {
	case e.Global:
		return "the library state"
	case e.Role == Release || e.Role == Transfer || e.Role == Uses:
		return fmt.Sprintf("argument %d", e.Arg)
	case e.Out == Returned:
		return "the result"
	case e.Out != None:
		return fmt.Sprintf("out-parameter %d", e.Out)
	case e.Key != None:
		return fmt.Sprintf("the reference keyed by argument %d", e.Key)
	}
	return ""
}

// Conflict returns why e contradicts one of the entries olds of the same
// function (the same entry again, or two roles for the argument or result
// it acts on), naming the other entry's source; "" when it does not.
func Conflict(olds []*Entry, e *Entry) string {
	for _, old := range olds {
		if old.String() == e.String() {
			return fmt.Sprintf("%s repeats the entry at %s", e, old.Source)
		}
	}
	for _, old := range olds {
		if p := e.position(); p != "" && p == old.position() {
			return fmt.Sprintf("%s contradicts %q at %s: one C function with two roles for %s", e, old.String(), old.Source, p)
		}
	}
	for _, old := range olds {
		if n, ok := outAndReleased(e, old); ok {
			return fmt.Sprintf("%s contradicts %q at %s: one C function with two roles for argument %d (a pointer it writes a new handle through, and the handle it releases)", e, old.String(), old.Source, n)
		}
	}
	return ""
}

// outAndReleased reports whether, of two entries of one function, one
// acquires into out-parameter N and the other releases (or transfers)
// argument N itself: argument N cannot be both the pointer a new handle is
// written through and a handle given up. (An indirect release of argument
// N, of the handle it points to, is a replacement: the old handle is
// released and the new one written there.)
func outAndReleased(x, y *Entry) (int, bool) {
	for range 2 {
		if x.Out >= 0 && !x.Global && (y.Role == Release || y.Role == Transfer) && !y.Global && !y.Indirect && y.Arg == x.Out {
			return x.Out, true
		}
		x, y = y, x
	}
	return 0, false
}

func isCIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}

func isKind(s string) bool {
	for _, r := range s {
		if !(r == '-' || r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}

// stripComment removes a comment: '#' at the start of the line or after
// white space (so that URLs keep their #anchors).
func stripComment(line string) string {
	for i := 0; i < len(line); i++ {
		if line[i] == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') {
			return line[:i]
		}
	}
	return line
}

// maxArg is the largest argument index an entry may give.
const maxArg = 64

// BareCR returns the line (from 1) of the first CR in data that no LF
// follows, and whether there is one.
func BareCR(data []byte) (int, bool) {
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\r')
		if j < 0 {
			return 0, false
		}
		i += j
		if i+1 >= len(data) || data[i+1] != '\n' {
			return 1 + bytes.Count(data[:i], []byte("\n")), true
		}
		i++
	}
}
