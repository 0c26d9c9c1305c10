package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/lifetimevet/lifetimevet/analyzers"
)

func TestSARIF(t *testing.T) {
	bin := build(t)
	dir := moduleDir(t)
	out, stderr, code := run(t, dir, bin, "-format=sarif", "./...")
	if code != 0 {
		t.Fatalf("-format=sarif: status %d, stderr %s", code, stderr)
	}
	// The SARIF 2.1.0 JSON schema, as go-sarif embeds it. Not strict:
	// go-sarif validates its own structs, which write an absent array
	// (lifetimevet leaves empty ones out, as the schema allows) as null.
	report, err := sarif.FromString(out)
	if err != nil {
		t.Fatalf("-format=sarif: %v\n%s", err, out)
	}
	if err := report.Validate(); err != nil {
		t.Errorf("-format=sarif does not validate against the SARIF 2.1.0 schema: %v", err)
	}
	if report.Version != "2.1.0" || len(report.Runs) != 1 {
		t.Fatalf("version %s, %d runs", report.Version, len(report.Runs))
	}
	r := report.Runs[0]
	if *r.Tool.Driver.Name != "lifetimevet" {
		t.Errorf("driver %s", *r.Tool.Driver.Name)
	}
	// The version -version prints, left out when the build recorded none;
	// no placeholders for what is unknown.
	vout, _, _ := run(t, ".", bin, "-version")
	if f := strings.Fields(vout); len(f) < 2 {
		t.Errorf("-version: %q", vout)
	} else if v := r.Tool.Driver.Version; f[1] == "devel" && v != nil || f[1] != "devel" && (v == nil || *v != f[1]) {
		t.Errorf("tool.driver.version %v, -version says %q", v, vout)
	}
	for _, bad := range []string{": -1", "(devel)", "[]", "{}"} {
		if strings.Contains(strings.ReplaceAll(out, `"results": []`, ""), bad) {
			t.Errorf("-format=sarif has a placeholder %q:\n%s", bad, out)
		}
	}
	// One rule per analyzer, its id the analyzer's name, its help the
	// analyzer's documentation.
	rules := map[string]*sarif.ReportingDescriptor{}
	for _, rule := range r.Tool.Driver.Rules {
		rules[*rule.ID] = rule
	}
	for _, a := range analyzers.All {
		rule := rules[a.Name]
		if rule == nil {
			t.Errorf("no rule %s", a.Name)
			continue
		}
		doc := analyzers.Docs[a.Name].Compile()
		if *rule.ShortDescription.Text != doc.Title || *rule.Help.Text != a.Doc || rule.Help.Markdown == nil || *rule.HelpURI != a.URL {
			t.Errorf("rule %s: short %q, help %q, uri %v", a.Name, *rule.ShortDescription.Text, *rule.Help.Text, rule.HelpURI)
		}
	}
	if len(r.Results) != 1 {
		t.Fatalf("%d results, want 1", len(r.Results))
	}
	res := r.Results[0]
	loc := res.Locations[0].PhysicalLocation
	if *res.RuleID != "doublerelease" || r.Tool.Driver.Rules[res.RuleIndex].ID == nil || *r.Tool.Driver.Rules[res.RuleIndex].ID != "doublerelease" ||
		!strings.Contains(*res.Message.Text, "o is released twice") ||
		*loc.ArtifactLocation.URI != "gpubug.go" || *loc.ArtifactLocation.URIBaseID != "%SRCROOT%" ||
		*loc.Region.StartLine != 18 || *loc.Region.StartColumn != 12 {
		data, _ := json.MarshalIndent(res, "", "  ")
		t.Errorf("result:\n%s", data)
	}
	if base := r.OriginalUriBaseIds["%SRCROOT%"]; base.URI == nil || !strings.HasSuffix(*base.URI, "/testdata/mod/gpubug/") {
		t.Errorf("originalUriBaseIds: %v", r.OriginalUriBaseIds)
	}
	if a := r.Artifacts[loc.ArtifactLocation.Index]; *a.Location.URI != "gpubug.go" {
		t.Errorf("artifact %d is %s", loc.ArtifactLocation.Index, *a.Location.URI)
	}

	if _, stderr, code := run(t, dir, bin, "-format=xml"); code != 2 || !strings.Contains(stderr, "want text, json or sarif") {
		t.Errorf("-format=xml: status %d, stderr %s", code, stderr)
	}
	if _, _, code := run(t, dir, bin, "-json", "-format=sarif"); code != 2 {
		t.Errorf("-json -format=sarif: status %d, want 2", code)
	}
	json1, _, _ := run(t, dir, bin, "-json")
	json2, _, _ := run(t, dir, bin, "-format=json")
	if json1 != json2 || !strings.Contains(json1, `"doublerelease"`) {
		t.Errorf("-json and -format=json differ:\n%s\n%s", json1, json2)
	}
}

