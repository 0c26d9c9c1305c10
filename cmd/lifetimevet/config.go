package main

import (
	"errors"
	"fmt"
	"go/build"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/BurntSushi/toml"
	protocol "github.com/tliron/glsp/protocol_3_16"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/lifetimevet/lifetimevet/passes/model"
)

// configName is the name of lifetimevet's configuration file. One may sit in
// any directory of a module; it applies to the packages of its directory and
// of the directories below it, down to the next configuration file, which
// overrides it key by key (as staticcheck.conf does):
//
//	# lifetimevet.toml
//	analyzers = ["all", "-releaseorder"]  # which analyzers report here
//	models = ["lifetime/mylib.model"]     # relative to this file's directory
//
//	[severity]                            # SARIF level: error, warning or note
//	handleleak = "note"
//
// In analyzers, "all" turns every analyzer on, "NAME" one on, "-NAME" one
// off, and "inherit" starts from the parent directory's list; without
// "inherit" the list replaces the parent's. In models, "inherit" puts the
// parent's files in the list. A severity entry overrides the parent's for
// that analyzer only. analyzers = [] turns every analyzer off, for a
// directory of generated code for instance.
//
// The files are looked up from a package's directory upward to its
// module's root (the directory that holds go.mod); packages in GOROOT and in
// the module cache have none.
const configName = "lifetimevet.toml"

// severities are the levels a [severity] entry may give, SARIF's names.
var severities = []string{"error", "warning", "note"}

// A configFile is one lifetimevet.toml, as written.
type configFile struct {
	path string
	dir  string
	// which keys the file sets
	hasAnalyzers, hasModels bool
	analyzers               []string
	models                  []string // absolute, or "inherit"
	severity                map[string]string
}

// A dirConfig is the configuration in effect in one directory.
type dirConfig struct {
	// files are the configuration files that apply, nearest first
	files    []string
	enabled  map[string]bool // by analyzer name; nil: all
	models   []string        // absolute model files
	severity map[string]string
}

// on reports whether analyzer name reports in the directory.
func (c *dirConfig) on(name string) bool { return c.enabled == nil || c.enabled[name] }

// configs reads the configuration files of directories, each once.
type configs struct {
	known  []string // the analyzers' names, for "all" and for checking names
	listed []string // lifetimevet's own, for messages

	// unitDir, under go vet, is the directory of the one package the
	// process analyses, for a pass whose files do not say (passDir)
	unitDir string

	// snap holds the content of the configuration and model files as
	// this run (an LSP analysis) read them, each once: what is parsed is
	// what the cache key hashes (packageKey)
	snap *inputSnap

	mu    sync.Mutex
	files map[string]*configFile // by path; nil: no file
	dirs  map[string]*dirConfig
	errs  map[string]error // by directory
}

// newConfigs returns the configuration of a run. Files may name
// lifetimevet's analyzers and go vet's (which run with -stdvet).
func newConfigs() *configs {
	cs := &configs{snap: newInputSnap(), files: map[string]*configFile{}, dirs: map[string]*dirConfig{}, errs: map[string]error{}}
	for _, a := range suite(true) {
		cs.known = append(cs.known, a.Name)
	}
	for _, a := range suite(false) {
		cs.listed = append(cs.listed, a.Name)
	}
	return cs
}

var defaultConfig = &dirConfig{}

