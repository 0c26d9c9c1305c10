// Package plugin registers lifetimevet as a golangci-lint v2 module plugin
// named "lifetimevet".
//
// Build a golangci-lint binary that includes it with `golangci-lint custom`
// and the .custom-gcl.yml beside this file, or, where GitHub cannot be
// reached, with build-custom-gcl.sh, which takes golangci-lint from the Go
// module proxy. Then enable it in .golangci.yml:
//
//	version: "2"
//	linters:
//	  enable:
//	    - lifetimevet
//	  settings:
//	    custom:
//	      lifetimevet:
//	        type: module
//	        description: lifetime bugs in Go code that owns native handles through cgo
//	        settings:
//	          disable: [lifetimedirective]   # or enable: [doublerelease] to run only those (and lifetimedirective, unless disabled)
//	          models: [lifetime/mylib.model] # model files; relative to where golangci-lint runs
//	          pure-go: false                 # report only in packages that import "C"
//
// All settings are optional; an unknown setting or analyzer name, or a
// model file that cannot be read or parsed, is an error, so that a typo
// never switches a check off.
package plugin

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/lifetimevet/lifetimevet/analyzers"
	"github.com/lifetimevet/lifetimevet/internal/scope"
	"github.com/lifetimevet/lifetimevet/passes/model"
)

// Name is the linter's name in golangci-lint: in .golangci.yml, in
// //nolint:lifetimevet, and in the output.
const Name = "lifetimevet"

func init() {
	register.Plugin(Name, New)
}

// Settings are the plugin's settings in .golangci.yml
// (linters.settings.custom.lifetimevet.settings).
type Settings struct {
	// Enable, when not empty, runs only the analyzers named.
	Enable []string `json:"enable"`
	// Disable turns the analyzers named off.
	Disable []string `json:"disable"`
	// Models are model files of C functions that acquire and release
	// handles, as given to the command's -model flag. A relative name is
	// relative to the directory golangci-lint runs in.
	Models []string `json:"models"`
	// PureGo says whether findings are reported in packages that do not
	// import "C" (default true). With false, pure-Go packages are still
	// analysed, so that what they release is known to their importers, but
	// nothing is reported in them.
	PureGo *bool `json:"pure-go"`
}

type plugin struct {
	settings Settings
}

// New is the plugin's constructor, as golangci-lint calls it with the
// settings from its configuration.
func New(conf any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](conf)
	if err != nil {
		return nil, fmt.Errorf("lifetimevet settings: %w", err)
	}
	return &plugin{settings: s}, nil
}

// GetLoadMode says the analyzers need type information (and so run on
// every package, with facts flowing from dependencies).
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

// BuildAnalyzers returns the suite, as selected by the settings.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return Analyzers(p.settings)
}

// Analyzers returns the analyzers that settings s select, and sets the
// model pass's model files.
func Analyzers(s Settings) ([]*analysis.Analyzer, error) {
	known := map[string]bool{}
	var names []string
	for _, a := range analyzers.All {
		known[a.Name] = true
		names = append(names, a.Name)
	}
	for _, n := range slices.Concat(s.Enable, s.Disable) {
		if !known[n] {
			return nil, fmt.Errorf("lifetimevet settings: unknown analyzer %q (analyzers: %s)", n, strings.Join(names, ", "))
		}
	}
	var files model.Files
	for _, f := range s.Models {
		abs, err := filepath.Abs(f)
		if err != nil {
			return nil, fmt.Errorf("lifetimevet settings: model file %s: %v", f, err)
		}
		files = append(files, abs)
	}
	// Read the model files now, once: a bad one is one clear error rather
	// than a failure in every package, and every package parses the bytes
	// whose hash names modelsAnalyzer (golangci-lint's cache key), not
	// the file as it may be by the time the package is analysed.
	contents := map[string][]byte{}
	for _, f := range files {
		data, err := model.ReadRegularFile(f)
		if err != nil {
			return nil, fmt.Errorf("lifetimevet settings: model file: %v", err)
		}
		contents[f] = data
	}
	read := func(name string) ([]byte, error) {
		if data, ok := contents[name]; ok {
			return data, nil
		}
		return model.ReadRegularFile(name)
	}
	if _, err := model.LoadFrom(files, read); err != nil {
		return nil, fmt.Errorf("lifetimevet settings: %w", err)
	}
	*model.FlagSet().Lookup("model").Value.(*model.Files) = files
	model.ReadFile = read

	var out []*analysis.Analyzer
	for _, a := range analyzers.All {
		if len(s.Enable) > 0 && !slices.Contains(s.Enable, a.Name) && !analyzers.KeptWhenSelecting(a) || slices.Contains(s.Disable, a.Name) {
			continue
		}
		if s.PureGo != nil && !*s.PureGo {
			a = scope.CgoOnly(a)
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("lifetimevet settings: no analyzer left to run")
	}
	if len(files) > 0 {
		a, err := modelsAnalyzer(files, read)
		if err != nil {
			return nil, fmt.Errorf("lifetimevet settings: %w", err)
		}
		out = append(out, a)
	}
	return out, nil
}

// modelsAnalyzer returns an analyzer that does nothing, named after a hash
// of the model files' contents. golangci-lint caches each package's
// findings under a key made of its configuration (the settings as
// written: the models' names, not their contents), the package's files and
// the names of the analyzers that run: the name makes a change of a model
// file a change of that key, so that the findings are computed again.
func modelsAnalyzer(files []string, read func(string) ([]byte, error)) (*analysis.Analyzer, error) {
	h := sha256.New()
	for _, f := range files {
		data, err := read(f)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(h, "%q %d\n", f, len(data))
		h.Write(data)
	}
	return &analysis.Analyzer{
		Name: fmt.Sprintf("lifetimevetmodels_%x", h.Sum(nil)[:12]),
		Doc:  "the model files' digest, for golangci-lint's cache (reports nothing)",
		Run:  func(*analysis.Pass) (any, error) { return nil, nil },
	}, nil
}
