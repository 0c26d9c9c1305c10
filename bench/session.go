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

// A Part is a piece of the corpus: packages every tool is run on in one
// command, from one directory.
type Part struct {
	Name     string   // std, xtools, cgo: the name -corpus takes
	Title    string   // what the table calls it
	Dir      string   // where the tools run: a module whose build list resolves Patterns
	Patterns []string // package patterns, as go vet takes them
	Packages int      // how many packages the patterns name (test variants not counted)
}

// A Tool is one of the compared commands.
type Tool struct {
	Key  string                           // a, b, c, d: the brief's names, and the order of a round
	Name string                           // what the table calls it
	Argv func(patterns []string) []string `json:"-"`
}

// Cache is the state of the build cache a run starts from.
type Cache string

// Cold and Warm: see the package documentation.
const (
	Cold Cache = "cold"
	Warm Cache = "warm"
)

// A Session measures the tools on the parts, round after round. Each round
// runs, for each part and then for each tool in turn, one cold run and one
// warm run; so tools alternate (a b c d a b c d …) rather than one tool's
// runs coming in a block, and slow drift in the machine's load falls on all
// of them alike.
type Session struct {
	Parts []Part
	Tools []Tool
	// Env is the environment of every run but GOCACHE and
	// STATICCHECK_CACHE, which each cold run sets to a fresh directory.
	Env []string `json:"-"`
	// Work holds the per-run caches (removed after each cold and warm
	// pair) and the logs of each run's output.
	Work string
	// Progress, if not nil, gets a line per run.
	Progress io.Writer `json:"-"`

	Rounds  int
	Samples map[Key][]Sample
	Start   time.Time
	End     time.Time
	LoadAvg [2]string // /proc/loadavg at the start and at the end
}

// A Key names a cell of the results.
type Key struct {
	Part  string
	Tool  string // Tool.Key
	Cache Cache
}

func (k Key) MarshalText() ([]byte, error) {
	return []byte(k.Part + "/" + k.Tool + "/" + string(k.Cache)), nil
}

func (k *Key) UnmarshalText(b []byte) error {
	f := strings.Split(string(b), "/")
	if len(f) != 3 {
		return fmt.Errorf("bad key %q", b)
	}
	*k = Key{f[0], f[1], Cache(f[2])}
	return nil
}

// Save writes the session's samples and the table's header to file as
// JSON, so that the table can be written again (lvbench -render) without
// measuring again.
func (s *Session) Save(file string, h Header) error {
	data, err := json.MarshalIndent(struct {
		Header  Header
		Session *Session
	}{h, s}, "", "\t")
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(data, '\n'), 0o666)
}

// LoadSession reads what Save wrote.
func LoadSession(file string) (*Session, Header, error) {
	var saved struct {
		Header  Header
		Session *Session
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, Header{}, err
	}
	if err := json.Unmarshal(data, &saved); err != nil {
		return nil, Header{}, fmt.Errorf("%s: %v", file, err)
	}
	if saved.Session == nil {
		return nil, Header{}, fmt.Errorf("%s: no session", file)
	}
	return saved.Session, saved.Header, nil
}

// Prime reads every source file the parts need once (go list -deps
// -test), so that the first measured run does not pay for a cold
// operating-system file cache while the later ones do not.
func (s *Session) Prime() error {
	for _, p := range s.Parts {
		cache, err := os.MkdirTemp(s.Work, "prime-")
		if err != nil {
			return err
		}
		cmd := exec.Command("go", append([]string{"list", "-e", "-deps", "-test", "-f", "{{.Dir}} {{.GoFiles}} {{.CgoFiles}}"}, p.Patterns...)...)
		cmd.Dir = p.Dir
		cmd.Env = s.env(cache)
		var stderr strings.Builder
		cmd.Stdout, cmd.Stderr = io.Discard, &stderr
		err = cmd.Run()
		os.RemoveAll(cache)
		if err != nil {
			return fmt.Errorf("priming %s: go list: %v\n%s", p.Name, err, stderr.String())
		}
	}
	return nil
}

