package driver

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// memoised reports whether m holds a hash for name.
func memoised(m *FileHashes, name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.entries[name]
	return ok
}

// later returns a clock an hour ahead: every file written now has
// settled by then.
func later() time.Time { return time.Now().Add(time.Hour) }

// rewrite writes data to name in place and sets its modification time
// back to what it was: the edit a memo keyed on the modification time and
// the size alone would miss. It first waits for more than a tick of the
// file system's clock (coarse: a jiffy on Linux), so that the edit's
// status-change time is not the one before.
func rewrite(t *testing.T, name string, data []byte) {
	t.Helper()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if err := os.WriteFile(name, data, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(name, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}

func TestFileHashes(t *testing.T) {
	if _, ok := identity(mustStat(t, os.Args[0])); !ok {
		t.Skipf("no file identity on %s: nothing is memoised", runtime.GOOS)
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "f.go")
	a, b := []byte("package a // one\n"), []byte("package a // two\n") // the same size
	if err := os.WriteFile(name, a, 0o666); err != nil {
		t.Fatal(err)
	}
	memo := filepath.Join(dir, "memo")

	// a file written just now is not memoised (it may be written again
	// within the same tick of the file system's clock)
	m := OpenFileHashes(memo)
	if sum, err := m.Sum(name); err != nil || sum != sha256.Sum256(a) {
		t.Fatalf("Sum = %x, %v; want the hash of a", sum, err)
	}
	if memoised(m, name) {
		t.Errorf("a file written just now was memoised")
	}

	// once settled it is, and the memo survives Save and Open
	m.now = later
	m.Sum(name)
	if !memoised(m, name) {
		t.Fatalf("a settled file was not memoised")
	}
	if err := m.Save(); err != nil {
		t.Fatal(err)
	}
	m = OpenFileHashes(memo)
	m.now = later
	if !memoised(m, name) {
		t.Fatalf("the memo was not saved or not read back")
	}
	if sum, _ := m.Sum(name); sum != sha256.Sum256(a) {
		t.Errorf("memoised Sum = %x, want the hash of a", sum)
	}

	// an edit in place that keeps the size and the modification time
	// changes the status-change time: the memo does not answer
	rewrite(t, name, b)
	if sum, _ := m.Sum(name); sum != sha256.Sum256(b) {
		t.Errorf("after an edit that kept size and mtime: Sum = %x, want the hash of b", sum)
	}

	// a file replaced by another (a new inode), times set alike
	m.Sum(name) // memoise b
	fi := mustStat(t, name)
	other := filepath.Join(dir, "g.go")
	os.WriteFile(other, a, 0o666)
	os.Chtimes(other, fi.ModTime(), fi.ModTime())
	if err := os.Rename(other, name); err != nil {
		t.Fatal(err)
	}
	if sum, _ := m.Sum(name); sum != sha256.Sum256(a) {
		t.Errorf("after the file was replaced: Sum = %x, want the hash of a", sum)
	}

	// a missing file is an error, not a memoised hash
	os.Remove(name)
	if _, err := m.Sum(name); err == nil {
		t.Errorf("Sum of a removed file: no error")
	}
}

// A memo file that is truncated, mangled or of another format is an empty
// memo, never wrong hashes.
func TestFileHashesCorrupt(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f.go")
	os.WriteFile(name, []byte("package a\n"), 0o666)
	memo := filepath.Join(dir, "memo")
	m := OpenFileHashes(memo)
	m.now = later
	m.Sum(name)
	if !memoised(m, name) {
		t.Skip("nothing memoised on this system")
	}
	if err := m.Save(); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(memo)
	if err != nil {
		t.Fatal(err)
	}
	for i, data := range [][]byte{
		good[:len(good)/2],
		good[:len(good)-1],
		append([]byte("x"), good...),
		append(append([]byte{}, good[:len(good)-40]...), append([]byte{0xff}, good[len(good)-39:]...)...), // a byte of a hash
		nil,
	} {
		os.WriteFile(memo, data, 0o666)
		if m := OpenFileHashes(memo); len(m.entries) != 0 {
			t.Errorf("corruption %d: %d entries read", i, len(m.entries))
		}
	}
	if m := OpenFileHashes(filepath.Join(dir, "none")); len(m.entries) != 0 {
		t.Errorf("a missing memo has entries")
	}
}

// Entries no run has used for a week are dropped when the memo is saved.
func TestFileHashesTrim(t *testing.T) {
	dir := t.TempDir()
	old, recent := filepath.Join(dir, "old.go"), filepath.Join(dir, "recent.go")
	os.WriteFile(old, []byte("package a\n"), 0o666)
	os.WriteFile(recent, []byte("package b\n"), 0o666)
	memo := filepath.Join(dir, "memo")
	m := OpenFileHashes(memo)
	m.now = later
	m.Sum(old)
	if !memoised(m, old) {
		t.Skip("nothing memoised on this system")
	}
	m.now = func() time.Time { return later().Add(10 * 24 * time.Hour) }
	m.Sum(recent)
	m.Save()
	m = OpenFileHashes(memo)
	if memoised(m, old) || !memoised(m, recent) {
		t.Errorf("after a save ten days on: old memoised %v (want false), recent %v (want true)", memoised(m, old), memoised(m, recent))
	}
}

func mustStat(t *testing.T, name string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}
