package fixes

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile replaces the content of file name with data so that the file
// holds, at every moment and whatever fails, either its old content or
// the new one, never a part of either: the new content is written to a
// temporary file in the same directory, with the old file's mode (and
// owner, where the system has them), flushed to the disk, and renamed
// over the old file. A symlink is followed (the file it names is
// replaced, the link stays). A file with other hard links is not written:
// replacing it would leave the other names with the old content, nor is
// a file the process may not write (a read-only file). On any
// error the old file is untouched and the temporary file is removed.
func WriteFile(name string, data []byte) error { return writeFile(name, nil, data) }

// ErrChanged is wrapped by the error of WriteFileIf when the file did not
// hold the expected content at the moment of its replacement.
var ErrChanged = errors.New("the file changed while its fixes were being written; it is as it was saved")

// WriteFileIf is WriteFile, but replaces the file only if it holds old at
// the moment the new content takes its place: an editor's save, a git
// checkout or another run's fix made after the file was read is never
// overwritten. On Linux the new file is exchanged with the old one in one
// step (renameat2 RENAME_EXCHANGE) and the content swapped out is
// compared with old; if it differs the two are exchanged back, so that
// the only window left is between the two exchanges, microseconds, and
// nothing but the process's own temporary file is ever removed. Where the
// system or file system cannot exchange, the file is compared just before
// a rename and what the rename replaced is compared again after it, and
// put back if it differs (renameIf). A file that changed gives an error
// wrapping ErrChanged; one written on a file system where the second
// check cannot be made, ErrUnchecked.
func WriteFileIf(name string, old, data []byte) error {
	if old == nil {
		old = []byte{}
	}
	return writeFile(name, old, data)
}

// beforeSwap, if not nil, runs when the new content is on the disk, just
// before it takes the file's place (tests: a save made then).
var beforeSwap func()

