package model

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/lifetimevet/lifetimevet/internal/cgofile"
	"github.com/lifetimevet/lifetimevet/passes/cpreamble"
)

// Analyzers lists the names of lifetimevet's reporting analyzers: the names
// a //lifetime:ignore directive may give.
var Analyzers = []string{
	"doublerelease", "checkthendestroy", "finalizer", "useafterrelease",
	"sharedglobal", "unguardedcounter", "releaseorder", "handleleak",
}

// TypeDirectives are the //lifetime: directives on a type declaration.
type TypeDirectives struct {
	Handle     bool // //lifetime:handle: values own a native resource released exactly once
	ThreadSafe bool // //lifetime:threadsafe: methods may run on several goroutines at once
	Confined   bool // //lifetime:confined: one goroutine at a time
}

// FuncDirectives are the //lifetime: directives on a Go function or method.
// Parameter indices count the receiver first, as in go/ssa.
type FuncDirectives struct {
	Acquire bool  // //lifetime:acquire: the function returns a fresh handle
	Release []int // //lifetime:release [PARAM]: the function releases these parameters
	Borrow  []int // //lifetime:borrow PARAM: the function uses but does not keep the parameter
}

// An Ignore is a //lifetime:ignore directive: it suppresses findings of the
// named analyzers on one line.
type Ignore struct {
	Pos       token.Pos // of the directive
	File      string    // file name of the line it applies to (as positions report it)
	Line      int       // the line it applies to
	Analyzers []string
	Reason    string
}

// A Problem is a malformed or misplaced directive, reported at its position.
type Problem struct {
	Pos token.Pos
	Msg string
}

type directive struct {
	pos  token.Pos
	verb string
	args []string
}

