package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The incremental mode (lvbench incremental) measures re-runs: standalone
// lifetimevet with its analysis cache against staticcheck with its own,
// each on unchanged code and with one file touched, after one cold run.
//
// Each part runs in an editable copy: the module of the part's first
// package is copied out of the module cache into WORK/inc (made writable)
// and a copy of the part's scratch module replaces it by that copy, so
// that a touched run can append to one of its files without writing into
// the module cache. Every run of the part, cold ones included, runs in the
// copy, so the states compare like with like.

// IncPartNames are the parts the incremental mode can measure, in order;
// std is not among them (see bench/README.md).
var IncPartNames = []string{"cgo", "cu", "xtools"}

// CuPackage is the cgo package with CUDA headers the cu part analyses (as
// issue 18 measured it): one package of gorgonia.org/cu v0.9.6 of the
// field corpus.
const CuPackage = "gorgonia.org/cu"

// An IncPart is a part of the incremental mode.
type IncPart struct {
	Name     string
	Title    string
	Dir      string   // the copy of the scratch module, whose go.mod replaces Module by Copy
	Patterns []string // package patterns
	Env      []string `json:",omitempty"` // added to the run environment (cu: the CUDA headers)
	Module   string   // the module copied, editable
	Copy     string   // its copy
	TouchPkg string   // the package whose file a touched run appends to (the part's first)
	Touch    string   // that file (its first cgo file, or else its first Go file)
	Packages int
}

// An IncTool is one of the incremental mode's commands.
type IncTool struct {
	Key  string // lv, lvoff, sc
	Name string
	argv func(patterns []string) []string
}

// IncTools are standalone lifetimevet with its analysis cache,
// lifetimevet -cache=off, and staticcheck.
func IncTools(lifetimevet, staticcheck string) []IncTool {
	return []IncTool{
		{"lv", "lifetimevet", func(p []string) []string { return append([]string{lifetimevet}, p...) }},
		{"lvoff", "lifetimevet -cache=off", func(p []string) []string {
			return append([]string{lifetimevet, "-cache=off"}, p...)
		}},
		{"sc", "staticcheck", func(p []string) []string { return append([]string{staticcheck}, p...) }},
	}
}

// The states of an incremental run.
const (
	StateCold    = "cold"    // fresh GOCACHE, STATICCHECK_CACHE and LIFETIMEVET_CACHE
	StateWarm    = "warm"    // the same command again, unchanged code
	StateTouched = "touched" // the same command after a comment was appended to one file
)

// IncKey names a cell of the incremental results.
type IncKey struct{ Part, Tool, State string }

func (k IncKey) MarshalText() ([]byte, error) {
	return []byte(k.Part + "/" + k.Tool + "/" + k.State), nil
}

func (k *IncKey) UnmarshalText(b []byte) error {
	f := strings.Split(string(b), "/")
	if len(f) != 3 {
		return fmt.Errorf("bad key %q", b)
	}
	*k = IncKey{f[0], f[1], f[2]}
	return nil
}

// An Incremental is a measurement of the incremental mode: per part, one
// cold run of lifetimevet and of staticcheck (the caches fresh), then N
// times: each tool warm on unchanged code, a comment appended to the
// part's Touch file, and lifetimevet and staticcheck again (touched).
// lifetimevet -cache=off runs warm only (it keeps nothing of the
// analysis), and cold too with ColdOff. The tools alternate within each
// step.
type Incremental struct {
	Parts []IncPart
	Tools []IncTool `json:"-"`
	N     int
	// ColdOff runs lifetimevet -cache=off cold too, with a build cache
	// of its own; otherwise it shares lifetimevet's build cache (not its
	// analysis cache, which it does not use) and runs warm only.
	ColdOff bool
	Env     []string `json:"-"`
	Work    string
	Samples map[IncKey][]Sample
	Start   time.Time
	End     time.Time
	LoadAvg [2]string
	// Progress, if not nil, gets a line per run.
	Progress io.Writer `json:"-"`
	// PartDone, if not nil, is called after each part (to save what is
	// measured so far).
	PartDone func() `json:"-"`
}

