package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/lifetimevet/lifetimevet/internal/driver"
)

// timingFlag is -timing: off, on (a table on standard error at exit), or
// on with every action's time also written as JSON to a file
// (-timing=FILE).
type timingFlag struct {
	on   bool
	file string
}

func (f *timingFlag) String() string {
	switch {
	case f == nil || !f.on:
		return ""
	case f.file != "":
		return f.file
	}
	return "true"
}

func (f *timingFlag) Set(s string) error {
	switch strings.ToLower(s) {
	case "true", "1", "t":
		f.on, f.file = true, ""
	case "false", "0", "f":
		f.on, f.file = false, ""
	default:
		f.on, f.file = true, s
	}
	return nil
}

func (f *timingFlag) IsBoolFlag() bool { return true }

// registerTimingFlag adds -timing to the standalone command's flags.
func registerTimingFlag() *timingFlag {
	f := new(timingFlag)
	flag.Var(f, "timing", "print the time spent in each analyzer and pass (SSA construction on a line of its own) on standard error at exit; the analysis runs one action at a time so that each time is the action's own; -timing=`FILE` also writes each action's time to FILE as JSON")
	return f
}

// A timer measures a standalone run for -timing: the load, the analysis,
// and the time spent in each analyzer's Run on each package. A nil *timer
// (no -timing) does nothing.
type timer struct {
	flag      *timingFlag
	start     time.Time
	load      time.Duration
	analysis  time.Duration
	loaded    int
	analyzeAt time.Time

	mu     sync.Mutex
	run    map[*driver.Action]time.Duration // time inside Analyzer.Run
	cpu    map[*driver.Action]time.Duration // the process's CPU time inside Analyzer.Run
	origin map[*analysis.Analyzer]string    // where its Run is: passes/lifetime, analyzers/doublerelease, x/tools
}

// startTiming returns a timer when -timing is on, started now.
func startTiming(f *timingFlag) *timer {
	if f == nil || !f.on {
		return nil
	}
	return &timer{flag: f, start: time.Now(), run: map[*driver.Action]time.Duration{}, cpu: map[*driver.Action]time.Duration{}, origin: map[*analysis.Analyzer]string{}}
}

// loadDone records the end of loading (go list, parsing, type checking)
// and how many packages were loaded, dependencies included.
func (t *timer) loadDone(pkgs []*packages.Package) {
	if t == nil {
		return
	}
	t.load = time.Since(t.start)
	packages.Visit(pkgs, nil, func(*packages.Package) { t.loaded++ })
}

// options returns the driver options for the run: when timing, a clock
// around each analyzer's Run, one action at a time, so that one action's
// time does not include another's running beside it.
func (t *timer) options(roots []*analysis.Analyzer) *driver.Options {
	if t == nil {
		return &driver.Options{}
	}
	visited := map[*analysis.Analyzer]bool{}
	var wrap func(a *analysis.Analyzer)
	wrap = func(a *analysis.Analyzer) {
		if visited[a] {
			return
		}
		visited[a] = true
		for _, r := range a.Requires {
			wrap(r)
		}
		t.origin[a] = funcOrigin(a.Run)
	}
	for _, a := range roots {
		wrap(a)
	}
	t.analyzeAt = time.Now()
	return &driver.Options{Sequential: true, Run: func(act *driver.Action, run func()) {
		t0, c0 := time.Now(), processCPU()
		run()
		d, c := time.Since(t0), processCPU()-c0
		t.mu.Lock()
		t.run[act] += d
		t.cpu[act] += c
		t.mu.Unlock()
	}}
}

// actionTime is one action's time, as -timing=FILE writes it.
type actionTime struct {
	Analyzer string `json:"analyzer"`
	Origin   string `json:"origin"`  // the package of its Run: passes/lifetime, analyzers/doublerelease, x/tools/go/analysis/passes/buildssa
	Package  string `json:"package"` // the go/packages ID: "p", "p [p.test]", "p_test [p.test]"
	Root     bool   `json:"root"`    // named on the command line (not only a dependency)
	RunNS    int64  `json:"run_ns"`  // inside Analyzer.Run
	CPUNS    int64  `json:"cpu_ns"`  // the process's CPU time (user+system, garbage collection included) inside Analyzer.Run; 0 where unknown
	TotalNS  int64  `json:"total_ns"`
}

// timingReport is what -timing=FILE writes.
type timingReport struct {
	Packages   int          `json:"packages"`
	LoadNS     int64        `json:"load_ns"`
	AnalysisNS int64        `json:"analysis_ns"`
	Actions    []actionTime `json:"actions"`
}

