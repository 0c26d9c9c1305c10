// Command lifetimevet finds lifetime and concurrency bugs in Go code that
// owns native resources through cgo.
//
// It has two faces.
//
// Under go vet, it speaks the vet tool protocol (-V=full, -flags, a *.cfg
// file per package):
//
//	go vet -vettool=$(which lifetimevet) ./...
//
// -vettool replaces go vet's own checks; add -stdvet to run them too.
//
// Standalone, it loads packages itself (default ./...):
//
//	lifetimevet [flags] [packages]
//
// It prints file:line:col: message for each finding; -format=json (or
// -json) prints go vet's JSON, -format=sarif a SARIF 2.1.0 log. -fix
// applies the fixes the analyzers suggest, also in files that import "C"
// where the fix maps back through cgo's //line directives. -explain NAME
// prints an analyzer's documentation. Exit status: 0 when there is nothing
// to report, 1 when packages failed to load or an analyzer failed, 2 for bad
// flags, 3 when there are findings (with -format json or sarif, findings do
// not change the status).
//
// `lifetimevet version` (or -version) prints the module version and VCS
// revision the binary was built from; -V=full gives go vet the same version
// and a hash of the executable.
//
// Two more subcommands: `lifetimevet models` prints the model of C functions in
// use (built in, plus -model files); `lifetimevet lsp` is a language server
// on standard input and output that publishes lifetimevet's diagnostics to
// an editor, beside gopls.
//
// Flags common to both faces: -NAME=false turns analyzer NAME off, -NAME
// runs only the analyzers so named; -model FILE adds a model file of C
// functions (repeatable; under go vet, which runs the tool in each
// package's directory, a relative path is read from the main module's
// root); -stdvet adds go vet's own analyzers.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/lifetimevet/lifetimevet/analyzers"
	"github.com/lifetimevet/lifetimevet/internal/diag"
	"github.com/lifetimevet/lifetimevet/passes/cpreamble"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("lifetimevet: ")
	args := os.Args[1:]
	if versionFull(args) {
		// go vet's question, answered before unitchecker's placeholder
		// version ("devel comments-go-here")
		if err := checkVetModels(); err != nil {
			log.Fatal(err)
		}
		if err := printVetToolID(os.Stdout); err != nil {
			log.Fatal(err)
		}
		return
	}
	if vetProtocol(args) {
		vetMain(args)
		return
	}
	if len(args) > 0 {
		switch args[0] {
		case "models":
			os.Exit(modelsMain(args[1:]))
		case "lsp":
			os.Exit(lspMain(args[1:]))
		case "version":
			if len(args) > 1 {
				fatalf("version takes no arguments (got %q)", strings.Join(args[1:], " "))
			}
			printVersion(os.Stdout)
			return
		case "help", "explain":
			// go vet says "Run 'lifetimevet help' for a full list of
			// flags and analyzers" after a bad flag; explain NAME is
			// help NAME, as -explain NAME is
			if len(args) > 2 {
				fatalf("%s takes one analyzer name (got %q)", args[0], strings.Join(args[1:], " "))
			}
			if len(args) > 1 {
				os.Exit(standalone([]string{"-explain", args[1]}))
			}
			if args[0] == "explain" {
				fatalf("explain needs an analyzer name: %s explain NAME (%s help lists them)", progName(), progName())
			}
			os.Exit(standalone([]string{"-h"}))
		}
	}
	os.Exit(standalone(args))
}

