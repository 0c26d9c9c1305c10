package bench

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// The fixed corpus and the staticcheck release compared against.
const (
	XToolsVersion      = "v0.52.0"
	StaticcheckVersion = "v0.8.2"
	ModulePath         = "github.com/lifetimevet/lifetimevet"
)

// CgoModules are the real cgo modules of bench/corpus.sh, at the versions
// it fetches.
var CgoModules = []string{
	"github.com/mattn/go-sqlite3@v1.14.53",
	"github.com/NVIDIA/go-nvml@v0.13.4-1",
	"github.com/yalue/onnxruntime_go@v1.27.0",
	"github.com/marcboeker/go-duckdb@v1.8.5",
	"github.com/libgit2/git2go/v34@v34.0.0",
}

// PartNames are the parts of the corpus, in the order they are measured.
var PartNames = []string{"std", "xtools", "cgo"}

// CgoCFLAGS is the CGO_CFLAGS of every run: the bindings' C compiles with
// warnings (deprecations) that are not ours.
const CgoCFLAGS = "-O2 -g -w"

// Config is what lvbench's flags, and the benchmarks' flags, set.
type Config struct {
	Root        string   // the lifetimevet checkout (default: the main module of the current directory)
	Work        string   // scratch directory: binaries, the x/tools module, caches, logs (default $TMPDIR/lvbench)
	Rev         string   // build lifetimevet from this git revision (through git archive) rather than the working tree
	LifetimeVet string   // use this lifetimevet binary rather than building one
	Staticcheck string   // use this staticcheck binary rather than installing staticcheck@v0.8.2
	CorpusDir   string   // the scratch module of the cgo modules (default $TMPDIR/lifetimevet-corpus, bench/corpus.sh's)
	Corpus      []string // the parts to measure: std, xtools, cgo (default all)
	Patterns    []string // if set, replace the patterns of every selected part (development)
	Log         io.Writer
}

// An Env is a prepared benchmark: binaries built, corpus modules made.
type Env struct {
	Config
	Parts              []Part
	LifetimeVetRev     string // the commit lifetimevet was built from, and whether the tree had changes
	StaticcheckVersion string
	GoVersion          string
	RunEnv             []string // the environment of measured runs, but for the caches
}

// Prepare builds lifetimevet (unless a binary is given).
func Prepare(cfg Config) (*Env, error) {
	e := &Env{Config: cfg}
	if e.Log == nil {
		e.Log = io.Discard
	}
	if len(e.Corpus) == 0 {
		e.Corpus = PartNames
	}
	for _, name := range e.Corpus {
		if !slices.Contains(PartNames, name) {
			return nil, fmt.Errorf("unknown corpus part %q (want %s)", name, strings.Join(PartNames, ", "))
		}
	}
	if e.Work == "" {
		e.Work = filepath.Join(os.TempDir(), "lvbench")
	}
	if e.CorpusDir == "" {
		e.CorpusDir = filepath.Join(os.TempDir(), "lifetimevet-corpus")
	}
	var err error
	if e.Work, err = filepath.Abs(e.Work); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(e.Work, "bin"), 0o777); err != nil {
		return nil, err
	}
	if e.Root == "" {
		if e.Root, err = moduleRoot("."); err != nil {
			return nil, err
		}
	}
	e.RunEnv = runEnv()
	if e.GoVersion, err = output("", nil, "go", "version"); err != nil {
		return nil, err
	}
	if err := e.buildLifetimeVet(); err != nil {
		return nil, err
	}
	return e, nil
}

// PrepareCorpus installs staticcheck (unless given) and makes the parts of
// the corpus, for the comparison and the profile.
func (e *Env) PrepareCorpus() error {
	if err := e.installStaticcheck(); err != nil {
		return err
	}
	e.Parts = nil
	for _, name := range e.Corpus {
		p, err := e.part(name)
		if err != nil {
			return err
		}
		if len(e.Patterns) > 0 {
			p.Patterns = e.Patterns
		}
		list, err := output(p.Dir, e.RunEnv, "go", append([]string{"list"}, p.Patterns...)...)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		p.Packages = len(strings.Fields(list))
		e.Parts = append(e.Parts, p)
	}
	return nil
}