// env returns the environment of a run with the given cache directory:
// the go command's, staticcheck's and standalone lifetimevet's caches are
// in it (without LIFETIMEVET_CACHE, a cold run of lifetimevet would find
// the user's analysis cache warm).
func (s *Session) env(cache string) []string {
	env := slices.DeleteFunc(slices.Clone(s.Env), func(kv string) bool {
		return strings.HasPrefix(kv, "GOCACHE=") || strings.HasPrefix(kv, "STATICCHECK_CACHE=") || strings.HasPrefix(kv, "LIFETIMEVET_CACHE=")
	})
	return append(env, "GOCACHE="+cache, "STATICCHECK_CACHE="+filepath.Join(cache, "staticcheck"), "LIFETIMEVET_CACHE="+filepath.Join(cache, "lifetimevet"))
}

// Round runs one round: for each part, each tool cold then warm.
func (s *Session) Round() error {
	if s.Samples == nil {
		s.Samples = map[Key][]Sample{}
		s.Start = time.Now()
		s.LoadAvg[0] = loadAvg()
	}
	s.Rounds++
	logs := filepath.Join(s.Work, "logs")
	if err := os.MkdirAll(logs, 0o777); err != nil {
		return err
	}
	for _, p := range s.Parts {
		for _, t := range s.Tools {
			cache, err := os.MkdirTemp(s.Work, "gocache-")
			if err != nil {
				return err
			}
			for _, c := range []Cache{Cold, Warm} {
				argv := t.Argv(p.Patterns)
				log := filepath.Join(logs, fmt.Sprintf("r%d-%s-%s-%s.log", s.Rounds, p.Name, t.Key, c))
				sample, err := s.run(p.Dir, argv, cache, log)
				if err != nil {
					os.RemoveAll(cache)
					return fmt.Errorf("%s on %s: %v", t.Name, p.Name, err)
				}
				k := Key{p.Name, t.Key, c}
				s.Samples[k] = append(s.Samples[k], sample)
				if s.Progress != nil {
					fmt.Fprintf(s.Progress, "round %d %-7s %-24s %s: wall %6.1fs cpu %6.1fs maxrss %5d MiB tree %5d MiB exit %d others %.2f cores\n",
						s.Rounds, p.Name, t.Name, c, sample.Wall.Seconds(), sample.CPU.Seconds(), sample.MaxRSS>>20, sample.TreeRSS>>20, sample.Exit,
						sample.OthersCPU.Seconds()/sample.Wall.Seconds())
				}
			}
			if err := os.RemoveAll(cache); err != nil {
				return err
			}
		}
	}
	s.End = time.Now()
	s.LoadAvg[1] = loadAvg()
	return nil
}

func (s *Session) run(dir string, argv []string, cache, logFile string) (Sample, error) {
	f, err := os.Create(logFile)
	if err != nil {
		return Sample{}, err
	}
	defer f.Close()
	fmt.Fprintf(f, "# %s\n# in %s\n", strings.Join(argv, " "), dir)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = s.env(cache)
	cmd.Stdout, cmd.Stderr = f, f
	sample, err := Measure(cmd)
	fmt.Fprintf(f, "# exit %d, wall %v, cpu %v, maxrss %d, tree rss %d\n", sample.Exit, sample.Wall, sample.CPU, sample.MaxRSS, sample.TreeRSS)
	return sample, err
}

// loadAvg returns the load averages of /proc/loadavg ("1 5 15 min"), or
// "" where there is none.
func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// Tools returns the four compared tools: go vet, go vet with lifetimevet
// as its tool, standalone lifetimevet, and staticcheck, each given the
// patterns and each analysing test files (go vet's default; lifetimevet's
// -test and staticcheck's -tests default to true as well).
func Tools(lifetimevet, staticcheck string) []Tool {
	return []Tool{
		{"a", "go vet", func(p []string) []string { return append([]string{"go", "vet"}, p...) }},
		{"b", "go vet -vettool=lifetimevet", func(p []string) []string {
			return append([]string{"go", "vet", "-vettool=" + lifetimevet}, p...)
		}},
		{"c", "lifetimevet", func(p []string) []string { return append([]string{lifetimevet}, p...) }},
		{"d", "staticcheck", func(p []string) []string { return append([]string{staticcheck}, p...) }},
	}
}
