package driver

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io/fs"
	"strings"

	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/lintcmd/cache"

	"github.com/lifetimevet/lifetimevet/internal/cgofile"
)

// A package's C can include headers of its module that are none of its
// files (cgofile.ReadOutside): a header in a subdirectory, or in an -I
// directory of its flags. Its key (cacheKey) cannot hash them, since
// only the analysis finds them, so a package's key is in two steps, as
// the go command's are: the key of its files (key0) names a manifest, the
// list of the outside files its last analysis read (and those it looked
// for and did not find); the package's key is key0 with the state of
// each of those files now. A header that changes, appears or goes away
// changes the key, and with it the keys of its importers. (Under go vet
// the go command keys the analysis, and like its builds, it does not see
// such headers: see the README.)

// An outsideRead is what an analysis read of a file outside its
// package: the file's digest, or that it was not there.
type outsideRead struct {
	sum    [sha256.Size]byte
	absent bool
}

// readState returns what reading path through the overlay found: the
// file's digest or its absence; false when it was neither read nor found
// missing (such a file cannot be keyed). It returns the content too.
func (d *driver) readState(path string) (r outsideRead, ok bool, data []byte, err error) {
	data, err = d.opts.Overlay.read(path)
	switch {
	case err == nil:
		return outsideRead{sum: sha256.Sum256(data)}, true, data, nil
	case errors.Is(err, fs.ErrNotExist):
		return outsideRead{absent: true}, true, nil, err
	}
	return outsideRead{}, false, nil, err
}

// readOutside reads the file at path for an action of n, through the
// overlay, and records what it read in n.outside.
func (d *driver) readOutside(n *node, path string) ([]byte, error) {
	r, ok, data, err := d.readState(path)
	d.mu.Lock()
	defer d.mu.Unlock()
	if n.outside == nil {
		n.outside = map[string]outsideRead{}
	}
	if !ok {
		n.unstable = true // neither read nor absent: not keyed
		return data, err
	}
	if old, seen := n.outside[path]; seen && old != r {
		n.unstable = true // changed between two reads of this run
	}
	n.outside[path] = r
	return data, err
}

// watchOutside makes pass read outside files through readOutside until
// the returned function is called.
func (d *driver) watchOutside(n *node, pass *analysis.Pass) func() {
	cgofile.SetOutsideReader(pass, func(path string) ([]byte, error) { return d.readOutside(n, path) })
	return func() { cgofile.ClearOutsideReader(pass) }
}

// manifestID is where the manifest of the package whose files' key is
// key0 is kept.
func manifestID(key0 [sha256.Size]byte) cache.ActionID {
	h := sha256.New()
	h.Write([]byte("lifetimevet-outside-manifest\x00"))
	h.Write(key0[:])
	return cache.ActionID(h.Sum(nil))
}

// outsideKey returns key0 with the state of the outside files reads.
func outsideKey(key0 [sha256.Size]byte, reads map[string]outsideRead) [sha256.Size]byte {
	if len(reads) == 0 {
		return key0
	}
	h := sha256.New()
	h.Write([]byte("lifetimevet-outside\x00"))
	h.Write(key0[:])
	var buf []byte
	for _, path := range sortedKeys(reads) {
		r := reads[path]
		buf = binary.AppendUvarint(buf[:0], uint64(len(path)))
		buf = append(buf, path...)
		if r.absent {
			buf = append(buf, 0)
		} else {
			buf = append(buf, 1)
			buf = append(buf, r.sum[:]...)
		}
		h.Write(buf)
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// applyManifest turns n's key of its files (cacheKey) into its key: with
// the outside files its manifest lists, as they are now. It reports false
// when one of them can be neither read nor found missing (n is then not
// cached).
func (d *driver) applyManifest(n *node) bool {
	n.key0 = n.key
	data, _, err := cache.GetBytes(d.opts.Cache, manifestID(n.key0))
	if err != nil || len(data) == 0 {
		return true
	}
	reads := map[string]outsideRead{}
	for _, path := range strings.Split(string(data), "\x00") {
		if path == "" {
			continue
		}
		r, ok, _, _ := d.readState(path)
		if !ok {
			n.keyed = false
			return false
		}
		reads[path] = r
	}
	n.manifest = true
	n.listed = sortedKeys(reads)
	n.key = outsideKey(n.key0, reads)
	return true
}

// outsideNames returns the outside files n's analysis read or looked
// for, or its manifest lists.
func (n *node) outsideNames() []string {
	if len(n.outside) > 0 {
		return sortedKeys(n.outside)
	}
	return n.listed
}

// keyOutside, after n's analysis, makes its key that of what the analysis
// read outside the package, and writes the list in its manifest for the
// next run.
func (d *driver) keyOutside(n *node) {
	d.mu.Lock()
	reads := n.outside
	d.mu.Unlock()
	if !n.keyed || n.unstable || len(reads) == 0 && !n.manifest {
		return
	}
	paths := sortedKeys(reads) // (sorted)
	// best effort: a write that fails leaves a miss
	cache.PutBytes(d.opts.Cache, manifestID(n.key0), []byte(strings.Join(paths, "\x00")))
	n.key = outsideKey(n.key0, reads)
}