func writeFile(name string, old, data []byte) error {
	real, err := filepath.EvalSymlinks(name)
	if err != nil {
		return unwrapPath(err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return unwrapPath(err)
	}
	if !fi.Mode().IsRegular() {
		return errors.New("it is not a regular file")
	}
	if n := hardLinks(fi); n > 1 {
		return fmt.Errorf("it has %d hard links, which replacing it would split (the other names would keep the old content)", n)
	}
	// A file the user may not write stays as it is (renaming over it
	// needs only the directory's permission): one with no write bit,
	// which root may open all the same, and one the process cannot open
	// for writing.
	if fi.Mode().Perm()&0o222 == 0 {
		return fmt.Errorf("it is read-only (mode %v)", fi.Mode().Perm())
	}
	if f, err := os.OpenFile(real, os.O_WRONLY, 0); err != nil {
		return unwrapPath(err)
	} else {
		f.Close()
	}
	dir := filepath.Dir(real)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(real)+".lifetimevet-*")
	if err != nil {
		return fmt.Errorf("creating a temporary file in %s: %w", dir, unwrapPath(err))
	}
	// until it is put in place (placing): after an exchange the name
	// holds the old content, which a signal must not remove
	untrack := trackTemp(tmp.Name())
	defer untrack()
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return unwrapPath(err)
	}
	// the owner first: a change of owner clears the setuid and setgid
	// bits, which the mode then sets
	if err := keepOwner(tmp, fi); err != nil {
		return err
	}
	if err := tmp.Chmod(fi.Mode() & (os.ModePerm | os.ModeSetuid | os.ModeSetgid | os.ModeSticky)); err != nil {
		return fmt.Errorf("giving the new content the file's mode: %w", unwrapPath(err))
	}
	if err := keepXattrs(tmp, real); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return unwrapPath(err)
	}
	if err := tmp.Close(); err != nil {
		return unwrapPath(err)
	}
	if old != nil {
		if beforeSwap != nil {
			beforeSwap()
		}
		done = true // swapIn removes the temporary file, unless it says where it is
		err := placing(tmp.Name(), func() error { return swapIn(tmp.Name(), real, old) })
		if err != nil && !errors.Is(err, ErrUnchecked) {
			return err
		}
		syncDir(dir)
		return err // nil, or ErrUnchecked: written
	}
	done = true
	err = placing(tmp.Name(), func() error {
		if err := os.Rename(tmp.Name(), real); err != nil {
			os.Remove(tmp.Name())
			return unwrapPath(err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// syncDir puts a rename in dir on the disk (best effort: not every system
// can sync a directory).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// renameIf renames tmp over real if real holds old (WriteFileIf on a
// system or file system that cannot exchange two names in one step: NFS,
// most FUSE file systems). A check that cannot be atomic with the
// replacement is repeated after it, on the content that was replaced:
// the file is given a second, hidden name first (a hard link, which pins
// what it holds), tmp is renamed over it, and what the second name then
// holds is compared with old. A save made in place meanwhile (an editor
// that rewrites the file) is thus seen after the rename, and the file is
// put back: the only save that can still be lost is one made by renaming
// another file over real in the microseconds between the link and the
// rename. Where the file system has no hard links, real is compared just
// before the rename and the error is ErrUnchecked, the file written. tmp
// and the second name are removed, unless an error says where a content
// is.
func renameIf(tmp, real string, old []byte) error {
	cur, err := os.ReadFile(real)
	if err != nil {
		os.Remove(tmp)
		return unwrapPath(err)
	}
	if !bytes.Equal(cur, old) {
		os.Remove(tmp)
		return ErrChanged
	}
	ours, err := os.Stat(tmp)
	if err != nil {
		os.Remove(tmp)
		return unwrapPath(err)
	}
	backup := tmp + ".old"
	if err := link(real, backup); err != nil {
		if !noHardLinks(err) {
			os.Remove(tmp)
			return unwrapPath(err)
		}
		// no second name can pin the content: it was compared just before
		if beforeRename != nil {
			beforeRename()
		}
		if err := os.Rename(tmp, real); err != nil {
			os.Remove(tmp)
			return unwrapPath(err)
		}
		return ErrUnchecked
	}
	if beforeRename != nil {
		beforeRename()
	}
	if err := os.Rename(tmp, real); err != nil {
		os.Remove(tmp)
		os.Remove(backup)
		return unwrapPath(err)
	}
	// backup names what real held at the rename
	if fi, err := os.Lstat(backup); err == nil && fi.Mode().IsRegular() && hardLinks(fi) == 1 {
		if got, err := os.ReadFile(backup); err == nil && bytes.Equal(got, old) {
			os.Remove(backup)
			return nil
		}
	}
	// it changed: put it back, unless real was replaced again meanwhile
	// (a later save, which is kept)
	if fi, err := os.Lstat(real); err != nil || !os.SameFile(fi, ours) {
		return fmt.Errorf("%w, and saved again after the fix was written: the content saved meanwhile is in %s", ErrChanged, backup)
	}
	if err := os.Rename(backup, real); err != nil {
		return fmt.Errorf("%w, but putting the saved content back failed (%v): it is in %s", ErrChanged, unwrapPath(err), backup)
	}
	return ErrChanged
}

// ErrUnchecked is returned by WriteFileIf when the file was replaced on a
// file system that can neither exchange two names in one step nor give a
// file a second name (a hard link): what it held was compared with the
// expected content just before the replacement, not after, and a save
// made in between may be lost. The file holds the new content.
var ErrUnchecked = errors.New("the file system can neither exchange files nor link them, so a save made while the fix was written may be lost")

// Test hooks: beforeRename, if not nil, runs in renameIf just before the
// rename (a save made then); link makes a hard link (a file system without
// them, in tests).
var (
	beforeRename func()
	link         = os.Link
)

// unwrapPath drops the file name of an *os.PathError (the caller names
// the file, not the temporary one).
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
