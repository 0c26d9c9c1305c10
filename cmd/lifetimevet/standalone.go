package main

import (
	"bytes"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/suite/vet"
	"golang.org/x/tools/go/packages"

	"github.com/aymanbagabas/go-udiff"

	"github.com/lifetimevet/lifetimevet/analyzers"
	"github.com/lifetimevet/lifetimevet/internal/driver"
	"github.com/lifetimevet/lifetimevet/internal/fixes"
	"github.com/lifetimevet/lifetimevet/passes/cpreamble"
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
func standalone(args []string) (status int) {
	flag.CommandLine.Init(progName(), flag.ContinueOnError)
	registerCommonFlags()
	format := flag.String("format", "text", "output `format`: text, json (go vet's -json format) or sarif (SARIF 2.1.0)")
	jsonOut := flag.Bool("json", false, "print findings as JSON (the go vet -json format); the same as -format=json")
	version := flag.Bool("version", false, "print the version and VCS revision lifetimevet was built from and exit")
	explain := flag.String("explain", "", "print the documentation of analyzer `NAME` (what it finds, why, a bad and a good example, known limits) and exit")
	fix := flag.Bool("fix", false, "apply the fixes the analyzers suggest (in files that import \"C\" too, where the fix maps back to the file through cgo's //line directives)")
	diff := flag.Bool("diff", false, "with -fix, write no file but print the unified diff of what the fixes would change, on standard output (the findings go to standard error)")
	tests := flag.Bool("test", true, "analyse test files too")
	tags := flag.String("tags", "", "comma-separated build `tags`")
	cacheMode := newCacheFlag(flag.CommandLine, "keep each package's facts and findings in the analysis cache (`on` or off; see LIFETIMEVET_CACHE)")
	contextLines := flag.Int("c", -1, "print the offending line with `N` lines of context")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to `file`")
	memprofile := flag.String("memprofile", "", "write a heap profile to `file` once the analysis is done (what the run keeps: the packages' types and the facts)")
	timing := registerTimingFlag()
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
	// A bad flag is one line and a pointer to the help, as with go vet
	// and staticcheck; -h and -help print the help, on standard output.
	flag.CommandLine.SetOutput(io.Discard)
	flag.Usage = func() {}
	err := flag.CommandLine.Parse(args)
	flag.CommandLine.SetOutput(os.Stderr)
	if err == flag.ErrHelp {
		usage(os.Stdout, all, enable)
		return 0
	} else if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\nrun '%s help' for usage\n", progName(), err, progName())
		return 2
	}
	_ = stdvet
	if *version {
		printVersion(os.Stdout)
		return 0
	}
	if given("explain") {
		return explainAnalyzer(os.Stdout, *explain, all)
	}
	if *jsonOut {
		if given("format") && *format != "json" {
			fatalf("-json and -format=%s disagree", *format)
		}
		*format = "json"
	}
	switch *format {
	case "text", "json", "sarif":
	default:
		fatalf("-format=%s: want text, json or sarif", *format)
	}
	if *diff && !*fix {
		fatalf("-diff needs -fix: -fix -diff prints the fixes as a diff and writes no file")
	}
	if *diff && *format != "text" {
		fatalf("-diff prints a diff on standard output, which -format=%s holds: use one of them", *format)
	}
	if *cpuprofile != "" {
		stop, err := startCPUProfile(*cpuprofile)
		if err != nil {
			fatalf("%v", err)
		}
		defer stop()
	}
	// The live heap of an analysis is small (the types of all packages
	// and the packages in flight, see internal/driver) and churns fast: a
	// collection at 1.5x the live heap instead of 2x keeps the peak a
	// third lower for about a third more analysis CPU (bench/). Until a
	// package is analysed (on a warm run, none is), the run only reads
	// the go command's output and the analysis cache, a heap of some
	// 20 MB: collections at 3x keep it under 60 MB, and the collector's
	// share of a warm run's CPU samples went from some 7% to 2% (a few
	// percent of the run, the go command's included).
	gcPercent := func(int) {}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
		gcPercent = func(p int) { debug.SetGCPercent(p) }
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
		Mode:  driver.LoadMode,
		Tests: *tests,
		Fset:  token.NewFileSet(),
	}
	if *tags != "" || given("tags") {
		// (an empty -tags= too: it overrides GOFLAGS's, as in go list)
		cfg.BuildFlags = []string{"-tags=" + *tags}
		cpreamble.BuildTags = append([]string{}, splitTags(*tags)...)
	} else {
		cpreamble.BuildTags = append([]string{}, cpreamble.GOFLAGSTags()...)
	}
	tm := startTiming(timing)
	prog := newProgress(os.Stderr)
	defer prog.stop()
	prog.phase("loading packages")
	prefetchGoEnv(cfg, "CGO_ENABLED", "GOFLAGS") // (for cgoDropped and goOverlay)
	pkgs, err := packages.Load(cfg, patterns...)
	tm.loadDone(pkgs)
	if err != nil {
		prog.stop()
		fmt.Fprintf(os.Stderr, "%s: %s\n", progName(), loadError(err))
		return 1
	}
	prog.stop()
	// What the go command left out without a word: say it, and fail
	// when nothing that was asked for is left.
	notices, dropped := cgoDropped(cfg, patterns, pkgs)
	if !*tests {
		// a package of tests only: go list names it, with no files
		for _, p := range pkgs {
			if len(p.GoFiles) == 0 && len(p.Errors) == 0 && len(p.CompiledGoFiles) == 0 {
				dropped++
				notices = append(notices, fmt.Sprintf("%s not analysed: it has only test files, which -test=false leaves out", p.PkgPath))
			}
		}
	}
	for _, n := range notices {
		fmt.Fprintf(os.Stderr, "%s: %s\n", progName(), n)
	}
	if len(pkgs) == 0 || dropped > 0 && !slices.ContainsFunc(pkgs, func(p *packages.Package) bool { return len(p.GoFiles) > 0 }) {
		printLoadErrors(os.Stderr, pkgs)
		if dropped > 0 {
			fmt.Fprintf(os.Stderr, "%s: nothing to analyse in %s\n", progName(), strings.Join(patterns, " "))
		} else {
			fmt.Fprintf(os.Stderr, "%s: no packages match %s\n", progName(), strings.Join(patterns, " "))
		}
		return 1
	}
	// the configuration files of the packages' directories (config.go)
	configs := newConfigs()
	if errs := configs.checkDirs(packageDirs(pkgs)); len(errs) > 0 {
		for _, err := range errs {
			fmt.Fprintf(os.Stderr, "%s: %v\n", progName(), err)
		}
		return 1
	}
	useConfigs(configs)
	overlay, err := goOverlay(cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", progName(), err)
		return 1
	}
	run := configs.configured(selected)
	incomplete := newIncompleteLog(pkgs)
	prog = newProgress(os.Stderr)
	opts := tm.options(run)
	opts.PackageDone = prog.countPackages(pkgs)
	opts.Result, opts.Notes, opts.Replay = incomplete.record, incomplete.notes, incomplete.replay
	opts.Overlay = overlay
	opts.BeforeAnalysis = func() { gcPercent(50) }
	if c, key := openCache(*cacheMode, []byte(fmt.Sprintf("tags=%q given=%v", *tags, given("tags")))); c != nil {
		defer c.Close()
		// the model and configuration files, per package (inputs.go)
		opts.Cache, opts.CacheKey, opts.PackageKey = c, key, configs.packageKey(modelFlagFiles())
		opts.FileHashes = fileHashes()
		defer opts.FileHashes.Save() // (best effort: a memo not written is rebuilt)
	}
	graph, err := driver.Analyze(run, cfg.Fset, pkgs, opts)
	prog.stop()
	if graph != nil && opts.Cache != nil && strings.Contains(os.Getenv("LIFETIMEVET_DEBUG"), "cache") {
		// a developer aid: what the analysis cache saved
		fmt.Fprintf(os.Stderr, "%s: %d packages from the analysis cache, %d analysed: %s\n", progName(), graph.CacheHits, graph.CacheMisses, strings.Join(graph.Missed, ", "))
	}
	// The list, parse and type errors, known once every package was
	// type-checked.
	status = 0
	loadErrs := loadErrorTexts(pkgs)
	if n := printLoadErrors(os.Stderr, pkgs); n > 0 {
		status = 1
	}
	// The named packages left unanalysed because an import has errors
	// (their analyzers' errors only repeat that).
	for _, n := range illTypedImports(pkgs) {
		fmt.Fprintf(os.Stderr, "%s: %s\n", progName(), n)
		loadErrs = append(loadErrs, n)
		status = 1
	}
	loadErrs = append(loadErrs, notices...)
	if *memprofile != "" {
		// before the graph goes: what internal/driver keeps of every
		// package (its types) and the facts
		writeHeapProfile(*memprofile)
	}
	defer tm.report(os.Stderr, graph)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", progName(), err)
		return 1
	}
	cwd, _ := os.Getwd()
	incomplete.print(os.Stderr, cwd)
	findings := collectFindings(graph)
	files := &fixes.Files{Digest: graph.Digest, ReadFile: graph.ReadFile, Overlaid: graph.Overlaid, Editable: notEditable(graph)}
	fixFailed := false
	findingsOut := io.Writer(os.Stdout)
	if *fix {
		var diffOut io.Writer
		if *diff {
			diffOut, findingsOut = os.Stdout, os.Stderr
		}
		fixFailed = applyFixes(os.Stderr, findings, files, cwd, diffOut) != 0
	}
	if fixFailed {
		// a file that could not be fixed is an error, whatever else
		// the run found
		defer func() { status = 1 }()
	}
	switch *format {
	case "json":
		if err := printJSON(os.Stdout, graph, files); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", progName(), err)
			return 1
		}
		return max(status, printErrors(graph))
	case "sarif":
		status = max(status, printErrors(graph))
		errs := slices.Concat(loadErrs, analysisErrors(graph))
		report := sarifReport(selected, findings, cwd, files, errs)
		incomplete.addToSARIF(report, cwd)
		if err := writeSARIF(os.Stdout, report); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", progName(), err)
			return 1
		}
		return status
	}
	status = max(status, printErrors(graph))
	if printText(findingsOut, findings, cwd, *contextLines) > 0 {
		status = max(status, 3)
	}
	return status
}

