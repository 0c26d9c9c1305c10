package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/suite/vet"
	"golang.org/x/tools/go/packages"
)

func vetAnalyzers() []*analysis.Analyzer { return vet.Suite }

// triState is an analyzer's enable flag: unset, on or off.
type triState int

const (
	unset triState = iota
	on
	off
)

func (t *triState) String() string {
	switch *t {
	case on:
		return "true"
	case off:
		return "false"
	}
	return ""
}

func (t *triState) Set(s string) error {
	switch strings.ToLower(s) {
	case "true", "1", "t":
		*t = on
	case "false", "0", "f":
		*t = off
	default:
		return fmt.Errorf("want true or false")
	}
	return nil
}

func (t *triState) IsBoolFlag() bool { return true }

// standalone loads the packages named by args and analyses them; it returns
// the exit status.
func standalone(args []string) int {
	flag.CommandLine.Init(progName(), flag.ContinueOnError)
	flag.Usage = usage
	registerCommonFlags()
	jsonOut := flag.Bool("json", false, "print findings as JSON (the go vet -json format)")
	tests := flag.Bool("test", true, "analyse test files too")
	tags := flag.String("tags", "", "comma-separated build `tags`")
	contextLines := flag.Int("c", -1, "print the offending line with `N` lines of context")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to `file`")
	memprofile := flag.String("memprofile", "", "write a heap profile to `file` at exit")
	withVet := stdvetRequested(args)
	all := suite(withVet)
	enable := map[*analysis.Analyzer]*triState{}
	for _, a := range all {
		t := new(triState)
		enable[a] = t
		flag.Var(t, a.Name, "enable the "+a.Name+" analyzer (-"+a.Name+"=false disables it)")
		a.Flags.VisitAll(func(f *flag.Flag) {
			flag.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	if err := flag.CommandLine.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	_ = stdvet
	if *cpuprofile != "" {
		stop, err := startCPUProfile(*cpuprofile)
		if err != nil {
			fatalf("%v", err)
		}
		defer stop()
	}
	if *memprofile != "" {
		defer writeHeapProfile(*memprofile)
	}
	selected := selectAnalyzers(all, enable)
	if len(selected) == 0 {
		fatalf("no analyzers selected")
	}
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax | packages.NeedModule,
		Tests: *tests,
	}
	if *tags != "" {
		cfg.BuildFlags = []string{"-tags=" + *tags}
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", progName(), err)
		return 1
	}
	status := 0
	if n := packages.PrintErrors(pkgs); n > 0 {
		status = 1
	}
	if len(pkgs) == 0 {
		fmt.Fprintf(os.Stderr, "%s: no packages match %s\n", progName(), strings.Join(patterns, " "))
		return 1
	}
	graph, err := checker.Analyze(selected, pkgs, nil)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", progName(), err)
		return 1
	}
	if *jsonOut {
		if err := graph.PrintJSON(os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", progName(), err)
			return 1
		}
		return max(status, errorStatus(graph))
	}
	if err := graph.PrintText(os.Stdout, *contextLines); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", progName(), err)
		return 1
	}
	status = max(status, errorStatus(graph))
	for act := range graph.All() {
		if act.IsRoot && len(act.Diagnostics) > 0 {
			status = max(status, 3)
			break
		}
	}
	return status
}

// errorStatus returns 1 when an analyzer failed on some package.
func errorStatus(g *checker.Graph) int {
	for act := range g.All() {
		if act.Err != nil {
			return 1
		}
	}
	return 0
}

// selectAnalyzers applies the enable flags as go vet does: when some
// -NAME is true, only those run; otherwise all but those set false.
func selectAnalyzers(all []*analysis.Analyzer, enable map[*analysis.Analyzer]*triState) []*analysis.Analyzer {
	anyOn := false
	for _, t := range enable {
		anyOn = anyOn || *t == on
	}
	var out []*analysis.Analyzer
	for _, a := range all {
		switch {
		case anyOn && *enable[a] == on, !anyOn && *enable[a] != off:
			out = append(out, a)
		}
	}
	return out
}
