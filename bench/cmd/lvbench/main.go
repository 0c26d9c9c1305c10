// Command lvbench measures lifetimevet: against go vet and staticcheck on
// a fixed corpus (compare), per analyzer and pass (profile), and on
// generated functions of growing size (stress), its re-runs with its
// analysis cache against staticcheck's (incremental), and its language
// server's latency (lsp). It prints markdown.
//
//	go run ./bench/cmd/lvbench [flags] [compare] [profile] [stress] [incremental] [lsp]
//
// With no mode it runs compare. See bench/README.md for what each column
// means; the flags:
//
//	-n N            runs of each measurement (median reported; default 3)
//	-corpus LIST    parts of the corpus: std, xtools, cgo (default all three;
//	                incremental: cgo, cu, xtools, its default)
//	-patterns LIST  replace the patterns of each selected part (development: a small subset)
//	-rev REV        build lifetimevet from git revision REV (default: the working tree)
//	-lifetimevet B  use binary B rather than building one
//	-staticcheck B  use binary B rather than installing staticcheck@v0.8.2
//	-work DIR       scratch directory (default $TMPDIR/lvbench)
//	-corpus-dir DIR the cgo modules' scratch module (default bench/corpus.sh's)
//	-sizes LIST     stress sizes in basic blocks (default 500,1000,2000,5000)
//	-variants LIST  stress variants (default all)
//	-timeout D      stop a stress run after D (default 10m)
//	-saves N        lsp: saves per package (default 20)
//	-cold-off       incremental: run lifetimevet -cache=off cold too
//	-lsp-packages L lsp: the packages (default the corpus's onnxruntime_go and go-nvml/pkg/nvml)
//	-lsp-file KIND  lsp: save the package's first cgo file (cgo, the default) or its first other Go file (go)
//	-o FILE         write the markdown to FILE as well as standard output
//	-save FILE      compare: keep the samples as JSON (default WORK/compare.json)
//	-render FILE    print the comparison's table again from a -save file
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lifetimevet/lifetimevet/bench"
)

