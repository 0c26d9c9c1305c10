package bench

import (
	"cmp"
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

// A PartProfile is one run of standalone lifetimevet -timing on a part.
type PartProfile struct {
	Part   Part
	Sample Sample
	Table  string // -timing's table, as the command prints it
	Report TimingReport
}

// TimingReport is what lifetimevet -timing=FILE writes.
type TimingReport struct {
	Packages   int   `json:"packages"`
	LoadNS     int64 `json:"load_ns"`
	AnalysisNS int64 `json:"analysis_ns"`
	Actions    []struct {
		Analyzer string `json:"analyzer"`
		Origin   string `json:"origin"`
		Package  string `json:"package"`
		Root     bool   `json:"root"`
		RunNS    int64  `json:"run_ns"`
		CPUNS    int64  `json:"cpu_ns"`
		TotalNS  int64  `json:"total_ns"`
	} `json:"actions"`
}

// Profile runs standalone lifetimevet with -timing on each part (tests
// included, as in the comparison), with a warm GOCACHE of its own (filled
// by an unmeasured first load), and returns the tables.
func (e *Env) Profile() ([]PartProfile, error) {
	cache := filepath.Join(e.Work, "profile-cache")
	if err := os.MkdirAll(cache, 0o777); err != nil {
		return nil, err
	}
	env := append(slices.Clone(e.RunEnv), "GOCACHE="+cache)
	var out []PartProfile
	for _, p := range e.Parts {
		fmt.Fprintf(e.Log, "profile %s: warming the cache\n", p.Name)
		if _, err := output(p.Dir, env, "go", append([]string{"list", "-e", "-compiled", "-deps", "-test"}, p.Patterns...)...); err != nil {
			return nil, err
		}
		file := filepath.Join(e.Work, "profile-"+p.Name+".json")
		cmd := exec.Command(e.LifetimeVet, append([]string{"-timing=" + file}, p.Patterns...)...)
		cmd.Dir = p.Dir
		cmd.Env = env
		var stderr strings.Builder
		cmd.Stdout, cmd.Stderr = io.Discard, &stderr
		fmt.Fprintf(e.Log, "profile %s: lifetimevet -timing\n", p.Name)
		sample, err := Measure(cmd)
		if err != nil {
			return nil, err
		}
		pp := PartProfile{Part: p, Sample: sample}
		if i := strings.Index(stderr.String(), "lifetimevet -timing:"); i >= 0 {
			pp.Table = stderr.String()[i:]
		} else {
			return nil, fmt.Errorf("profile %s: no -timing table (exit %d):\n%s", p.Name, sample.Exit, stderr.String())
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(data, &pp.Report); err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		out = append(out, pp)
	}
	return out, nil
}

// WriteProfileMarkdown writes the profiles: for the whole corpus, a row
// per analyzer and pass; then each part's -timing table.
func WriteProfileMarkdown(w io.Writer, profiles []PartProfile) {
	fmt.Fprintf(w, "## where lifetimevet's time goes\n\n")
	fmt.Fprintf(w, "Standalone `lifetimevet -timing` on each part (tests included, GOCACHE warm). -timing runs the analysis one action at a time, so each time is the action's own. ")
	fmt.Fprintf(w, "CPU: the process's CPU time (user+system, garbage collection included) inside the analyzer's Run, summed over the packages it ran on (the passes run on every dependency, for facts); it is what to compare on a busy machine. run: the wall time inside Run; facts+: the rest of its actions' wall time (pass set-up). Loading (go list, parsing, type checking) is outside the analyzers.\n\n")
	type row struct {
		name, origin string
		run, other   time.Duration
		cpu          time.Duration
		pkgs         int
	}
	rows := map[string]*row{}
	var load, analysis, wall, cpu time.Duration
	var total time.Duration
	for _, p := range profiles {
		load += time.Duration(p.Report.LoadNS)
		analysis += time.Duration(p.Report.AnalysisNS)
		wall += p.Sample.Wall
		cpu += p.Sample.CPU
		for _, a := range p.Report.Actions {
			r := rows[a.Analyzer]
			if r == nil {
				r = &row{name: a.Analyzer, origin: a.Origin}
				rows[a.Analyzer] = r
			}
			r.run += time.Duration(a.RunNS)
			r.cpu += time.Duration(a.CPUNS)
			r.other += max(time.Duration(a.TotalNS-a.RunNS), 0)
			r.pkgs++
			total += time.Duration(a.CPUNS)
		}
	}
	sorted := make([]*row, 0, len(rows))
	for _, r := range rows {
		sorted = append(sorted, r)
	}
	slices.SortFunc(sorted, func(a, b *row) int {
		return cmp.Or(cmp.Compare(b.cpu, a.cpu), cmp.Compare(b.run+b.other, a.run+a.other), cmp.Compare(a.name, b.name))
	})
	var names []string
	for _, p := range profiles {
		names = append(names, p.Part.Name)
	}
	fmt.Fprintf(w, "### all parts (%s): load %.1fs, analysis %.1fs; the processes took %.1fs wall, %.1fs CPU\n\n", strings.Join(names, ", "), load.Seconds(), analysis.Seconds(), wall.Seconds(), cpu.Seconds())
	fmt.Fprintf(w, "| analyzer or pass | package | CPU (s) | share of CPU | run, wall (s) | facts+, wall (s) | actions |\n|---|---|--:|--:|--:|--:|--:|\n")
	for _, r := range sorted {
		name := r.name
		if name == "buildssa" {
			name = "buildssa (SSA construction)"
		}
		share := 0.0
		if total > 0 {
			share = 100 * r.cpu.Seconds() / total.Seconds()
		}
		fmt.Fprintf(w, "| %s | %s | %.2f | %.1f%% | %.2f | %.2f | %d |\n", name, r.origin, r.cpu.Seconds(), share, r.run.Seconds(), r.other.Seconds(), r.pkgs)
	}
	fmt.Fprintln(w)
	for _, p := range profiles {
		fmt.Fprintf(w, "### %s (process: %.1fs wall, %.1fs CPU, %d MiB max RSS, exit %d)\n\n```text\n%s```\n\n",
			p.Part.Title, p.Sample.Wall.Seconds(), p.Sample.CPU.Seconds(), p.Sample.MaxRSS>>20, p.Sample.Exit, p.Table)
	}
}
