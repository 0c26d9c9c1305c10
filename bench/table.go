package bench

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Median returns the median of xs (the mean of the middle two for an even
// count), or 0 for none.
func Median[T int64 | time.Duration | float64](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// A Stat is the median and range of one measure over the runs of a cell.
type Stat struct {
	Median, Min, Max float64
}

func stat(xs []float64) Stat {
	if len(xs) == 0 {
		return Stat{}
	}
	return Stat{Median(xs), slices.Min(xs), slices.Max(xs)}
}

// Cell is the summary of the runs of one tool on one part with one cache
// state.
type Cell struct {
	Wall, CPU, MaxRSS, TreeRSS Stat // seconds, seconds, MiB, MiB
	Exits                      []int
	Runs                       int
}

func summarize(samples []Sample) Cell {
	var wall, cpu, rss, tree []float64
	var exits []int
	for _, s := range samples {
		wall = append(wall, s.Wall.Seconds())
		cpu = append(cpu, s.CPU.Seconds())
		rss = append(rss, float64(s.MaxRSS)/(1<<20))
		tree = append(tree, float64(s.TreeRSS)/(1<<20))
		if !slices.Contains(exits, s.Exit) {
			exits = append(exits, s.Exit)
		}
	}
	slices.Sort(exits)
	return Cell{stat(wall), stat(cpu), stat(rss), stat(tree), exits, len(samples)}
}

// Cells summarizes the session: one cell per part, tool and cache state,
// and, under the part name "all", the whole corpus, whose wall and CPU
// times per round are the sums over the parts and whose memory is the
// maximum.
func (s *Session) Cells() map[Key]Cell {
	cells := map[Key]Cell{}
	for k, samples := range s.Samples {
		cells[k] = summarize(samples)
	}
	if len(s.Parts) > 1 {
		for _, t := range s.Tools {
			for _, c := range []Cache{Cold, Warm} {
				var all []Sample
				for r := 0; r < s.Rounds; r++ {
					var sum Sample
					complete := true
					for _, p := range s.Parts {
						ss := s.Samples[Key{p.Name, t.Key, c}]
						if r >= len(ss) {
							complete = false
							break
						}
						x := ss[r]
						sum.Wall += x.Wall
						sum.CPU += x.CPU
						sum.MaxRSS = max(sum.MaxRSS, x.MaxRSS)
						sum.TreeRSS = max(sum.TreeRSS, x.TreeRSS)
						sum.Exit = max(sum.Exit, x.Exit)
					}
					if complete {
						all = append(all, sum)
					}
				}
				cells[Key{"all", t.Key, c}] = summarize(all)
			}
		}
	}
	return cells
}

// Load summarizes how busy the rest of the machine was during the
// session: the other processes' CPU time over each run's wall time, in
// processors (median and maximum over runs), and over the whole session.
func (s *Session) Load() (median, maxLoad, overall float64) {
	var per []float64
	var others, wall time.Duration
	for _, ss := range s.Samples {
		for _, x := range ss {
			if x.Wall > 0 {
				per = append(per, x.OthersCPU.Seconds()/x.Wall.Seconds())
			}
			others += x.OthersCPU
			wall += x.Wall
		}
	}
	if len(per) == 0 || wall == 0 {
		return 0, 0, 0
	}
	return Median(per), slices.Max(per), others.Seconds() / wall.Seconds()
}

// Header is what the table states about the measurement.
type Header struct {
	Machine     Machine
	GoVersion   string
	LifetimeVet string // revision
	Staticcheck string // staticcheck -version
	Command     string // the command that regenerates the table
}

// WriteMarkdown writes the results as markdown: a header (machine, Go,
// date, corpus, N, load) and a table per part, then one for the whole
// corpus.
func (s *Session) WriteMarkdown(w io.Writer, h Header) {
	fmt.Fprintf(w, "## lifetimevet against go vet and staticcheck\n\n")
	fmt.Fprintf(w, "- machine: %s\n", h.Machine)
	fmt.Fprintf(w, "- Go: %s\n", h.GoVersion)
	fmt.Fprintf(w, "- date: %s to %s\n", s.Start.UTC().Format("2006-01-02 15:04"), s.End.UTC().Format("15:04 MST"))
	fmt.Fprintf(w, "- lifetimevet: %s; staticcheck: %s (honnef.co/go/tools %s)\n", h.LifetimeVet, h.Staticcheck, StaticcheckVersion)
	fmt.Fprintf(w, "- corpus:")
	for i, p := range s.Parts {
		sep := ";"
		if i == len(s.Parts)-1 {
			sep = ""
		}
		fmt.Fprintf(w, " %s, %d packages (`%s`)%s", p.Title, p.Packages, strings.Join(p.Patterns, " "), sep)
	}
	fmt.Fprintf(w, "; test files included by every tool\n")
	fmt.Fprintf(w, "- N = %d: each cell is the median of %d runs (wall and CPU: median (min–max)); the tools alternate within each round (a b c d a b c d …), each cold run followed at once by its warm run\n", s.Rounds, s.Rounds)
	med, mx, all := s.Load()
	fmt.Fprintf(w, "- load from other work: %.2f processors on average over the session (median run %.2f, busiest run %.2f), out of %d; load average %s at the start, %s at the end\n",
		all, med, mx, h.Machine.CPUs, orDash(s.LoadAvg[0]), orDash(s.LoadAvg[1]))
	fmt.Fprintf(w, "- environment: %s\n", RunEnvSummary)
	fmt.Fprintf(w, "- command: `%s`\n\n", h.Command)
	fmt.Fprintf(w, "cold: a fresh, empty GOCACHE (and STATICCHECK_CACHE): every tool compiles the export data (and runs cgo) of the packages it needs, for all four alike, and no analysis result or fact is cached. ")
	fmt.Fprintf(w, "warm: the same command again at once, with that cache and unchanged code. ")
	fmt.Fprintf(w, "CPU: user+system time of the command and the processes it waited for. ")
	fmt.Fprintf(w, "max RSS: the largest single process of the tree (rusage). tree RSS: the peak of the summed RSS of the live process tree, sampled every %v (a lower bound). ", SampleEvery)
	fmt.Fprintf(w, "×vet, ×sc: the tool's median divided by the median of (a) go vet, of (d) staticcheck, in the same cache state; RSS ratios are of max RSS. exit: the exit statuses seen (1 from go vet and staticcheck, 3 from lifetimevet: findings).\n\n")

	cells := s.Cells()
	parts := slices.Clone(s.Parts)
	if len(s.Parts) > 1 {
		parts = append(parts, Part{Name: "all", Title: "whole corpus (per round: wall and CPU summed over the parts, RSS the largest)"})
	}
	for _, p := range parts {
		fmt.Fprintf(w, "### %s\n\n", p.Title)
		fmt.Fprintf(w, "| tool | cache | wall (s) | CPU (s) | max RSS (MiB) | tree RSS (MiB) | wall ×vet | wall ×sc | CPU ×vet | CPU ×sc | RSS ×vet | RSS ×sc | exit |\n")
		fmt.Fprintf(w, "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
		for _, c := range []Cache{Cold, Warm} {
			vet, sc := cells[Key{p.Name, "a", c}], cells[Key{p.Name, "d", c}]
			for _, t := range s.Tools {
				x, ok := cells[Key{p.Name, t.Key, c}]
				if !ok {
					continue
				}
				fmt.Fprintf(w, "| (%s) %s | %s | %s | %s | %.0f | %s | %s | %s | %s | %s | %s | %s | %s |\n",
					t.Key, t.Name, c, rng(x.Wall, 1), rng(x.CPU, 1), x.MaxRSS.Median, mib(x.TreeRSS.Median),
					ratio(x.Wall, vet.Wall), ratio(x.Wall, sc.Wall), ratio(x.CPU, vet.CPU), ratio(x.CPU, sc.CPU),
					ratio(x.MaxRSS, vet.MaxRSS), ratio(x.MaxRSS, sc.MaxRSS), exits(x.Exits))
			}
		}
		fmt.Fprintln(w)
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func rng(s Stat, prec int) string {
	return fmt.Sprintf("%.*f (%.*f–%.*f)", prec, s.Median, prec, s.Min, prec, s.Max)
}

func mib(m float64) string {
	if m == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", m)
}

func ratio(x, base Stat) string {
	if base.Median == 0 {
		return "-"
	}
	r := x.Median / base.Median
	if r >= 10 {
		return fmt.Sprintf("%.0f", r)
	}
	return fmt.Sprintf("%.2f", r)
}

func exits(e []int) string {
	var s []string
	for _, x := range e {
		s = append(s, fmt.Sprint(x))
	}
	return strings.Join(s, ",")
}
