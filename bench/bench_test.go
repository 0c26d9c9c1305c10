package bench

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The benchmarks measure, and run only under -bench. Their flags (after
// the package, e.g. go test ./bench -run '^$' -bench Corpus -benchtime 3x
// -lvbench.corpus=cgo):
var (
	flagCorpus   = flag.String("lvbench.corpus", strings.Join(PartNames, ","), "BenchmarkCorpus: comma-separated parts: std, xtools, cgo")
	flagPatterns = flag.String("lvbench.patterns", "", "BenchmarkCorpus: replace each part's patterns (development)")
	flagWork     = flag.String("lvbench.work", "", "scratch directory (default $TMPDIR/lvbench)")
	flagRev      = flag.String("lvbench.rev", "", "build lifetimevet from this git revision (default: the working tree)")
	flagBinary   = flag.String("lvbench.lifetimevet", "", "lifetimevet binary (default: build one)")
	flagSizes    = flag.String("lvbench.sizes", "500,1000,2000,5000", "BenchmarkStress: function sizes in basic blocks")
	flagVariants = flag.String("lvbench.variants", "", "BenchmarkStress: variants (default all)")
	flagTimeout  = flag.Duration("lvbench.timeout", 10*time.Minute, "BenchmarkStress: stop a run after this long")
)

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func prepare(b *testing.B) *Env {
	b.Helper()
	if err := HaveCC(); err != nil {
		b.Skip(err)
	}
	e, err := Prepare(Config{
		Work:        *flagWork,
		Rev:         *flagRev,
		LifetimeVet: *flagBinary,
		Corpus:      split(*flagCorpus),
		Patterns:    split(*flagPatterns),
		Log:         os.Stderr,
	})
	if err != nil {
		b.Fatal(err)
	}
	return e
}

// toolMetric names the tools in metric units.
var toolMetric = map[string]string{"a": "vet", "b": "vettool", "c": "lifetimevet", "d": "staticcheck"}

// BenchmarkCorpus is lvbench compare: each iteration is one round (every
// tool on every part, cold then warm, alternating). It reports each
// cell's medians as metrics and logs the table.
func BenchmarkCorpus(b *testing.B) {
	e := prepare(b)
	if err := e.PrepareCorpus(); err != nil {
		b.Fatal(err)
	}
	s := e.Session()
	if err := s.Prime(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := s.Round(); err != nil {
			b.Fatal(err)
		}
	}
	for k, c := range s.Cells() {
		name := fmt.Sprintf("%s.%s.%s", k.Part, toolMetric[k.Tool], k.Cache)
		b.ReportMetric(c.Wall.Median, name+".wall-s")
		b.ReportMetric(c.CPU.Median, name+".cpu-s")
		b.ReportMetric(c.MaxRSS.Median, name+".maxrss-MiB")
	}
	var md bytes.Buffer
	s.WriteMarkdown(&md, e.Header("go test ./bench -run '^$' -bench Corpus "+strings.Join(os.Args[1:], " ")))
	b.Log("\n" + md.String())
}

// BenchmarkStress is lvbench stress: each iteration analyses every
// generated package once.
func BenchmarkStress(b *testing.B) {
	e := prepare(b)
	var vs []Variant
	for _, name := range split(*flagVariants) {
		v, ok := VariantByName(name)
		if !ok {
			b.Fatalf("unknown variant %q", name)
		}
		vs = append(vs, v)
	}
	if len(vs) == 0 {
		vs = Variants
	}
	var sizes []int
	for _, f := range split(*flagSizes) {
		n, err := strconv.Atoi(f)
		if err != nil {
			b.Fatal(err)
		}
		sizes = append(sizes, n)
	}
	st := e.Stress(vs, sizes, 1, *flagTimeout)
	if err := st.Prepare(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := st.Run(); err != nil {
			b.Fatal(err)
		}
	}
	st.Runs = len(st.Baseline.Runs)
	for _, res := range st.Results {
		if m, ok := medianRun(res.Runs); ok {
			b.ReportMetric(m.AnalysisCPU.Seconds(), res.Name+".analysis-cpu-s")
			b.ReportMetric(m.Analysis.Seconds(), res.Name+".analysis-wall-s")
		}
	}
	var md bytes.Buffer
	st.WriteMarkdown(&md)
	b.Log("\n" + md.String())
}

// The tests below check the measuring code quickly; they measure nothing.

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestMain lets the test binary be the measured child of TestMeasure.
func TestMain(m *testing.M) {
	if n := os.Getenv("LVBENCH_TEST_CHILD"); n != "" {
		mib, _ := strconv.Atoi(n)
		buf := make([]byte, mib<<20)
		for i := range buf {
			buf[i] = byte(i)
		}
		fmt.Println(len(buf), buf[len(buf)/2])
		os.Exit(7)
	}
	os.Exit(m.Run())
}

func TestMeasure(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "LVBENCH_TEST_CHILD=64")
	s, err := Measure(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if s.Exit != 7 {
		t.Errorf("exit %d, want 7", s.Exit)
	}
	if s.Wall <= 0 || s.CPU <= 0 {
		t.Errorf("wall %v, CPU %v", s.Wall, s.CPU)
	}
	if s.MaxRSS < 64<<20 {
		t.Errorf("max RSS %d bytes, want at least the 64 MiB the child touched", s.MaxRSS)
	}
	if _, err := Measure(exec.Command(filepath.Join(t.TempDir(), "nonexistent"))); err == nil {
		t.Errorf("Measure of a missing binary: no error")
	}
}

// fakeSession is a session of made-up samples.
func fakeSession() *Session {
	s := &Session{
		Parts:   []Part{{Name: "std", Title: "std", Patterns: []string{"std"}, Packages: 300}, {Name: "cgo", Title: "cgo", Patterns: []string{"x/..."}, Packages: 5}},
		Tools:   Tools("/bin/lifetimevet", "/bin/staticcheck"),
		Samples: map[Key][]Sample{},
		Start:   time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC),
		End:     time.Date(2026, 1, 2, 4, 5, 0, 0, time.UTC),
		Rounds:  3,
	}
	for i, tool := range []string{"a", "b", "c", "d"} {
		for _, part := range []string{"std", "cgo"} {
			for r := range 3 {
				w := time.Duration(10*(i+1)+r) * time.Second
				s.Samples[Key{part, tool, Cold}] = append(s.Samples[Key{part, tool, Cold}], Sample{Wall: w, CPU: 2 * w, MaxRSS: int64(i+1) << 30, OthersCPU: w / 2})
				s.Samples[Key{part, tool, Warm}] = append(s.Samples[Key{part, tool, Warm}], Sample{Wall: w / 10, CPU: w / 5, MaxRSS: 1 << 20, Exit: 1})
			}
		}
	}
	return s
}