// forDir returns the configuration in effect in directory dir (absolute),
// or the error of a configuration file that applies there (malformed, or
// naming an unknown analyzer or a bad model file), naming the file and line.
func (cs *configs) forDir(dir string) (*dirConfig, error) {
	if dir == "" || outsideModules(dir) {
		return defaultConfig, nil
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.resolve(filepath.Clean(dir))
}

func (cs *configs) resolve(dir string) (*dirConfig, error) {
	if c, ok := cs.dirs[dir]; ok {
		return c, cs.errs[dir]
	}
	parent := defaultConfig
	var err error
	if up := filepath.Dir(dir); up != dir && !isFile(filepath.Join(dir, "go.mod")) {
		parent, err = cs.resolve(up)
	}
	c := parent
	if err == nil {
		var f *configFile
		f, err = cs.read(filepath.Join(dir, configName))
		if err == nil && f != nil {
			c, err = cs.apply(parent, f)
		}
	}
	if err != nil {
		c = defaultConfig
	}
	cs.dirs[dir], cs.errs[dir] = c, err
	return c, err
}

// apply returns parent's configuration overridden by file f's keys.
func (cs *configs) apply(parent *dirConfig, f *configFile) (*dirConfig, error) {
	c := &dirConfig{
		files:    append([]string{f.path}, parent.files...),
		enabled:  parent.enabled,
		models:   parent.models,
		severity: parent.severity,
	}
	if f.hasAnalyzers {
		c.enabled = map[string]bool{}
		list := f.analyzers
		if len(list) > 0 && strings.HasPrefix(list[0], "-") {
			// a list of exceptions only: to the parent's list
			list = append([]string{"inherit"}, list...)
		}
		for _, e := range list {
			switch name, off := strings.CutPrefix(e, "-"); {
			case e == "inherit":
				for _, n := range cs.known {
					if parent.on(n) {
						c.enabled[n] = true
					}
				}
			case name == "all":
				for _, n := range cs.known {
					c.enabled[n] = !off
				}
			default:
				c.enabled[name] = !off
			}
		}
	}
	if f.hasModels {
		c.models = nil
		for _, m := range f.models {
			add := []string{m}
			if m == "inherit" {
				add = parent.models
			}
			for _, m := range add {
				if !slices.Contains(c.models, m) {
					c.models = append(c.models, m)
				}
			}
		}
	}
	if len(f.severity) > 0 {
		c.severity = map[string]string{}
		for k, v := range parent.severity {
			c.severity[k] = v
		}
		for k, v := range f.severity {
			c.severity[k] = v
		}
	}
	return c, nil
}

// read parses the configuration file at path, once; nil when there is none.
func (cs *configs) read(path string) (*configFile, error) {
	if f, ok := cs.files[path]; ok {
		return f, nil
	}
	if !isFile(path) {
		cs.files[path] = nil
		return nil, nil
	}
	data, err := cs.snap.read(path)
	if err != nil {
		return nil, err
	}
	f, err := parseConfig(path, data, cs.known, cs.listed, cs.snap.read)
	if err != nil {
		return nil, err
	}
	cs.files[path] = f
	return f, nil
}

// parseConfig parses a configuration file; errors name the file and line.
// A model file it names is read with read.
func parseConfig(path string, data []byte, known, listed []string, read func(string) ([]byte, error)) (*configFile, error) {
	f := &configFile{path: path, dir: filepath.Dir(path)}
	var raw map[string]any
	if line, ok := model.BareCR(data); ok {
		// TOML rejects a bare CR as a control character; say what it is
		return nil, fmt.Errorf("%s:%d: line ends are bare CR; use LF or CRLF", path, line)
	}
	if _, err := toml.Decode(string(data), &raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d: %s", path, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	errorf := func(line int, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", path, line, fmt.Sprintf(format, args...))
	}
	stringList := func(key string) ([]string, error) {
		list, ok := raw[key].([]any)
		if !ok {
			return nil, errorf(keyLine(data, "", key), "%s must be a list of strings, as in %s = [\"...\"]", key, key)
		}
		var out []string
		for _, v := range list {
			s, ok := v.(string)
			if !ok {
				return nil, errorf(keyLine(data, "", key), "%s must be a list of strings; %v is not a string", key, v)
			}
			out = append(out, s)
		}
		return out, nil
	}
	for _, key := range sortedMapKeys(raw) {
		switch key {
		case "analyzers":
			list, err := stringList(key)
			if err != nil {
				return nil, err
			}
			for _, e := range list {
				name, _ := strings.CutPrefix(e, "-")
				if e != "inherit" && name != "all" && !slices.Contains(known, name) {
					return nil, errorf(valueLine(data, e), "unknown analyzer %q (analyzers: %s, and go vet's)", name, joinNames(listed))
				}
			}
			// one list that names an analyzer both on and off says two
			// things; the later would win without a word
			for _, e := range list {
				if name, off := strings.CutPrefix(e, "-"); off && slices.Contains(list, name) {
					return nil, errorf(valueLine(data, e), "analyzers turns %s both on (%q) and off (%q); keep one", name, name, e)
				}
			}
			f.hasAnalyzers, f.analyzers = true, list
		case "models":
			list, err := stringList(key)
			if err != nil {
				return nil, err
			}
			for _, m := range list {
				if m == "inherit" {
					f.models = append(f.models, m)
					continue
				}
				if m == "" {
					return nil, errorf(keyLine(data, "", key), "empty model file name")
				}
				abs := m
				if !filepath.IsAbs(abs) {
					abs = filepath.Join(f.dir, filepath.FromSlash(m))
				}
				// a model file that is missing or malformed is this
				// file's error as much as its own
				if _, err := model.LoadFrom([]string{abs}, read); err != nil {
					return nil, errorf(valueLine(data, m), "%v", err)
				}
				f.models = append(f.models, abs)
			}
			f.hasModels = true
		case "severity":
			table, ok := raw[key].(map[string]any)
			if !ok {
				return nil, errorf(keyLine(data, "", key), "severity must be a table, as in [severity]")
			}
			f.severity = map[string]string{}
			for _, name := range sortedMapKeys(table) {
				line := keyLine(data, "severity", name)
				if !slices.Contains(known, name) {
					return nil, errorf(line, "unknown analyzer %q in [severity] (analyzers: %s, and go vet's)", name, joinNames(listed))
				}
				level, _ := table[name].(string)
				if !slices.Contains(severities, level) {
					return nil, errorf(line, "severity of %s must be one of %s, not %v", name, joinNames(severities), table[name])
				}
				f.severity[name] = level
			}
		default:
			return nil, errorf(keyLine(data, "", key), "unknown key %q (keys: analyzers, models, severity)", key)
		}
	}
	return f, nil
}

func sortedMapKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func joinNames(names []string) string {
	s := slices.Clone(names)
	sort.Strings(s)
	return strings.Join(s, ", ")
}

// keyLine returns the line of key's definition, in table (or at the top
// level when table is ""), or 1.
func keyLine(data []byte, table, key string) int {
	re := regexp.MustCompile(`^\s*(` + regexp.QuoteMeta(key) + `|"` + regexp.QuoteMeta(key) + `"|'` + regexp.QuoteMeta(key) + `')\s*[=.]`)
	header := regexp.MustCompile(`^\s*\[+\s*([^\]]*?)\s*\]`)
	cur := ""
	for i, line := range strings.Split(string(data), "\n") {
		if m := header.FindStringSubmatch(line); m != nil {
			cur = strings.Trim(m[1], `"'`)
			// a table named key: [key] or [key.sub]
			if table == "" && (cur == key || strings.HasPrefix(cur, key+".")) {
				return i + 1
			}
			continue
		}
		if cur == table && re.MatchString(line) {
			return i + 1
		}
	}
	// a dotted key, severity.NAME = ...
	if table != "" {
		if l := keyLine(data, "", table+"."+key); l > 1 {
			return l
		}
	}
	return 1
}

// valueLine returns the line where the string value v is written, or 1.
func valueLine(data []byte, v string) int {
	for i, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, `"`+v+`"`) || strings.Contains(line, `'`+v+`'`) {
			return i + 1
		}
	}
	return 1
}

func isFile(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && !fi.IsDir()
}

// outsideModules reports whether dir is in GOROOT or in the module cache,
// where no configuration file of the user's applies.
func outsideModules(dir string) bool {
	return under(build.Default.GOROOT, dir) || under(modCache(), dir)
}

// under reports whether dir is root or inside it ("" is nowhere).
func under(root, dir string) bool {
	if root == "" {
		return false
	}
	rel, err := filepath.Rel(root, dir)
	return err == nil && filepath.IsLocal(rel)
}

func modCache() string {
	if c := os.Getenv("GOMODCACHE"); c != "" {
		return c
	}
	if gp := filepath.SplitList(build.Default.GOPATH); len(gp) > 0 {
		return filepath.Join(gp[0], "pkg", "mod")
	}
	return ""
}

// passDir returns the directory of the package of pass: that of its first
// file as the user wrote it (cgo's output names the file it came from in a
// //line directive); "" when no file says.
func passDir(pass *analysis.Pass) string {
	for _, f := range pass.Files {
		name := pass.Fset.Position(f.Package).Filename
		// (go/packages names cgo's output by a hash in the build cache,
		// go vet by _cgo_*.go in its work directory)
		if !filepath.IsAbs(name) || !strings.HasSuffix(name, ".go") || strings.HasPrefix(filepath.Base(name), "_cgo_") {
			continue
		}
		return filepath.Dir(name)
	}
	return ""
}

