package analyzers_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/lifetimevet/lifetimevet/analyzers"
)

func TestSuite(t *testing.T) {
	if err := analysis.Validate(analyzers.All); err != nil {
		t.Fatal(err)
	}
	for _, a := range analyzers.All {
		doc := analyzers.Docs[a.Name]
		if doc == nil {
			t.Errorf("%s: no entry in Docs", a.Name)
			continue
		}
		if doc.Title == "" || doc.Text == "" || doc.Before == "" || doc.After == "" {
			t.Errorf("%s: documentation lacks a title, text, or a bad and a good example", a.Name)
		}
		if !strings.HasPrefix(a.Doc, strings.TrimSpace(doc.Title)) {
			t.Errorf("%s: Analyzer.Doc does not come from Docs", a.Name)
		}
	}
}
