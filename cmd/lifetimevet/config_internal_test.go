package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeTree writes files (slash-separated names relative to dir).
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const oneModel = "library l\nacquire l_open result\n"

// TestConfigInheritance: the nearest file wins key by key; "inherit" and a
// list of exceptions start from the parent's; lookups stop at the module
// root.
func TestConfigInheritance(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "mod")
	writeTree(t, top, map[string]string{
		// above the module root: never read
		"lifetimevet.toml": "analyzers = []\n",
		"mod/go.mod":       "module example.com/m\n",
		"mod/lifetimevet.toml": `# the module's defaults
analyzers = ["all", "-releaseorder"]
models = ["lifetime/root.model"]

[severity]
handleleak = "note"
`,
		"mod/lifetime/root.model": oneModel,
		// generated code: nothing reports
		"mod/gen/lifetimevet.toml": "analyzers = []\n",
		// more models and a severity; analyzers inherited
		"mod/sub/lifetimevet.toml": "models = [\"inherit\", \"sub.model\"]\nseverity.doublerelease = \"error\"\n",
		"mod/sub/sub.model":        oneModel,
		"mod/sub/deep/x.go":        "package deep\n",
		// exceptions only: the parent's list minus handleleak
		"mod/other/lifetimevet.toml": "analyzers = [\"-handleleak\"]\n",
		// a list without inherit replaces the parent's
		"mod/only/lifetimevet.toml": "analyzers = [\"doublerelease\"]\nmodels = []\n",
		"mod/back/lifetimevet.toml": "analyzers = [\"inherit\", \"releaseorder\"]\n",
	})
	cs := newConfigs()
	get := func(rel string) *dirConfig {
		t.Helper()
		c, err := cs.forDir(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		return c
	}
	rootModel := filepath.Join(root, "lifetime", "root.model")
	subModel := filepath.Join(root, "sub", "sub.model")
	for _, tc := range []struct {
		dir      string
		on, off  []string
		models   []string
		severity map[string]string
	}{
		{".", []string{"doublerelease", "handleleak"}, []string{"releaseorder"}, []string{rootModel}, map[string]string{"handleleak": "note"}},
		{"gen", nil, []string{"doublerelease", "handleleak", "releaseorder"}, []string{rootModel}, map[string]string{"handleleak": "note"}},
		{"sub/deep", []string{"doublerelease", "handleleak"}, []string{"releaseorder"}, []string{rootModel, subModel}, map[string]string{"handleleak": "note", "doublerelease": "error"}},
		{"other", []string{"doublerelease"}, []string{"handleleak", "releaseorder"}, []string{rootModel}, nil},
		{"only", []string{"doublerelease"}, []string{"handleleak", "finalizer"}, nil, nil},
		{"back", []string{"doublerelease", "handleleak", "releaseorder"}, nil, []string{rootModel}, nil},
	} {
		c := get(tc.dir)
		for _, n := range tc.on {
			if !c.on(n) {
				t.Errorf("%s: %s is off, want on (files %v)", tc.dir, n, c.files)
			}
		}
		for _, n := range tc.off {
			if c.on(n) {
				t.Errorf("%s: %s is on, want off (files %v)", tc.dir, n, c.files)
			}
		}
		if !slices.Equal(c.models, tc.models) {
			t.Errorf("%s: models %v, want %v", tc.dir, c.models, tc.models)
		}
		for n, want := range tc.severity {
			if got := c.severity[n]; got != want {
				t.Errorf("%s: severity of %s %q, want %q", tc.dir, n, got, want)
			}
		}
	}
	// outside any configured tree: everything on, nothing else
	if c, err := cs.forDir(t.TempDir()); err != nil || !c.on("doublerelease") || len(c.models) > 0 {
		t.Errorf("unconfigured directory: %+v, %v", c, err)
	}
}

// TestConfigErrors: each mistake is an error naming the file and line,
// for the directory of the file and for those below it.
func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		content string
		want    string // after "lifetimevet.toml:"
	}{
		{"analyzers = [\"all\",\n  \"doublerelease\"\nmodels = [", "3: "},
		{"# comment\nanalyzers = [\"all\", \"-doublereleas\"]\n", `2: unknown analyzer "doublereleas"`},
		{"\nmodles = [\"x.model\"]\n", `2: unknown key "modles"`},
		{"analyzers = \"doublerelease\"\n", "1: analyzers must be a list of strings"},
		{"\n\nmodels = [\"missing.model\"]\n", "3: model file: open "},
		{"models = [\"bad.model\"]\n", "1: %ROOT%/bad.model:2: acquire needs"},
		{"[severity]\n\ndoublerelease = \"fatal\"\n", "3: severity of doublerelease must be one of error, note, warning"},
		{"[severity]\nnosuch = \"error\"\n", `2: unknown analyzer "nosuch" in [severity]`},
		{"analyzers = [ ]\n[other]\n", `2: unknown key "other"`},
		{"analyzers = []\n\n[[other.list]]\nx = 1\n", `3: unknown key "other"`},
		{"analyzers = [\"doublerelease\",\n  \"-doublerelease\"]\n", `2: analyzers turns doublerelease both on ("doublerelease") and off ("-doublerelease"); keep one`},
		{"analyzers = [\"-handleleak\", \"all\", \"handleleak\"]\n", `1: analyzers turns handleleak both on`},
		// TOML forbids control characters but tab: the parser says so, at the line
		{"analyzers = [\"all\"]\n\x00\n", "2: TOML files cannot contain control characters: '0x00'"},
		{"analyzers = [\"all\"] # \x1b\n", "1: TOML files cannot contain control characters: '0x1b'"},
		{"analyzers = [\"all\"]\r\n\r\n# x\ry\n", "3: line ends are bare CR; use LF or CRLF"},
		{"analyzers = [\"all\"]\r", "1: line ends are bare CR; use LF or CRLF"},
	} {
		root := t.TempDir()
		writeTree(t, root, map[string]string{
			"go.mod":           "module example.com/m\n",
			"lifetimevet.toml": tc.content,
			"bad.model":        "library b\nacquire\n",
			"below/x.go":       "package below\n",
		})
		cs := newConfigs()
		for _, dir := range []string{root, filepath.Join(root, "below")} {
			_, err := cs.forDir(dir)
			want := filepath.Join(root, "lifetimevet.toml") + ":" + strings.ReplaceAll(tc.want, "%ROOT%", root)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("config %q in %s: error %v, want it to contain %q", tc.content, dir, err, want)
			}
		}
	}
}