func TestMarkdown(t *testing.T) {
	s := fakeSession()
	var b bytes.Buffer
	s.WriteMarkdown(&b, Header{Machine: Machine{CPUs: 2, MemBytes: 4 << 30, Model: "Test CPU", OS: "linux/amd64"}, GoVersion: "go1.26", Command: "lvbench"})
	md := b.String()
	for _, want := range []string{
		"2 processors (nproc), 4.0 GiB memory, Test CPU",
		"- N = 3",
		"load from other work: 0.45 processors on average over the session (median run 0.25, busiest run 0.50)",
		"### std\n",
		"### whole corpus",
		"| (a) go vet | cold | 11.0 (10.0–12.0) | 22.0 (20.0–24.0) | 1024 | - | 1.00 | 0.27 |",
		"| (d) staticcheck | cold | 41.0 (40.0–42.0) |",
		"| (c) lifetimevet | warm |",
		"| 1 |\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	// The whole corpus sums the parts per round.
	if c := s.Cells()[Key{"all", "a", Cold}]; c.Wall.Median != 22 {
		t.Errorf("whole corpus go vet cold wall = %v, want 22", c.Wall.Median)
	}

	file := filepath.Join(t.TempDir(), "s.json")
	if err := s.Save(file, Header{GoVersion: "go1.26"}); err != nil {
		t.Fatal(err)
	}
	s2, h, err := LoadSession(file)
	if err != nil {
		t.Fatal(err)
	}
	if h.GoVersion != "go1.26" || len(s2.Samples) != len(s.Samples) || s2.Samples[Key{"cgo", "d", Warm}][2] != s.Samples[Key{"cgo", "d", Warm}][2] {
		t.Errorf("LoadSession does not give back what Save wrote")
	}
}

func TestStressSource(t *testing.T) {
	for _, v := range Variants {
		src, err := v.Source("p", 3)
		if err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		if !bytes.Contains(src, []byte("import \"C\"")) || !bytes.Contains(src, []byte("func F(x int, o *C.obj) int {")) {
			t.Errorf("%s:\n%s", v.Name, src)
		}
	}
}

// TestStressCalibrate generates the variants at two small sizes, as
// functions of one package, and checks that they type-check (cgo
// included) and grow by a fixed number of blocks a unit. The sizes the
// stress reaches are measured and printed by the stress itself.
func TestStressCalibrate(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a cgo package")
	}
	if err := HaveCC(); err != nil {
		t.Skip(err)
	}
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=", "CGO_ENABLED=1")
	fit, err := Calibrate(t.TempDir(), env, Variants)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range PlanStress(fit, Variants, []int{60, 5000}) {
		ab := fit[p.Variant]
		if got := ab[0] + ab[1]*float64(p.Units); got < float64(p.Target)-ab[1] || got > float64(p.Target)+ab[1] {
			t.Errorf("%s: %d units make %v blocks by the fit %v, want about %d", p.Name, p.Units, got, ab, p.Target)
		}
	}
}