// Session returns a session of the four tools over the prepared parts.
func (e *Env) Session() *Session {
	return &Session{
		Parts:    e.Parts,
		Tools:    Tools(e.LifetimeVet, e.Staticcheck),
		Env:      e.RunEnv,
		Work:     e.Work,
		Progress: e.Log,
	}
}

// runEnv is the environment of every measured run: the caller's, with
// nothing fetched (GOPROXY=off: the modules are in the module cache), no
// workspace, the local toolchain, cgo on with the CFLAGS of corpus.sh, and
// no GOFLAGS, and no analysis cache of lifetimevet (LIFETIMEVET_CACHE=off:
// the profile and the stress measure the analysis; the comparison and the
// incremental mode give each run a cache of its own).
func runEnv() []string {
	drop := []string{"GOFLAGS", "GOWORK", "GOTOOLCHAIN", "GOPROXY", "CGO_ENABLED", "CGO_CFLAGS", "CGO_LDFLAGS", "GOCACHE", "STATICCHECK_CACHE", "LIFETIMEVET_CACHE", "LIFETIMEVET_DEBUG"}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.Contains(drop, k)
	})
	return append(env, "GOFLAGS=", "GOWORK=off", "GOTOOLCHAIN=local", "GOPROXY=off", "CGO_ENABLED=1", "CGO_CFLAGS="+CgoCFLAGS, "LIFETIMEVET_CACHE=off")
}

// RunEnvSummary is the part of the run environment the table states.
const RunEnvSummary = "GOFLAGS= GOWORK=off GOTOOLCHAIN=local GOPROXY=off CGO_ENABLED=1 CGO_CFLAGS=\"" + CgoCFLAGS + "\""

func (e *Env) part(name string) (Part, error) {
	switch name {
	case "std":
		// Any module will do; the x/tools one is at hand.
		dir, err := e.xtoolsModule()
		return Part{Name: "std", Title: "std", Dir: dir, Patterns: []string{"std"}}, err
	case "xtools":
		dir, err := e.xtoolsModule()
		return Part{Name: "xtools", Title: "golang.org/x/tools/... " + XToolsVersion, Dir: dir, Patterns: []string{"golang.org/x/tools/..."}}, err
	case "cgo":
		if err := e.cgoModule(); err != nil {
			return Part{}, err
		}
		var pats, names []string
		for _, m := range CgoModules {
			path, _, _ := strings.Cut(m, "@")
			pats = append(pats, path+"/...")
			names = append(names, m)
		}
		return Part{Name: "cgo", Title: "cgo modules (" + strings.Join(names, ", ") + ")", Dir: e.CorpusDir, Patterns: pats}, nil
	}
	return Part{}, fmt.Errorf("unknown part %q", name)
}

// xtoolsModule makes (once) a scratch module that requires
// golang.org/x/tools at XToolsVersion with its test dependencies, and
// returns its directory.
func (e *Env) xtoolsModule() (string, error) {
	dir := filepath.Join(e.Work, "xtools")
	if _, err := os.Stat(filepath.Join(dir, "go.sum")); err == nil {
		return dir, nil
	}
	fmt.Fprintf(e.Log, "making %s (golang.org/x/tools@%s through the module proxy)\n", dir, XToolsVersion)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", err
	}
	os.Remove(filepath.Join(dir, "go.mod"))
	if _, err := output(dir, setupEnv(), "go", "mod", "init", "lifetimevet.example/xtools"); err != nil {
		return "", err
	}
	if _, err := output(dir, setupEnv(), "go", "get", "-t", "golang.org/x/tools/...@"+XToolsVersion); err != nil {
		return "", err
	}
	return dir, nil
}

