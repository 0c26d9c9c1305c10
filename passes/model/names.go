package model

import (
	"go/types"
	"slices"
	"strings"
)

// The destructor-name rule, for C functions no model mentions.
//
// A function named like a destructor releases the argument whose C type
// the name's object part names: rados_object_list_cursor_free(io, cursor)
// frees the cursor, ZSTD_freeCCtx(c) the ZSTD_CCtx, DestroyMagickWand(w)
// the MagickWand. The verb may end the name (cuStreamDestroy, nft_free) or
// start it (free_verifier, DestroyMagickWand, ZSTD_freeCCtx). The name is
// read against the C prototype that cgo gives the function (the _Cfunc_
// signature): a setter or a getter whose name merely ends in a verb
// (WandSetImageDispose(w, d): its object part, "WandSetImage", names no
// argument's type), or a delete of a key (rocksdb_delete(db, opts, key, n,
// &err): a delete that takes more than its object), is not a release, and
// when no argument fits there is no release. One exception keeps the
// library-wide frees of untyped memory: a function of one void* parameter
// whose name is a library prefix and the verb (curl_free(p), av_free(p)).
// A destructor given the handle's address (av_frame_free(AVFrame **),
// av_packet_free(AVPacket **)) releases the handle that address points to
// and sets it to NULL: that is what the extra level of pointer is for. It releases the pointee, indirect and clearing, as a
// model's "indirect clears" entry does; the address (&f.p) is no handle.
// An unref that the package calls beside a destructor of the same object
// type that takes its address (av_packet_unref and av_packet_free(AVPacket
// **)) resets the object for reuse rather than ending it, and is not read
// as a release, unless the package also calls its retain (inferResets).

// destructorVerbs are the words that make a name read as a destructor.
var destructorVerbs = map[string]bool{
	"free": true, "destroy": true, "release": true, "close": true, "delete": true,
	"unref": true, "dispose": true,
}

// destructorName splits a name into its destructor verb and its object
// part (the other words, in order); ok is false when the name does not
// read as a destructor. Plain "free" and "close" (the libc functions,
// modelled there) have no object part and are not destructor names.
func destructorName(name string) (verb string, object []string, ok bool) {
	words := splitWords(name)
	if len(words) < 2 {
		return "", nil, false
	}
	without := func(i int) []string {
		out := append([]string(nil), words[:i]...)
		return append(out, words[i+1:]...)
	}
	if last := strings.ToLower(words[len(words)-1]); destructorVerbs[last] {
		return last, without(len(words) - 1), true
	}
	// verb first: free_verifier, DestroyMagickWand
	if first := strings.ToLower(words[0]); destructorVerbs[first] {
		return first, without(0), true
	}
	// verb first after a library prefix, glued to its object:
	// ZSTD_freeCCtx (not set_release_date, where "release" is a word of
	// its own in the middle of the name)
	if len(words) >= 3 {
		if second := strings.ToLower(words[1]); destructorVerbs[second] {
			if i := strings.Index(name, words[0]) + len(words[0]); i < len(name) {
				rest := strings.TrimLeft(name[i:], "_")
				if len(rest) > len(words[1]) && strings.HasPrefix(rest, words[1]) && isUpper(rest[len(words[1])]) {
					return second, without(1), true
				}
			}
		}
	}
	return "", nil, false
}

func isUpper(b byte) bool { return 'A' <= b && b <= 'Z' }

// IsDestructorName reports whether a C function name reads as a
// destructor: a word "free", "destroy", "release", "close", "delete",
// "unref" or "dispose" at its end (nft_free, cuStreamDestroy,
// g_object_unref) or at its start (free_verifier, DestroyMagickWand,
// ZSTD_freeCCtx). Which argument it releases, if any, depends on the
// prototype (see Model.Releases).
func IsDestructorName(name string) bool {
	_, _, ok := destructorName(name)
	return ok
}

// nameRelease returns the index of the argument that a call of name, with
// the Go signature cgo gives it, releases by the destructor-name rule, or
// -1.
func nameRelease(name string, sig *types.Signature) int {
	arg, _ := nameReleaseOf(name, sig)
	return arg
}

