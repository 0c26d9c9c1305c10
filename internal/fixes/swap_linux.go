//go:build linux

package fixes

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// swapIn puts the file tmp in real's place if real holds old, exchanging
// the two names in one step and checking what was exchanged out
// (WriteFileIf). It removes tmp, or says where a content it could not
// put back is.
// What was exchanged out must be a regular file with no other name,
// holding old: a symlink or a second hard link made in the file's place
// meanwhile is put back as it was, like a changed content (replacing a
// symlink by a file, or splitting a hard link, is not the fix asked for).
// It runs under placing: a signal waits until it returns.
func swapIn(tmp, real string, old []byte) error {
	ours, err := os.Stat(tmp)
	if err != nil {
		os.Remove(tmp)
		return unwrapPath(err)
	}
	err = exchange(tmp, real)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EOPNOTSUPP) {
		return renameIf(tmp, real, old) // a system or file system that cannot exchange
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	// tmp now names what real held at the exchange
	if exchangedTest != nil {
		exchangedTest(tmp)
	}
	if fi, err := os.Lstat(tmp); err == nil && fi.Mode().IsRegular() && hardLinks(fi) == 1 {
		if got, err := os.ReadFile(tmp); err == nil && bytes.Equal(got, old) {
			os.Remove(tmp)
			return nil
		}
	}
	// it changed: exchange back, and remove tmp only if it is the file
	// this process wrote
	if err := exchange(tmp, real); err != nil {
		return fmt.Errorf("%w, but putting the saved content back failed (%v): it is in %s", ErrChanged, err, tmp)
	}
	if fi, err := os.Stat(tmp); err == nil && os.SameFile(fi, ours) {
		os.Remove(tmp)
		return ErrChanged
	}
	return fmt.Errorf("%w, and changed again while it was put back: the other content is in %s", ErrChanged, tmp)
}

// exchange swaps the names a and b in one step (a test makes it fail as
// on a file system that cannot).
var exchange = func(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}

// keepXattrs gives tmp the extended attributes of the file real (ACLs,
// security labels, user attributes): a file replaced whole would lose
// them. An attribute that cannot be copied stops the fix.
// exchangedTest, if not nil, runs just after the first exchange, with the
// name that then holds what the file held (tests: a signal, or a
// symlink made in the file's place, in that window).
var exchangedTest func(tmp string)

func keepXattrs(tmp *os.File, real string) error {
	size, err := unix.Listxattr(real, nil)
	if err != nil || size == 0 {
		return nil // none, or a file system without them
	}
	buf := make([]byte, size)
	n, err := unix.Listxattr(real, buf)
	if err != nil {
		return nil
	}
	for _, name := range bytes.Split(buf[:n], []byte{0}) {
		if len(name) == 0 {
			continue
		}
		attr := string(name)
		vsize, err := unix.Getxattr(real, attr, nil)
		if err != nil {
			return fmt.Errorf("reading its extended attribute %s: %w", attr, err)
		}
		val := make([]byte, vsize)
		if vsize > 0 {
			if vsize, err = unix.Getxattr(real, attr, val); err != nil {
				return fmt.Errorf("reading its extended attribute %s: %w", attr, err)
			}
		}
		if err := unix.Fsetxattr(int(tmp.Fd()), attr, val[:vsize], 0); err != nil {
			return fmt.Errorf("the new content cannot keep the file's extended attribute %s: %w", attr, err)
		}
	}
	return nil
}