// errorText is a list, parse or type error as the go command prints it:
// position first, and no "-: " for an error without one.
func errorText(e packages.Error) string {
	if e.Pos == "" || e.Pos == "-" {
		return e.Msg
	}
	return e.Pos + ": " + e.Msg
}

// printLoadErrors prints the errors of the packages and their
// dependencies (loadErrorTexts) and returns how many it printed.
func printLoadErrors(w io.Writer, pkgs []*packages.Package) int {
	errs := loadErrorTexts(pkgs)
	for _, msg := range errs {
		fmt.Fprintln(w, msg)
	}
	return len(errs)
}

// loadErrorTexts returns the errors of the packages and their
// dependencies, each once, their files named as the findings are
// (relative to the directory the command runs in). A type error that
// only follows from a list error of its package is left out: where go
// list failed on a package (use of cgo in a test file), cgo did not run,
// and each file's import "C" fails with "could not import C (no metadata
// for C)", which says nothing of the cause.
func loadErrorTexts(pkgs []*packages.Package) []string {
	var out []string
	seen := map[string]bool{}
	cwd, _ := os.Getwd()
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		// (an error go list gave, of the package or of what it imports
		// (a missing go.sum entry), leaves cgo unrun: the "could not
		// import C" that follows only repeats it)
		notTyping := func(e packages.Error) bool { return e.Kind != packages.TypeError }
		listFailed := slices.ContainsFunc(p.Errors, notTyping)
		for _, imp := range p.Imports {
			listFailed = listFailed || slices.ContainsFunc(imp.Errors, notTyping)
		}
		for _, e := range p.Errors {
			if listFailed && e.Kind == packages.TypeError && strings.HasPrefix(e.Msg, "could not import C (") {
				continue
			}
			e.Pos = shortPos(cwd, e.Pos)
			if cwd != "" {
				// a file go list names in the message
				e.Msg = strings.ReplaceAll(e.Msg, cwd+string(filepath.Separator), "")
			}
			msg := errorText(e)
			if !seen[msg] {
				seen[msg] = true
				out = append(out, msg)
			}
		}
	})
	return out
}

