// Package stmtedit finds where a suggested fix may insert a statement
// next to the statement that holds an expression: in the statement list
// that really holds it (a block, or the body of a case or comm clause,
// through labels), before it when control never gets past it (a
// terminating statement, as the Go specification defines it), after it
// otherwise, and without joining it to code that shares its line.
package stmtedit

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Enclosing returns, for the path from a node up to its file (as
// astutil.PathEnclosingInterval gives it, innermost first), the innermost
// statement that is an element of a statement list: stmt is that element
// (with its labels), inner the statement under the labels, and depth the
// number of blocks around it, in enclosing functions too (its
// indentation in gofmt's layout). ok is
// false when no statement of a list holds the node (it is in a
// declaration outside a function, or in a function's signature).
func Enclosing(path []ast.Node) (stmt, inner ast.Stmt, depth int, ok bool) {
	at := -1
	for i, n := range path {
		s, isStmt := n.(ast.Stmt)
		if !isStmt || i+1 >= len(path) {
			// (a function literal on the way up, before any statement,
			// holds the node in its signature, not its body: cgo's
			// wrapper of a call, func() T { ... }(), at the call's
			// position; the statement is the one the wrapper is in)
			if _, fn := n.(*ast.FuncDecl); fn && at < 0 {
				return nil, nil, 0, false
			}
			continue
		}
		if at < 0 && !isClause(s) && inList(path[i+1], s) {
			at = i
			stmt = s
		}
		if _, block := n.(*ast.BlockStmt); block && at >= 0 && i > at {
			depth++
		}
	}
	if stmt == nil {
		return nil, nil, 0, false
	}
	inner = stmt
	for {
		l, ok := inner.(*ast.LabeledStmt)
		if !ok {
			break
		}
		inner = l.Stmt
	}
	return stmt, inner, depth, true
}

// isClause reports whether s is a case or comm clause: an element of a
// switch or select body's list, but no statement a fix can go beside.
func isClause(s ast.Stmt) bool {
	switch s.(type) {
	case *ast.CaseClause, *ast.CommClause:
		return true
	}
	return false
}

// inList reports whether s is an element of a statement list of parent:
// a block's statements, a case or comm clause's body (not the comm
// clause's send or receive, which is no element of a list).
func inList(parent ast.Node, s ast.Stmt) bool {
	var list []ast.Stmt
	switch p := parent.(type) {
	case *ast.BlockStmt:
		list = p.List
	case *ast.CaseClause:
		list = p.Body
	case *ast.CommClause:
		list = p.Body
	}
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// InList reports whether s is an element of a statement list in file (see
// Enclosing): a statement that a fix can delete, or insert another
// beside, without taking a label or an if's init with it.
func InList(path []ast.Node, s ast.Stmt) bool {
	for i, n := range path {
		if n == s {
			return i+1 < len(path) && !isClause(s) && inList(path[i+1], s)
		}
	}
	return false
}

// Terminates reports whether s is a terminating statement as the Go
// specification defines it: control never reaches the statement after it
// (it returns, panics, jumps away, or loops forever). info, if not nil,
// tells a call of the built-in panic from a function of that name.
func Terminates(s ast.Stmt, info *types.Info) bool {
	return terminates(s, "", info)
}

func terminates(s ast.Stmt, label string, info *types.Info) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok == token.GOTO || s.Tok == token.FALLTHROUGH
	case *ast.ExprStmt:
		return isPanic(s.X, info)
	case *ast.BlockStmt:
		return endsTerminating(s.List, info)
	case *ast.IfStmt:
		return s.Else != nil && terminates(s.Body, "", info) && terminates(s.Else, "", info)
	case *ast.LabeledStmt:
		return terminates(s.Stmt, s.Label.Name, info)
	case *ast.ForStmt:
		return s.Cond == nil && !hasBreak(s.Body, label, true)
	case *ast.SwitchStmt:
		return clausesTerminate(s.Body, label, info, true)
	case *ast.TypeSwitchStmt:
		return clausesTerminate(s.Body, label, info, true)
	case *ast.SelectStmt:
		return clausesTerminate(s.Body, label, info, false)
	}
	return false
}

// Completes reports whether control may reach the end of s and go on to
// the statement after it: s does not return, panic, loop forever or leave
// by a break, continue or goto to elsewhere on every path. It does not
// follow gotos into s (a function with a goto is the caller's to refuse).
func Completes(s ast.Stmt, info *types.Info) bool {
	return completes(s, "", info)
}

func completes(s ast.Stmt, label string, info *types.Info) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		// (a break or continue of a statement of s is counted there)
		return false
	case *ast.ExprStmt:
		return !isPanic(s.X, info)
	case *ast.BlockStmt:
		return listCompletes(s.List, info)
	case *ast.IfStmt:
		return s.Else == nil || completes(s.Body, "", info) || completes(s.Else, "", info)
	case *ast.LabeledStmt:
		return completes(s.Stmt, s.Label.Name, info)
	case *ast.ForStmt:
		return s.Cond != nil || hasBreak(s.Body, label, true)
	case *ast.SwitchStmt:
		return clausesComplete(s.Body, label, info, true)
	case *ast.TypeSwitchStmt:
		return clausesComplete(s.Body, label, info, true)
	case *ast.SelectStmt:
		return clausesComplete(s.Body, label, info, false)
	}
	return true
}

func listCompletes(list []ast.Stmt, info *types.Info) bool {
	for _, s := range list {
		if !completes(s, "", info) {
			return false
		}
	}
	return true
}

