package cpreamble

// What a function of the package's C does with a pointer it is given.
//
// A function may keep its parameter beyond the call (store it in a
// variable or a field, return it, take its address, hand it to code that
// may keep it) or only use it during the call (read or write through it,
// compare it, test it for NULL). Go needs to know which: a handle handed
// to a function that keeps it is no longer only the caller's to release,
// and one handed to a function that only uses it still is. The body is
// the evidence: every place the parameter's name appears is read, and
// any place the reading does not recognise as a use counts as a keep.
// A call it is passed to keeps it unless the callee is a function of the
// package's C that does not keep it (read the same way) or a C library
// function that only reads or writes through its pointers (memcpy,
// strlen, printf, …).

// usesOnly are the C library functions that read or write through their
// pointer arguments during the call and keep none of them.
var usesOnly = map[string]bool{
	"memset": true, "memcpy": true, "memmove": true, "memcmp": true,
	"strlen": true, "strnlen": true, "strcmp": true, "strncmp": true, "strcasecmp": true, "strncasecmp": true,
	"strcpy": true, "strncpy": true, "strcat": true, "strncat": true,
	"printf": true, "fprintf": true, "sprintf": true, "snprintf": true, "vsnprintf": true, "vfprintf": true,
	"puts": true, "fputs": true, "fwrite": true, "fread": true, "perror": true,
	"assert": true,
}

// uncaptured returns, for each parameter of a function whose body is
// toks, whether the body uses it only in ways that keep nothing (see
// above), leaving out the places where it is passed whole to a call
// (calls, by offset of the argument's token): those are judged with the
// callee (Result.MayKeep).
func uncaptured(toks []tok, params []string, calls map[int]bool) []bool {
	out := make([]bool, len(params))
	idx := map[string]int{}
	for i, p := range params {
		if p != "" {
			idx[p] = i
			out[i] = true
		}
	}
	text := func(i int) string {
		if i < 0 || i >= len(toks) {
			return ""
		}
		return toks[i].text
	}
	for i, t := range toks {
		j, ok := idx[t.text]
		if t.kind != ident || !ok || !out[j] || calls[t.off] {
			continue
		}
		next, prev := text(i+1), text(i-1)
		switch {
		case next == "->" || next == "." || next == "[" || next == "(":
			// a member, an element, a call through a function pointer
		case prev == "*" || prev == "sizeof" || prev == "(" && text(i-2) == "sizeof":
			// what it points to, or its size
		case prev == "->" || prev == ".":
			// a member of the same name as the parameter
		case next == "==" || next == "!=" || next == "<" || next == ">" || next == "<=" || next == ">=",
			prev == "==" || prev == "!=" || prev == "<" || prev == ">" || prev == "<=" || prev == ">=":
			// compared
		case prev == "!" || next == "&&" || next == "||" || next == "?" || prev == "&&" || prev == "||",
			next == ")" && prev == "(" && (text(i-2) == "if" || text(i-2) == "while"):
			// tested
		case next == "=" && (prev == ";" || prev == "{" || prev == "}" || prev == ")"):
			// the parameter itself set to something else
		case next == ";" && prev == ")" && text(i-2) == "void" && text(i-3) == "(":
			// (void)p;
		default:
			out[j] = false // stored, returned, its address taken, or not understood
		}
	}
	return out
}

// keeps computes, for every function of the package's C, which of its
// parameters it may keep (r.keep), once the functions are all read.
func (r *Result) keeps(funcs []*Func) {
	r.keep = map[*Func][]bool{}
	busy := map[*Func]bool{}
	var of func(fn *Func) []bool
	of = func(fn *Func) []bool {
		if k, ok := r.keep[fn]; ok {
			return k
		}
		k := make([]bool, len(fn.Params))
		if busy[fn] {
			for i := range k {
				k[i] = true // a recursion: what it does is not worked out
			}
			return k
		}
		busy[fn] = true
		defer delete(busy, fn)
		for i := range k {
			k[i] = i >= len(fn.uncaptured) || !fn.uncaptured[i]
		}
		for _, call := range fn.Passes {
			if usesOnly[call.Name] {
				continue
			}
			callees := r.Defined(call.Name)
			for a, p := range call.Args {
				if p < 0 || p >= len(k) || k[p] {
					continue
				}
				if len(callees) == 0 {
					k[p] = true // a function unknown here (a library's): it may keep it
					continue
				}
				for _, c := range callees {
					if ck := of(c); a >= len(ck) || ck[a] {
						k[p] = true
					}
				}
			}
		}
		r.keep[fn] = k
		return k
	}
	for _, fn := range funcs {
		of(fn)
	}
}

// MayKeep reports whether the C function name may keep its argument i
// beyond the call: true unless every definition of it in the package's
// C uses parameter i only during the call (see keeps.go). A function the
// package's C does not define may keep anything.
func (r *Result) MayKeep(name string, i int) bool {
	if r == nil {
		return true
	}
	defs := r.Defined(name)
	if len(defs) == 0 {
		return true
	}
	for _, fn := range defs {
		k, ok := r.keep[fn]
		if !ok || i < 0 || i >= len(k) || k[i] {
			return true
		}
	}
	return false
}
