package model

import (
	"go/types"
	"strings"
)

// The constructor-name rule, for C functions no model describes.
//
// A function named like a constructor acquires a handle when its prototype
// gives the caller a pointer of a type the package releases: it returns a
// T * (widget_create, rd_kafka_new, ZSTD_createCCtx, pcap_open_live,
// llama_load_model_from_file, EVP_MD_CTX_new), or writes one through its
// only T ** parameter and returns an integer status (foo_open(&f, path)),
// and some C function the package calls releases a T * (by a model, a
// directive, its body or the destructor-name rule). The release is the
// evidence that a T is owned, as the pair is for the retain-name rule: a
// name that merely holds a verb (a getter of an open file, a new-line
// count) gives a type nothing releases, or gives nothing. The verb is a
// word of its own at the name's start, after a library prefix, or at its
// end: create, new, alloc, open, init, dup, clone, copy, load, make. A
// name that also reads as a destructor or a retain is not a constructor.
// An acquisition of a type whose releases are counted (foo_new and
// foo_unref) starts with one reference. A constructor whose status is not
// its result (void, with an error out-parameter) is left alone: a failure
// could not be told from a success. A function that returns a pointer it
// does not own, with a name that reads as a constructor and a type
// released elsewhere, needs a directive (//lifetime:borrow NAME).

// constructorVerbs are the words that make a name read as a constructor.
var constructorVerbs = map[string]bool{
	"create": true, "new": true, "alloc": true, "open": true, "init": true,
	"dup": true, "clone": true, "copy": true, "load": true, "make": true,
}

// IsConstructorName reports whether a C function name reads as a
// constructor: a constructor verb as its first word, its second (after a
// library prefix: pcap_open_live, ZSTD_createCCtx, xmlNewNode) or its
// last (rd_kafka_new, cuStreamCreate); not a destructor's or retain's.
func IsConstructorName(name string) bool {
	words := splitWords(name)
	if len(words) < 2 || IsDestructorName(name) || len(retainPairNames(name)) > 0 {
		return false
	}
	for _, i := range []int{0, 1, len(words) - 1} {
		if constructorVerbs[strings.ToLower(words[i])] {
			return true
		}
	}
	return false
}

// inferConstructors adds to m the acquisitions the constructor-name rule
// reads in the C functions the package calls (cgo's _Cfunc_ declarations
// in scope).
func inferConstructors(m *Model, pkg *types.Package) {
	sigs, names := calledSigs(pkg)
	// the handle types the package's calls release, with the release
	// that says so
	for _, name := range names {
		sig := sigs[name]
		if sig.Params().Len() == 0 {
			continue
		}
		for _, e := range m.Releases(name, sig) {
			if e.Global || e.Key != None || e.Arg < 0 || e.Arg >= sig.Params().Len() {
				continue
			}
			t := sig.Params().At(e.Arg).Type()
			if e.Indirect {
				p, ok := t.Underlying().(*types.Pointer)
				if !ok {
					continue
				}
				t = p.Elem()
			}
			if isPointerLike(t) && !isVoidPointer(t) {
				m.handleTypes = append(m.handleTypes, handleType{t, e})
			}
		}
	}
	if len(m.handleTypes) == 0 {
		return
	}
	for _, name := range names {
		if len(m.funcs[name]) > 0 || !IsConstructorName(name) {
			continue // a model or a directive says what it does
		}
		sig := sigs[name]
		out, r := None, (*Entry)(nil)
		if res := sig.Results(); res.Len() == 1 {
			r = m.releaseOf(res.At(0).Type())
			if r != nil {
				out = Returned
			}
		}
		if r == nil {
			// the only parameter through which a handle the package
			// releases is written
			for i := range sig.Params().Len() {
				p, ok := sig.Params().At(i).Type().Underlying().(*types.Pointer)
				if !ok {
					continue
				}
				if pr := m.releaseOf(p.Elem()); pr != nil {
					if r != nil {
						r = nil // two: which one is made is unknown
						break
					}
					out, r = i, pr
				}
			}
			if r != nil && !intResult(sig) {
				// the status of a constructor that writes its handle
				// through a parameter is its integer result; without
				// one (void, with an error out-parameter such as
				// rocksdb's char **errptr) a failure is not told
				// apart from a success here
				r = nil
			}
		}
		if r == nil {
			continue
		}
		e := &Entry{Func: name, Role: Acquire, Out: out, Arg: None, Key: None, Parent: None, From: None,
			Counted: r.Counted, ByName: true, Pair: r.Func,
			Source: "constructor-name rule: " + r.Func + " releases what it makes"}
		if !r.Inferred && !r.ByName {
			// the kind a model or a directive gives the release (a body's
			// release of C heap memory says nothing of what its function
			// is for)
			e.Kind, e.Library = r.Kind, r.Library
		}
		m.add(e)
	}
}

// intResult reports whether a function of signature sig returns one
// integer (a status).
func intResult(sig *types.Signature) bool {
	if sig.Results().Len() != 1 {
		return false
	}
	b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// IsHandleType reports whether t is a pointer type that a C function the
// package calls releases (by a model, a directive, its body or the
// destructor-name rule): an owned object's type (rd_kafka_conf_t *), not
// plain memory (char *, void *). Known after the model pass has run.
func (m *Model) IsHandleType(t types.Type) bool {
	return m.releaseOf(t) != nil
}

// A handleType is a pointer type a C function the package calls releases,
// with a release of it (the first found).
type handleType struct {
	t       types.Type
	release *Entry
}

// releaseOf returns the release of pointer type t among the package's
// handle types, or nil.
func (m *Model) releaseOf(t types.Type) *Entry {
	for _, h := range m.handleTypes {
		if types.Identical(h.t, t) {
			return h.release
		}
	}
	return nil
}
