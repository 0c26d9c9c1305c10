package driver

import (
	"os"
	"path/filepath"
	"testing"
)

// OverlayFlag finds the -overlay the go command uses: in GOFLAGS (quoted
// or not, one or two dashes) or in the build flags, which come last; names
// relative to the directory the go command runs in.
func TestOverlayFlag(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.json"), []byte(`{"Replace": {"p/x.go": "ov/x.go", "/abs/y.go": ""}}`), 0o666)
	os.Mkdir(filepath.Join(dir, "sp ace"), 0o777)
	os.WriteFile(filepath.Join(dir, "sp ace", "b.json"), []byte(`{"Replace": {"z.go": "/elsewhere/z.go"}}`), 0o666)
	for _, tc := range []struct {
		goflags string
		build   []string
		want    Overlay
	}{
		{"-mod=mod", nil, nil},
		{"-mod=mod -overlay=a.json", nil, Overlay{filepath.Join(dir, "p/x.go"): filepath.Join(dir, "ov/x.go"), "/abs/y.go": ""}},
		{`--overlay="sp ace/b.json" -trimpath`, nil, Overlay{filepath.Join(dir, "z.go"): "/elsewhere/z.go"}},
		{"-overlay=a.json", []string{"-overlay", filepath.Join(dir, "sp ace", "b.json")}, Overlay{filepath.Join(dir, "z.go"): "/elsewhere/z.go"}},
	} {
		got, err := OverlayFlag(tc.goflags, tc.build, dir)
		if err != nil {
			t.Errorf("%q %q: %v", tc.goflags, tc.build, err)
			continue
		}
		if len(got) != len(tc.want) {
			t.Errorf("%q %q: %v, want %v", tc.goflags, tc.build, got, tc.want)
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%q %q: %v, want %v", tc.goflags, tc.build, got, tc.want)
			}
		}
	}
	if _, err := OverlayFlag("-overlay=missing.json", nil, dir); err == nil {
		t.Errorf("a missing overlay file is no error")
	}
}