// cgoModule makes, unless it exists, bench/corpus.sh's scratch module of
// the cgo modules, the way corpus.sh makes it.
func (e *Env) cgoModule() error {
	dir := e.CorpusDir
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		return nil
	}
	fmt.Fprintf(e.Log, "making %s (the cgo modules through the module proxy, as bench/corpus.sh does)\n", dir)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	env := setupEnv()
	if _, err := output(dir, env, "go", "mod", "init", "lifetimevet.example/corpus"); err != nil {
		return err
	}
	var imports strings.Builder
	for _, m := range CgoModules {
		if _, err := output(dir, env, "go", "get", "-t", m); err != nil {
			if _, err := output(dir, env, "go", "get", m); err != nil {
				return err
			}
		}
		path, _, _ := strings.Cut(m, "@")
		fmt.Fprintf(&imports, "\t_ %q\n", path)
	}
	src := "package corpus\n\nimport (\n" + imports.String() + ")\n"
	if err := os.WriteFile(filepath.Join(dir, "corpus.go"), []byte(src), 0o666); err != nil {
		return err
	}
	output(dir, env, "go", "mod", "tidy")
	for _, m := range CgoModules {
		path, _, _ := strings.Cut(m, "@")
		output(dir, env, "go", "get", "-t", path+"/...")
	}
	return nil
}

// setupEnv is the environment of the commands that make the scratch
// modules: the caller's, with the module proxy reachable.
func setupEnv() []string {
	return append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod")
}

// buildLifetimeVet builds lifetimevet from the working tree, or from Rev,
// unless a binary was given.
func (e *Env) buildLifetimeVet() error {
	if e.LifetimeVet != "" {
		abs, err := filepath.Abs(e.LifetimeVet)
		e.LifetimeVet, e.LifetimeVetRev = abs, "given binary "+abs
		return err
	}
	src := e.Root
	if e.Rev != "" {
		commit, err := output(e.Root, nil, "git", "rev-parse", "--verify", e.Rev+"^{commit}")
		if err != nil {
			return err
		}
		src = filepath.Join(e.Work, "src-"+commit[:12])
		if err := gitExport(e.Root, commit, src); err != nil {
			return err
		}
		e.LifetimeVetRev = commit[:12]
	} else {
		commit, err := output(e.Root, nil, "git", "rev-parse", "HEAD")
		if err != nil {
			commit = "unknown"
		}
		e.LifetimeVetRev = commit[:min(12, len(commit))]
		if st, _ := output(e.Root, nil, "git", "status", "--porcelain", "--untracked-files=no"); st != "" {
			e.LifetimeVetRev += " plus uncommitted changes (the working tree)"
		}
	}
	e.LifetimeVet = filepath.Join(e.Work, "bin", "lifetimevet")
	fmt.Fprintf(e.Log, "building %s from %s\n", e.LifetimeVet, src)
	_, err := output(src, append(os.Environ(), "GOWORK=off"), "go", "build", "-o", e.LifetimeVet, "./cmd/lifetimevet")
	return err
}

// gitExport writes the tree of commit into dir (once).
func gitExport(root, commit, dir string) error {
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		return nil
	}
	cmd := exec.Command("git", "archive", "--format=tar", commit)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	data, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("git archive %s: %v\n%s", commit, err, stderr.Bytes())
	}
	tmp := dir + ".tmp"
	os.RemoveAll(tmp)
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		name := filepath.Join(tmp, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(name, tmp+string(filepath.Separator)) {
			continue
		}
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(name, 0o777)
		case tar.TypeReg:
			if err = os.MkdirAll(filepath.Dir(name), 0o777); err == nil {
				var body []byte
				if body, err = io.ReadAll(tr); err == nil {
					err = os.WriteFile(name, body, os.FileMode(h.Mode)&0o777|0o600)
				}
			}
		}
		if err != nil {
			return err
		}
	}
	return os.Rename(tmp, dir)
}