// nameReleaseOf is nameRelease, and reports whether the reading is the
// weakest one: a library's free of untyped memory (curl_free(void *p)),
// which no type confirms.
func nameReleaseOf(name string, sig *types.Signature) (arg int, untyped bool) {
	verb, object, ok := destructorName(name)
	if !ok || sig == nil || sig.Params().Len() == 0 {
		return -1, false
	}
	params := sig.Params()
	on := normName(strings.Join(object, "_"))
	best, bestScore := -1, 0
	for i := range params.Len() {
		t := params.At(i).Type()
		if !isPointerLike(t) {
			continue
		}
		score := 0
		for _, tn := range cTypeNames(t) {
			score = max(score, nameFit(on, normName(tn)))
			tw := splitWords(strings.TrimPrefix(tn, "struct_"))
			if wordsFit(object, tw) {
				score = max(score, 2)
			}
			if len(object) == 1 && len(tw) > 1 && strings.EqualFold(object[0], tw[0]) {
				// the name is a library prefix and the verb, and the
				// prefix is the type's first word, however short
				// (gp_release(gp_ctx *)): as nameFit's 1
				score = max(score, 1)
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		} else if score == bestScore && score > 0 {
			best = -2 // two arguments fit as well: which one is released is unknown
		}
	}
	if bestScore == 1 && params.Len() > 1 {
		// the name is the library's prefix and the verb, and the type only
		// starts with it: a library-wide destructor takes nothing but its
		// object (ceph_release(cmount)); with more (ceph_close(cmount, fd))
		// it acts on what the other arguments name
		best = -1
	}
	if best == -1 && params.Len() == 1 && len(object) == 1 && isVoidPointer(params.At(0).Type()) {
		best, untyped = 0, true // a library's free of untyped memory: curl_free(p)
	}
	if best < 0 {
		return -1, false
	}
	if verb == "delete" && params.Len() > 1 {
		// a delete that takes more than its object may remove a key from
		// it (rocksdb_delete(db, opts, key, n, &err)) rather than free it
		return -1, false
	}
	return best, untyped
}

// nameFit scores how well a type name (normalised) fits a name's object
// part (normalised): 3 for the same name, 2 when one ends with the other
// (the object part or the type adds a library prefix: tensor_free and
// my_tensor_t, image_free and VipsImage), 1 when the type name starts
// with the object part (a library's free of its context: ggml_free and
// ggml_context), 0 for no fit.
func nameFit(object, typ string) int {
	switch {
	case object == "" || len(typ) < 2:
		return 0
	case object == typ:
		return 3
	case len(typ) >= 3 && strings.HasSuffix(object, typ), len(object) >= 3 && strings.HasSuffix(typ, object):
		return 2
	case len(object) >= 3 && strings.HasPrefix(typ, object):
		return 1
	}
	return 0
}

// wordsFit reports whether a type's words fit a name's object part word
// for word, aligned from the end (the head noun last), where a word may
// abbreviate the other (fdb_database_destroy and fdb_db, stmt_close and
// sql_statement): each of the shorter list's words matches.
func wordsFit(object, typ []string) bool {
	typ = slices.DeleteFunc(slices.Clone(typ), func(w string) bool {
		w = strings.ToLower(w)
		return w == "t" || w == "s" || w == "st"
	})
	n := min(len(object), len(typ))
	if n == 0 {
		return false
	}
	for i := 1; i <= n; i++ {
		a, b := strings.ToLower(object[len(object)-i]), strings.ToLower(typ[len(typ)-i])
		if a != b && !abbreviates(a, b) && !abbreviates(b, a) {
			return false
		}
	}
	return true
}

// abbreviates reports whether a is an abbreviation of the word b: shorter,
// of two letters or more, with b's first letter and the rest of its letters
// in b's order (db: database, ctx: context, img: image).
func abbreviates(a, b string) bool {
	if len(a) < 2 || len(a) >= len(b) || a[0] != b[0] {
		return false
	}
	j := 1
	for i := 1; i < len(b) && j < len(a); i++ {
		if b[i] == a[j] {
			j++
		}
	}
	return j == len(a)
}

// normName lowers a C name and drops its underscores and the type-name
// suffixes "_t", "_s" and "_st" (ZSTD_CCtx_s, cudaStream_t, CUstream_st).
func normName(s string) string {
	s = strings.TrimPrefix(s, "struct_")
	s = strings.TrimPrefix(s, "union_")
	for _, suf := range []string{"_t", "_s", "_st"} {
		if t, ok := strings.CutSuffix(s, suf); ok && t != "" {
			s = t
			break
		}
	}
	return strings.ToLower(strings.ReplaceAll(s, "_", ""))
}

// cTypeNames returns the C names of a parameter type as cgo writes it:
// the name of the named type (without cgo's _Ctype_ prefix) and of what it
// points to, and the typedef names that cgo declares as aliases of them
// (typedef struct { ... } obj makes obj an alias of an anonymous struct).
func cTypeNames(t types.Type) []string {
	var out []string
	for range 3 {
		if a, ok := t.(*types.Alias); ok {
			out = append(out, ctypeName(a.Obj()))
			t = types.Unalias(a)
			continue
		}
		if n, ok := t.(*types.Named); ok {
			out = append(out, ctypeName(n.Obj()))
			out = append(out, aliasesOf(n)...)
		}
		p, ok := t.Underlying().(*types.Pointer)
		if !ok {
			break
		}
		t = p.Elem()
	}
	var names []string
	for _, n := range out {
		if n != "" && !isAnonymous(n) {
			names = append(names, n)
		}
	}
	return names
}

func ctypeName(obj *types.TypeName) string {
	name, ok := strings.CutPrefix(obj.Name(), "_Ctype_")
	if !ok || name == "void" {
		return ""
	}
	return name
}

// isAnonymous reports whether a cgo type name is one cgo made up for an
// anonymous struct (struct___0).
func isAnonymous(name string) bool {
	rest, ok := strings.CutPrefix(name, "struct___")
	if !ok {
		rest, ok = strings.CutPrefix(name, "union___")
	}
	return ok && rest != "" && strings.Trim(rest, "0123456789") == ""
}

// aliasesOf returns the C typedef names cgo declares, in n's package, as
// aliases of n (type _Ctype_obj = _Ctype_struct___0), or as pointers to it
// (type _Ctype_CUstream *_Ctype_struct_CUstream_st).
func aliasesOf(n *types.Named) []string {
	pkg := n.Obj().Pkg()
	if pkg == nil || !strings.HasPrefix(n.Obj().Name(), "_Ctype_struct_") && !strings.HasPrefix(n.Obj().Name(), "_Ctype_union_") {
		return nil
	}
	var out []string
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		if !strings.HasPrefix(name, "_Ctype_") || name == n.Obj().Name() {
			continue
		}
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		t := tn.Type()
		if a, ok := t.(*types.Alias); ok {
			t = types.Unalias(a)
		} else if p, ok := t.Underlying().(*types.Pointer); ok && tn.Type() != t.Underlying() {
			t = p.Elem()
		}
		if types.Identical(t, n) {
			out = append(out, ctypeName(tn))
		}
	}
	return out
}

