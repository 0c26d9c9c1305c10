package main

import (
	"fmt"
	"go/token"
	"io"
	"slices"
	"strings"
	"sync"

	sarif "github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"

	"github.com/lifetimevet/lifetimevet/internal/driver"
	"github.com/lifetimevet/lifetimevet/passes/cpreamble"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
)

// incompleteLog collects what the analysis of the packages the user named
// left out, so that the run says so rather than look clean (passes report
// nothing; they list it in their results): the functions whose lifetime
// analysis stopped at its work bound, and the files of the package's C
// left unread for their size.
type incompleteLog struct {
	roots map[*packages.Package]bool

	mu    sync.Mutex
	lines []string
}

func newIncompleteLog(roots []*packages.Package) *incompleteLog {
	l := &incompleteLog{roots: map[*packages.Package]bool{}}
	for _, p := range roots {
		l.roots[p] = true
	}
	return l
}

// record is the driver's Options.Result hook.
func (l *incompleteLog) record(act *driver.Action, result any) {
	l.replay(act, l.notes(act, result))
}

// notes is the driver's Options.Notes: what a pass's result says it left
// out, kept in the package's cache entry so that a run that loads the
// package from the cache says so again (replay). A note is a message
// around a file name, "before\x00file\x00after", for messages to name the
// file relative to the directory the command runs in.
func (l *incompleteLog) notes(act *driver.Action, result any) []string {
	var lines []string
	switch res := result.(type) {
	case *lifetime.Result:
		if act.Analyzer != lifetime.Analyzer {
			return nil
		}
		for _, fn := range res.Incomplete() {
			lines = append(lines, budgetNote(act.Package.Fset.Position(fn.Pos()), fn))
		}
	case *cpreamble.Result:
		if act.Analyzer != cpreamble.Analyzer {
			return nil
		}
		for _, u := range res.Unread() {
			lines = append(lines, unreadNote(u))
		}
	}
	return lines
}

// budgetNote is the note of function fn, at posn, whose lifetime analysis
// stopped at its work budget.
func budgetNote(posn token.Position, fn *ssa.Function) string {
	rest := posn
	rest.Filename = ""
	return "analysis of \x00" + posn.Filename + "\x00:" + rest.String() + ": " + fn.RelString(fn.Pkg.Pkg) +
		" stopped at its work budget: findings in it may be missing"
}

// dependencyNote is note, of dependency pkgPath of the packages named.
func dependencyNote(note, pkgPath string) string {
	return note + "; it is in " + pkgPath + ", a dependency of the packages named, whose findings may be missing with it"
}

// standardPath reports whether pkgPath is the standard library's (its
// first element has no dot).
func standardPath(pkgPath string) bool {
	return !strings.Contains(strings.Split(pkgPath, "/")[0], ".")
}

// unreadNote is the note of a file of the package's C left unread.
func unreadNote(u cpreamble.Unread) string {
	what, limit := "its C is not analysed", cpreamble.MaxLines
	if u.Header {
		what, limit = "the C after its #include is not analysed", cpreamble.MaxHeaderLines
	}
	return fmt.Sprintf("\x00%s\x00 was not read (%d lines, more than %d): %s; -sharedglobal.largec reads it", u.Name, u.Lines, limit, what)
}

// replay is the driver's Options.Replay: the notes of a package the user
// named, analysed or loaded from the cache.
//
// A dependency's notes are said too (not the standard library's, which
// no user can change and which would be said on every run), marked as such: what the analysis of
// a dependency leaves out is missing from the facts its importers use, so
// findings in the packages named may be missing with it.
func (l *incompleteLog) replay(act *driver.Action, notes []string) {
	if len(notes) == 0 {
		return
	}
	if !l.roots[act.Package] {
		if act.Package.Module == nil && standardPath(act.Package.PkgPath) {
			return
		}
		dep := make([]string, len(notes))
		for i, n := range notes {
			dep[i] = dependencyNote(n, act.Package.PkgPath)
		}
		notes = dep
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, notes...)
}

// messages returns one message per note, sorted, each once (a package and
// its test variant share files), with file names relative to dir.
func (l *incompleteLog) messages(dir string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, s := range l.lines {
		out = append(out, noteMessage(dir, s))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// A positioned note is a note about a place in a Go file (a function
// whose analysis stopped at its work budget): its file, line and column
// (from 1), and its message after them.
type positionedNote struct {
	file         string
	line, column int
	msg          string
}

// positioned returns the notes that name a place in a file, each once.
func (l *incompleteLog) positioned() []positionedNote {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []positionedNote
	for _, s := range l.lines {
		_, rest, ok := strings.Cut(s, "\x00")
		if !ok {
			continue
		}
		file, after, ok := strings.Cut(rest, "\x00")
		if !ok {
			continue
		}
		var n positionedNote
		n.file = file
		if k, err := fmt.Sscanf(after, ":%d:%d: ", &n.line, &n.column); err != nil || k != 2 {
			continue
		}
		_, n.msg, _ = strings.Cut(after[1:], ": ")
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// noteMessage is the message of a note, its file named relative to dir
// ("": as the note has it).
func noteMessage(dir, note string) string {
	if before, rest, ok := strings.Cut(note, "\x00"); ok {
		if file, after, ok := strings.Cut(rest, "\x00"); ok {
			return before + shortPath(dir, file) + after
		}
	}
	return note
}

// print writes the messages to w, one line each.
func (l *incompleteLog) print(w io.Writer, dir string) {
	for _, m := range l.messages(dir) {
		fmt.Fprintf(w, "%s: %s\n", progName(), m)
	}
}

// addToSARIF adds the messages to the report's invocation as warning
// notifications.
func (l *incompleteLog) addToSARIF(r *sarif.Report, dir string) {
	msgs := l.messages(dir)
	if len(msgs) == 0 || len(r.Runs) == 0 {
		return
	}
	run := r.Runs[0]
	if len(run.Invocations) == 0 {
		run.AddInvocation(sarif.NewInvocation().WithExecutionSuccessful(true))
	}
	inv := run.Invocations[0]
	for _, m := range msgs {
		inv.AddToolExecutionNotification(sarif.NewNotification().WithLevel("warning").WithMessage(sarif.NewTextMessage(m)))
	}
}