// PrepareIncremental makes the editable copies of the parts named.
func (e *Env) PrepareIncremental(names []string, n int) (*Incremental, error) {
	if err := e.installStaticcheck(); err != nil {
		return nil, err
	}
	inc := &Incremental{Tools: IncTools(e.LifetimeVet, e.Staticcheck), N: n, Env: e.RunEnv, Work: e.Work, Progress: e.Log}
	for _, name := range names {
		p, err := e.incPart(name)
		if err != nil {
			return nil, err
		}
		inc.Parts = append(inc.Parts, p)
	}
	return inc, nil
}

// incPart makes the editable copy of a part.
func (e *Env) incPart(name string) (IncPart, error) {
	var p IncPart
	switch name {
	case "cgo", "xtools":
		base, err := e.part(name)
		if err != nil {
			return p, err
		}
		p = IncPart{Name: name, Title: base.Title, Patterns: base.Patterns}
		if len(e.Patterns) > 0 {
			p.Patterns = e.Patterns
		}
		if err := e.editableCopy(&p, base.Dir); err != nil {
			return p, err
		}
	case "cu":
		if err := e.cgoModule(); err != nil {
			return p, err
		}
		env, err := e.cudaEnv()
		if err != nil {
			return p, err
		}
		p = IncPart{Name: name, Title: CuPackage + " v0.9.6 (CUDA 11.8 headers)", Patterns: []string{CuPackage}, Env: env}
		if len(e.Patterns) > 0 {
			p.Patterns = e.Patterns
		}
		if err := e.editableCopy(&p, e.CorpusDir); err != nil {
			return p, err
		}
	case "std":
		return p, fmt.Errorf("the incremental mode does not measure std (see bench/README.md)")
	default:
		return p, fmt.Errorf("unknown incremental part %q (want %s)", name, strings.Join(IncPartNames, ", "))
	}
	return p, nil
}

// cudaEnv returns the cgo flags of the corpus's cuda modules (as
// bench/corpus.sh sets them): the headers of bench/gpu-headers.sh, which
// it makes if they are missing, and its stub libraries.
func (e *Env) cudaEnv() ([]string, error) {
	inc, err := output(e.Root, nil, filepath.Join(e.Root, "bench", "gpu-headers.sh"))
	if err != nil {
		return nil, err
	}
	lib := filepath.Join(filepath.Dir(inc), "lib", "x86_64-linux-gnu")
	return []string{"CGO_CFLAGS=" + CgoCFLAGS + " -I" + inc, "CGO_LDFLAGS=-L" + filepath.Join(lib, "stubs") + " -L" + lib}, nil
}

// runEnv returns the part's run environment: e.RunEnv with the part's
// additions overriding.
func runEnvWith(base, extra []string) []string {
	env := slices.DeleteFunc(slices.Clone(base), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.ContainsFunc(extra, func(x string) bool { return strings.HasPrefix(x, k+"=") })
	})
	return append(env, extra...)
}