// goListFailed matches go/packages' wrapping of a go list failure.
var goListFailed = regexp.MustCompile(`^(?:go list failed: )?err: exit status \d+: stderr: `)

// loadError is what go list said, without go/packages' wrapping ("err:
// exit status 1: stderr: ...").
func loadError(err error) string {
	return strings.TrimSpace(goListFailed.ReplaceAllString(err.Error(), ""))
}

// given reports whether the flag name was on the command line.
func given(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// secondhand reports whether an analyzer's error only repeats another:
// a prerequisite's failure, or the load error of the package, which were
// printed already.
func secondhand(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "failed prerequisites") || strings.Contains(msg, "analysis skipped due to errors in package")
}

// analysisErrors returns the analyzer failures, once each.
func analysisErrors(g *driver.Graph) []string {
	var out []string
	for act := range g.All() {
		if act.Err != nil && !secondhand(act.Err) {
			msg := fmt.Sprintf("%s: %s: %v", act.Package.PkgPath, act.Analyzer.Name, act.Err)
			if !slices.Contains(out, msg) {
				out = append(out, msg)
			}
		}
	}
	return out
}

// printErrors prints each analyzer failure once, on standard error, and
// returns 1 if there was one. Failures that only repeat a prerequisite's are
// left out.
func printErrors(g *driver.Graph) int {
	status := 0
	seen := map[string]bool{}
	for act := range g.All() {
		if act.Err == nil {
			continue
		}
		status = 1
		msg := act.Err.Error()
		if secondhand(act.Err) || seen[msg] {
			continue
		}
		seen[msg] = true
		fmt.Fprintf(os.Stderr, "%s: %s: %s: %s\n", progName(), act.Package.PkgPath, act.Analyzer.Name, msg)
	}
	return status
}