// report prints the table on w, and writes the JSON file if one was named.
// Call it once the analysis is over (g may be nil if it failed).
func (t *timer) report(w io.Writer, g *driver.Graph) {
	if t == nil {
		return
	}
	if !t.analyzeAt.IsZero() {
		t.analysis = time.Since(t.analyzeAt)
	}
	rep := timingReport{Packages: t.loaded, LoadNS: int64(t.load), AnalysisNS: int64(t.analysis)}
	if g != nil {
		for act := range g.All() {
			rep.Actions = append(rep.Actions, actionTime{
				Analyzer: act.Analyzer.Name,
				Origin:   t.origin[act.Analyzer],
				Package:  act.Package.ID,
				Root:     act.IsRoot,
				RunNS:    int64(t.run[act]),
				CPUNS:    int64(t.cpu[act]),
				TotalNS:  int64(act.Duration),
			})
		}
	}
	slices.SortFunc(rep.Actions, func(a, b actionTime) int {
		return cmp.Or(cmp.Compare(b.RunNS, a.RunNS), cmp.Compare(a.Analyzer, b.Analyzer), cmp.Compare(a.Package, b.Package))
	})
	writeTimingTable(w, &rep)
	if t.flag.file != "" {
		data, err := json.MarshalIndent(&rep, "", "\t")
		if err == nil {
			err = os.WriteFile(t.flag.file, append(data, '\n'), 0o666)
		}
		if err != nil {
			fmt.Fprintf(w, "%s: -timing: %v\n", progName(), err)
		}
	}
}

// writeTimingTable prints, per analyzer, the time inside Run summed over
// packages, the rest of its actions' time (facts handed down from
// dependencies, pass set-up), how many packages it ran on and its slowest
// package; then the slowest actions.
func writeTimingTable(w io.Writer, rep *timingReport) {
	type row struct {
		name       string
		origin     string
		run, other time.Duration
		cpu        time.Duration
		pkgs       int
		slowPkg    string
		slow       time.Duration
	}
	rows := map[string]*row{}
	var sumRun, sumOther, sumCPU time.Duration
	for _, a := range rep.Actions {
		r := rows[a.Analyzer]
		if r == nil {
			r = &row{name: a.Analyzer, origin: a.Origin}
			rows[a.Analyzer] = r
		}
		run, total := time.Duration(a.RunNS), time.Duration(a.TotalNS)
		r.run += run
		r.cpu += time.Duration(a.CPUNS)
		r.other += max(total-run, 0)
		r.pkgs++
		if run > r.slow || r.slowPkg == "" {
			r.slow, r.slowPkg = run, a.Package
		}
		sumRun += run
		sumCPU += time.Duration(a.CPUNS)
		sumOther += max(total-run, 0)
	}
	sorted := make([]*row, 0, len(rows))
	for _, r := range rows {
		sorted = append(sorted, r)
	}
	slices.SortFunc(sorted, func(a, b *row) int {
		return cmp.Or(cmp.Compare(b.run+b.other, a.run+a.other), cmp.Compare(a.name, b.name))
	})
	sec := func(d time.Duration) string { return fmt.Sprintf("%.2fs", d.Seconds()) }
	pct := func(d time.Duration) string {
		if sumRun+sumOther == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(d)/float64(sumRun+sumOther))
	}
	fmt.Fprintf(w, "%s -timing: %d packages loaded in %s (go list, parsing, type checking); analysis %s, one action at a time\n",
		progName(), rep.Packages, sec(time.Duration(rep.LoadNS)), sec(time.Duration(rep.AnalysisNS)))
	fmt.Fprintf(w, "%-22s %-28s %9s %9s %9s %7s %9s  %s\n", "analyzer", "in", "run", "cpu", "facts+", "share", "packages", "slowest package (run)")
	for _, r := range sorted {
		name := r.name
		if name == "buildssa" {
			name = "buildssa (SSA)"
		}
		fmt.Fprintf(w, "%-22s %-28s %9s %9s %9s %7s %9d  %s %s\n", name, r.origin, sec(r.run), sec(r.cpu), sec(r.other), pct(r.run+r.other), r.pkgs, r.slowPkg, sec(r.slow))
	}
	fmt.Fprintf(w, "%-22s %-28s %9s %9s %9s %7s\n", "total", "", sec(sumRun), sec(sumCPU), sec(sumOther), pct(sumRun+sumOther))
	fmt.Fprintf(w, "run: wall time inside the analyzer's Run; cpu: the process's CPU time meanwhile (garbage collection included; robust to a busy machine); facts+: the rest of its actions' wall time (pass set-up); share: of run+facts+\n")
	n := min(len(rep.Actions), 10)
	if n > 0 {
		fmt.Fprintf(w, "slowest actions (run):\n")
		for _, a := range rep.Actions[:n] {
			fmt.Fprintf(w, "  %-20s %10s  %s\n", a.Analyzer, sec(time.Duration(a.RunNS)), a.Package)
		}
	}
}

// funcOrigin names the package a Run function is declared in, shortened:
// passes/lifetime, analyzers/doublerelease, x/tools/.../buildssa.
func funcOrigin(run func(*analysis.Pass) (any, error)) string {
	fn := runtime.FuncForPC(reflect.ValueOf(run).Pointer())
	if fn == nil {
		return "?"
	}
	name := fn.Name() // path/to/pkg.run, path/to/pkg.(*T).run, path/to/pkg.init.func1
	slash := strings.LastIndex(name, "/")
	if dot := strings.Index(name[slash+1:], "."); dot >= 0 {
		name = name[:slash+1+dot]
	}
	name = strings.TrimPrefix(name, "github.com/lifetimevet/lifetimevet/")
	if rest, ok := strings.CutPrefix(name, "golang.org/x/tools/go/analysis/passes/"); ok {
		name = "x/tools " + rest
	}
	return name
}