func TestIncrementalMarkdown(t *testing.T) {
	inc := &Incremental{
		Parts: []IncPart{{Name: "cgo", Title: "cgo", Patterns: []string{"x/..."}, Packages: 5, Touch: "/w/x/a.go", TouchPkg: "x"}},
		Tools: IncTools("/bin/lifetimevet", "/bin/staticcheck"),
		N:     2,
		Samples: map[IncKey][]Sample{
			{"cgo", "lv", StateCold}:    {{Wall: 105 * time.Second, CPU: 210 * time.Second}},
			{"cgo", "lvoff", StateCold}: {{Wall: 100 * time.Second, CPU: 200 * time.Second}},
			{"cgo", "sc", StateCold}:    {{Wall: 200 * time.Second, CPU: 400 * time.Second}},
			{"cgo", "lv", StateWarm}:    {{Wall: time.Second, CPU: time.Second, Exit: 3}, {Wall: 3 * time.Second, CPU: 3 * time.Second, Exit: 3}},
			{"cgo", "sc", StateWarm}:    {{Wall: 4 * time.Second, CPU: 4 * time.Second, Exit: 1}, {Wall: 4 * time.Second, CPU: 4 * time.Second, Exit: 1}},
		},
	}
	var b bytes.Buffer
	inc.WriteMarkdown(&b, Header{Machine: Machine{CPUs: 2}, Command: "lvbench incremental"})
	md := b.String()
	for _, want := range []string{
		"touched: `a.go` of x",
		"| lifetimevet | cold | 105.00 (105.00–105.00) | 210.00 (210.00–210.00) | 0 | 0.53 | 0.53 |",
		"| lifetimevet | warm | 2.00 (1.00–3.00) | 2.00 (1.00–3.00) | 0 | 0.50 | 0.50 | - | 3 |",
		"+5.0% CPU, +5.0% wall",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

// TestToucher: a touch appends a new comment each time, restore puts the
// file back, and a comment an interrupted session left is dropped first.
func TestToucher(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a.go")
	os.WriteFile(file, []byte("package a\n\n// lvbench touch 1\n"), 0o666)
	tc, err := newToucher(file)
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(file); string(data) != "package a\n" {
		t.Errorf("the stale comment is not dropped: %q", data)
	}
	tc.touch()
	first, _ := os.ReadFile(file)
	tc.touch()
	second, _ := os.ReadFile(file)
	if !strings.HasPrefix(string(first), "package a\n\n// lvbench touch ") || len(second) <= len(first) {
		t.Errorf("touches: %q then %q", first, second)
	}
	tc.restore()
	if data, _ := os.ReadFile(file); string(data) != "package a\n" {
		t.Errorf("restored: %q", data)
	}
}
