package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// FileHashes is a persistent memo of the SHA-256 of files' contents, keyed
// on each file's identity as stat reports it: its device and inode, size,
// mode, modification and status-change times. A warm run keys every
// package on the content of every file of every dependency, std included
// (2,100 files and 38 MB on the cgo corpus of bench/): with the memo it
// stats them instead of reading and hashing them.
//
// A memoised hash is used only while the file's identity is the one it was
// taken with. Writing a file changes its status-change time (ctime), which
// no user call can set back, and its modification time, and replacing it
// changes its inode; so a file whose identity is unchanged has the content
// that was hashed, with one exception that the memo rules out the way git's
// index does ("racy" entries): a file written again within the same
// timestamp tick as the write before it can keep both times. A hash is
// therefore memoised only for a file whose two times are at least Settle
// before the moment its reading began: any later write is stamped after
// that moment, whatever the granularity of the file system's clock up to
// Settle, and changes the identity. A file the user has just saved is
// hashed again at each run until it has settled.
//
// Where stat reports no inode and status-change time (other than Linux and
// Darwin here) nothing is memoised and every file is read and hashed.
type FileHashes struct {
	file string // where it persists, "" for none

	mu      sync.Mutex
	entries map[string]hashEntry
	dirty   bool
	now     func() time.Time // (tests)
}

// Settle is how long before the moment its reading began a file must have
// last been written, and had its status changed, for its hash to be
// memoised: more than the timestamp granularity of the file systems
// lifetimevet reads (FAT's 2 seconds being the coarsest in use).
const Settle = 3 * time.Second

// fileID is a file's identity as stat reports it.
type fileID struct {
	Dev, Ino     uint64
	Size         int64
	Mode         uint32
	Mtime, Ctime int64 // nanoseconds since 1970
}

type hashEntry struct {
	id   fileID
	sum  [sha256.Size]byte
	used int64 // the day (since 1970) it was last used
}

// hashesMagic starts the memo's file; another format is ignored.
const hashesMagic = "lifetimevet file hashes 1\n"

// hashesKeep is how long an entry that no run uses stays in the memo.
const hashesKeep = 7 // days

// OpenFileHashes returns the memo kept in file (which need not exist): a
// file that cannot be read or parsed is an empty memo. Save writes it
// back.
func OpenFileHashes(file string) *FileHashes {
	m := &FileHashes{file: file, entries: map[string]hashEntry{}, now: time.Now}
	if file == "" {
		return m
	}
	if data, err := os.ReadFile(file); err == nil {
		if entries, ok := decodeHashes(data); ok {
			m.entries = entries
		}
	}
	return m
}

// Sum returns the SHA-256 of file name's content: the memoised one if the
// file's identity is the one it was taken with, or else the hash of its
// content, read now (and memoised if the file has settled).
func (m *FileHashes) Sum(name string) ([sha256.Size]byte, error) {
	if m == nil {
		data, err := os.ReadFile(name)
		return sha256.Sum256(data), err
	}
	if fi, err := os.Stat(name); err == nil {
		if id, ok := identity(fi); ok {
			m.mu.Lock()
			e, hit := m.entries[name]
			if hit && e.id == id {
				if today := m.today(); e.used != today {
					e.used = today
					m.entries[name] = e
					m.dirty = true
				}
				m.mu.Unlock()
				return e.sum, nil
			}
			m.mu.Unlock()
		}
	}
	began := m.now()
	f, err := os.Open(name)
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	defer f.Close()
	before, err := f.Stat()
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return [sha256.Size]byte{}, err
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	after, err := f.Stat()
	if err != nil {
		return sum, nil
	}
	id, ok1 := identity(before)
	id2, ok2 := identity(after)
	if ok1 && ok2 && id == id2 && before.Mode().IsRegular() && settled(id, began) {
		m.mu.Lock()
		m.entries[name] = hashEntry{id: id, sum: sum, used: m.today()}
		m.dirty = true
		m.mu.Unlock()
	}
	return sum, nil
}

// settled reports whether the file was last written and changed at least
// Settle before t.
func settled(id fileID, t time.Time) bool {
	limit := t.Add(-Settle).UnixNano()
	return id.Mtime < limit && id.Ctime < limit
}

func (m *FileHashes) today() int64 { return m.now().Unix() / 86400 }

// Save writes the memo back if it changed, without the entries no run has
// used for a week; concurrent runs each write a whole memo (the last one
// stays), atomically.
func (m *FileHashes) Save() error {
	if m == nil || m.file == "" {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.dirty {
		return nil
	}
	today := m.today()
	for name, e := range m.entries {
		if today-e.used > hashesKeep {
			delete(m.entries, name)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(m.file), filepath.Base(m.file)+".tmp*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(encodeHashes(m.entries))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), m.file)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	m.dirty = false
	return nil
}

// The memo's file: hashesMagic, then per entry the name's length (uvarint)
// and the name, the identity (Dev, Ino, Size, Mode, Mtime, Ctime, as
// uvarints and varints), the day it was last used (varint) and the hash
// (32 bytes); then the SHA-256 of all that, so that a truncated or mangled
// file is no memo at all rather than wrong hashes.
func encodeHashes(entries map[string]hashEntry) []byte {
	names := make([]string, 0, len(entries))
	for name := range entries {
		names = append(names, name)
	}
	sort.Strings(names)
	buf := []byte(hashesMagic)
	for _, name := range names {
		e := entries[name]
		buf = binary.AppendUvarint(buf, uint64(len(name)))
		buf = append(buf, name...)
		buf = binary.AppendUvarint(buf, e.id.Dev)
		buf = binary.AppendUvarint(buf, e.id.Ino)
		buf = binary.AppendVarint(buf, e.id.Size)
		buf = binary.AppendUvarint(buf, uint64(e.id.Mode))
		buf = binary.AppendVarint(buf, e.id.Mtime)
		buf = binary.AppendVarint(buf, e.id.Ctime)
		buf = binary.AppendVarint(buf, e.used)
		buf = append(buf, e.sum[:]...)
	}
	sum := sha256.Sum256(buf)
	return append(buf, sum[:]...)
}

var errBadHashes = errors.New("bad file hashes")

func decodeHashes(data []byte) (map[string]hashEntry, bool) {
	if len(data) < len(hashesMagic)+sha256.Size || !bytes.HasPrefix(data, []byte(hashesMagic)) {
		return nil, false
	}
	body, check := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], check) {
		return nil, false
	}
	r := body[len(hashesMagic):]
	var err error
	uvarint := func() uint64 {
		v, n := binary.Uvarint(r)
		if n <= 0 {
			err = errBadHashes
			return 0
		}
		r = r[n:]
		return v
	}
	varint := func() int64 {
		v, n := binary.Varint(r)
		if n <= 0 {
			err = errBadHashes
			return 0
		}
		r = r[n:]
		return v
	}
	entries := map[string]hashEntry{}
	for len(r) > 0 && err == nil {
		n := uvarint()
		if err != nil || n > uint64(len(r)) {
			return nil, false
		}
		name := string(r[:n])
		r = r[n:]
		var e hashEntry
		e.id.Dev = uvarint()
		e.id.Ino = uvarint()
		e.id.Size = varint()
		e.id.Mode = uint32(uvarint())
		e.id.Mtime = varint()
		e.id.Ctime = varint()
		e.used = varint()
		if err != nil || len(r) < sha256.Size {
			return nil, false
		}
		copy(e.sum[:], r)
		r = r[sha256.Size:]
		entries[name] = e
	}
	if err != nil {
		return nil, false
	}
	return entries, true
}