func isVoidPointer(t types.Type) bool {
	if b, ok := t.Underlying().(*types.Basic); ok && b.Kind() == types.UnsafePointer {
		_, named := t.(*types.Named)
		return !named // a typedef of void* names a handle type
	}
	return false
}

// CallbackDestructorArg returns the parameter that a Go function C calls
// back (an //export function) is given to release by the destructor-name
// rule: its name, without a trailing "callback", "cb" or "hook", reads as
// the destructor of that parameter's C type (credentialFree(cred
// *C.credential), streamFreeCallback(s *C.stream)), as the hook a library
// calls to free an object installed with it does. -1 when none fits.
func CallbackDestructorArg(name string, sig *types.Signature) int {
	words := splitWords(name)
	if n := len(words); n > 2 {
		switch strings.ToLower(words[n-1]) {
		case "callback", "cb", "hook":
			name = strings.Join(words[:n-1], "_")
		}
	}
	return nameRelease(name, sig)
}

// IsSubject reports whether argument i of the C function name, with the
// Go signature cgo gives it, is the function's subject: the first
// argument, of a pointer type that the name's leading words name, as a
// method of an object-oriented C API names its object
// (enc_set_level(enc_t *), ZSTD_CCtx_setParameter(ZSTD_CCtx *),
// llama_decode(llama_context *), libStreamStart(lib_stream *)). Such a
// function acts on its subject during the call; what it does with its
// other arguments its name does not tell (engine_adopt(engine *, pipe *)
// may keep the pipe).
func IsSubject(name string, sig *types.Signature, i int) bool {
	if i != 0 || sig == nil || sig.Params().Len() == 0 || !isPointerLike(sig.Params().At(0).Type()) {
		return false
	}
	words := splitWords(name)
	for n := 1; n < len(words); n++ {
		prefix := words[:n]
		on := normName(strings.Join(prefix, "_"))
		for _, tn := range cTypeNames(sig.Params().At(0).Type()) {
			if nameFit(on, normName(tn)) > 0 || wordsFit(prefix, splitWords(strings.TrimPrefix(tn, "struct_"))) {
				return true
			}
		}
	}
	return false
}
