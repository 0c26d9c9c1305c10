package driver

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"time"

	"honnef.co/go/tools/lintcmd/cache"
)

// RewriteEntries rewrites every entry of the cache in dir with mangle
// applied to its export data and its facts' stream, as well-formed
// entries (their checksums right), and returns how many it rewrote: what
// a bug or a format change could leave, which the cache layer cannot
// tell from a good entry.
func RewriteEntries(c cache.Cache, dir string, mangle func(export, facts []byte) ([]byte, []byte)) int {
	return RewriteRaw(c, dir, func(data []byte) []byte {
		e, heads, ok := decodeEntry(data)
		if !ok || !decodeHeads(heads, &e) {
			return nil
		}
		e.Export, e.Facts = mangle(e.Export, e.Facts)
		data, err := encodeEntry(&e)
		if err != nil {
			return nil
		}
		return data
	})
}

// RewriteRaw rewrites every entry of the cache in dir as mangle has it
// (nil: left as it is), its checksum right, and returns how many it
// rewrote.
func RewriteRaw(c cache.Cache, dir string, mangle func(data []byte) []byte) int {
	n := 0
	filepath.Walk(dir, func(name string, info os.FileInfo, err error) error {
		base, ok := strings.CutSuffix(filepath.Base(name), "-a")
		if err != nil || info.IsDir() || !ok {
			return nil
		}
		var id cache.ActionID
		if b, err := hex.DecodeString(base); err != nil || len(b) != len(id) {
			return nil
		} else {
			copy(id[:], b)
		}
		data, _, err := cache.GetBytes(c, id)
		if err != nil {
			return nil
		}
		if data = mangle(data); data == nil {
			return nil
		}
		if cache.PutBytes(c, id, data) == nil {
			n++
		}
		return nil
	})
	return n
}

// SetClock sets the clock by which m tells whether a file has settled.
func (m *FileHashes) SetClock(now func() time.Time) { m.now = now }
