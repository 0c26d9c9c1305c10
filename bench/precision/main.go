// Command precision compares lifetimevet's findings on the field corpus
// with the reviewed list, bench/reviewed.tsv, and prints two precision
// tables, per analyzer and per module: the findings, how many were judged
// true positives, false positives and debatable (true by the letter, but a
// maintainer would close them), how many nobody has reviewed yet, and the
// precision (true positives over judged findings; debatable counts as
// false).
//
// It runs the standalone lifetimevet with -format=json over each module of
// bench/corpus.txt, tests included, with that module's build tags and, for
// the GPU bindings, the CUDA headers, in the scratch module that
// bench/corpus.sh makes, so that a change in findings shows up in review:
//
//	bench/corpus.sh                       # once: make the scratch module
//	go run ./bench/precision [-bin BIN] [-corpus DIR] [-gpu "$(bench/gpu-headers.sh)"] [-write]
//
// Each line of reviewed.tsv is a finding, tab-separated: analyzer, position
// (module@version/file:line:col), verdict (TP, FP or debatable), a one-line
// reason, and the message. -write appends the unreviewed findings with
// verdict "?" for a reviewer to judge. The exit status is 1 when a finding
// is unreviewed or a reviewed finding is gone (stale).
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"golang.org/x/mod/module"
)

// A corpusLine is one module of bench/corpus.txt: its package patterns,
// the build tags it needs and whether it needs the GPU headers.
type corpusLine struct {
	Module   string // module@version
	Patterns []string
	Tags     []string
	CUDA     bool
}

// readCorpus reads bench/corpus.txt (its format is in its header).
func readCorpus(path string) ([]corpusLine, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []corpusLine
	for n, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if len(fields) != 3 {
			return nil, fmt.Errorf("%s:%d: want MODULE@VERSION PACKAGES NEEDS, have %d fields", path, n+1, len(fields))
		}
		mod, _, ok := strings.Cut(fields[0], "@")
		if !ok {
			return nil, fmt.Errorf("%s:%d: %q has no @version", path, n+1, fields[0])
		}
		l := corpusLine{Module: fields[0]}
		for _, p := range strings.Split(fields[1], ",") {
			switch p {
			case ".":
				l.Patterns = append(l.Patterns, mod)
			case "...":
				l.Patterns = append(l.Patterns, mod+"/...")
			default:
				l.Patterns = append(l.Patterns, mod+"/"+p)
			}
		}
		for _, need := range strings.Split(fields[2], ",") {
			switch {
			case need == "cuda":
				l.CUDA = true
			case strings.HasPrefix(need, "tags:"):
				l.Tags = append(l.Tags, strings.TrimPrefix(need, "tags:"))
			}
		}
		out = append(out, l)
	}
	return out, nil
}

// A finding is one diagnostic, by analyzer, position and message.
type finding struct {
	Analyzer, Posn, Message string
}

func (f finding) key() string { return f.Analyzer + "\t" + f.Posn + "\t" + f.Message }

// counts are the findings of one row of a precision table, by verdict.
type counts struct{ findings, tp, fp, debatable, open int }

