package fixes

import (
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
func WriteFile(name string, data []byte) error {
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
	if err := tmp.Chmod(fi.Mode() & (os.ModePerm | os.ModeSetuid | os.ModeSetgid | os.ModeSticky)); err != nil {
		return fmt.Errorf("giving the new content the file's mode: %w", unwrapPath(err))
	}
	if err := keepOwner(tmp, fi); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return unwrapPath(err)
	}
	if err := tmp.Close(); err != nil {
		return unwrapPath(err)
	}
	if err := os.Rename(tmp.Name(), real); err != nil {
		os.Remove(tmp.Name())
		done = true
		return unwrapPath(err)
	}
	done = true
	// the rename itself, on the disk (best effort: not every system
	// can sync a directory)
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
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
