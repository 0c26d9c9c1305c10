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
// system or file system cannot exchange, the file is read again and
// compared just before the rename. A file that changed gives an error
// wrapping ErrChanged.
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
	// needs only the directory's permission).
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
		if err := placing(tmp.Name(), func() error { return swapIn(tmp.Name(), real, old) }); err != nil {
			return err
		}
		syncDir(dir)
		return nil
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

// renameIf renames tmp over real if real holds old, read just before; it
// removes tmp otherwise.
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
	if err := os.Rename(tmp, real); err != nil {
		os.Remove(tmp)
		return unwrapPath(err)
	}
	return nil
}

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