// editableCopy copies the module of the part's first package out of the
// module cache and makes a copy of the scratch module base that replaces
// it by the copy; it sets p.Dir, Module, Copy, TouchPkg, Touch and
// Packages.
func (e *Env) editableCopy(p *IncPart, base string) error {
	env := runEnvWith(e.RunEnv, p.Env)
	list, err := output(base, env, "go", append([]string{"list", "-f", "{{.ImportPath}}|{{with .Module}}{{.Path}}|{{.Dir}}{{end}}"}, p.Patterns...)...)
	if err != nil {
		return fmt.Errorf("%s: %v", p.Name, err)
	}
	lines := strings.Split(list, "\n")
	p.Packages = len(lines)
	f := strings.Split(lines[0], "|")
	if len(f) != 3 {
		return fmt.Errorf("%s: %s is in no module", p.Name, f[0])
	}
	p.TouchPkg, p.Module = f[0], f[1]
	modDir, err := output(base, env, "go", "list", "-m", "-f", "{{.Dir}}", p.Module)
	if err != nil {
		return err
	}
	root := filepath.Join(e.Work, "inc", p.Name)
	p.Copy = filepath.Join(root, strings.NewReplacer("/", "_", "@", "_").Replace(p.Module))
	if err := copyTree(modDir, p.Copy); err != nil {
		return err
	}
	p.Dir = filepath.Join(root, "scratch")
	if err := os.MkdirAll(p.Dir, 0o777); err != nil {
		return err
	}
	// the scratch module's own files: go.mod, go.sum, its Go files
	ents, err := os.ReadDir(base)
	if err != nil {
		return err
	}
	for _, ent := range ents {
		if n := ent.Name(); ent.Type().IsRegular() && (n == "go.mod" || n == "go.sum" || strings.HasSuffix(n, ".go")) {
			data, err := os.ReadFile(filepath.Join(base, n))
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(p.Dir, n), data, 0o666); err != nil {
				return err
			}
		}
	}
	if _, err := output(p.Dir, env, "go", "mod", "edit", "-replace="+p.Module+"="+p.Copy); err != nil {
		return err
	}
	// the file to touch, in the copy
	files, err := output(p.Dir, env, "go", "list", "-f", "{{.Dir}}|{{join .CgoFiles \",\"}}|{{join .GoFiles \",\"}}", p.TouchPkg)
	if err != nil {
		return fmt.Errorf("%s in the copy: %v", p.Name, err)
	}
	g := strings.Split(files, "|")
	if len(g) != 3 || !strings.HasPrefix(g[0], p.Copy) {
		return fmt.Errorf("%s: %s is not in the copy %s: %s", p.Name, p.TouchPkg, p.Copy, files)
	}
	first := strings.Split(g[1], ",")[0]
	if first == "" {
		first = strings.Split(g[2], ",")[0]
	}
	if first == "" {
		return fmt.Errorf("%s: %s has no Go file", p.Name, p.TouchPkg)
	}
	p.Touch = filepath.Join(g[0], first)
	return nil
}