// dirOf returns the directory of the package of pass.
func (cs *configs) dirOf(pass *analysis.Pass) string {
	if d := passDir(pass); d != "" {
		return d
	}
	return cs.unitDir
}

// activeConfigs is the configuration of the run in progress, for the model
// pass's hook (see useConfigs).
var activeConfigs atomic.Pointer[configs]

// useConfigs makes cs the configuration of the analyses that follow: the
// model pass reads, for each package, the model files its directory's
// configuration names.
func useConfigs(cs *configs) {
	activeConfigs.Store(cs)
	model.PackageFiles = func(pass *analysis.Pass) []string {
		cs := activeConfigs.Load()
		if cs == nil {
			return nil
		}
		c, err := cs.forDir(cs.dirOf(pass))
		if err != nil {
			return nil // reported before the analysis
		}
		return c.models
	}
	// the model files' bytes as the run's snapshot holds them, those its
	// cache keys hashed
	model.ReadFile = func(name string) ([]byte, error) {
		if cs := activeConfigs.Load(); cs != nil {
			return cs.snap.read(name)
		}
		return model.ReadRegularFile(name)
	}
}

// configured returns the analyzers with each one's Run restricted to the
// directories whose configuration turns it on. An analyzer turned off in a
// directory does not run there when it has neither facts nor a result;
// otherwise it runs and its findings are dropped, so that what it computes
// for other packages is unchanged (see internal/scope).
//
// When no directory resolved so far turns an analyzer off, the analyzers
// are returned as they are.
func (cs *configs) configured(as []*analysis.Analyzer) []*analysis.Analyzer {
	cs.mu.Lock()
	filter := false
	for _, c := range cs.dirs {
		filter = filter || c.enabled != nil
	}
	cs.mu.Unlock()
	if !filter {
		return as
	}
	out := make([]*analysis.Analyzer, len(as))
	for i, a := range as {
		c := *a
		c.Run = func(pass *analysis.Pass) (any, error) {
			dc, err := cs.forDir(cs.dirOf(pass))
			if err != nil {
				return nil, err
			}
			if dc.on(a.Name) {
				return a.Run(pass)
			}
			if len(a.FactTypes) == 0 && a.ResultType == nil {
				return nil, nil
			}
			quiet := *pass
			quiet.Report = func(analysis.Diagnostic) {}
			return a.Run(&quiet)
		}
		out[i] = &c
	}
	return out
}

// checkDirs resolves the configuration of each directory and returns the
// errors, each once.
func (cs *configs) checkDirs(dirs []string) []error {
	var errs []error
	seen := map[string]bool{}
	for _, d := range dirs {
		if _, err := cs.forDir(d); err != nil && !seen[err.Error()] {
			seen[err.Error()] = true
			errs = append(errs, err)
		}
	}
	return errs
}

// severity returns the SARIF level of analyzer a's findings in file name:
// its directory's configuration's, or the analyzer's own.
func (cs *configs) severity(a *analysis.Analyzer, name string) string {
	if cs != nil {
		if c, err := cs.forDir(filepath.Dir(name)); err == nil {
			if s, ok := c.severity[a.Name]; ok {
				return s
			}
		}
	}
	return ruleLevel(a)
}

// findingLevel is the SARIF level of a finding: as the configuration of
// its file's directory says.
func findingLevel(f finding) string {
	return activeConfigs.Load().severity(f.analyzer, f.posn.Filename)
}

// dirLevel is the SARIF level of analyzer a's findings in directory dir.
func dirLevel(a *analysis.Analyzer, dir string) string {
	return activeConfigs.Load().severity(a, filepath.Join(dir, "x.go"))
}

// packageDirs returns the directories of the packages and of all their
// dependencies.
func packageDirs(pkgs []*packages.Package) []string {
	var dirs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		switch {
		case p.Dir != "":
			dirs = append(dirs, p.Dir)
		case len(p.GoFiles) > 0:
			dirs = append(dirs, filepath.Dir(p.GoFiles[0]))
		}
	})
	return dirs
}

// lspSeverity is the LSP severity of a SARIF level.
func lspSeverity(level string) protocol.DiagnosticSeverity {
	switch level {
	case "error":
		return protocol.DiagnosticSeverityError
	case "note":
		return protocol.DiagnosticSeverityInformation
	}
	return protocol.DiagnosticSeverityWarning
}
