package driver_test

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/lintcmd/cache"

	"github.com/lifetimevet/lifetimevet/internal/driver"
)

func openCache(t *testing.T) cache.Cache {
	t.Helper()
	c, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// analyzeCached analyses ./a of dir with the cache and returns the
// diagnostics and the graph.
func analyzeCached(t *testing.T, dir string, as []*analysis.Analyzer, opts *driver.Options) ([]string, *driver.Graph) {
	t.Helper()
	fset, pkgs := load(t, dir, "./a")
	g, err := driver.Analyze(as, fset, pkgs, opts)
	if err != nil {
		t.Fatal(err)
	}
	return diagnostics(g), g
}

// A dependency's change reaches its importers through their keys: the
// fact that b.B calls a marked function goes when b stops calling it, and
// a's finding with it; it comes back when b calls it again.
func TestCacheDependencyChange(t *testing.T) {
	dir := writeModule(t, map[string]string{"c/c.go": cSrc, "b/b.go": bSrc, "a/a.go": aSrc})
	opts := &driver.Options{Cache: openCache(t), CacheKey: []byte("k")}
	as := []*analysis.Analyzer{markAnalyzer}
	want := []string{"a.go:5: mark: call of marked m/b.B", "b.go:5: mark: call of marked m/c.Mark"}
	cold, g := analyzeCached(t, dir, as, opts)
	if !slices.Equal(cold, want) || g.CacheHits != 0 {
		t.Fatalf("cold: %v (%d hits), want %v", cold, g.CacheHits, want)
	}
	warm, g := analyzeCached(t, dir, as, opts)
	if !slices.Equal(warm, want) {
		t.Errorf("warm: %v, want %v", warm, want)
	}
	if g.CacheMisses > 1 { // unsafe, if anything
		t.Errorf("warm: %d hits, %d misses", g.CacheHits, g.CacheMisses)
	}
	if err := os.WriteFile(filepath.Join(dir, "b/b.go"), []byte("package b\n\nimport _ \"m/c\"\n\nfunc B() {}\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if got, _ := analyzeCached(t, dir, as, opts); len(got) != 0 {
		t.Errorf("after b stopped calling c.Mark: %v, want nothing", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "b/b.go"), []byte(bSrc), 0o666); err != nil {
		t.Fatal(err)
	}
	if got, _ := analyzeCached(t, dir, as, opts); !slices.Equal(got, want) {
		t.Errorf("after b called c.Mark again: %v, want %v", got, want)
	}
}

// prefixAnalyzer reports calls of functions whose name starts with its
// -prefix flag.
func prefixAnalyzer() *analysis.Analyzer {
	a := &analysis.Analyzer{Name: "prefix", Doc: "report calls by prefix"}
	prefix := a.Flags.String("prefix", "B", "prefix")
	a.Run = func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			for id, obj := range pass.TypesInfo.Uses {
				if _, ok := obj.(interface{ FullName() string }); ok && strings.HasPrefix(id.Name, *prefix) && id.Pos() >= f.Pos() && id.Pos() < f.End() {
					pass.Reportf(id.Pos(), "use of %s", id.Name)
				}
			}
		}
		return nil, nil
	}
	return a
}

// An analyzer's flag and the caller's key material are in the key.
func TestCacheFlagAndKey(t *testing.T) {
	dir := writeModule(t, map[string]string{"c/c.go": cSrc, "b/b.go": bSrc, "a/a.go": aSrc})
	c := openCache(t)
	a := prefixAnalyzer()
	as := []*analysis.Analyzer{a}
	want := []string{"a.go:5: prefix: use of B"}
	if got, _ := analyzeCached(t, dir, as, &driver.Options{Cache: c}); !slices.Equal(got, want) {
		t.Fatalf("cold: %v, want %v", got, want)
	}
	if got, g := analyzeCached(t, dir, as, &driver.Options{Cache: c}); !slices.Equal(got, want) || g.CacheHits == 0 {
		t.Fatalf("warm: %v (%d hits), want %v", got, g.CacheHits, want)
	}
	if err := a.Flags.Set("prefix", "X"); err != nil {
		t.Fatal(err)
	}
	if got, _ := analyzeCached(t, dir, as, &driver.Options{Cache: c}); len(got) != 0 {
		t.Errorf("-prefix=X: %v, want nothing", got)
	}
	a.Flags.VisitAll(func(f *flag.Flag) { f.Value.Set(f.DefValue) })
	if _, g := analyzeCached(t, dir, as, &driver.Options{Cache: c, CacheKey: []byte("model file v2")}); g.CacheHits != 0 {
		t.Errorf("other key material: %d hits, want none", g.CacheHits)
	}
}

