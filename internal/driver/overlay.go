package driver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// An Overlay is the go command's -overlay: for a file (an absolute,
// clean name), the file whose content the build uses in its place, or ""
// for a file the build treats as absent. cgo runs on the overlaid content,
// so the driver reads the package's Go files through it too: the analysis
// is of what the build compiles, and the digests (Graph.Digest) are of
// that content, not of the file on disk.
type Overlay map[string]string

// OverlayFlag returns the overlay that the go command run in dir with
// GOFLAGS goflags and the build flags buildFlags uses: the last -overlay
// flag of either (buildFlags come after GOFLAGS), read as the go command
// reads it (names relative to dir). It is nil when there is no -overlay
// flag.
func OverlayFlag(goflags string, buildFlags []string, dir string) (Overlay, error) {
	file := ""
	for _, f := range splitGoFlags(goflags) {
		if v, ok := overlayValue(f); ok {
			file = v
		}
	}
	for i, f := range buildFlags {
		if v, ok := overlayValue(f); ok {
			file = v
		} else if (f == "-overlay" || f == "--overlay") && i+1 < len(buildFlags) {
			file = buildFlags[i+1]
		}
	}
	if file == "" {
		return nil, nil
	}
	abs := func(name string) string {
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		return filepath.Clean(name)
	}
	data, err := os.ReadFile(abs(file))
	if err != nil {
		return nil, fmt.Errorf("reading the -overlay file: %v", err)
	}
	var cfg struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &cfg); err != nil {
		return nil, fmt.Errorf("parsing the -overlay file %s: %v", file, err)
	}
	ov := Overlay{}
	for from, to := range cfg.Replace {
		if to != "" {
			to = abs(to)
		}
		ov[abs(from)] = to
	}
	return ov, nil
}

func overlayValue(flag string) (string, bool) {
	for _, p := range []string{"-overlay=", "--overlay="} {
		if v, ok := strings.CutPrefix(flag, p); ok {
			return v, true
		}
	}
	return "", false
}

// splitGoFlags splits GOFLAGS as the go command does: at white space,
// with single or double quotes around a field that holds some.
func splitGoFlags(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// read reads file name as the build sees it: through the overlay.
func (ov Overlay) read(name string) ([]byte, error) {
	if to, ok := ov.replacement(name); ok {
		if to == "" {
			return nil, &os.PathError{Op: "open", Path: name, Err: os.ErrNotExist}
		}
		return os.ReadFile(to)
	}
	return os.ReadFile(name)
}

func (ov Overlay) replacement(name string) (string, bool) {
	if len(ov) == 0 {
		return "", false
	}
	if !filepath.IsAbs(name) {
		if abs, err := filepath.Abs(name); err == nil {
			name = abs
		}
	}
	to, ok := ov[filepath.Clean(name)]
	return to, ok
}

// Overlaid reports whether file name is replaced by the overlay the
// analysis ran with (Options.Overlay): what was analysed is not on disk.
func (g *Graph) Overlaid(name string) bool {
	_, ok := g.overlay.replacement(name)
	return ok
}