// copyTree copies the directory src to dst (once: an existing copy is
// kept), writable.
func copyTree(src, dst string) error {
	if _, err := os.Stat(filepath.Join(dst, "go.mod")); err == nil {
		return nil
	}
	tmp := dst + ".tmp"
	os.RemoveAll(tmp)
	if err := os.MkdirAll(filepath.Dir(dst), 0o777); err != nil {
		return err
	}
	if _, err := output("", nil, "cp", "-R", src, tmp); err != nil {
		return err
	}
	if _, err := output("", nil, "chmod", "-R", "u+w", tmp); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

// A toucher appends a comment to a file and puts the file back.
type toucher struct {
	file string
	orig []byte
}

func newToucher(file string) (*toucher, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	// an earlier session that was stopped leaves its comments: drop them
	if i := strings.Index(string(data), "\n// lvbench touch "); i >= 0 {
		data = data[:i] // (touch appends "\n// lvbench touch N\n")
		os.WriteFile(file, data, 0o666)
	}
	return &toucher{file, data}, nil
}

// touch appends a comment no earlier run has seen.
func (t *toucher) touch() error {
	f, err := os.OpenFile(t.file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	fmt.Fprintf(f, "\n// lvbench touch %d\n", time.Now().UnixNano())
	return f.Close()
}

func (t *toucher) restore() error { return os.WriteFile(t.file, t.orig, 0o666) }

// Run measures every part: the cold runs, then N warm and touched steps.
func (inc *Incremental) Run() error {
	if inc.Samples == nil {
		inc.Samples = map[IncKey][]Sample{}
	}
	inc.Start = time.Now()
	inc.LoadAvg[0] = loadAvg()
	logs := filepath.Join(inc.Work, "logs")
	if err := os.MkdirAll(logs, 0o777); err != nil {
		return err
	}
	for _, p := range inc.Parts {
		if err := inc.runPart(p, logs); err != nil {
			return fmt.Errorf("%s: %v", p.Name, err)
		}
		inc.End = time.Now()
		inc.LoadAvg[1] = loadAvg()
		if inc.PartDone != nil {
			inc.PartDone()
		}
	}
	inc.End = time.Now()
	inc.LoadAvg[1] = loadAvg()
	return nil
}

func (inc *Incremental) runPart(p IncPart, logs string) error {
	t, err := newToucher(p.Touch)
	if err != nil {
		return err
	}
	defer t.restore()
	caches := map[string]string{}
	defer func() {
		for _, c := range caches {
			os.RemoveAll(c)
		}
	}()
	for _, tool := range inc.Tools {
		c, err := os.MkdirTemp(inc.Work, "inc-cache-")
		if err != nil {
			return err
		}
		caches[tool.Key] = c
	}
	if !inc.ColdOff {
		os.RemoveAll(caches["lvoff"])
		delete(caches, "lvoff")
	}
	cacheOf := func(tool string) string {
		if c, ok := caches[tool]; ok {
			return c
		}
		return caches["lv"]
	}
	env := runEnvWith(inc.Env, p.Env)
	run := func(tool IncTool, state string, i int) error {
		cache := cacheOf(tool.Key)
		argv := tool.argv(p.Patterns)
		log := filepath.Join(logs, fmt.Sprintf("inc-%s-%s-%s-%d.log", p.Name, tool.Key, state, i))
		sample, err := runLogged(p.Dir, argv, cacheEnv(env, cache), log)
		if err != nil {
			return fmt.Errorf("%s %s: %v", tool.Name, state, err)
		}
		k := IncKey{p.Name, tool.Key, state}
		inc.Samples[k] = append(inc.Samples[k], sample)
		if inc.Progress != nil {
			fmt.Fprintf(inc.Progress, "incremental %-6s %-24s %-7s: wall %6.1fs cpu %6.1fs maxrss %5d MiB exit %d others %.2f cores\n",
				p.Name, tool.Name, state, sample.Wall.Seconds(), sample.CPU.Seconds(), sample.MaxRSS>>20, sample.Exit,
				sample.OthersCPU.Seconds()/max(sample.Wall.Seconds(), 1e-9))
		}
		return nil
	}
	for _, tool := range inc.Tools {
		if tool.Key == "lvoff" && !inc.ColdOff {
			continue
		}
		if err := run(tool, StateCold, 0); err != nil {
			return err
		}
	}
	for i := 1; i <= inc.N; i++ {
		for _, tool := range inc.Tools {
			if err := run(tool, StateWarm, i); err != nil {
				return err
			}
		}
		if err := t.touch(); err != nil {
			return err
		}
		for _, tool := range inc.Tools {
			if tool.Key == "lvoff" {
				continue // it keeps nothing: touched is warm
			}
			if err := run(tool, StateTouched, i); err != nil {
				return err
			}
		}
	}
	return nil
}

// cacheEnv sets every tool's cache to directories under cache.
func cacheEnv(env []string, cache string) []string {
	env = slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		return strings.HasPrefix(kv, "GOCACHE=") || strings.HasPrefix(kv, "STATICCHECK_CACHE=") || strings.HasPrefix(kv, "LIFETIMEVET_CACHE=")
	})
	return append(env, "GOCACHE="+filepath.Join(cache, "go"), "STATICCHECK_CACHE="+filepath.Join(cache, "staticcheck"), "LIFETIMEVET_CACHE="+filepath.Join(cache, "lifetimevet"))
}

// runLogged measures a command, its output and measures in logFile.
func runLogged(dir string, argv, env []string, logFile string) (Sample, error) {
	f, err := os.Create(logFile)
	if err != nil {
		return Sample{}, err
	}
	defer f.Close()
	fmt.Fprintf(f, "# %s\n# in %s\n", strings.Join(argv, " "), dir)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = f, f
	sample, err := Measure(cmd)
	fmt.Fprintf(f, "# exit %d, wall %v, cpu %v, maxrss %d, tree rss %d\n", sample.Exit, sample.Wall, sample.CPU, sample.MaxRSS, sample.TreeRSS)
	return sample, err
}

// Save writes the measurement and the header as JSON.
func (inc *Incremental) Save(file string, h Header) error {
	data, err := json.MarshalIndent(struct {
		Header      Header
		Incremental *Incremental
	}{h, inc}, "", "\t")
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(data, '\n'), 0o666)
}

// Load summarizes the other work's load over the runs, as Session.Load.
func (inc *Incremental) Load() (median, maxLoad, overall float64) {
	s := &Session{Samples: map[Key][]Sample{}}
	for k, ss := range inc.Samples {
		s.Samples[Key{k.Part, k.Tool, Cache(k.State)}] = ss
	}
	return s.Load()
}