// A review is a finding with its verdict.
type review struct {
	finding
	Verdict, Reason string
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("precision: ")
	root, err := repoRoot()
	if err != nil {
		log.Fatal(err)
	}
	bin := flag.String("bin", "", "the lifetimevet binary (default: build ./cmd/lifetimevet)")
	corpus := flag.String("corpus", filepath.Join(os.TempDir(), "lifetimevet-corpus"), "the scratch module bench/corpus.sh makes")
	list := flag.String("reviewed", filepath.Join(root, "bench", "reviewed.tsv"), "the reviewed list")
	write := flag.Bool("write", false, "append unreviewed findings to the list with verdict \"?\"")
	corpusList := flag.String("list", filepath.Join(root, "bench", "corpus.txt"), "the corpus modules")
	gpu := flag.String("gpu", "", "the CUDA include directory bench/gpu-headers.sh prints (modules that need it are skipped without it)")
	flag.Parse()
	lines, err := readCorpus(*corpusList)
	if err != nil {
		log.Fatal(err)
	}

	if *bin == "" {
		*bin = filepath.Join(os.TempDir(), "lifetimevet-precision")
		cmd := exec.Command("go", "build", "-o", *bin, "./cmd/lifetimevet")
		cmd.Dir, cmd.Stderr = root, os.Stderr
		if err := cmd.Run(); err != nil {
			log.Fatalf("building lifetimevet: %v", err)
		}
	}
	found, err := run(*bin, *corpus, lines, *gpu)
	if err != nil {
		log.Fatal(err)
	}
	reviewed, err := readList(*list)
	if err != nil {
		log.Fatal(err)
	}

	table := map[string]*counts{}
	get := func(a string) *counts {
		if table[a] == nil {
			table[a] = &counts{}
		}
		return table[a]
	}
	byModule := map[string]*counts{}
	getModule := func(m string) *counts {
		if byModule[m] == nil {
			byModule[m] = &counts{}
		}
		return byModule[m]
	}
	var unreviewed []finding
	seen := map[string]bool{}
	for _, f := range found {
		c := get(f.Analyzer)
		c.findings++
		seen[f.key()] = true
		r, ok := reviewed[f.key()]
		switch {
		case !ok || r.Verdict == "?":
			c.open++
			if !ok {
				unreviewed = append(unreviewed, f)
			}
		case r.Verdict == "TP":
			c.tp++
		case r.Verdict == "debatable":
			c.debatable++
		default:
			c.fp++
		}
		m := getModule(moduleOf(f.Posn))
		m.findings++
		switch {
		case !ok || r.Verdict == "?":
			m.open++
		case r.Verdict == "TP":
			m.tp++
		case r.Verdict == "debatable":
			m.debatable++
		default:
			m.fp++
		}
	}
	var stale []review
	for k, r := range reviewed {
		if !seen[k] {
			stale = append(stale, r)
		}
	}
	sort.Slice(stale, func(i, j int) bool { return stale[i].key() < stale[j].key() })

	total := printTable("analyzer", table)
	fmt.Println()
	printTable("module", byModule)

	for _, f := range unreviewed {
		fmt.Printf("unreviewed: %s %s: %s\n", f.Analyzer, f.Posn, f.Message)
	}
	for _, r := range stale {
		fmt.Printf("gone (reviewed %s): %s %s: %s\n", r.Verdict, r.Analyzer, r.Posn, r.Message)
	}
	if *write && len(unreviewed) > 0 {
		f, err := os.OpenFile(*list, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o666)
		if err != nil {
			log.Fatal(err)
		}
		for _, u := range unreviewed {
			fmt.Fprintf(f, "%s\t%s\t?\t\t%s\n", u.Analyzer, u.Posn, u.Message)
		}
		if err := f.Close(); err != nil {
			log.Fatal(err)
		}
	}
	if len(unreviewed) > 0 || len(stale) > 0 || total.open > 0 {
		os.Exit(1)
	}
}

// run runs lifetimevet over each module of the corpus, in the environment
// bench/corpus.sh gives it, and returns the findings, ordered.
func run(bin, dir string, corpus []corpusLine, gpuInclude string) ([]finding, error) {
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return nil, err
	}
	prefix := strings.TrimSpace(string(modcache)) + string(filepath.Separator)
	var out []finding
	seen := map[string]bool{} // a finding in a package and its test variant is one finding
	for _, l := range corpus {
		args := []string{"-format=json"}
		if len(l.Tags) > 0 {
			args = append(args, "-tags", strings.Join(l.Tags, ","))
		}
		cmd := exec.Command(bin, append(args, l.Patterns...)...)
		cmd.Dir = dir
		cflags := "-O2 -g -w"
		env := append(os.Environ(), "CGO_ENABLED=1")
		if l.CUDA {
			if gpuInclude == "" {
				log.Printf("%s: skipped: it needs the GPU headers (-gpu, from bench/gpu-headers.sh)", l.Module)
				continue
			}
			lib := filepath.Join(filepath.Dir(gpuInclude), "lib", "x86_64-linux-gnu")
			cflags += " -I" + gpuInclude
			env = append(env, "CGO_LDFLAGS=-L"+filepath.Join(lib, "stubs")+" -L"+lib)
		}
		cmd.Env = append(env, "CGO_CFLAGS="+cflags)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			// status 1: some packages did not load or type-check (a
			// module's commands that do not build upstream); the others'
			// findings are there, and what was left out is said
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 || stdout.Len() == 0 {
				return nil, fmt.Errorf("%s on %s: %v\n%s", bin, l.Module, err, stderr.String())
			}
			log.Printf("%s: some packages were not analysed (lifetimevet exit status 1); its standard error:\n%s", l.Module, indent(stderr.String()))
		}
		if err := decode(&stdout, prefix, seen, &out); err != nil {
			return nil, err
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key() < out[j].key() })
	return out, nil
}