func TestExplain(t *testing.T) {
	bin := build(t)
	for _, a := range analyzers.All {
		out, stderr, code := run(t, ".", bin, "-explain", a.Name)
		if code != 0 || !strings.HasPrefix(out, a.Name+": "+a.Doc) || !strings.Contains(out, a.URL) {
			t.Errorf("-explain %s: status %d, stderr %s, output:\n%s", a.Name, code, stderr, out)
		}
		doc := analyzers.Docs[a.Name]
		if doc.Before != "" && (!strings.Contains(out, "Before:") || !strings.Contains(out, "After:")) {
			t.Errorf("-explain %s: no examples:\n%s", a.Name, out)
		}
	}
	if _, stderr, code := run(t, ".", bin, "-explain", "nosuch"); code != 2 || !strings.Contains(stderr, "doublerelease") {
		t.Errorf("-explain nosuch: status %d, stderr %s", code, stderr)
	}
}

// TestFix applies the fixes of a test-only analyzer (built in with a build
// tag) in a cgo file: those that map back through cgo's //line directives
// are applied, the others are named on standard error.
func TestFix(t *testing.T) {
	bin := buildTags(t, "lifetimevet_testfix")
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "keepalive.go"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "internal", "fixes", "testdata", "keepalive", name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), data, 0o666)
	}
	// -format json gives the edits as offsets in the user's file: applying
	// the KeepAlive edit of line 21 by hand gives what -fix writes.
	jsonOut, _, _ := run(t, dir, bin, "-testkeepalive", "-format", "json", "./...")
	var tree map[string]map[string][]struct {
		Posn           string
		SuggestedFixes []struct {
			Message string
			Edits   []struct {
				Filename   string
				Start, End int
				New        string
			}
		} `json:"suggested_fixes"`
	}
	if err := json.Unmarshal([]byte(jsonOut), &tree); err != nil {
		t.Fatalf("-format json: %v\n%s", err, jsonOut)
	}
	orig, _ := os.ReadFile(filepath.Join(dir, "keepalive.go"))
	applied := false
	for _, d := range tree["example.com/keepalive"]["testkeepalive"] {
		for _, f := range d.SuggestedFixes {
			if !strings.HasSuffix(d.Posn, "keepalive.go:21:2") || !strings.HasPrefix(f.Message, "add runtime.KeepAlive") || len(f.Edits) != 1 {
				continue
			}
			e := f.Edits[0]
			if filepath.Base(e.Filename) != "keepalive.go" || e.Start > len(orig) || e.End > len(orig) {
				t.Fatalf("-format json: edit %+v", e)
			}
			got := string(orig[:e.Start]) + e.New + string(orig[e.End:])
			if !strings.Contains(got, "\tC.obj_use(p)\n\truntime.KeepAlive(p)\n}") {
				t.Errorf("-format json: the edit %+v gives:\n%s", e, got)
			}
			applied = true
		}
	}
	if !applied {
		t.Errorf("-format json: no KeepAlive fix at keepalive.go:21:2:\n%s", jsonOut)
	}

	out, stderr, code := run(t, dir, bin, "-testkeepalive", "-fix", "./...")
	if code != 3 || !strings.Contains(out, "keepalive.go:21:2: testkeepalive: keep p's owner alive") {
		t.Errorf("-fix: status %d, output:\n%s", code, out)
	}
	for _, want := range []string{
		`keepalive.go:21: cannot apply the fix "call C.renamed instead": the edit at keepalive.go:21:2 touches text that cgo rewrote`,
		// each fix applied, with the file and line it changed
		"lifetimevet: keepalive.go:21: fixed: add runtime.KeepAlive(p)\n",
		"lifetimevet: keepalive.go:25: fixed: add runtime.KeepAlive(p)\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("-fix: stderr lacks %q:\n%s", want, stderr)
		}
	}
	got, _ := os.ReadFile(filepath.Join(dir, "keepalive.go"))
	if !strings.Contains(string(got), "\tC.obj_use(p)\n\truntime.KeepAlive(p)\n}") {
		t.Errorf("fixed file:\n%s", got)
	}
	if out, err := exec.Command("go", "-C", dir, "build", "./...").CombinedOutput(); err != nil {
		t.Errorf("the fixed package does not build: %v\n%s", err, out)
	}
}

