package main

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/lifetimevet/lifetimevet/internal/driver"
)

// resolveVetLineDirectives returns the vet configuration file to analyse
// instead of cfg: where a Go file of the unit (cgo's rewrite of a user's
// file, in go's work directory) holds a //line directive with a relative
// name, the user's own, a copy with the name resolved against the user's
// file's directory, as the compiler resolves it, is written beside cfg
// and named in a copy of cfg. go/scanner would resolve the name against
// the work directory, and findings below the directive would name a file
// there, which go deletes after the run. cfg itself is returned when no
// file needs it, or when a copy cannot be written (the findings then name
// the work directory, as before).
func resolveVetLineDirectives(cfg string) string {
	data, err := os.ReadFile(cfg)
	if err != nil {
		return cfg
	}
	var raw map[string]json.RawMessage
	var files []string
	if json.Unmarshal(data, &raw) != nil || json.Unmarshal(raw["GoFiles"], &files) != nil {
		return cfg
	}
	dir := filepath.Dir(cfg)
	changed := false
	for i, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		fixed, ok := driver.ResolveLineDirectives(src)
		if !ok {
			continue
		}
		copyName := filepath.Join(dir, "lifetimevet-line-"+filepath.Base(f))
		if os.WriteFile(copyName, fixed, 0o666) != nil {
			return cfg
		}
		files[i] = copyName
		changed = true
	}
	if !changed {
		return cfg
	}
	if raw["GoFiles"], err = json.Marshal(files); err != nil {
		return cfg
	}
	out, err := json.Marshal(raw)
	if err != nil {
		return cfg
	}
	name := filepath.Join(dir, "lifetimevet-line-"+filepath.Base(cfg))
	if os.WriteFile(name, out, 0o666) != nil {
		return cfg
	}
	return name
}