func parseDirective(text string, pos token.Pos) (*directive, *Problem) {
	// (an invisible format character in the verb makes a near miss)
	if rest, ok := strings.CutPrefix(text, "//lifetime:"); ok && strings.IndexFunc(firstField(rest), isFormat) < 0 {
		// A trailing comment ends the directive: //lifetime:handle // why
		if i := strings.Index(rest, " //"); i >= 0 {
			rest = rest[:i]
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 || strings.HasPrefix(rest, " ") {
			return nil, &Problem{pos, "empty //lifetime: directive"}
		}
		return &directive{pos: pos, verb: fields[0], args: fields[1:]}, nil
	}
	if sugg, ok := nearMiss(text); ok {
		return nil, &Problem{pos, nearMissProblem(text, sugg)}
	}
	return nil, nil
}

// firstField returns the first space-separated field of s.
func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

func firstWords(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

var (
	typeVerbs     = []string{"handle", "threadsafe", "confined"}
	funcVerbs     = []string{"acquire", "release", "borrow"}
	preambleVerbs = []string{"acquire", "borrow", "release", "transfer", "override"}
	allVerbs      = []string{"acquire", "borrow", "confined", "handle", "ignore", "override", "release", "threadsafe", "transfer"}
)

// collector gathers the directives of one package.
type collector struct {
	fset     *token.FileSet
	info     *types.Info
	res      *Result
	preamble *Model
	base     *Model                // the built-in model and the model files, which preamble entries must not silently redefine
	file     *ast.File             // the file being read
	predefs  *cpreamble.Predefines // the build's -D and -U, or nil
	// cres is the pass's reading of the package's C, whose arms are
	// decided with the macros of the headers each file includes; nil
	// when there is none (arms are then decided from predefs alone)
	cres *cpreamble.Result
}

// near returns copies of entries whose Source, when it is a position in
// the directory of pos's file (the package's own files: its preamble, its
// .h and .c files), names the file by its base name: a message reported at
// pos then names the other place as the diagnostic's own position reads,
// not by an absolute path.
func (c *collector) near(pos token.Pos, entries []*Entry) []*Entry {
	dir := filepath.Dir(c.fset.Position(pos).Filename)
	out := make([]*Entry, len(entries))
	for i, e := range entries {
		cp := *e
		if file, rest, ok := strings.Cut(e.Source, ":"); ok && filepath.IsAbs(file) && filepath.Dir(file) == dir {
			cp.Source = filepath.Base(file) + ":" + rest
		}
		out[i] = &cp
	}
	return out
}

// inArm returns what of a directive d, or of the problem p of a
// malformed one, the arm of the C it is in leaves to read: in an arm the
// build certainly does not compile, nothing; in one whose condition the
// checker cannot decide (cond, the directive at dir), the problem (a
// typo is one wherever it is) and, for a directive, a problem saying that
// it is not read, so that it never switches a check off unseen.
func (c *collector) inArm(a cpreamble.Arm, dir token.Pos, cond string, d *directive, p *Problem) (*directive, *Problem) {
	switch a {
	case cpreamble.ArmDead:
		return nil, nil
	case cpreamble.ArmUndecided:
		if d != nil {
			where := "a C conditional arm the checker cannot decide"
			if cond != "" && c.fset != nil && dir.IsValid() {
				where = fmt.Sprintf("an arm of `%s` (line %d), a C condition the checker cannot decide", cond, c.fset.Position(dir).Line)
			}
			name := "//lifetime:" + d.verb
			if len(d.args) > 0 {
				name += " " + d.args[0]
			}
			c.problem(d.pos, "%s is not read: it is inside %s; move it outside the conditional, or define the macro with a #cgo CFLAGS -D flag", name, where)
		}
		return nil, p
	}
	return d, p
}

func (c *collector) problem(pos token.Pos, format string, args ...any) {
	c.res.Problems = append(c.res.Problems, Problem{pos, fmt.Sprintf(format, args...)})
}

// collect reads every //lifetime: directive in the package's files.
// cfuncs maps the C functions the package calls to their number of
// parameters (-1 when unknown); nil when the calls are unknown.
func (c *collector) collect(files []*ast.File, cfuncs map[string]int) {
	for _, f := range files {
		if cgofile.IsSupport(c.fset, f) {
			continue
		}
		c.file = f
		attached := map[*ast.CommentGroup]bool{}
		if pre := cgofile.Preamble(f); pre != nil {
			attached[pre] = true
			c.preambleGroup(pre, cfuncs)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Doc != nil {
					attached[d.Doc] = true
					c.funcDoc(d)
				}
			case *ast.GenDecl:
				if d.Tok == token.TYPE {
					for _, s := range d.Specs {
						ts := s.(*ast.TypeSpec)
						doc := ts.Doc
						if doc == nil && len(d.Specs) == 1 {
							doc = d.Doc
						}
						if doc != nil {
							attached[doc] = true
							c.typeDoc(ts, doc)
						}
					}
					if d.Doc != nil && len(d.Specs) > 1 {
						attached[d.Doc] = true
						c.stray(d.Doc, "on a type group: put it on the type")
					}
				} else if d.Doc != nil && !attached[d.Doc] {
					attached[d.Doc] = true
					c.stray(d.Doc, "on a "+d.Tok.String()+" declaration")
				}
			}
		}
		for _, cg := range f.Comments {
			if !attached[cg] {
				c.statementGroup(f, cg)
			}
		}
	}
}

// directives returns the directives of a comment group, reporting near misses.
// A directive is a Go line comment: one written on a line of its own inside a
// /* */ comment (which is not a cgo preamble: those are read by
// preambleGroup) is reported, not applied.
func (c *collector) directives(cg *ast.CommentGroup) []*directive {
	var out []*directive
	for _, cm := range cg.List {
		d, p := parseDirective(cm.Text, cm.Slash)
		if p != nil {
			c.res.Problems = append(c.res.Problems, *p)
		}
		if d != nil {
			out = append(out, d)
		}
		if strings.HasPrefix(cm.Text, "/*") && d == nil && p == nil {
			c.blockLines(cm)
		}
	}
	return out
}

// blockLines reports the directives, and near misses of one, written on
// lines of their own inside a Go /* */ comment that is not a cgo preamble:
// Go reads no directive there, and neither does lifetimevet. A line counts
// when it starts (after blanks) with //, as a directive line does; prose
// that mentions lifetimes is left alone as nearMiss leaves it.
func (c *collector) blockLines(cm *ast.Comment) {
	body := strings.TrimSuffix(cm.Text[2:], "*/")
	off := 2
	for _, line := range strings.SplitAfter(body, "\n") {
		trimmed := strings.TrimLeft(line, " \t")
		if strings.HasPrefix(trimmed, "//") {
			text := strings.TrimRight(trimmed, " \t\r\n")
			pos := cm.Slash + token.Pos(off+len(line)-len(trimmed))
			d, p := parseDirective(text, pos)
			if p != nil {
				c.res.Problems = append(c.res.Problems, *p)
			}
			if d != nil {
				c.problem(pos, "//lifetime:%s is in a /* */ comment that is not a cgo preamble, where it is not read; write it as a // line comment, or move it into the preamble (the comment right above import \"C\")", d.verb)
			}
		}
		off += len(line)
	}
}

// cTrailing returns the offset in a line of C of a //lifetime: directive
// that follows something else on the line (code, or a /* */ comment), and
// whether there is one. C string and character literals and /* */ comments
// are skipped, so a "//lifetime:" inside them is not taken for a comment;
// inBlock says whether the line starts inside a /* */ comment, and
// blockAfter whether the next one does.
func cTrailing(line string, inBlock bool) (at int, ok, blockAfter bool) {
	i := 0
	if inBlock {
		end := strings.Index(line, "*/")
		if end < 0 {
			return 0, false, true
		}
		i = end + 2
	}
	for ; i < len(line); i++ {
		switch ch := line[i]; {
		case ch == '"' || ch == '\'':
			for i++; i < len(line) && line[i] != ch && line[i] != '\n'; i++ {
				if line[i] == '\\' {
					i++
				}
			}
		case strings.HasPrefix(line[i:], "/*"):
			end := strings.Index(line[i+2:], "*/")
			if end < 0 {
				return 0, false, true
			}
			i += 2 + end + 1
		case strings.HasPrefix(line[i:], "//"):
			if strings.TrimSpace(line[:i]) != "" && strings.HasPrefix(line[i:], "//lifetime:") {
				return i, true, false
			}
			return 0, false, false
		}
	}
	return 0, false, false
}

// cTrailingProblem reports a directive that follows C code on its line at
// pos (text is the directive and what follows it): cgo hands the line to C,
// and lifetimevet reads only directives on lines of their own.
func (c *collector) cTrailingProblem(pos token.Pos, text string) {
	verb := strings.TrimPrefix(text, "//lifetime:")
	if f := strings.Fields(verb); len(f) > 0 {
		verb = f[0]
	}
	c.problem(pos, "//lifetime:%s after code on the same line is not read: a //lifetime: directive must be on a line of its own; move it to its own line before or after the declaration", firstWords(verb))
}

func (c *collector) checkVerb(d *directive, where string, verbs []string) bool {
	return c.checkVerbAt(d, where, "", verbs)
}

// checkVerbAt is checkVerb with a hint on how to place the directive,
// added after where it goes.
func (c *collector) checkVerbAt(d *directive, where, hint string, verbs []string) bool {
	if !slices.Contains(allVerbs, d.verb) {
		if v := closestVerb(d.verb); v != "" {
			c.problem(d.pos, "unknown directive //lifetime:%s: did you mean //lifetime:%s? (known: %s)", d.verb, v, strings.Join(allVerbs, ", "))
		} else {
			c.problem(d.pos, "unknown directive //lifetime:%s (known: %s)", d.verb, strings.Join(allVerbs, ", "))
		}
		return false
	}
	if d.verb == "ignore" {
		return true
	}
	if !slices.Contains(verbs, d.verb) {
		c.problem(d.pos, "//lifetime:%s does not apply %s; it goes on %s%s", d.verb, where, placeOf(d.verb), hint)
		return false
	}
	return true
}

// commentPlace says where a comment group attached to no declaration
// stands, for the message of a directive that does not belong there: what
// it is attached to, and, where that is the likely mistake, a hint on how
// to attach it to what it means.
func (c *collector) commentPlace(cg *ast.CommentGroup) (where, hint string) {
	line := c.fset.Position(cg.Pos()).Line
	if c.trailing(cg.Pos()) {
		for _, d := range c.file.Decls {
			if c.fset.Position(d.Pos()).Line == line || c.fset.Position(d.End()).Line == line {
				return "at the end of a declaration line", ", on a line of its own right above the declaration"
			}
		}
	}
	path, _ := astutil.PathEnclosingInterval(c.file, cg.Pos(), cg.End())
	for i, n := range path {
		var parent ast.Node
		if i+1 < len(path) {
			parent = path[i+1]
		}
		switch n := n.(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			return "to a statement", ""
		case *ast.FieldList:
			switch p := parent.(type) {
			case *ast.StructType:
				return "to a struct field", ""
			case *ast.InterfaceType:
				return "to an interface method", ""
			case *ast.TypeSpec:
				return "to a type parameter", ""
			case *ast.FuncType:
				if p.TypeParams == n {
					return "to a type parameter", ""
				}
				return "to a parameter", ""
			case *ast.FuncDecl:
				return "to a receiver", ""
			}
		case *ast.GenDecl:
			return "inside a " + n.Tok.String() + " declaration", ""
		case *ast.File:
			return "in a comment attached to no declaration", ", in the comment right above it with no blank line between"
		}
	}
	return "to a statement", ""
}

func placeOf(verb string) string {
	switch verb {
	case "handle", "threadsafe", "confined":
		return "a type declaration"
	case "transfer", "override":
		return "a cgo preamble"
	case "ignore":
		return "a statement"
	}
	return "a function declaration or a cgo preamble"
}

func (c *collector) stray(cg *ast.CommentGroup, where string) {
	for _, d := range c.directives(cg) {
		if c.checkVerb(d, where, nil) {
			c.ignore(d, cg)
		}
	}
}

func (c *collector) typeDoc(ts *ast.TypeSpec, cg *ast.CommentGroup) {
	obj, _ := c.info.Defs[ts.Name].(*types.TypeName)
	for _, d := range c.directives(cg) {
		if !c.checkVerb(d, "to a type", typeVerbs) {
			continue
		}
		if d.verb == "ignore" {
			c.ignore(d, cg)
			continue
		}
		if len(d.args) > 0 {
			c.problem(d.pos, "//lifetime:%s takes no arguments", d.verb)
			continue
		}
		if obj == nil {
			continue
		}
		td := c.res.Types[obj]
		switch d.verb {
		case "handle":
			td.Handle = true
		case "threadsafe":
			td.ThreadSafe = true
		case "confined":
			td.Confined = true
		}
		if td.ThreadSafe && td.Confined {
			c.problem(d.pos, "type %s cannot be both //lifetime:threadsafe and //lifetime:confined", obj.Name())
		}
		c.res.Types[obj] = td
	}
}

func (c *collector) funcDoc(fd *ast.FuncDecl) {
	obj, _ := c.info.Defs[fd.Name].(*types.Func)
	for _, d := range c.directives(fd.Doc) {
		if !c.checkVerb(d, "to a function", funcVerbs) {
			continue
		}
		if d.verb == "ignore" {
			c.ignore(d, fd.Doc)
			continue
		}
		if obj == nil {
			continue
		}
		sig := obj.Signature()
		fdir := c.res.Funcs[obj]
		if fdir == nil {
			fdir = &FuncDirectives{}
		}
		switch d.verb {
		case "acquire":
			if len(d.args) > 0 {
				c.problem(d.pos, "//lifetime:acquire on a function takes no arguments")
				continue
			}
			if sig.Results().Len() == 0 {
				c.problem(d.pos, "//lifetime:acquire: %s returns nothing", obj.Name())
				continue
			}
			fdir.Acquire = true
		case "release", "borrow":
			if len(d.args) > 1 {
				c.problem(d.pos, "//lifetime:%s takes at most one parameter name", d.verb)
				continue
			}
			var idx int
			if len(d.args) == 0 {
				if d.verb == "borrow" {
					c.problem(d.pos, "//lifetime:borrow needs a parameter name")
					continue
				}
				if sig.Recv() == nil {
					c.problem(d.pos, "//lifetime:release without a parameter releases the receiver, but %s has none; name the parameter", obj.Name())
					continue
				}
				idx = 0
			} else {
				idx = paramIndex(sig, d.args[0])
				if idx < 0 {
					c.problem(d.pos, "//lifetime:%s %s: %s has no parameter %s", d.verb, d.args[0], obj.Name(), d.args[0])
					continue
				}
			}
			if d.verb == "release" {
				fdir.Release = append(fdir.Release, idx)
			} else {
				fdir.Borrow = append(fdir.Borrow, idx)
			}
		}
		c.res.Funcs[obj] = fdir
	}
}

// paramIndex returns the go/ssa index of the parameter named name (the
// receiver counts first), or -1.
func paramIndex(sig *types.Signature, name string) int {
	off := 0
	if r := sig.Recv(); r != nil {
		if r.Name() == name {
			return 0
		}
		off = 1
	}
	for i := range sig.Params().Len() {
		if sig.Params().At(i).Name() == name {
			return i + off
		}
	}
	return -1
}

// preambleGroup reads the directives of a cgo preamble: Go line comments in
// the doc comment of import "C", and lines starting with //lifetime: inside
// its /* */ blocks.
//
// A directive in a conditional arm of the C that the build does not
// certainly compile (#if 0, #ifdef _WIN32 on Linux, an arm whose condition
// the scanner cannot decide, with the build's -D and -U known) is not
// read, nor checked: it is read as the code around it is
// (cpreamble.ArmsWith); one in an arm the scanner cannot decide is
// reported as not read (inArm).
func (c *collector) preambleGroup(cg *ast.CommentGroup, cfuncs map[string]int) {
	var ds []*directive
	inBlock := false // in a C /* */ comment, across the lines of a // preamble
	arms := cpreamble.PreambleArms(cg, c.predefs)
	if c.cres != nil {
		alone := arms
		arms = func(pos token.Pos) (cpreamble.Arm, token.Pos, string) {
			if a, dir, cond, ok := c.cres.PreambleArmAt(pos); ok {
				return a, dir, cond
			}
			return alone(pos)
		}
	}
	uncompiled := func(pos token.Pos) bool {
		a, _, _ := arms(pos)
		return a != cpreamble.ArmCompiled
	}
	// armed: what a directive or problem at pos leaves, by its arm
	armed := func(pos token.Pos, d *directive, p *Problem) (*directive, *Problem) {
		a, dir, cond := arms(pos)
		return c.inArm(a, dir, cond, d, p)
	}
	for _, cm := range cg.List {
		if strings.HasPrefix(cm.Text, "//") {
			// A preamble written as line comments hands each line to C
			// without its "//": a directive there is a C comment inside
			// the Go one, as in "// //lifetime:acquire ctx_open". A
			// directive written as a Go comment of its own would reach C
			// as code; cgo rejects it.
			text, pos := cm.Text, cm.Slash
			if inner := strings.TrimLeft(cm.Text[2:], " \t"); strings.HasPrefix(inner, "//") {
				pos += token.Pos(len(cm.Text) - len(inner))
				text = inner
			} else {
				i, ok, after := cTrailing(cm.Text[2:], inBlock)
				inBlock = after
				if ok {
					if !uncompiled(pos + token.Pos(2+i)) {
						c.cTrailingProblem(pos+token.Pos(2+i), cm.Text[2+i:])
					}
					continue
				}
			}
			d, p := parseDirective(text, pos)
			// (the line's C text starts after the Go comment's //)
			at := cm.Slash + token.Pos(len(cm.Text)-len(strings.TrimLeft(cm.Text[2:], " \t")))
			if d != nil || p != nil {
				d, p = armed(at, d, p)
			}
			if p != nil {
				c.res.Problems = append(c.res.Problems, *p)
			}
			if d != nil {
				ds = append(ds, d)
			}
			continue
		}
		off := 0
		for _, line := range strings.SplitAfter(cm.Text, "\n") {
			trimmed := strings.TrimLeft(line, " \t/*")
			lead := len(line) - len(strings.TrimLeft(line, " \t"))
			if strings.HasPrefix(strings.TrimLeft(line, " \t"), "//") || strings.HasPrefix(line, "/*//") {
				if strings.HasPrefix(line, "/*") {
					lead = 2
				}
				text := strings.TrimRight(line[lead:], " \t\r\n")
				pos := cm.Slash + token.Pos(off+lead)
				d, p := parseDirective(text, pos)
				if d != nil || p != nil {
					d, p = armed(pos, d, p)
				}
				if p != nil {
					c.res.Problems = append(c.res.Problems, *p)
				}
				if d != nil {
					ds = append(ds, d)
				}
			} else {
				l, base := line, 0
				if off == 0 {
					l, base = line[2:], 2 // the Go comment's own /*
				}
				// (a C comment cannot end inside the Go one: its */
				// would end the Go comment)
				if i, ok, _ := cTrailing(l, false); ok && !uncompiled(cm.Slash+token.Pos(off+base+i)) {
					c.cTrailingProblem(cm.Slash+token.Pos(off+base+i), l[i:])
				}
			}
			_ = trimmed
			off += len(line)
		}
	}
	c.cEntries(ds, "in a cgo preamble", cfuncs)
}

// cFiles reads the //lifetime: directives of the package's own C files
// (its .h and .c files, as the build selects them: cgofile.Sources).
// The C declarations they describe are there, so they mean what they mean
// in the preamble. Only a line that starts with //lifetime: counts: a C
// comment that merely resembles a directive is C's business. As in the
// preamble, a directive in a conditional arm the build does not certainly
// compile is not read.
//
// The headers of the module outside the package that its C includes (a
// subdirectory's, an -I directory's: cpreamble reads them for their
// macros and functions) are read the same way.
func (c *collector) cFiles(pass *analysis.Pass, cfuncs map[string]int) {
	names, read := cgofile.Sources(pass, ".h", ".c")
	own := len(names)
	if c.cres != nil {
		names = append(names, c.cres.OutsideHeaders()...)
	}
	for i, name := range names {
		var data []byte
		var err error
		if i < own {
			data, err = read(name)
		} else {
			data, err = cgofile.ReadOutside(pass, name)
		}
		if err != nil || !mayHoldDirective(data) {
			continue
		}
		tf := pass.Fset.AddFile(name, -1, len(data))
		tf.SetLinesForContent(data)
		var ds []*directive
		off := 0
		inBlock := false // in a C /* */ comment
		alone := cpreamble.ArmsWith(data, c.predefs)
		// armOf: the arm of offset off, the deciding directive's offset
		// and its line
		armOf := func(off int) (cpreamble.Arm, int, string) {
			if c.cres != nil {
				if a, dir, cond, ok := c.cres.ArmAt(name, off); ok {
					return a, dir, cond
				}
			}
			a, dir := alone(off)
			if a == cpreamble.ArmUndecided && dir >= 0 {
				return a, dir, cpreamble.DirectiveText(data, dir)
			}
			return a, dir, ""
		}
		uncompiled := func(off int) bool {
			a, _, _ := armOf(off)
			return a != cpreamble.ArmCompiled
		}
		for _, line := range bytes.SplitAfter(data, []byte("\n")) {
			trimmed := bytes.TrimLeft(line, " \t")
			// a directive, or a line comment that may be a near miss of
			// one (nearMiss needs a directive verb right after the
			// separator, so "// lifetime: the buffer outlives ..." is left
			// alone; a C block comment is C's own prose, never a directive)
			if bytes.HasPrefix(trimmed, []byte("//")) {
				at := off + len(line) - len(trimmed)
				d, p := parseDirective(strings.TrimRight(string(trimmed), " \t\r\n"), tf.Pos(at))
				if d != nil || p != nil {
					a, dir, cond := armOf(at)
					var dirPos token.Pos
					if a == cpreamble.ArmUndecided && dir >= 0 && dir <= len(data) {
						dirPos = tf.Pos(dir)
					}
					d, p = c.inArm(a, dirPos, cond, d, p)
				}
				if p != nil {
					c.res.Problems = append(c.res.Problems, *p)
				}
				if d != nil {
					ds = append(ds, d)
				}
			} else {
				i, ok, after := cTrailing(string(line), inBlock)
				inBlock = after
				if ok && !uncompiled(off+i) {
					c.cTrailingProblem(tf.Pos(off+i), string(line[i:]))
				}
			}
			off += len(line)
		}
		c.cEntries(ds, "in a C file", cfuncs)
	}
}

// mayHoldDirective reports whether a C file's text may hold a directive
// or a near miss of one: a word within two edits of "lifetime" right after
// a line comment's slashes (and spaces) holds "li", "ti" or "fe" in some case, so a
// file without one there is skipped cheaply (a filter: nearMiss decides).
func mayHoldDirective(data []byte) bool {
	for rest := data; ; {
		i := bytes.Index(rest, []byte("//"))
		if i < 0 {
			return false
		}
		rest = rest[i+2:]
		w := bytes.ToLower(bytes.TrimLeft(rest[:min(len(rest), 16)], " \t"))
		w = w[:min(len(w), 12)]
		if bytes.Contains(w, []byte("li")) || bytes.Contains(w, []byte("ti")) || bytes.Contains(w, []byte("fe")) {
			return true
		}
	}
}

// cEntries adds the model entries of directives ds, written where (a cgo
// preamble, a C file) about C functions.
func (c *collector) cEntries(ds []*directive, where string, cfuncs map[string]int) {
	for _, d := range ds {
		if !c.checkVerb(d, where, preambleVerbs) {
			continue
		}
		if d.verb == "ignore" {
			c.problem(d.pos, "//lifetime:ignore does not apply %s; put it on the Go statement", where)
			continue
		}
		text, override := d.verb+" "+strings.Join(d.args, " "), false
		if d.verb == "override" {
			// //lifetime:override ENTRY, as "override ENTRY" in a model file
			text, override = strings.Join(d.args, " "), true
		}
		e, err := ParseEntry(text)
		if err != nil {
			c.problem(d.pos, "//lifetime:%s: %v", d.verb, err)
			continue
		}
		e.Override = override
		if e.Kind != "" {
			c.problem(d.pos, "//lifetime:%s: kind= applies in model files only", d.verb)
			continue
		}
		nparams, called := cfuncs[e.Func]
		if cfuncs != nil && !called {
			c.problem(d.pos, "//lifetime:%s %s: the package calls no C function %s", d.verb, e.Func, e.Func)
			continue
		}
		if bad, idx := outOfRange(e, nparams); bad != "" {
			c.problem(d.pos, "//lifetime:%s %s: %s=%d, but C.%s takes %d argument%s (indices count from 0)",
				d.verb, e.Func, bad, idx, e.Func, nparams, plural(nparams))
			continue
		}
		e.Library = "preamble"
		e.Source = c.fset.Position(d.pos).String()
		if why := Conflict(c.near(d.pos, c.preamble.Entries(e.Func)), e); why != "" {
			c.problem(d.pos, "//lifetime:%s", why)
			continue
		}
		if c.base != nil {
			olds := c.base.Entries(e.Func)
			already := slices.ContainsFunc(c.preamble.Entries(e.Func), func(e *Entry) bool { return e.Override })
			switch {
			case len(olds) > 0 && !override && !already:
				c.problem(d.pos, "//lifetime:%s redefines C.%s, which %s already describes (%s); write //lifetime:override %s to replace that",
					e, e.Func, olds[0].Source, olds[0], e)
				continue
			case len(olds) == 0 && override:
				c.problem(d.pos, "//lifetime:override %s: no model describes C.%s; write //lifetime:%s", e, e.Func, e)
				continue
			}
		}
		c.preamble.add(e)
	}
}

// statementGroup reads a comment group attached to no declaration: only
// //lifetime:ignore belongs there.
func (c *collector) statementGroup(f *ast.File, cg *ast.CommentGroup) {
	where, hint := "", ""
	for _, d := range c.directives(cg) {
		if d.verb != "ignore" && where == "" {
			where, hint = c.commentPlace(cg)
		}
		if !c.checkVerbAt(d, where, hint, nil) {
			continue
		}
		c.ignore(d, cg)
	}
}

func (c *collector) ignore(d *directive, cg *ast.CommentGroup) {
	if d.verb != "ignore" {
		return
	}
	switch len(d.args) {
	case 0:
		c.problem(d.pos, "//lifetime:ignore needs an analyzer name and a reason: //lifetime:ignore ANALYZER reason")
		return
	case 1:
		c.problem(d.pos, "//lifetime:ignore %s needs a reason after the analyzer name: //lifetime:ignore %s reason", d.args[0], d.args[0])
		return
	}
	names := strings.Split(d.args[0], ",")
	for _, n := range names {
		if !slices.Contains(Analyzers, n) {
			c.problem(d.pos, "//lifetime:ignore %s: unknown analyzer %q (known: %s)", d.args[0], n, strings.Join(Analyzers, ", "))
			return
		}
	}
	p := c.fset.Position(d.pos)
	line := p.Line
	// A directive alone on its line applies to the line after its comment
	// group; a trailing one to its own line.
	if !c.trailing(d.pos) {
		line = c.fset.Position(cg.End()).Line + 1
	}
	c.res.Ignores = append(c.res.Ignores, &Ignore{
		Pos: d.pos, File: p.Filename, Line: line, Analyzers: names, Reason: strings.Join(d.args[1:], " "),
	})
}

// trailing reports whether code precedes the comment at pos on its line.
func (c *collector) trailing(pos token.Pos) bool {
	p := c.fset.Position(pos)
	found := false
	ast.Inspect(c.file, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if _, ok := n.(*ast.CommentGroup); ok {
			return false
		}
		if n.End() < pos && c.fset.Position(n.End()).Line == p.Line {
			found = true
			return false
		}
		return n.Pos() <= pos || c.fset.Position(n.Pos()).Line <= p.Line
	})
	return found
}

// outOfRange returns the first index of e (arg, out, key, parent) that
// names no parameter of a C function of n parameters; "" when all do, or
// when n is unknown (negative).
func outOfRange(e *Entry, n int) (string, int) {
	if n < 0 || e.Global {
		return "", 0
	}
	arg := None // acquire and borrow entries release no argument
	if e.Role == Release || e.Role == Transfer || e.Role == Uses {
		arg = e.Arg
	}
	for _, f := range []struct {
		name string
		idx  int
	}{{"arg", arg}, {"out", e.Out}, {"key", e.Key}, {"parent", e.Parent}, {"borrowed-from", e.From}} {
		if f.idx >= n {
			return f.name, f.idx
		}
	}
	return "", 0
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
