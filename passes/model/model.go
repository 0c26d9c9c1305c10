package model

import (
	"go/types"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// A Library is one section of a model: the functions of one C library.
type Library struct {
	Name   string // "cuda-driver"
	Doc    string // the API documentation the entries come from
	Source string // where the section starts
	// Kinds maps each handle kind of the library to the kind it belongs to
	// ("" for none): a stream belongs to a context.
	Kinds map[string]string
	// FreedWithParent holds the kinds that the release of their parent
	// frees as well (a Vulkan command buffer with its pool): they need no
	// release of their own.
	FreedWithParent map[string]bool
	// Prefixes are the starts of the library's function names (git_), for
	// facts about functions the entries do not list.
	Prefixes []string
	// ChecksNull says the library's functions reject a NULL handle with an
	// error in release builds too (libgit2's GIT_ASSERT_ARG), so passing a
	// cleared handle is a clean failure, not a crash.
	ChecksNull bool
	// NullSafe are functions of the library documented to reject a NULL
	// handle with an error (gpgme's setters return GPG_ERR_INV_VALUE).
	NullSafe []string
}

// A Model is what lifetimevet knows about C functions: built-in library
// models, model files given on the command line, and the //lifetime:
// directives of the package's cgo preamble, merged.
type Model struct {
	Libraries []*Library
	funcs     map[string][]*Entry
	counted   map[string]bool // library/kind -> released by counted releases
	made      map[string]bool // library/kind -> made by an acquisition that is not keyed (a constructor)
	names     sync.Map        // nameKey -> *Entry (nil: none) of the destructor-name rule
	// handsOn: for the functions of one void * parameter that the
	// package's own C defines, whether the body passes the parameter
	// to a function that is or reads as a release, or to a macro (see
	// byName); absent for the others
	handsOn map[string]bool
	// resets are the functions named as an unref that the destructor-name
	// rule does not read as a release, because the package also calls a
	// destructor of the same object type (see inferResets)
	resets map[string]bool
	// handleTypes are the pointer types that the C functions the
	// package calls release (IsHandleType)
	handleTypes []handleType
}

// New returns an empty model.
func New() *Model {
	return &Model{funcs: map[string][]*Entry{}}
}

func (m *Model) add(e *Entry) {
	m.funcs[e.Func] = append(m.funcs[e.Func], e)
}

// Merge adds the entries of o to m. Entries of o replace m's entries for the
// same function: later sources (model files, then directives) override
// earlier ones (built-in models).
func (m *Model) Merge(o *Model) {
	m.Libraries = append(m.Libraries, o.Libraries...)
	for name, es := range o.funcs {
		m.funcs[name] = slices.Clone(es)
	}
}

// Entries returns the entries for the C function name, in source order.
func (m *Model) Entries(name string) []*Entry {
	return m.funcs[name]
}

// Funcs returns the names of all modelled functions, sorted.
func (m *Model) Funcs() []string {
	var names []string
	for n := range m.funcs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Releases returns the entries by which a call of the C function name with
// signature sig (the Go signature cgo gives it; may be nil) releases or hands
// over a handle. When the model says nothing about name, the destructor-name
// rule applies (see names.go): a function named like a destructor
// (*_free, *Destroy, *_release, *_close, *Delete, *_unref, free_*,
// Destroy*, ZSTD_free*) releases the pointer argument whose C type its
// name's object part names, and nothing when no argument fits.
func (m *Model) Releases(name string, sig *types.Signature) []*Entry {
	var out []*Entry
	for _, e := range m.funcs[name] {
		if e.Role == Release || e.Role == Transfer {
			out = append(out, e)
		}
	}
	// the name rule for a function no model describes, and for one whose
	// body releases some parameter (Inferred): it may release another
	// through a library function only its name tells of
	// (ctx_free(ctx *c, void *scratch) { free(scratch); lib_ctx_free(c); })
	if sig != nil && sig.Params().Len() >= 1 && !m.resets[name] && !slices.ContainsFunc(m.funcs[name], func(e *Entry) bool { return !e.Inferred }) {
		if e := m.byName(name, sig); e != nil && !slices.ContainsFunc(out, func(o *Entry) bool { return o.Arg == e.Arg }) {
			out = append(out, e)
		}
	}
	return out
}

type nameKey struct {
	name string
	sig  *types.Signature
}

// byName returns the release the destructor-name rule reads in name and
// sig, or nil; the answer is kept per signature (cgo gives each C function
// one).
func (m *Model) byName(name string, sig *types.Signature) *Entry {
	key := nameKey{name, sig}
	if e, ok := m.names.Load(key); ok {
		return e.(*Entry)
	}
	var e *Entry
	p0 := sig.Params().At(0).Type()
	arg, untyped := nameReleaseOf(name, sig)
	if hands, defined := m.handsOn[name]; untyped && defined && !hands {
		// prefix and verb on untyped memory is the weakest reading of a
		// name; a body the package defines is better evidence, and it
		// passes its parameter to no release (an event callback's
		// on_close(void *user_data) { n_closed++; })
		arg = -1
	}
	if arg >= 0 && isPointerToPointer(sig.Params().At(arg).Type()) {
		// av_frame_free(AVFrame **), av_packet_free(AVPacket **): a
		// destructor given the handle's address releases the handle it
		// points to, and takes the address to set the caller's pointer
		// to NULL; the address itself (&f.p) is no handle
		e = &Entry{Func: name, Role: Release, Arg: arg, Key: None, Parent: None, Out: Returned,
			Indirect: true, Clears: true, ByName: true, Source: "destructor-name rule"}
	} else if arg >= 0 {
		e = &Entry{Func: name, Role: Release, Arg: arg, Key: None, Parent: None, Out: Returned,
			ByName: true, Source: "destructor-name rule"}
	} else if isClearName(name) && isPointerToPointer(p0) {
		// clear_image(&img), g_clear_object(&obj): release the handle
		// the argument points to and set it to NULL
		e = &Entry{Func: name, Role: Release, Arg: 0, Key: None, Parent: None, Out: Returned,
			Indirect: true, Clears: true, ByName: true, Source: "destructor-name rule"}
	}
	m.names.Store(key, e)
	return e
}

// isClearName reports whether name has the word "clear" at its start or
// end (clear_image, g_clear_object, img_clear).
func isClearName(name string) bool {
	words := splitWords(name)
	if len(words) < 2 {
		return false
	}
	for _, w := range []string{words[0], words[len(words)-1], words[min(1, len(words)-1)]} {
		if strings.EqualFold(w, "clear") {
			return true
		}
	}
	return false
}

func isPointerToPointer(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	return isPointerLike(p.Elem())
}

// index computes what queries need from the entries; call it after the
// last merge.
func (m *Model) index() {
	m.counted = map[string]bool{}
	m.made = map[string]bool{}
	for _, es := range m.funcs {
		for _, e := range es {
			if e.Role == Release && e.Counted && e.Kind != "" {
				m.counted[e.Library+"/"+e.Kind] = true
			}
			if e.Role == Acquire && e.Key == None && !e.Global && e.Kind != "" {
				m.made[e.Library+"/"+e.Kind] = true
			}
		}
	}
}

// RetainsExisting reports whether a keyed acquisition (acquire ... key=N)
// adds a reference to a handle that exists before it and holds references
// of its own, made elsewhere (g_object_ref, clRetainContext, a retain the
// retain-name rule reads): its kind is also made by a constructor, an
// acquisition that is not keyed, or the name says it retains its argument.
// Such a handle's count before the retain is unknown where it was not made
// on the path. A keyed acquisition whose kind nothing else acquires makes
// every reference there is to what it counts (cuMemHostRegister's
// registration of a buffer, a device's primary context): a path holds
// those it took, from zero.
func (m *Model) RetainsExisting(e *Entry) bool {
	if e.Key == None || e.Role != Acquire {
		return false
	}
	if e.ByName {
		return true
	}
	if m.made == nil {
		m.index()
	}
	return e.Kind != "" && m.made[e.Library+"/"+e.Kind]
}

// Counted reports whether the handle an acquisition creates is reference
// counted: its kind is released by counted releases (clRelease*,
// g_object_unref), so a new handle starts with one reference.
func (m *Model) Counted(e *Entry) bool {
	if e.Counted {
		return true
	}
	if m.counted == nil {
		m.index()
	}
	return e.Kind != "" && m.counted[e.Library+"/"+e.Kind]
}

// ChecksNull reports whether the C function name belongs (by an entry or
// a name prefix) to a library that rejects NULL handles cleanly.
func (m *Model) ChecksNull(name string) bool {
	for _, l := range m.Libraries {
		if slices.Contains(l.NullSafe, name) {
			return true
		}
		if !l.ChecksNull {
			continue
		}
		for _, p := range l.Prefixes {
			if strings.HasPrefix(name, p) {
				return true
			}
		}
		for _, e := range m.funcs[name] {
			if e.Library == l.Name {
				return true
			}
		}
	}
	return false
}

// FreedWithParent reports whether the handle an acquisition creates is
// freed by the release of its parent, so that it needs no release of its
// own: the entry says so (freed-with-parent), or its kind is declared so in
// its library.
func (m *Model) FreedWithParent(e *Entry) bool {
	if e.FreedWithParent {
		return true
	}
	if e.Kind == "" {
		return false
	}
	for _, l := range m.Libraries {
		if l.Name == e.Library && l.FreedWithParent[e.Kind] {
			return true
		}
	}
	return false
}

// Uses reports whether the C function name uses argument i without
// keeping it (borrow NAME arg=N).
func (m *Model) Uses(name string, i int) bool {
	for _, e := range m.funcs[name] {
		if e.Role == Uses && e.Arg == i {
			return true
		}
	}
	return false
}

// Acquires returns the entries by which a call of name creates or borrows a handle.
func (m *Model) Acquires(name string) []*Entry {
	var out []*Entry
	for _, e := range m.funcs[name] {
		if e.Role == Acquire || e.Role == Borrow {
			out = append(out, e)
		}
	}
	return out
}

// splitWords splits a C identifier at underscores and lower-to-upper case changes.
func splitWords(name string) []string {
	var words []string
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '_' }) {
		start := 0
		rs := []rune(part)
		for i := 1; i < len(rs); i++ {
			if unicode.IsUpper(rs[i]) && !unicode.IsUpper(rs[i-1]) {
				words = append(words, string(rs[start:i]))
				start = i
			}
		}
		words = append(words, string(rs[start:]))
	}
	return words
}

func isPointerLike(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	}
	return false
}