// vetProtocol reports whether go vet (or another build system speaking its
// protocol) is running the tool.
func vetProtocol(args []string) bool {
	for _, a := range args {
		switch {
		case a == "-V=full", a == "--V=full", a == "-flags", a == "--flags":
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

// stdvetRequested reports whether -stdvet is among args.
func stdvetRequested(args []string) bool {
	for _, a := range args {
		a = strings.TrimLeft(a, "-")
		if a == "stdvet" || a == "stdvet=true" || a == "stdvet=1" {
			return true
		}
	}
	return false
}

var stdvet = flag.Bool("stdvet", false, "also run go vet's own analyzers (the ones -vettool replaces)")

func registerCommonFlags() {
	flag.Var(model.FlagSet().Lookup("model").Value, "model", model.FlagSet().Lookup("model").Usage)
}

// extraAnalyzers are added to the suite by test-only builds (see
// testfix.go).
var extraAnalyzers []*analysis.Analyzer

// suite returns the analyzers to run.
func suite(withVet bool) []*analysis.Analyzer {
	as := slices.Concat(analyzers.All, extraAnalyzers)
	if withVet {
		as = append(as, vetAnalyzers()...)
	}
	return as
}

func vetMain(args []string) {
	diag.OmitCgoFixes = true
	if len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") {
		resolved, err := resolveVetModels(args)
		if err != nil {
			log.Fatal(err)
		}
		// unitchecker parses os.Args
		args = resolved
		os.Args = append(os.Args[:1], args...)
	}
	registerCommonFlags()
	// go vet asks for the flags once (-flags) and then passes the user's
	// flags with each unit; list vet's analyzers' flags too, so that
	// -stdvet and their flags are accepted.
	withVet := stdvetRequested(args) || slices.Contains(args, "-flags") || slices.Contains(args, "--flags")
	// A bad model file fails every package's model pass, and unitchecker
	// would say only "failed prerequisites", under go vet's -json as a
	// result go vet caches; say what is wrong, once, and fail the unit.
	if files := modelArgs(args); len(files) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") && !vetxOnly(args[len(args)-1]) {
		if _, err := model.Load(files); err != nil {
			log.Fatal(err)
		}
	}
	if cfg := args[len(args)-1]; strings.HasSuffix(cfg, ".cfg") && !vetxOnly(cfg) {
		// findings below a user's relative //line directive name the
		// user's file, not go's work directory
		if resolved := resolveVetLineDirectives(cfg); resolved != cfg {
			args = append(slices.Clone(args[:len(args)-1]), resolved)
			os.Args = append(os.Args[:1], args...)
		}
	}
	if strings.HasSuffix(args[len(args)-1], ".cfg") {
		// the go command's -tags, or GOFLAGS's: known in full where
		// its command line can be read
		if tags, readable, given := parentTags(); given {
			cpreamble.BuildTags = append([]string{}, tags...)
		} else if readable {
			cpreamble.BuildTags = append([]string{}, cpreamble.GOFLAGSTags()...)
		}
	}
	as := suite(withVet)
	if kept := keepWhenSelecting(args, as); len(kept) != len(args) {
		args = kept
		os.Args = append(os.Args[:1], args...)
	}
	as = vetConfigured(args, as)
	if textOutput(args) {
		as = namedInText(as)
	}
	if vetFixMode(args) {
		as = sayUnfixed(as, vetFixOutput)
	}
	unitchecker.Main(as...)
}

// keepWhenSelecting returns go vet's arguments for a unit with
// -lifetimedirective added when they select analyzers (some -NAME is true)
// and do not name lifetimedirective (analyzers.KeptWhenSelecting):
// unitchecker would otherwise run only the selected ones.
func keepWhenSelecting(args []string, as []*analysis.Analyzer) []string {
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return args
	}
	names := map[string]bool{}
	for _, a := range as {
		names[a.Name] = true
	}
	selecting := false
	named := map[string]bool{}
	for _, a := range args[:len(args)-1] {
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || !names[name] {
			continue
		}
		named[name] = true
		if on, err := strconv.ParseBool(val); !hasVal || err == nil && on {
			selecting = true
		}
	}
	if !selecting {
		return args
	}
	var keep []string
	for _, a := range as {
		if analyzers.KeptWhenSelecting(a) && !named[a.Name] {
			keep = append(keep, "-"+a.Name)
		}
	}
	if len(keep) == 0 {
		return args
	}
	return slices.Concat(args[:len(args)-1], keep, args[len(args)-1:])
}

// hasJSONFlag reports whether -json is among args.
func hasJSONFlag(args []string) bool {
	for _, a := range args {
		a = strings.TrimLeft(a, "-")
		if a == "json" || a == "json=true" || a == "json=1" {
			return true
		}
	}
	return false
}

// textOutput reports whether the tool's findings end up as go vet's
// text output, file:line:col: message. Before Go 1.26 the go command
// passes -json to the tool only for go vet -json; from Go 1.26 on it
// always passes -json and prints the text itself, so the tool asks the go
// command that runs it whether the user gave -json (goVetText). The go
// command caches the tool's output under the tool's flags, the same for
// both then, and its -V=full identity, which says which of the two it is
// (printVetToolID), so that neither output is replayed for the other.
func textOutput(args []string) bool {
	if slices.Contains(args, "-fix") || slices.Contains(args, "--fix") {
		return false
	}
	return !hasJSONFlag(args) || goVetText()
}

// goVetText reports whether the parent process is go vet without -json
// (nor -fix), read from /proc. When that cannot be known (no /proc, a
// -toolexec wrapper in between), the answer is no: the JSON stays as go
// vet's JSON has always been, and the text names no analyzer.
func goVetText() bool {
	rest, ok := goVetArgs()
	return ok && !hasJSONFlag(rest) && !slices.Contains(rest, "-fix") && !slices.Contains(rest, "--fix") && !strings.Contains(os.Getenv("GOFLAGS"), "json")
}

