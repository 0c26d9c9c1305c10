package plugin_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/lifetimevet/lifetimevet/internal/testutil"
	"github.com/lifetimevet/lifetimevet/passes/model"
	"github.com/lifetimevet/lifetimevet/plugin"
)

func TestSettings(t *testing.T) {
	as, err := plugin.Analyzers(plugin.Settings{})
	if err != nil || len(as) < 2 {
		t.Fatalf("default settings: %d analyzers, %v", len(as), err)
	}
	// selecting keeps lifetimedirective, which checks the directives the
	// selected analyzers read; only disabling it drops it
	as, err = plugin.Analyzers(plugin.Settings{Enable: []string{"doublerelease"}})
	if err != nil || len(as) != 2 || as[0].Name != "doublerelease" || as[1].Name != "lifetimedirective" {
		t.Errorf("enable doublerelease: %v, %v", as, err)
	}
	as, err = plugin.Analyzers(plugin.Settings{Enable: []string{"doublerelease"}, Disable: []string{"lifetimedirective"}})
	if err != nil || len(as) != 1 || as[0].Name != "doublerelease" {
		t.Errorf("enable doublerelease, disable lifetimedirective: %v, %v", as, err)
	}
	as, err = plugin.Analyzers(plugin.Settings{Disable: []string{"doublerelease"}})
	if err != nil || slices.ContainsFunc(as, func(a *analysis.Analyzer) bool { return a.Name == "doublerelease" }) {
		t.Errorf("disable doublerelease: %v, %v", as, err)
	}
	if _, err := plugin.Analyzers(plugin.Settings{Enable: []string{"doublerelase"}}); err == nil || !strings.Contains(err.Error(), `unknown analyzer "doublerelase"`) {
		t.Errorf("misspelt analyzer: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.model")
	os.WriteFile(bad, []byte("library x\nrelease\n"), 0o666)
	if _, err := plugin.Analyzers(plugin.Settings{Models: []string{bad}}); err == nil || !strings.Contains(err.Error(), "bad.model:2:") {
		t.Errorf("bad model file: %v", err)
	}
	if _, err := plugin.New(map[string]any{"pure_go": false}); err == nil {
		t.Errorf("unknown setting accepted")
	}
	if _, err := plugin.New(map[string]any{"pure-go": false, "enable": []string{"doublerelease"}, "models": []string{}}); err != nil {
		t.Errorf("settings: %v", err)
	}
}

// TestModelsDigest: the analyzers' names, part of golangci-lint's cache
// key, change with a model file's content.
func TestModelsDigest(t *testing.T) {
	f := filepath.Join(t.TempDir(), "mine.model")
	names := func() string {
		t.Helper()
		as, err := plugin.Analyzers(plugin.Settings{Models: []string{f}, Enable: []string{"doublerelease"}})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, a := range as {
			out = append(out, a.Name)
		}
		return strings.Join(out, ",")
	}
	os.WriteFile(f, []byte("library mine\nacquire thing_make result\n"), 0o666)
	before := names()
	os.WriteFile(f, []byte("library mine\nacquire thing_make result\nrelease thing_retire arg=0\n"), 0o666)
	if after := names(); after == before || !strings.HasPrefix(after, "doublerelease,lifetimedirective,lifetimevetmodels_") {
		t.Errorf("analyzers %s before and %s after the model file changed: want a different lifetimevetmodels_ name", before, after)
	}
}

// TestModelsReadOnce: the packages of a run parse the model file's bytes
// that named the digest analyzer, even when the file changes after the
// settings were read (golangci-lint would keep the findings of the new
// content under the key of the old).
func TestModelsReadOnce(t *testing.T) {
	f := filepath.Join(t.TempDir(), "mine.model")
	os.WriteFile(f, []byte("library mine\nacquire thing_make result\n"), 0o666)
	if _, err := plugin.Analyzers(plugin.Settings{Models: []string{f}}); err != nil {
		t.Fatal(err)
	}
	defer func() { model.ReadFile = nil }()
	os.WriteFile(f, []byte("library mine\nacquire thing_make result\nrelease thing_retire arg=0\n"), 0o666)
	m, err := model.Load([]string{f})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Entries("thing_retire")) != 0 {
		t.Error("a package parsed the model file as edited after the settings were read, not the bytes its cache key names")
	}
}