// TestProgressPiped checks that a run whose standard error is not a
// terminal prints no progress.
func TestProgressPiped(t *testing.T) {
	bin := build(t)
	_, stderr, _ := run(t, moduleDir(t), bin)
	if strings.Contains(stderr, "\r") || strings.Contains(stderr, "analysed") {
		t.Errorf("progress on a pipe: %q", stderr)
	}
}

func TestModels(t *testing.T) {
	bin := build(t)
	out, stderr, code := run(t, ".", bin, "models")
	if code != 0 || !strings.HasPrefix(out, "LIBRARY") || !strings.Contains(out, "cuMemFree") {
		t.Errorf("models: status %d, stderr %s, output starts %.200q", code, stderr, out)
	}
	model := filepath.Join(t.TempDir(), "my.model")
	os.WriteFile(model, []byte("library mylib\nrelease my_dispose\n"), 0o666)
	out, _, code = run(t, ".", bin, "models", "-model", model)
	if code != 0 || !strings.Contains(out, "my_dispose") || !strings.Contains(out, "my.model:2") {
		t.Errorf("models -model: status %d, no my_dispose from my.model:2", code)
	}
	os.WriteFile(model, []byte("library mylib\nrelease\n"), 0o666)
	if _, stderr, code := run(t, ".", bin, "models", "-model", model); code != 1 || !strings.Contains(stderr, "my.model:2:") {
		t.Errorf("models with a bad model file: status %d, stderr %s", code, stderr)
	}
}

// TestReadmeExample runs the analysis of README's first command
// (lifetimevet ./examples/... from the module's root) and compares its
// output with the sample README shows.
func TestReadmeExample(t *testing.T) {
	bin := build(t)
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(readme), "\n")
	var cmdLine, want []string
	for i, l := range lines {
		if cmdLine == nil && strings.HasPrefix(l, "    go install ./cmd/lifetimevet && ") {
			cmdLine = strings.Fields(l)
		}
		if strings.HasPrefix(l, "The example prints") {
			j := i + 1
			for j < len(lines) && !strings.HasPrefix(lines[j], "    ") {
				j++
			}
			for ; j < len(lines) && strings.HasPrefix(lines[j], "    "); j++ {
				want = append(want, strings.TrimPrefix(lines[j], "    "))
			}
			break
		}
	}
	if len(cmdLine) == 0 || cmdLine[len(cmdLine)-1] != "./examples/..." || len(want) == 0 {
		t.Fatalf("README: no first command ending in ./examples/... (%q) or no sample output (%q)", cmdLine, want)
	}
	out, stderr, code := run(t, "../..", bin, "./examples/...")
	if code != 3 || stderr != "" {
		t.Errorf("lifetimevet ./examples/...: status %d, want 3; stderr:\n%s", code, stderr)
	}
	if got := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); !slices.Equal(got, want) {
		t.Errorf("lifetimevet ./examples/... prints:\n%s\nREADME shows:\n%s", out, strings.Join(want, "\n"))
	}
}