// A corrupt or truncated entry is a miss: the result is the one without a
// cache.
func TestCacheCorrupt(t *testing.T) {
	dir := writeModule(t, map[string]string{"c/c.go": cSrc, "b/b.go": bSrc, "a/a.go": aSrc})
	cdir := t.TempDir()
	c, err := cache.Open(cdir)
	if err != nil {
		t.Fatal(err)
	}
	as := []*analysis.Analyzer{markAnalyzer}
	want, _ := analyzeCached(t, dir, as, nil)
	analyzeCached(t, dir, as, &driver.Options{Cache: c})
	for i, mangle := range []func([]byte) []byte{
		func(b []byte) []byte { return b[:len(b)/2] },
		func(b []byte) []byte { return append([]byte("garbage"), b...) },
		func(b []byte) []byte { return nil },
	} {
		n := 0
		filepath.Walk(cdir, func(path string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && (strings.HasSuffix(path, "-d") || i == 2 && strings.HasSuffix(path, "-a")) {
				data, _ := os.ReadFile(path)
				os.WriteFile(path, mangle(data), 0o666)
				n++
			}
			return nil
		})
		if n == 0 {
			t.Fatal("no cache entries written")
		}
		got, g := analyzeCached(t, dir, as, &driver.Options{Cache: c})
		if !slices.Equal(got, want) {
			t.Errorf("corruption %d: %v, want %v", i, got, want)
		}
		if g.CacheHits != 0 {
			t.Errorf("corruption %d: %d hits", i, g.CacheHits)
		}
		// the run rewrote the entries: they are good again
		if got, g := analyzeCached(t, dir, as, &driver.Options{Cache: c}); !slices.Equal(got, want) || g.CacheHits == 0 {
			t.Errorf("corruption %d, rewritten: %v (%d hits)", i, got, g.CacheHits)
		}
	}
}

// An entry the cache layer accepts (its checksum right) but whose export
// data or facts do not decode is a miss, found when an importer is
// analysed and needs them: the package is analysed then, and the result
// is the one without a cache. Until then nothing reads them: a run whose
// every package comes from the cache gives its findings from the entries.
func TestCacheLazyCorrupt(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mangle func(export, facts []byte) ([]byte, []byte)
	}{
		{"export data truncated", func(e, f []byte) ([]byte, []byte) { return e[:len(e)/2], f }},
		{"export data empty", func(e, f []byte) ([]byte, []byte) { return nil, f }},
		{"facts truncated", func(e, f []byte) ([]byte, []byte) { return e, f[:len(f)/2] }},
		{"facts garbage", func(e, f []byte) ([]byte, []byte) { return e, append([]byte("garbage"), f...) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeModule(t, map[string]string{"c/c.go": cSrc, "b/b.go": bSrc, "a/a.go": aSrc})
			cdir := t.TempDir()
			c, err := cache.Open(cdir)
			if err != nil {
				t.Fatal(err)
			}
			as := []*analysis.Analyzer{markAnalyzer}
			want := []string{"a.go:5: mark: call of marked m/b.B", "b.go:5: mark: call of marked m/c.Mark"}
			if got, _ := analyzeCached(t, dir, as, &driver.Options{Cache: c}); !slices.Equal(got, want) {
				t.Fatalf("cold: %v, want %v", got, want)
			}
			if n := driver.RewriteEntries(c, cdir, func(export, facts []byte) ([]byte, []byte) {
				if len(facts) == 0 && strings.HasPrefix(tc.name, "facts") {
					return export, facts // (c's: no facts to spoil)
				}
				return tc.mangle(export, facts)
			}); n == 0 {
				t.Fatal("no entries rewritten")
			}
			// nothing analysed: nothing reads the spoilt parts
			if got, g := analyzeCached(t, dir, as, &driver.Options{Cache: c}); !slices.Equal(got, want) || g.CacheMisses > 1 {
				t.Errorf("warm: %v (%d misses: %v), want %v from the cache", got, g.CacheMisses, g.Missed, want)
			}
			// a changes: a is analysed, and needs b's facts (and c's
			// types); the spoilt entries are misses, b and c are
			// analysed again
			aSrc2 := strings.Replace(aSrc, "func A()", "// A calls B.\nfunc A()", 1)
			if err := os.WriteFile(filepath.Join(dir, "a/a.go"), []byte(aSrc2), 0o666); err != nil {
				t.Fatal(err)
			}
			want2, _ := analyzeCached(t, dir, as, nil)
			if !slices.Equal(want2, []string{"a.go:6: mark: call of marked m/b.B", "b.go:5: mark: call of marked m/c.Mark"}) {
				t.Fatalf("without the cache: %v", want2)
			}
			got, g := analyzeCached(t, dir, as, &driver.Options{Cache: c})
			if !slices.Equal(got, want2) {
				t.Errorf("a changed: %v, want %v", got, want2)
			}
			if !slices.Contains(g.Missed, "m/a") || !slices.Contains(g.Missed, "m/b") {
				t.Errorf("a changed: analysed %v, want m/a and m/b among them", g.Missed)
			}
			// and b's entry was written again: good now
			os.WriteFile(filepath.Join(dir, "a/a.go"), []byte(aSrc), 0o666)
			if got, g := analyzeCached(t, dir, as, &driver.Options{Cache: c}); !slices.Equal(got, want) || slices.Contains(g.Missed, "m/b") {
				t.Errorf("a back: %v (analysed %v), want %v with b from the cache", got, g.Missed, want)
			}
		})
	}
}