// clausesComplete: a switch without a default (needDefault), or a switch
// or select with a clause that completes or a break out of it.
func clausesComplete(body *ast.BlockStmt, label string, info *types.Info, needDefault bool) bool {
	hasDefault := false
	for _, c := range body.List {
		var list []ast.Stmt
		switch c := c.(type) {
		case *ast.CaseClause:
			hasDefault = hasDefault || c.List == nil
			list = c.Body
		case *ast.CommClause:
			list = c.Body
		}
		if listCompletes(list, info) {
			return true
		}
		for _, s := range list {
			if hasBreak(s, label, true) {
				return true
			}
		}
	}
	return needDefault && !hasDefault
}

// HasContinue reports whether s holds a continue that may take a loop
// around s: one with a label, or one without that neither s nor a loop
// inside it takes.
func HasContinue(s ast.Stmt) bool {
	found := false
	var walk func(n ast.Node, inLoop bool)
	walk = func(n ast.Node, inLoop bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if found || m == nil {
				return false
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				found = m.Tok == token.CONTINUE && (m.Label != nil || !inLoop)
			case *ast.ForStmt, *ast.RangeStmt:
				if m != n {
					walk(m, true)
					return false
				}
			}
			return true
		})
	}
	_, isFor := s.(*ast.ForStmt)
	_, isRange := s.(*ast.RangeStmt)
	walk(s, isFor || isRange) // (s's own continues take s around)
	return found
}

func endsTerminating(list []ast.Stmt, info *types.Info) bool {
	for i := len(list) - 1; i >= 0; i-- {
		if _, empty := list[i].(*ast.EmptyStmt); empty {
			continue
		}
		return terminates(list[i], "", info)
	}
	return false
}

// clausesTerminate: a switch (needDefault) or select whose clauses all
// end in a terminating statement (or, in a switch, a fallthrough), with
// no break out of it.
func clausesTerminate(body *ast.BlockStmt, label string, info *types.Info, needDefault bool) bool {
	hasDefault := false
	for _, c := range body.List {
		var list []ast.Stmt
		switch c := c.(type) {
		case *ast.CaseClause:
			hasDefault = hasDefault || c.List == nil
			list = c.Body
		case *ast.CommClause:
			list = c.Body
		}
		if !endsTerminating(list, info) {
			return false
		}
		for _, s := range list {
			if hasBreak(s, label, true) {
				return false
			}
		}
	}
	return hasDefault || !needDefault
}

// hasBreak reports whether n holds a break out of the statement it is
// the body of: one with label, or, when implicit, one without a label
// that no loop, switch or select inside n takes.
func hasBreak(n ast.Node, label string, implicit bool) bool {
	found := false
	var walk func(n ast.Node, implicit bool)
	walk = func(n ast.Node, implicit bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if found || m == nil {
				return false
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				if m.Tok == token.BREAK && (m.Label == nil && implicit || m.Label != nil && m.Label.Name == label && label != "") {
					found = true
				}
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if m != n {
					walk(m, false)
					return false
				}
			}
			return true
		})
	}
	walk(n, implicit)
	return found
}

func isPanic(x ast.Expr, info *types.Info) bool {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || id.Name != "panic" {
		return false
	}
	if info == nil {
		return true
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == "panic"
}

// HasGoto reports whether body holds a goto (outside function literals).
func HasGoto(body ast.Node) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			found = n.Tok == token.GOTO
		}
		return true
	})
	return found
}

// Breakable reports whether s is a statement a break or continue label
// can name (a loop, a switch, a select): moving its label to a statement
// put before it would break them.
func Breakable(s ast.Stmt) bool {
	switch s.(type) {
	case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		return true
	}
	return false
}

// LineEnd returns where, in source src, a statement that ends at offset
// end is followed by the end of its line: the offset after the comments
// that end the line with it (and a semicolon before them), where a
// statement inserted after it on a new line keeps them on its line. ok is
// false when other code follows it on its line (another statement, a
// closing brace): a new line must then be inserted at end itself, before
// that code.
func LineEnd(src []byte, end int) (at int, ok bool) {
	if end < 0 || end > len(src) {
		return end, false
	}
	at = end
	i := end
	for i < len(src) {
		switch c := src[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == '\n' || c == '\r':
			return at, true
		case c == ';':
			i++
			at = i
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := i
			for j < len(src) && src[j] != '\n' {
				j++
			}
			if j > i && src[j-1] == '\r' {
				j--
			}
			return j, true
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := i + 2
			for j+1 < len(src) && !(src[j] == '*' && src[j+1] == '/') {
				j++
			}
			if j+1 >= len(src) {
				return end, false
			}
			i = j + 2
			at = i
		default:
			return end, false
		}
	}
	return at, true
}

// WidenDeletion widens the deletion of src[start:end] so that it leaves no
// trailing blanks: when only spaces and tabs follow it to the end of its
// line (a line feed, CRLF or the end of src), those blanks go, and so do
// the blanks before start. The edit itself is then clean, as gofmt would
// leave the line, for every consumer of it (an editor's code action, SARIF,
// go vet -fix), not only for one that formats the file afterwards.
func WidenDeletion(src []byte, start, end int) (int, int) {
	if start < 0 || end > len(src) || start > end {
		return start, end
	}
	e := end
	for e < len(src) && (src[e] == ' ' || src[e] == '\t') {
		e++
	}
	if e < len(src) && src[e] != '\n' && !(src[e] == '\r' && e+1 < len(src) && src[e+1] == '\n') {
		return start, end // code or a comment follows on the line
	}
	s := start
	for s > 0 && (src[s-1] == ' ' || src[s-1] == '\t') {
		s--
	}
	return s, e
}