// installStaticcheck installs staticcheck at StaticcheckVersion into the
// work directory, through the module proxy (the go command's own client),
// unless a binary was given.
func (e *Env) installStaticcheck() error {
	if e.Staticcheck == "" {
		e.Staticcheck = filepath.Join(e.Work, "bin", "staticcheck")
		if _, err := os.Stat(e.Staticcheck); err != nil {
			fmt.Fprintf(e.Log, "installing staticcheck@%s into %s\n", StaticcheckVersion, filepath.Dir(e.Staticcheck))
			env := append(os.Environ(), "GOBIN="+filepath.Dir(e.Staticcheck), "GOWORK=off", "GOFLAGS=")
			if _, err := output(e.Work, env, "go", "install", "honnef.co/go/tools/cmd/staticcheck@"+StaticcheckVersion); err != nil {
				return err
			}
		}
	}
	var err error
	e.Staticcheck, err = filepath.Abs(e.Staticcheck)
	if err != nil {
		return err
	}
	e.StaticcheckVersion, err = output("", nil, e.Staticcheck, "-version")
	return err
}

// moduleRoot returns the directory of the lifetimevet module that dir is
// in.
func moduleRoot(dir string) (string, error) {
	out, err := output(dir, nil, "go", "list", "-m", "-f", "{{.Path}} {{.Dir}}")
	if err != nil {
		return "", err
	}
	path, root, _ := strings.Cut(out, " ")
	if path != ModulePath {
		return "", fmt.Errorf("run from the lifetimevet checkout (module %s), not from %s, or give -root", ModulePath, path)
	}
	return root, nil
}

// output runs a command and returns its standard output, trimmed; a
// failure's error carries standard error.
func output(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.Bytes())
	}
	return strings.TrimSpace(string(out)), nil
}

// Machine describes the machine: processors, memory, CPU model, OS.
type Machine struct {
	CPUs     int
	MemBytes int64
	Model    string
	OS       string
}

// ThisMachine describes the machine it runs on.
func ThisMachine() Machine {
	m := Machine{CPUs: runtime.NumCPU(), OS: runtime.GOOS + "/" + runtime.GOARCH}
	if out, err := output("", nil, "nproc"); err == nil {
		fmt.Sscan(out, &m.CPUs)
	}
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		for line := range strings.Lines(string(data)) {
			if _, err := fmt.Sscanf(line, "MemTotal: %d kB", &kb); err == nil {
				m.MemBytes = kb * 1024
				break
			}
		}
	}
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(data)) {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.Model = strings.TrimSpace(v)
				break
			}
		}
	}
	if out, err := output("", nil, "uname", "-sr"); err == nil {
		m.OS += ", " + out
	}
	return m
}

func (m Machine) String() string {
	return fmt.Sprintf("%d processors (nproc), %.1f GiB memory, %s, %s", m.CPUs, float64(m.MemBytes)/(1<<30), orUnknown(m.Model), m.OS)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown CPU"
	}
	return s
}

// errNoGCC is returned where a cgo benchmark cannot run.
var errNoGCC = errors.New("no C compiler (gcc or $CC) for cgo")

// HaveCC reports whether a C compiler for cgo is at hand.
func HaveCC() error {
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		return errNoGCC
	}
	return nil
}

// now is time.Now, for the table's date.
var now = time.Now

// Stress returns a stress run of lifetimevet in Work/stress, with a GOCACHE
// of its own that the runs share (the stress measures the analysis, not
// the build).
func (e *Env) Stress(variants []Variant, sizes []int, runs int, timeout time.Duration) *Stress {
	cache := filepath.Join(e.Work, "stress-cache")
	return &Stress{
		LifetimeVet: e.LifetimeVet,
		Dir:         filepath.Join(e.Work, "stress"),
		Env:         append(slices.Clone(e.RunEnv), "GOCACHE="+cache),
		Variants:    variants,
		Sizes:       sizes,
		Runs:        runs,
		Timeout:     timeout,
		Progress:    e.Log,
	}
}

// Header returns the header of the comparison's table.
func (e *Env) Header(command string) Header {
	return Header{
		Machine:     ThisMachine(),
		GoVersion:   e.GoVersion,
		LifetimeVet: e.LifetimeVetRev,
		Staticcheck: e.StaticcheckVersion,
		Command:     command,
	}
}