func main() {
	n := flag.Int("n", 3, "runs of each measurement (the median is reported)")
	corpus := flag.String("corpus", strings.Join(bench.PartNames, ","), "comma-separated parts of the corpus: std, xtools, cgo")
	patterns := flag.String("patterns", "", "comma-separated package patterns replacing those of each selected part (development)")
	rev := flag.String("rev", "", "build lifetimevet from this git revision (default: the working tree)")
	lv := flag.String("lifetimevet", "", "lifetimevet binary to measure (default: build one)")
	sc := flag.String("staticcheck", "", "staticcheck binary (default: go install honnef.co/go/tools/cmd/staticcheck@"+bench.StaticcheckVersion+" into the work directory)")
	work := flag.String("work", "", "scratch directory (default $TMPDIR/lvbench)")
	corpusDir := flag.String("corpus-dir", "", "scratch module of the cgo modules (default $TMPDIR/lifetimevet-corpus, as bench/corpus.sh)")
	sizes := flag.String("sizes", "500,1000,2000,5000", "stress: comma-separated function sizes in basic blocks")
	variants := flag.String("variants", "", "stress: comma-separated variants (default all)")
	timeout := flag.Duration("timeout", 10*time.Minute, "stress: stop a run after this long")
	outFile := flag.String("o", "", "also write the markdown to this file")
	save := flag.String("save", "", "compare: write the samples as JSON to this file after each round (default WORK/compare.json)")
	render := flag.String("render", "", "write the comparison's table again from the JSON file -save wrote, without measuring")
	saves := flag.Int("saves", 20, "lsp: saves per package")
	coldOff := flag.Bool("cold-off", false, "incremental: run lifetimevet -cache=off cold too (the cold cost of the cache)")
	lspPkgs := flag.String("lsp-packages", strings.Join(bench.LSPPackages, ","), "lsp: comma-separated packages of the cgo corpus")
	lspFile := flag.String("lsp-file", "cgo", "lsp: the file opened and saved: `cgo` (the package's first file that imports \"C\") or go (its first Go file that does not, a test file if no other)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: lvbench [flags] [compare] [profile] [stress] [incremental] [lsp]\n\nFlags:\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	modes := flag.Args()
	if len(modes) == 0 {
		modes = []string{"compare"}
	}
	for _, m := range modes {
		if m != "compare" && m != "profile" && m != "stress" && m != "incremental" && m != "lsp" {
			fatalf("unknown mode %q (want compare, profile, stress, incremental or lsp)", m)
		}
	}
	if *n < 1 {
		fatalf("-n must be at least 1")
	}
	if *render != "" {
		s, h, err := bench.LoadSession(*render)
		if err != nil {
			fatalf("%v", err)
		}
		s.WriteMarkdown(os.Stdout, h)
		return
	}
	corpusSet := false
	flag.Visit(func(f *flag.Flag) { corpusSet = corpusSet || f.Name == "corpus" })
	parts := split(*corpus)
	var incParts []string
	if slices.Contains(modes, "incremental") {
		incParts = bench.IncPartNames
		if corpusSet {
			incParts = parts
		}
		// the other modes do not know cu
		parts = slices.DeleteFunc(slices.Clone(parts), func(p string) bool { return p == "cu" })
		if len(parts) == 0 {
			parts = []string{"cgo"}
		}
	}
	cfg := bench.Config{
		Work:        *work,
		Rev:         *rev,
		LifetimeVet: *lv,
		Staticcheck: *sc,
		CorpusDir:   *corpusDir,
		Corpus:      parts,
		Patterns:    split(*patterns),
		Log:         os.Stderr,
	}
	e, err := bench.Prepare(cfg)
	if err != nil {
		fatalf("%v", err)
	}
	var md bytes.Buffer
	out := io.MultiWriter(os.Stdout, &md)
	command := "go run ./bench/cmd/lvbench " + strings.Join(quote(os.Args[1:]), " ")
	for _, mode := range modes {
		switch mode {
		case "compare":
			if err := e.PrepareCorpus(); err != nil {
				fatalf("%v", err)
			}
			s := e.Session()
			if err := s.Prime(); err != nil {
				fatalf("%v", err)
			}
			h := e.Header(command)
			file := *save
			if file == "" {
				file = filepath.Join(e.Work, "compare.json")
			}
			for r := 0; r < *n; r++ {
				if err := s.Round(); err != nil {
					fatalf("%v", err)
				}
				if err := s.Save(file, h); err != nil {
					fatalf("%v", err)
				}
			}
			s.WriteMarkdown(out, h)
		case "profile":
			if err := e.PrepareCorpus(); err != nil {
				fatalf("%v", err)
			}
			profiles, err := e.Profile()
			if err != nil {
				fatalf("%v", err)
			}
			bench.WriteProfileMarkdown(out, profiles)
		case "stress":
			var vs []bench.Variant
			if *variants == "" {
				vs = bench.Variants
			}
			for _, name := range split(*variants) {
				v, ok := bench.VariantByName(name)
				if !ok {
					fatalf("unknown variant %q", name)
				}
				vs = append(vs, v)
			}
			var ss []int
			for _, f := range split(*sizes) {
				x, err := strconv.Atoi(f)
				if err != nil || x < 10 {
					fatalf("bad -sizes element %q", f)
				}
				ss = append(ss, x)
			}
			st := e.Stress(vs, ss, *n, *timeout)
			if err := st.Prepare(); err != nil {
				fatalf("%v", err)
			}
			if err := st.Run(); err != nil {
				fatalf("%v", err)
			}
			st.WriteMarkdown(out)
		case "incremental":
			inc, err := e.PrepareIncremental(incParts, *n)
			if err != nil {
				fatalf("%v", err)
			}
			inc.ColdOff = *coldOff
			h := e.Header(command)
			// what is measured so far, after each part
			inc.PartDone = func() {
				inc.Save(filepath.Join(e.Work, "incremental.json"), h)
				var md bytes.Buffer
				inc.WriteMarkdown(&md, h)
				os.WriteFile(filepath.Join(e.Work, "incremental.md"), md.Bytes(), 0o666)
			}
			if err := inc.Run(); err != nil {
				fatalf("%v", err)
			}
			inc.WriteMarkdown(out, h)
		case "lsp":
			if *saves < 1 {
				fatalf("-saves must be at least 1")
			}
			if *lspFile != "cgo" && *lspFile != "go" {
				fatalf("-lsp-file must be cgo or go")
			}
			h := e.Header(command)
			b, err := e.LSP(split(*lspPkgs), *saves, *lspFile)
			if err != nil {
				fatalf("%v", err)
			}
			if err := b.Save(filepath.Join(e.Work, "lsp.json"), h); err != nil {
				fatalf("%v", err)
			}
			b.WriteMarkdown(out, h)
		}
		if *outFile != "" {
			if err := os.WriteFile(*outFile, md.Bytes(), 0o666); err != nil {
				fatalf("%v", err)
			}
		}
	}
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// quote quotes the arguments that need it for a shell.
func quote(args []string) []string {
	var out []string
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t'\"$*?[]{}()<>|&;\\") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out = append(out, a)
	}
	return out
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "lvbench: "+format+"\n", args...)
	os.Exit(1)
}
