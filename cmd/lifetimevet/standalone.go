package main

import (
	"cmp"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/suite/vet"
	"golang.org/x/tools/go/packages"

	"github.com/lifetimevet/lifetimevet/passes/model"
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
	if _, err := model.Load(modelFlagFiles()); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", progName(), err)
		return 1
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
		return max(status, printErrors(graph))
	}
	status = max(status, printErrors(graph))
	if printText(os.Stdout, graph, *contextLines) > 0 {
		status = max(status, 3)
	}
	return status
}

// printErrors prints each analyzer failure once, on standard error, and
// returns 1 if there was one. Failures that only repeat a prerequisite's are
// left out.
func printErrors(g *checker.Graph) int {
	status := 0
	seen := map[string]bool{}
	for act := range g.All() {
		if act.Err == nil {
			continue
		}
		status = 1
		msg := act.Err.Error()
		if strings.Contains(msg, "failed prerequisites") || seen[msg] {
			continue
		}
		seen[msg] = true
		fmt.Fprintf(os.Stderr, "%s: %s: %s: %s\n", progName(), act.Package.PkgPath, act.Analyzer.Name, msg)
	}
	return status
}

// printText prints the findings of the root actions as file:line:col:
// message, sorted and without duplicates (a file shared by a package and its
// test variant), and returns how many it printed.
func printText(w io.Writer, g *checker.Graph, contextLines int) int {
	type finding struct {
		posn token.Position
		msg  string
		fset *token.FileSet
		d    analysis.Diagnostic
	}
	seen := map[string]bool{}
	var all []finding
	for act := range g.All() {
		if !act.IsRoot {
			continue
		}
		for _, d := range act.Diagnostics {
			posn := act.Package.Fset.Position(d.Pos)
			k := posn.String() + "\x00" + d.Message
			if seen[k] {
				continue
			}
			seen[k] = true
			all = append(all, finding{posn, d.Message, act.Package.Fset, d})
		}
	}
	slices.SortFunc(all, func(a, b finding) int {
		return cmp.Or(cmp.Compare(a.posn.Filename, b.posn.Filename), cmp.Compare(a.posn.Line, b.posn.Line),
			cmp.Compare(a.posn.Column, b.posn.Column), cmp.Compare(a.msg, b.msg))
	})
	cwd, _ := os.Getwd()
	for _, f := range all {
		posn := f.posn
		posn.Filename = shortPath(cwd, posn.Filename)
		fmt.Fprintf(w, "%s: %s\n", posn, f.msg)
		if contextLines >= 0 {
			printContext(w, f.posn, contextLines)
		}
	}
	return len(all)
}

// shortPath returns name relative to dir when that is shorter, as the go
// command prints file names.
func shortPath(dir, name string) string {
	if rel, err := filepath.Rel(dir, name); err == nil && len(rel) < len(name) && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return name
}

// printContext prints the finding's line and contextLines lines around it.
func printContext(w io.Writer, posn token.Position, contextLines int) {
	data, err := os.ReadFile(posn.Filename)
	if err != nil {
		return
	}
	lines := strings.Split(string(data), "\n")
	for i := max(posn.Line-1-contextLines, 0); i < min(posn.Line+contextLines, len(lines)); i++ {
		fmt.Fprintf(w, "%d\t%s\n", i+1, lines[i])
	}
}

// modelFlagFiles returns the model files given with -model.
func modelFlagFiles() []string {
	return *model.FlagSet().Lookup("model").Value.(*model.Files)
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
