package main

import (
	"fmt"
	"io"
	"slices"
	"sync"

	sarif "github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
	"golang.org/x/tools/go/packages"

	"github.com/lifetimevet/lifetimevet/internal/driver"
	"github.com/lifetimevet/lifetimevet/passes/lifetime"
)

// incompleteLog collects the functions of the packages the user named whose
// lifetime analysis stopped at its work bound: findings in them may be
// missing, and the run says so rather than look clean (the pass itself
// reports nothing; it lists them in its result).
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

// notes is the driver's Options.Notes: the functions of a lifetime
// pass's result whose analysis stopped at the work budget, as
// "file:line:col: function", kept in the package's cache entry so that a
// run that loads the package from the cache says so again (replay).
func (l *incompleteLog) notes(act *driver.Action, result any) []string {
	res, ok := result.(*lifetime.Result)
	if !ok || act.Analyzer != lifetime.Analyzer {
		return nil
	}
	var lines []string
	for _, fn := range res.Incomplete() {
		posn := act.Package.Fset.Position(fn.Pos())
		lines = append(lines, fmt.Sprintf("%s: %s", posn, fn.RelString(fn.Pkg.Pkg)))
	}
	return lines
}

// replay is the driver's Options.Replay: the notes of a package the user
// named, analysed or loaded from the cache.
func (l *incompleteLog) replay(act *driver.Action, notes []string) {
	if len(notes) == 0 || !l.roots[act.Package] {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, notes...)
}

// messages returns one message per function, sorted, each once (a package
// and its test variant share files), with names relative to dir.
func (l *incompleteLog) messages(dir string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	slices.Sort(l.lines)
	var out []string
	for _, s := range slices.Compact(l.lines) {
		out = append(out, "analysis of "+shortIncomplete(dir, s)+" stopped at its work budget: findings in it may be missing")
	}
	return out
}

// shortIncomplete shortens the file name that starts s ("file:line:col: fn").
func shortIncomplete(dir, s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == ':' {
			return shortPath(dir, s[:i]) + s[i:]
		}
	}
	return s
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
