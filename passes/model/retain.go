package model

import (
	"go/types"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lifetimevet/lifetimevet/passes/cgocall"
)

// The retain-name rule, for C functions no model describes.
//
// A reference-counted object has a retain that adds a reference and a
// release that drops one: obj_ref and obj_unref, gst_object_ref and
// gst_object_unref, CFRetain and CFRelease, IUnknown_AddRef and
// IUnknown_Release, Py_IncRef and Py_DecRef. A function whose name ends in
// a retain verb (ref, retain, incref, addref) is a retain when the package
// also calls its pair, the same name with the verb replaced by its
// counterpart (unref, release, decref), and the pair releases an argument
// (by a model, a directive, its body or the destructor-name rule): the
// retain adds a reference to its argument of the type the pair releases,
// as a model's "acquire NAME key=N" does. The pair is the evidence: a name
// that merely ends in "ref" (a getter of a reference field, a cross
// reference) is nothing without a release of the same object. Calls of a
// retain are followed as a model's are: the handle it is given holds a
// reference more, whatever its origin, so a release that balances the
// retain is no double release.

// retainSuffixes pairs the spellings of a retain verb, at the end of a
// name, with those of the verb that drops what it adds.
var retainSuffixes = []struct{ retain, release string }{
	{"_ref", "_unref"}, {"_Ref", "_Unref"}, {"_REF", "_UNREF"},
	{"Ref", "Unref"}, {"Ref", "UnRef"},
	{"_retain", "_release"}, {"_Retain", "_Release"}, {"_RETAIN", "_RELEASE"}, {"Retain", "Release"},
	{"_incref", "_decref"}, {"_inc_ref", "_dec_ref"}, {"IncRef", "DecRef"}, {"_INCREF", "_DECREF"}, {"_INC_REF", "_DEC_REF"},
	{"_addref", "_release"}, {"_addRef", "_release"}, {"AddRef", "Release"}, {"_add_ref", "_release"},
}

// retainPairNames returns the names that would be the release pairing with
// name if name is a retain (obj_ref: obj_unref; CFRetain: CFRelease), or
// nil when name does not end in a retain verb.
func retainPairNames(name string) []string {
	var out []string
	for _, p := range retainSuffixes {
		prefix, ok := strings.CutSuffix(name, p.retain)
		if !ok || strings.Trim(prefix, "_") == "" {
			continue
		}
		if strings.HasPrefix(p.retain, "_") && strings.HasSuffix(prefix, "_") {
			continue // obj__ref
		}
		if !strings.HasPrefix(p.retain, "_") {
			// a capitalised verb starts a word of its own (ObjRef,
			// CFRetain, Py_IncRef), not one that a longer word ends
			// with: Deref and Xref hold no verb
			if r, _ := utf8.DecodeLastRuneInString(prefix); r != '_' && !unicode.IsLower(r) && !unicode.IsDigit(r) && !(unicode.IsUpper(r) && len(prefix) >= 2) {
				continue
			}
		}
		if !slices.Contains(out, prefix+p.release) {
			out = append(out, prefix+p.release)
		}
	}
	return out
}