// WriteMarkdown writes a table per part: each tool in each state, with
// its ratios to staticcheck in the same state, and the cold cost of the
// cache (lifetimevet against lifetimevet -cache=off, both cold).
func (inc *Incremental) WriteMarkdown(w io.Writer, h Header) {
	fmt.Fprintf(w, "## re-runs: lifetimevet's analysis cache against staticcheck's\n\n")
	fmt.Fprintf(w, "- machine: %s\n", h.Machine)
	fmt.Fprintf(w, "- Go: %s\n", h.GoVersion)
	fmt.Fprintf(w, "- date: %s to %s\n", inc.Start.UTC().Format("2006-01-02 15:04"), inc.End.UTC().Format("15:04 MST"))
	fmt.Fprintf(w, "- lifetimevet: %s; staticcheck: %s (honnef.co/go/tools %s)\n", h.LifetimeVet, h.Staticcheck, StaticcheckVersion)
	fmt.Fprintf(w, "- N = %d: one cold run of each tool per part, then %d warm and %d touched runs (cells: median (min–max))\n", inc.N, inc.N, inc.N)
	med, mx, all := inc.Load()
	fmt.Fprintf(w, "- load from other work: %.2f processors on average over the session (median run %.2f, busiest run %.2f), out of %d; load average %s at the start, %s at the end\n",
		all, med, mx, h.Machine.CPUs, orDash(inc.LoadAvg[0]), orDash(inc.LoadAvg[1]))
	fmt.Fprintf(w, "- environment: %s\n", RunEnvSummary)
	fmt.Fprintf(w, "- command: `%s`\n\n", h.Command)
	fmt.Fprintf(w, "cold: fresh, empty GOCACHE, STATICCHECK_CACHE and LIFETIMEVET_CACHE. warm: the same command again, unchanged code. touched: the same command after a comment (a new one each time) was appended to one file of the part's first package, in an editable copy of its module (the module cache is not written). lifetimevet -cache=off keeps no analysis between runs: its warm row (with lifetimevet's warm build cache) is what every standalone re-run cost before the cache. ×sc: over staticcheck's median in the same state. std is not measured (its cold runs take most of an hour on this machine).\n\n")
	cells := map[IncKey]Cell{}
	for k, ss := range inc.Samples {
		cells[k] = summarize(ss)
	}
	for _, p := range inc.Parts {
		fmt.Fprintf(w, "### %s\n\n", p.Title)
		fmt.Fprintf(w, "%d packages (`%s`); touched: `%s` of %s; environment added: %s\n\n", p.Packages, strings.Join(p.Patterns, " "), filepath.Base(p.Touch), p.TouchPkg, orDash(strings.Join(p.Env, " ")))
		fmt.Fprintf(w, "| tool | state | wall (s) | CPU (s) | max RSS (MiB) | wall ×sc | CPU ×sc | RSS ×sc | exit |\n")
		fmt.Fprintf(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|\n")
		for _, state := range []string{StateCold, StateWarm, StateTouched} {
			sc := cells[IncKey{p.Name, "sc", state}]
			for _, t := range inc.Tools {
				x, ok := cells[IncKey{p.Name, t.Key, state}]
				if !ok {
					continue
				}
				fmt.Fprintf(w, "| %s | %s | %s | %s | %.0f | %s | %s | %s | %s |\n", t.Name, state, rng(x.Wall, 2), rng(x.CPU, 2), x.MaxRSS.Median,
					ratio(x.Wall, sc.Wall), ratio(x.CPU, sc.CPU), ratio(x.MaxRSS, sc.MaxRSS), exits(x.Exits))
			}
		}
		on, off := cells[IncKey{p.Name, "lv", StateCold}], cells[IncKey{p.Name, "lvoff", StateCold}]
		if on.Runs > 0 && off.Runs > 0 && off.CPU.Median > 0 {
			fmt.Fprintf(w, "\ncold cost of the cache: lifetimevet cold %.2f s CPU, %.2f s wall with the cache, %.2f s CPU, %.2f s wall with -cache=off (%+.1f%% CPU, %+.1f%% wall; one run each, so within the machine's noise)\n",
				on.CPU.Median, on.Wall.Median, off.CPU.Median, off.Wall.Median, 100*(on.CPU.Median/off.CPU.Median-1), 100*(on.Wall.Median/off.Wall.Median-1))
		}
		fmt.Fprintln(w)
	}
}