// decode appends the findings of one run's JSON output to out, once each.
func decode(stdout *bytes.Buffer, prefix string, seen map[string]bool, out *[]finding) error {
	dec := json.NewDecoder(stdout)
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err != nil {
			return fmt.Errorf("reading lifetimevet's JSON: %v", err)
		}
		for _, byAnalyzer := range tree {
			for analyzer, raw := range byAnalyzer {
				var diags []struct{ Posn, Message string }
				if json.Unmarshal(raw, &diags) != nil {
					continue // {"error": ...}: reported on stderr
				}
				for _, d := range diags {
					f := finding{analyzer, modulePosn(d.Posn, prefix), d.Message}
					if !seen[f.key()] {
						seen[f.key()] = true
						*out = append(*out, f)
					}
				}
			}
		}
	}
	return nil
}

// printTable prints one precision table, a row per key (analyzer or
// module), and returns the totals. Precision counts debatable findings as
// false.
func printTable(what string, table map[string]*counts) counts {
	names := make([]string, 0, len(table))
	for a := range table {
		names = append(names, a)
	}
	sort.Strings(names)
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 1, ' ', 0)
	fmt.Fprintf(w, "| %s\t| findings\t| true positives\t| false positives\t| debatable\t| unreviewed\t| precision\t|\n", what)
	fmt.Fprintln(w, "|---\t|---\t|---\t|---\t|---\t|---\t|---\t|")
	var total counts
	row := func(name string, c counts) {
		prec := "-"
		if judged := c.tp + c.fp + c.debatable; judged > 0 {
			prec = fmt.Sprintf("%.0f%%", 100*float64(c.tp)/float64(judged))
		}
		fmt.Fprintf(w, "| %s\t| %d\t| %d\t| %d\t| %d\t| %d\t| %s\t|\n", name, c.findings, c.tp, c.fp, c.debatable, c.open, prec)
	}
	for _, a := range names {
		c := *table[a]
		row(a, c)
		total.findings += c.findings
		total.tp += c.tp
		total.fp += c.fp
		total.debatable += c.debatable
		total.open += c.open
	}
	row("all", total)
	w.Flush()
	return total
}

// moduleOf returns the module@version part of a corpus position.
func moduleOf(posn string) string {
	if i := strings.Index(posn, "@"); i >= 0 {
		if j := strings.Index(posn[i:], "/"); j >= 0 {
			return posn[:i+j]
		}
	}
	return "(outside the module cache)"
}

// modulePosn rewrites a position in the module cache as
// module@version/file:line:col, with the module path unescaped.
func modulePosn(posn, prefix string) string {
	rest, ok := strings.CutPrefix(posn, prefix)
	if !ok {
		return posn
	}
	// module@version/file: unescape the module path (!x is X)
	mod, file, _ := strings.Cut(filepath.ToSlash(rest), "@")
	if u, err := module.UnescapePath(mod); err == nil {
		mod = u
	}
	if file == "" {
		return mod
	}
	return mod + "@" + file
}

// readList reads the reviewed list.
func readList(path string) (map[string]review, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return map[string]review{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]review{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 5 {
			return nil, fmt.Errorf("%s:%d: want 5 tab-separated fields (analyzer, position, verdict, reason, message), have %d", path, n, len(fields))
		}
		r := review{finding{fields[0], fields[1], fields[4]}, fields[2], fields[3]}
		switch r.Verdict {
		case "TP", "FP", "debatable", "?":
		default:
			return nil, fmt.Errorf("%s:%d: verdict %q: want TP, FP, debatable or ?", path, n, r.Verdict)
		}
		out[r.key()] = r
	}
	return out, sc.Err()
}

// repoRoot returns the repository's root, from the module's go.mod.
func repoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("run it inside the lifetimevet module")
	}
	return filepath.Dir(gomod), nil
}

// indent indents each line of s and keeps at most 20 of them.
func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > 20 {
		lines = append(lines[:20], fmt.Sprintf("... (%d more lines)", len(lines)-20))
	}
	return "\t" + strings.Join(lines, "\n\t") + "\n"
}