// goVetArgs returns the arguments of the parent process when it is the go
// command's vet subcommand (from /proc; ok is false when unknown).
func goVetArgs() (args []string, ok bool) {
	parent, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", os.Getppid()))
	if err != nil {
		return nil, false
	}
	pargs := strings.Split(strings.TrimSuffix(string(parent), "\x00"), "\x00")
	if len(pargs) < 2 || filepath.Base(pargs[0]) != "go" && !strings.HasPrefix(filepath.Base(pargs[0]), "go1") {
		return nil, false
	}
	rest := pargs[1:]
	if i := slices.Index(rest, "vet"); i < 0 || slices.ContainsFunc(rest[:i], func(a string) bool { return !strings.HasPrefix(a, "-") }) {
		return nil, false // not the vet subcommand
	}
	return rest, true
}

// namedInText returns copies of the analyzers whose messages end with the
// analyzer's name in brackets ("... [doublerelease]"), as golangci-lint
// appends a linter's name: unitchecker's text output names no analyzer,
// and the name is what //lifetime:ignore and -NAME=false need. Only the
// analyzers themselves are copied; their prerequisites, which report
// nothing, are shared.
func namedInText(as []*analysis.Analyzer) []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(as))
	for i, a := range as {
		c := *a
		run := a.Run
		suffix := " [" + a.Name + "]"
		c.Run = func(pass *analysis.Pass) (any, error) {
			report := pass.Report
			pass.Report = func(d analysis.Diagnostic) {
				d.Message += suffix
				report(d)
			}
			return run(pass)
		}
		out[i] = &c
	}
	return out
}

// vetxOnly reports whether the unit of config file cfg only computes facts
// for its importers (go vet reports nothing for those units).
func vetxOnly(cfg string) bool {
	data, err := os.ReadFile(cfg)
	if err != nil {
		return false
	}
	var c struct{ VetxOnly bool }
	return json.Unmarshal(data, &c) == nil && c.VetxOnly
}

// modelArgs returns the files of the -model flags among args (-model=F,
// -model F, with one or two dashes).
func modelArgs(args []string) []string {
	var out []string
	for i, a := range args {
		a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if f, ok := strings.CutPrefix(a, "model="); ok {
			out = append(out, f)
		} else if a == "model" && i+1 < len(args) {
			out = append(out, args[i+1])
		}
	}
	return out
}

func progName() string { return filepath.Base(os.Args[0]) }

// usage prints the help: the command's forms, the analyzers one a line,
// and the flags but the analyzers' enable flags (-NAME, -NAME=false),
// which one line stands for.
func usage(w io.Writer, all []*analysis.Analyzer, enable map[*analysis.Analyzer]*triState) {
	fmt.Fprintf(w, `%[1]s finds lifetime and concurrency bugs in Go code that owns native
resources through cgo: handles released twice, finalizers that fire during C
calls, unguarded check-then-release, shared counters and registries.

Usage:
	%[1]s [flags] [packages]        analyse packages (default ./...)
	%[1]s help [NAME]               this help, or analyzer NAME's documentation
	%[1]s explain NAME              print an analyzer's documentation (also -explain NAME)
	%[1]s models [-model FILE]...   print the model of C functions in use
	%[1]s lsp [flags]               serve diagnostics to an editor (LSP on stdio)
	%[1]s version                   print the version and VCS revision
	go vet -vettool=$(which %[1]s) [flags] [packages]

Exit status: 0 nothing found, 1 load or analysis error, 2 bad flags,
3 findings (text output only; with -format json or sarif findings leave it 0).
-fix -diff writes no file: it prints the diff of the fixes on standard output
and the findings on standard error, with the same exit status as -fix.

Analyzers (-NAME runs only the analyzers so named, -NAME=false turns one off):
`, progName())
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, a := range all {
		fmt.Fprintf(tw, "\t%s\t%s\n", a.Name, analyzerTitle(a))
	}
	tw.Flush()
	fmt.Fprintf(w, "\nFlags:\n")
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	fs.SetOutput(w)
	isEnable := map[string]bool{}
	for a := range enable {
		isEnable[a.Name] = true
	}
	flag.VisitAll(func(f *flag.Flag) {
		if !isEnable[f.Name] {
			fs.Var(f.Value, f.Name, f.Usage)
		}
	})
	fs.PrintDefaults()
}

// analyzerTitle is the first line of an analyzer's documentation.
func analyzerTitle(a *analysis.Analyzer) string {
	if raw, ok := analyzers.Docs[a.Name]; ok {
		if t := strings.TrimSpace(raw.Compile().Title); t != "" {
			return t
		}
	}
	title, _, _ := strings.Cut(strings.TrimSpace(a.Doc), "\n")
	return strings.TrimSuffix(title, ".")
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s: %s\n", progName(), fmt.Sprintf(format, args...))
	os.Exit(2)
}