// A finding is a diagnostic of a root action.
type finding struct {
	analyzer *analysis.Analyzer
	posn     token.Position
	msg      string
	fset     *token.FileSet
	d        analysis.Diagnostic
	sources  []string // the Go files of the package: the files its fixes may edit
}

// collectFindings returns the findings of the root actions, sorted and
// without duplicates (a file shared by a package and its test variant).
func collectFindings(g *driver.Graph) []finding {
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
			all = append(all, finding{act.Analyzer, posn, d.Message, act.Package.Fset, d, act.Package.GoFiles})
		}
	}
	slices.SortFunc(all, func(a, b finding) int {
		return cmp.Or(cmp.Compare(a.posn.Filename, b.posn.Filename), cmp.Compare(a.posn.Line, b.posn.Line),
			cmp.Compare(a.posn.Column, b.posn.Column), cmp.Compare(a.msg, b.msg))
	})
	return all
}

// printText prints findings as file:line:col: message and returns how
// many it printed.
func printText(w io.Writer, all []finding, cwd string, contextLines int) int {
	for _, f := range all {
		posn := f.posn
		posn.Filename = shortPath(cwd, posn.Filename)
		// the analyzer's name, as golangci-lint prints it: the name a
		// //lifetime:ignore directive needs
		fmt.Fprintf(w, "%s: %s: %s\n", posn, f.analyzer.Name, f.msg)
		if contextLines >= 0 {
			printContext(w, f.posn, contextLines)
		}
	}
	return len(all)
}

// applyFixes applies the first suggested fix of each finding, in the
// user's files, and says on w what it did and which fixes it could not
// apply (an edit that does not map back through cgo's //line directives,
// or that conflicts with another fix). It returns 1 if a file could not be
// written, or was not fixed because it changed during the run. With diff
// not nil (-diff), it writes no file, but the unified diff of each file it
// would write to diff, and says "would fix" for "fixed".
func applyFixes(w io.Writer, findings []finding, files *fixes.Files, cwd string, diff io.Writer) int {
	var mapped []*fixes.Fix
	at := map[*fixes.Fix]token.Position{} // the finding each fix is for
	status := 0
	for _, f := range findings {
		if len(f.d.SuggestedFixes) == 0 {
			continue
		}
		sf := f.d.SuggestedFixes[0]
		m, err := files.Map(f.fset, sf, f.sources)
		if err != nil {
			fmt.Fprintf(w, "%s: %s:%d: cannot apply the fix %q: %v\n", progName(), shortPath(cwd, f.posn.Filename), f.posn.Line, sf.Message, err)
			if errors.Is(err, fixes.ErrStale) {
				status = 1
			}
			continue
		}
		mapped = append(mapped, m)
		at[m] = f.posn
	}
	if len(mapped) == 0 {
		return status
	}
	origLines := map[string]func(int) int{}
	for _, m := range mapped {
		for _, e := range m.Edits {
			if origLines[e.File] == nil {
				data, _ := os.ReadFile(e.File)
				origLines[e.File] = func(off int) int { return 1 + bytes.Count(data[:min(off, len(data))], []byte("\n")) }
			}
		}
	}
	if beforeApply != nil {
		beforeApply()
	}
	write, verb := writeFix, "fixed"
	if diff != nil {
		write, verb = func(name string, data []byte) error {
			read := files.ReadFile
			if read == nil {
				read = os.ReadFile
			}
			old, err := read(name)
			if err != nil {
				return err
			}
			return writeUnifiedDiff(diff, shortPath(cwd, name), old, data)
		}, "would fix"
	}
	changed, conflicts, err := files.Apply(mapped, write)
	for _, n := range files.Notices() {
		if file, rest, ok := strings.Cut(n, ": "); ok && filepath.IsAbs(file) {
			n = shortPath(cwd, file) + ": " + rest
		}
		fmt.Fprintf(w, "%s: %s\n", progName(), n)
	}
	for _, c := range conflicts {
		fmt.Fprintf(w, "%s: %s: cannot apply the fix %q: it conflicts with another fix\n", progName(), shortPath(cwd, c.Edits[0].File), c.Message)
	}
	// each fix applied, at its finding's line, or in a file the finding
	// is not in, at the line of its first edit in the file as it was
	// (lines counted in what was read before the fixes)
	// (once: a fix reported in a package and in its test variant is
	// applied once)
	said := map[string]bool{}
	for _, name := range changed {
		for _, m := range mapped {
			if slices.Contains(conflicts, m) {
				continue
			}
			for _, e := range m.Edits {
				if sameFile(e.File, name) {
					n := origLines[e.File](e.Start)
					if p := at[m]; p.Filename != "" && sameFile(p.Filename, name) {
						n = p.Line
					}
					line := fmt.Sprintf("%s: %s:%d: %s: %s\n", progName(), shortPath(cwd, name), n, verb, m.Message)
					if !said[line] {
						said[line] = true
						fmt.Fprint(w, line)
					}
					break
				}
			}
		}
	}
	if err != nil {
		// one error per file that could not be written
		// (each starts with the file's name, said as findings say it)
		for _, line := range strings.Split(err.Error(), "\n") {
			if file, rest, ok := strings.Cut(line, ": "); ok && filepath.IsAbs(file) {
				line = shortPath(cwd, file) + ": " + rest
			}
			fmt.Fprintf(w, "%s: %s\n", progName(), line)
		}
		return 1
	}
	return status
}

