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
	res, ok := result.(*lifetime.Result)
	if !ok || act.Analyzer != lifetime.Analyzer || !l.roots[act.Package] {
		return
	}
	fns := res.Incomplete()
	if len(fns) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, fn := range fns {
		posn := act.Package.Fset.Position(fn.Pos())
		l.lines = append(l.lines, fmt.Sprintf("%s: %s", posn, fn.RelString(fn.Pkg.Pkg)))
	}
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

// complete is the driver's Cacheable: a package whose lifetime analysis
// stopped at its work budget in some function is not cached, so that the
// next run says so again.
func complete(act *driver.Action, result any) bool {
	res, ok := result.(*lifetime.Result)
	return !ok || act.Analyzer != lifetime.Analyzer || len(res.Incomplete()) == 0
}
