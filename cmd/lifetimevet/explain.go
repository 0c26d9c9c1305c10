package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lifetimevet/lifetimevet/analyzers"
)

// explainAnalyzer prints the documentation of analyzer name: the text of
// its Analyzer.Doc, compiled from the same analyzers.Docs entry (what it
// finds, why, a bad and a good example, known limits), and its URL.
func explainAnalyzer(w io.Writer, name string, all []*analysis.Analyzer) int {
	var names []string
	for _, a := range all {
		names = append(names, a.Name)
		if a.Name != name {
			continue
		}
		doc := a.Doc
		if raw, ok := analyzers.Docs[name]; ok {
			doc = raw.Compile().Format(false)
		}
		fmt.Fprintf(w, "%s: %s\n", a.Name, strings.TrimSpace(doc))
		if a.URL != "" {
			fmt.Fprintf(w, "\n%s\n", a.URL)
		}
		return 0
	}
	fmt.Fprintf(os.Stderr, "%s: no analyzer %q (analyzers: %s)\n", progName(), name, strings.Join(names, ", "))
	return 2
}