// With the memo of file hashes, a dependency edited in place, its size
// and modification time kept, is seen as edited: its status-change time
// moved. (The memo's clock is an hour ahead, so that files written by the
// test count as settled.)
func TestCacheFileHashes(t *testing.T) {
	dir := writeModule(t, map[string]string{"c/c.go": cSrc, "b/b.go": bSrc, "a/a.go": aSrc})
	c := openCache(t)
	memo := filepath.Join(t.TempDir(), "filehashes")
	run := func() ([]string, *driver.Graph) {
		t.Helper()
		m := driver.OpenFileHashes(memo)
		m.SetClock(func() time.Time { return time.Now().Add(time.Hour) })
		got, g := analyzeCached(t, dir, []*analysis.Analyzer{markAnalyzer}, &driver.Options{Cache: c, FileHashes: m})
		if err := m.Save(); err != nil {
			t.Fatal(err)
		}
		return got, g
	}
	want := []string{"a.go:5: mark: call of marked m/b.B", "b.go:5: mark: call of marked m/c.Mark"}
	if got, _ := run(); !slices.Equal(got, want) {
		t.Fatalf("cold: %v, want %v", got, want)
	}
	if got, g := run(); !slices.Equal(got, want) || g.CacheMisses > 1 {
		t.Fatalf("warm: %v (analysed %v), want %v", got, g.Missed, want)
	}
	b := filepath.Join(dir, "b/b.go")
	noCall := strings.Replace(bSrc, "func B() { c.Mark() }", "func B() {_ = c.Mark}", 1)
	if len(noCall) != len(bSrc) || noCall == bSrc {
		t.Fatal("the edit must keep the size")
	}
	fi, err := os.Stat(b)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // past a tick of the file system's clock
	if err := os.WriteFile(b, []byte(noCall), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(b, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got, _ := run(); len(got) != 0 {
		t.Errorf("after b stopped calling c.Mark (same size, same mtime): %v, want nothing", got)
	}
}

// An entry that the cache layer accepts but that does not parse (cut
// short, lengthened, of another format) is a miss.
func TestCacheMalformed(t *testing.T) {
	dir := writeModule(t, map[string]string{"c/c.go": cSrc, "b/b.go": bSrc, "a/a.go": aSrc})
	as := []*analysis.Analyzer{markAnalyzer}
	want, _ := analyzeCached(t, dir, as, nil)
	for i, mangle := range []func([]byte) []byte{
		func(b []byte) []byte { return b[:1] },
		func(b []byte) []byte { return b[:len(b)/3] },
		func(b []byte) []byte {
			return append([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, b...)
		},
		func(b []byte) []byte { return append([]byte{2, '{', '}'}, b...) }, // meta "{}": the actions do not match
		func(b []byte) []byte { return []byte{} },
	} {
		cdir := t.TempDir()
		c, err := cache.Open(cdir)
		if err != nil {
			t.Fatal(err)
		}
		analyzeCached(t, dir, as, &driver.Options{Cache: c})
		if n := driver.RewriteRaw(c, cdir, mangle); n == 0 {
			t.Fatal("no entries rewritten")
		}
		got, g := analyzeCached(t, dir, as, &driver.Options{Cache: c})
		if !slices.Equal(got, want) || g.CacheHits != 0 {
			t.Errorf("malformation %d: %v (%d hits), want %v and no hits", i, got, g.CacheHits, want)
		}
	}
}

// A finding whose message is not UTF-8 (it quotes bytes of a C string,
// say) is given as the analysis said it, byte for byte: its package is not
// cached (JSON, the entry's format, would replace those bytes).
func TestCacheNotUTF8(t *testing.T) {
	dir := writeModule(t, map[string]string{"c/c.go": cSrc, "b/b.go": bSrc, "a/a.go": aSrc})
	a := &analysis.Analyzer{Name: "bytes", Doc: "report a message that is not UTF-8", Run: func(pass *analysis.Pass) (any, error) {
		pass.Reportf(pass.Files[0].Package, "bytes \xff\xfe of %s", pass.Pkg.Path())
		return nil, nil
	}}
	c := openCache(t)
	want := []string{"a.go:1: bytes: bytes \xff\xfe of m/a"}
	for i := range 2 {
		got, g := analyzeCached(t, dir, []*analysis.Analyzer{a}, &driver.Options{Cache: c})
		if !slices.Equal(got, want) {
			t.Errorf("run %d: %q, want %q", i, got, want)
		}
		if i == 1 && !slices.Contains(g.Missed, "m/a") {
			t.Errorf("run %d: m/a came from the cache", i)
		}
	}
}