// Test hooks (see testfix.go): beforeApply runs between the analysis and
// the writing of the fixes; writeFix, if not nil, writes a fixed file.
var (
	beforeApply func()
	writeFix    func(name string, data []byte) error
)

// sameFile reports whether a and b name the same file.
func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	ai, err1 := os.Stat(a)
	bi, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ai, bi)
}

// shortPath returns name relative to dir when that is shorter, as the go
// command prints file names.
// shortPos is shortPath of the file of a position written file:line or
// file:line:col.
func shortPos(dir, pos string) string {
	if m := posSuffix.FindStringIndex(pos); m != nil && filepath.IsAbs(pos[:m[0]]) {
		return shortPath(dir, pos[:m[0]]) + pos[m[0]:]
	}
	return pos
}

var posSuffix = regexp.MustCompile(`:\d+(?::\d+)?$`)

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
// -NAME is true, only those run (and lifetimedirective, unless set false:
// analyzers.KeptWhenSelecting); otherwise all but those set false.
func selectAnalyzers(all []*analysis.Analyzer, enable map[*analysis.Analyzer]*triState) []*analysis.Analyzer {
	anyOn := false
	for _, t := range enable {
		anyOn = anyOn || *t == on
	}
	var out []*analysis.Analyzer
	for _, a := range all {
		switch {
		case anyOn && *enable[a] == on, anyOn && analyzers.KeptWhenSelecting(a) && *enable[a] != off, !anyOn && *enable[a] != off:
			out = append(out, a)
		}
	}
	return out
}

// writeUnifiedDiff writes the unified diff (three lines of context) of a
// file's content old and new to w, under the names a/NAME and b/NAME, as
// git writes them (patch -p1 and git apply read it), or NAME alone when it
// is an absolute path.
func writeUnifiedDiff(w io.Writer, name string, old, new []byte) error {
	from, to := "a/"+filepath.ToSlash(name), "b/"+filepath.ToSlash(name)
	if filepath.IsAbs(name) {
		from, to = name, name
	}
	// go-udiff is x/tools' internal diff, published: it marks a last
	// line without a newline ("\\ No newline at end of file"), which
	// patch needs
	text := udiff.Unified(from, to, string(old), string(new))
	if strings.ContainsAny(name, " \t") {
		// a name with a space ends at a tab, as diff -u writes it
		// (before its timestamp): patch reads it up to the tab, or to
		// the first space without one
		text = strings.Replace(text, "--- "+from+"\n", "--- "+from+"\t\n", 1)
		text = strings.Replace(text, "+++ "+to+"\n", "+++ "+to+"\t\n", 1)
	}
	_, err := io.WriteString(w, text)
	return err
}