// issue is a finding in golangci-lint's JSON output.
type issue struct {
	FromLinter string
	Text       string
	Pos        struct {
		Filename     string
		Line, Column int
	}
}

func (i issue) String() string {
	return fmt.Sprintf("%s:%d: %s (%s)", i.Pos.Filename, i.Pos.Line, i.Text, i.FromLinter)
}

// TestGolangciLint builds golangci-lint with the plugin through
// build-custom-gcl.sh (the Go module proxy is the only network it needs)
// and runs it on testdata/sample.
func TestGolangciLint(t *testing.T) {
	testutil.Integration(t, "builds golangci-lint with the plugin (minutes with empty caches)")
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	bin := filepath.Join(t.TempDir(), "custom-gcl")
	build := exec.Command("bash", "build-custom-gcl.sh", "-o", bin)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build-custom-gcl.sh: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "custom-gcl-lifetimevet") {
		t.Fatalf("custom-gcl version: %v: %s", err, out)
	}
	example, err := os.ReadFile("example/.golangci.yml")
	if err != nil {
		t.Fatal(err)
	}

	// run copies the sample module, lets edit change it, and runs the
	// binary on it with config as .golangci.yml.
	run := func(t *testing.T, config string, edit func(dir string)) (issues []issue, stderr string) {
		t.Helper()
		dir := t.TempDir()
		copyDir(t, "testdata/sample", dir)
		os.WriteFile(filepath.Join(dir, ".golangci.yml"), []byte(config), 0o666)
		if edit != nil {
			edit(dir)
		}
		cmd := exec.Command(bin, "run", "--output.json.path=stdout", "--output.text.path=stderr", "--show-stats=false", "./...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOLANGCI_LINT_CACHE="+t.TempDir())
		var so, se bytes.Buffer
		cmd.Stdout, cmd.Stderr = &so, &se
		err := cmd.Run()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("golangci-lint run: %v", err)
		}
		var res struct{ Issues []issue }
		if so.Len() > 0 {
			if err := json.Unmarshal(so.Bytes(), &res); err != nil {
				t.Fatalf("golangci-lint JSON output: %v\n%s", err, so.String())
			}
		}
		return res.Issues, se.String()
	}
	// where lists the issues' positions of linter as file:line.
	where := func(issues []issue, linter string) []string {
		var out []string
		for _, i := range issues {
			if i.FromLinter == linter {
				out = append(out, fmt.Sprintf("%s:%d", filepath.ToSlash(i.Pos.Filename), i.Pos.Line))
			}
		}
		slices.Sort(out)
		return out
	}
	config := func(settings string) string {
		return `version: "2"
linters:
  default: none
  enable: [lifetimevet]
  settings:
    custom:
      lifetimevet:
        type: module
        settings:
` + settings
	}
	check := func(t *testing.T, issues []issue, stderr string, want ...string) {
		t.Helper()
		if got := where(issues, "lifetimevet"); !slices.Equal(got, want) {
			t.Errorf("lifetimevet findings at %v, want %v\nissues: %v\nstderr:\n%s", got, want, issues, stderr)
		}
	}

	t.Run("example config", func(t *testing.T) {
		issues, stderr := run(t, string(example), nil)
		check(t, issues, stderr, "app/app.go:14", "app/app.go:19", "gpu/gpu.go:26", "wrap/wrap.go:19")
		for _, i := range issues {
			if i.Pos.Filename == "gpu/gpu.go" && !strings.Contains(i.Text, "o is released twice: by C.obj_free at line 25") {
				t.Errorf("gpu.go: %s", i)
			}
		}
	})
	t.Run("nolint", func(t *testing.T) {
		issues, stderr := run(t, config("          {}\n"), func(dir string) {
			name := filepath.Join(dir, "gpu", "gpu.go")
			data, _ := os.ReadFile(name)
			lines := strings.Split(string(data), "\n")
			lines[25] += " //nolint:lifetimevet // the test says so"
			os.WriteFile(name, []byte(strings.Join(lines, "\n")), 0o666)
		})
		check(t, issues, stderr, "app/app.go:14", "app/app.go:19", "wrap/wrap.go:19")
	})
	t.Run("disable", func(t *testing.T) {
		issues, stderr := run(t, config("          disable: [doublerelease]\n"), nil)
		check(t, issues, stderr, "app/app.go:19")
	})
	t.Run("enable", func(t *testing.T) {
		// lifetimedirective stays on when analyzers are selected: a
		// directive typo is never silenced by a selection.
		issues, stderr := run(t, config("          enable: [doublerelease]\n"), nil)
		check(t, issues, stderr, "app/app.go:14", "app/app.go:19", "gpu/gpu.go:26", "wrap/wrap.go:19")
	})
	t.Run("pure-go false", func(t *testing.T) {
		// wrap is pure Go: its finding goes, but app's, which needs the
		// facts computed in wrap, stays.
		issues, stderr := run(t, config("          pure-go: false\n"), nil)
		check(t, issues, stderr, "app/app.go:14", "app/app.go:19", "gpu/gpu.go:26")
	})
	t.Run("models", func(t *testing.T) {
		issues, stderr := run(t, config("          models: [sample.model]\n          enable: [doublerelease]\n"), nil)
		check(t, issues, stderr, "app/app.go:14", "app/app.go:19", "gpu/gpu.go:26", "gpu/gpu.go:34", "wrap/wrap.go:19")
	})
	t.Run("model file changed", func(t *testing.T) {
		// Two runs in one directory with one cache: the second, after the
		// model file gained an entry, must not reuse the first's findings.
		dir := t.TempDir()
		copyDir(t, "testdata/sample", dir)
		os.WriteFile(filepath.Join(dir, ".golangci.yml"), []byte(config("          models: [sample.model]\n          enable: [doublerelease]\n")), 0o666)
		model := filepath.Join(dir, "sample.model")
		full, err := os.ReadFile(model)
		if err != nil {
			t.Fatal(err)
		}
		cache := t.TempDir()
		lint := func() []string {
			cmd := exec.Command(bin, "run", "--output.json.path=stdout", "--show-stats=false", "./...")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOLANGCI_LINT_CACHE="+cache)
			out, _ := cmd.Output()
			var res struct{ Issues []issue }
			json.Unmarshal(out, &res)
			return where(res.Issues, "lifetimevet")
		}
		os.WriteFile(model, []byte("# emptied\n"), 0o666)
		first := lint()
		os.WriteFile(model, full, 0o666)
		second := lint()
		want := []string{"app/app.go:14", "app/app.go:19", "gpu/gpu.go:26", "gpu/gpu.go:34", "wrap/wrap.go:19"}
		if slices.Contains(first, "gpu/gpu.go:34") || !slices.Equal(second, want) {
			t.Errorf("findings %v with the model emptied, then %v with it restored; want %v", first, second, want)
		}
	})
	t.Run("bad settings", func(t *testing.T) {
		_, stderr := run(t, config("          enable: [doublerelase]\n"), nil)
		if !strings.Contains(stderr, `unknown analyzer "doublerelase"`) {
			t.Errorf("misspelt analyzer: stderr:\n%s", stderr)
		}
	})
	t.Run("missing C header", func(t *testing.T) {
		// One package that does not type-check (cgo fails on a missing
		// header) hides every linter's findings in every package: the
		// README says so.
		issues, stderr := run(t, string(example), func(dir string) {
			os.Mkdir(filepath.Join(dir, "broken"), 0o777)
			os.WriteFile(filepath.Join(dir, "broken", "broken.go"), []byte("package broken\n\n// #include \"missing.h\"\nimport \"C\"\n"), 0o666)
		})
		check(t, issues, stderr)
		if len(where(issues, "typecheck")) == 0 {
			t.Errorf("no typecheck issue for the missing header: %v\n%s", issues, stderr)
		}
	})
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o777)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o666)
	})
	if err != nil {
		t.Fatal(err)
	}
}
