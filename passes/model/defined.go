package model

import (
	"fmt"
	"go/token"
	"slices"

	"github.com/lifetimevet/lifetimevet/passes/cpreamble"
)

// The releases of the package's own C.
//
// A C function that the package's own C defines (a preamble, a .c or a .h
// file of the package) and that no model or directive describes releases
// its parameter p when its body passes p, as received or cast
// (free((void *)h)), to a known release on every path by which it returns,
// or on every path where p is not NULL (if (p) free(p)): a release in the
// model (free, a library's destructor, a //lifetime:release directive), or
// another function of the package's C that releases that parameter by this
// same rule. The body is the evidence, so the parameter's C type does not
// matter: void *, a typedef of void *, an integer handle cast to a
// pointer release alike. The function releases it as the callee does
// (its kind, counted or not, a transfer for a transfer), as the package's
// own (library "preamble", as directives: a leak's suggested release stays
// the library's). A release on some
// paths only (if (flag) free(p)), of something p points to
// (free(p->buf)), or of p after the body changed it (p = p->next) is not
// one; and a function merely declared gets none of this (the
// destructor-name rule reads those, from the prototype).
//
// Inferred entries are marked Inferred: for a call of such a function,
// what it does with its other arguments is still unknown.
//
// The body also corrects the weakest reading of the destructor-name rule:
// a function named only a prefix and a verb (x_free, on_close) whose one
// parameter is an untyped void * is read, for a library, as its free of
// untyped memory (curl_free); when the package defines it, that holds
// only if the body hands the parameter, on some path, to a function that
// is a release or reads as one, or to a macro it does not expand
// (my_free(void *p) { lib_free(p); }, do { free(p); } while (0),
// RELEASE(p)), and not for a callback that merely uses its user data
// (on_close(void *user_data) { closed++; notify(user_data); }).

// inferDefined adds to m the releases of the functions the package's C
// defines, as above.
func inferDefined(m *Model, fset *token.FileSet, c *cpreamble.Result) {
	if c == nil {
		return
	}
	inf := &inferrer{m: m, fset: fset, c: c, memo: map[string][]*Entry{}, busy: map[string]bool{}}
	for _, name := range c.DefinedNames() {
		for _, e := range inf.releases(name) {
			if e.Inferred && e.Func == name {
				m.add(e)
			}
		}
	}
	for _, name := range c.DefinedNames() {
		if len(m.funcs[name]) > 0 {
			continue
		}
		hands, one := true, false
		for _, fn := range c.Defined(name) {
			if len(fn.Params) != 1 {
				continue
			}
			one = true
			// anywhere in the body: the body is evidence against the
			// name only when it hands the parameter to nothing that is,
			// reads as, or may expand to a release (a loop, a
			// do-while, a macro the scanner does not expand)
			hands = hands && slices.ContainsFunc(fn.Passes, func(call cpreamble.ParamCall) bool {
				return slices.Contains(call.Args, 0) && (IsDestructorName(call.Name) || len(inf.releases(call.Name)) > 0 || c.Macro(call.Name))
			})
		}
		if one {
			if m.handsOn == nil {
				m.handsOn = map[string]bool{}
			}
			m.handsOn[name] = hands
		}
	}
}

type inferrer struct {
	m    *Model
	fset *token.FileSet
	c    *cpreamble.Result
	memo map[string][]*Entry // the inferred releases of a defined function
	busy map[string]bool     // being inferred: a recursion
}

// releases returns the release entries of the C function name: the
// model's, or those inferred from the package's definition of it.
func (inf *inferrer) releases(name string) []*Entry {
	if es := inf.m.funcs[name]; len(es) > 0 {
		var out []*Entry
		for _, e := range es {
			if (e.Role == Release || e.Role == Transfer) && !e.Global && !e.Indirect && e.Key == None {
				out = append(out, e)
			}
		}
		return out
	}
	if es, ok := inf.memo[name]; ok {
		return es
	}
	if inf.busy[name] {
		return nil
	}
	defs := inf.c.Defined(name)
	if len(defs) == 0 {
		return nil
	}
	inf.busy[name] = true
	defer delete(inf.busy, name)
	// every definition must release the parameter (static functions of
	// two files may share a name)
	var out []*Entry
	for k, fn := range defs {
		es := inf.fromBody(fn)
		if k == 0 {
			out = es
			continue
		}
		out = slices.DeleteFunc(out, func(e *Entry) bool {
			return !slices.ContainsFunc(es, func(o *Entry) bool { return o.Arg == e.Arg && o.Role == e.Role })
		})
	}
	inf.memo[name] = out
	return out
}

// fromBody returns the releases of fn's parameters that its body makes on
// every path.
func (inf *inferrer) fromBody(fn *cpreamble.Func) []*Entry {
	var out []*Entry
	done := map[int]bool{}
	for _, call := range fn.Always {
		var callee []*Entry
		if slices.ContainsFunc(call.Args, func(p int) bool { return p >= 0 && !done[p] }) {
			callee = inf.releases(call.Name)
		}
		for _, ce := range callee {
			if ce.Arg < 0 || ce.Arg >= len(call.Args) {
				continue
			}
			p := call.Args[ce.Arg]
			if p < 0 || done[p] {
				continue
			}
			done[p] = true
			param := fn.Params[p]
			out = append(out, &Entry{Func: fn.Name, Role: ce.Role, Arg: p, Key: None, Parent: None, From: None, Out: Returned,
				Kind: ce.Kind, Counted: ce.Counted, Library: "preamble", Doc: ce.Doc, Inferred: true,
				Source: fmt.Sprintf("%s: %s passes %s to %s", inf.fset.Position(call.Pos), fn.Name, param, call.Name)})
		}
	}
	return out
}
