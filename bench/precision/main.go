// Command precision compares lifetimevet's findings on the corpus with the
// reviewed list, bench/reviewed.tsv, and prints the precision table: per
// analyzer, the findings, how many were judged true and false positives, and
// how many nobody has reviewed yet.
//
// It runs the standalone lifetimevet with -format=json over the corpus
// modules, tests included, in the scratch module that bench/corpus.sh
// makes, so that a change in findings shows up in review:
//
//	bench/corpus.sh                       # once: make the scratch module
//	go run ./bench/precision [-bin BIN] [-corpus DIR] [-write]
//
// Each line of reviewed.tsv is a finding, tab-separated: analyzer, position
// (module@version/file:line:col), verdict (TP or FP), a one-line reason, and
// the message. -write appends the unreviewed findings with verdict "?" for a
// reviewer to judge. The exit status is 1 when a finding is unreviewed, a
// reviewed finding is gone (stale), or a finding is judged FP.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
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

// Modules are the corpus modules (bench/corpus.sh's list), as package patterns.
var modules = []string{
	"github.com/mattn/go-sqlite3/...",
	"github.com/NVIDIA/go-nvml/...",
	"github.com/yalue/onnxruntime_go/...",
	"github.com/marcboeker/go-duckdb/...",
	"github.com/libgit2/git2go/v34/...",
}

// A finding is one diagnostic, by analyzer, position and message.
type finding struct {
	Analyzer, Posn, Message string
}

func (f finding) key() string { return f.Analyzer + "\t" + f.Posn + "\t" + f.Message }

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
	flag.Parse()

	if *bin == "" {
		*bin = filepath.Join(os.TempDir(), "lifetimevet-precision")
		cmd := exec.Command("go", "build", "-o", *bin, "./cmd/lifetimevet")
		cmd.Dir, cmd.Stderr = root, os.Stderr
		if err := cmd.Run(); err != nil {
			log.Fatalf("building lifetimevet: %v", err)
		}
	}
	found, err := run(*bin, *corpus)
	if err != nil {
		log.Fatal(err)
	}
	reviewed, err := readList(*list)
	if err != nil {
		log.Fatal(err)
	}

	type counts struct{ findings, tp, fp, open int }
	table := map[string]*counts{}
	get := func(a string) *counts {
		if table[a] == nil {
			table[a] = &counts{}
		}
		return table[a]
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
		default:
			c.fp++
		}
	}
	var stale []review
	for k, r := range reviewed {
		if !seen[k] {
			stale = append(stale, r)
		}
	}
	sort.Slice(stale, func(i, j int) bool { return stale[i].key() < stale[j].key() })

	names := make([]string, 0, len(table))
	for a := range table {
		names = append(names, a)
	}
	sort.Strings(names)
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 1, ' ', 0)
	fmt.Fprintln(w, "| analyzer\t| findings\t| true positives\t| false positives\t| unreviewed\t|")
	fmt.Fprintln(w, "|---\t|---\t|---\t|---\t|---\t|")
	var total counts
	for _, a := range names {
		c := table[a]
		fmt.Fprintf(w, "| %s\t| %d\t| %d\t| %d\t| %d\t|\n", a, c.findings, c.tp, c.fp, c.open)
		total.findings += c.findings
		total.tp += c.tp
		total.fp += c.fp
		total.open += c.open
	}
	fmt.Fprintf(w, "| all\t| %d\t| %d\t| %d\t| %d\t|\n", total.findings, total.tp, total.fp, total.open)
	w.Flush()

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
	if len(unreviewed) > 0 || len(stale) > 0 || total.fp > 0 || total.open > 0 {
		os.Exit(1)
	}
}

// run runs lifetimevet over the corpus and returns its findings, ordered.
func run(bin, dir string) ([]finding, error) {
	cmd := exec.Command(bin, append([]string{"-format=json"}, modules...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1", "CGO_CFLAGS=-O2 -g -w")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", bin, err, stderr.String())
	}
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return nil, err
	}
	prefix := strings.TrimSpace(string(modcache)) + string(filepath.Separator)
	var out []finding
	seen := map[string]bool{} // a finding in a package and its test variant is one finding
	dec := json.NewDecoder(&stdout)
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err != nil {
			return nil, fmt.Errorf("reading lifetimevet's JSON: %v", err)
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
						out = append(out, f)
					}
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key() < out[j].key() })
	return out, nil
}

// modulePosn rewrites a position in the module cache as
// module@version/file:line:col, with the module path unescaped.
func modulePosn(posn, prefix string) string {
	rest, ok := strings.CutPrefix(posn, prefix)
	if !ok {
		return posn
	}
	if u, err := module.UnescapePath(rest); err == nil {
		return filepath.ToSlash(u)
	}
	return filepath.ToSlash(rest)
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
		case "TP", "FP", "?":
		default:
			return nil, fmt.Errorf("%s:%d: verdict %q: want TP, FP or ?", path, n, r.Verdict)
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