// inferResets marks the C functions named as an unref (av_packet_unref,
// av_frame_unref) that the package calls beside a destructor of the same
// object type that takes the object's address (av_packet_free(AVPacket
// **)): the owning free, which ends the object and sets the caller's
// pointer to NULL. There the unref is not how the object ends, but how it
// drops what it references and is reset for reuse (FFmpeg's demux loop
// unrefs one packet per frame and frees it once). An unref stays the
// release where it is its type's only one (g_object_unref), where the
// other destructor takes the object itself (g_ptr_array_free(GPtrArray *,
// gboolean), which drops a reference as g_ptr_array_unref does), or where
// the package calls its retain (g_source_ref(GSource *) returning the
// GSource: a count of references to the object itself, which the unref
// drops).
func inferResets(m *Model, pkg *types.Package) {
	sigs, names := calledSigs(pkg)
	object := func(name string) (types.Type, bool) {
		for _, e := range m.Releases(name, sigs[name]) {
			if e.ByName && e.Arg >= 0 && e.Arg < sigs[name].Params().Len() {
				return derefAll(sigs[name].Params().At(e.Arg).Type()), e.Indirect
			}
		}
		return nil, false
	}
	// retained reports whether the package calls a retain of t paired
	// with the unref name: a function taking a t and returning one
	retained := func(name string, t types.Type) bool {
		for _, r := range names {
			if !slices.Contains(retainPairNames(r), name) {
				continue
			}
			sig := sigs[r]
			if sig.Params().Len() >= 1 && sig.Results().Len() == 1 &&
				types.Identical(derefAll(sig.Params().At(0).Type()), t) && types.Identical(derefAll(sig.Results().At(0).Type()), t) {
				return true
			}
		}
		return false
	}
	for _, name := range names {
		verb, _, ok := destructorName(name)
		if !ok || verb != "unref" || len(m.funcs[name]) > 0 {
			continue
		}
		t, indirect := object(name)
		if t == nil || indirect || retained(name, t) {
			continue
		}
		for _, other := range names {
			if v, _, ok := destructorName(other); !ok || v == "unref" || other == name {
				continue
			}
			if o, ind := object(other); o != nil && ind && types.Identical(o, t) {
				if m.resets == nil {
					m.resets = map[string]bool{}
				}
				m.resets[name] = true
				break
			}
		}
	}
}

// derefAll returns t without its levels of pointer.
func derefAll(t types.Type) types.Type {
	for range 4 {
		p, ok := t.Underlying().(*types.Pointer)
		if !ok {
			break
		}
		t = p.Elem()
	}
	return types.Unalias(t)
}

// inferRetains adds to m the retains the retain-name rule reads in the C
// functions the package calls (cgo's _Cfunc_ declarations in scope).
func inferRetains(m *Model, pkg *types.Package) {
	sigs, names := calledSigs(pkg)
	for _, name := range names {
		if len(m.funcs[name]) > 0 {
			continue // a model or a directive says what it does
		}
		if e := m.retainByName(name, sigs[name], sigs); e != nil {
			m.add(e)
		}
	}
}

// retainByName returns the retain the retain-name rule reads in name, of
// signature sig, given the signatures of the other C functions the package
// calls, or nil.
func (m *Model) retainByName(name string, sig *types.Signature, sigs map[string]*types.Signature) *Entry {
	for _, pair := range retainPairNames(name) {
		psig := sigs[pair]
		if psig == nil || psig.Params().Len() == 0 {
			continue
		}
		for _, r := range m.Releases(pair, psig) {
			if r.Global || r.Indirect || r.Role != Release || r.Arg < 0 || r.Arg >= psig.Params().Len() {
				continue
			}
			want := psig.Params().At(r.Arg).Type()
			key := -1
			if r.Arg < sig.Params().Len() && types.Identical(sig.Params().At(r.Arg).Type(), want) {
				key = r.Arg
			} else {
				for i := range sig.Params().Len() {
					if types.Identical(sig.Params().At(i).Type(), want) {
						if key >= 0 {
							key = -2 // two candidates: which one is retained is unknown
							break
						}
						key = i
					}
				}
			}
			if key < 0 || !isPointerLike(want) {
				continue
			}
			e := &Entry{Func: name, Role: Acquire, Out: None, Arg: 0, Key: key, Parent: None, From: None,
				Counted: true, ByName: true, Source: "retain-name rule: the pair of " + pair}
			if res := sig.Results(); res.Len() == 1 && types.Identical(res.At(0).Type(), want) {
				e.Out = Returned // returns the handle it retains (obj_ref(o) returns o)
			}
			return e
		}
	}
	return nil
}

// calledSigs returns the Go signatures cgo gives the C functions the
// package calls (its _Cfunc_ declarations in scope, variadic ones left
// out), and their names, sorted.
func calledSigs(pkg *types.Package) (map[string]*types.Signature, []string) {
	sigs := map[string]*types.Signature{}
	for _, n := range pkg.Scope().Names() {
		c := cgocall.CName(n)
		if c == "" {
			continue
		}
		if sig, ok := pkg.Scope().Lookup(n).Type().Underlying().(*types.Signature); ok && !sig.Variadic() {
			sigs[c] = sig
		}
	}
	names := make([]string, 0, len(sigs))
	for n := range sigs {
		names = append(names, n)
	}
	slices.Sort(names)
	return sigs, names
}
