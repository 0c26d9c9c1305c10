//go:build unix

package fixes

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

func hardLinks(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// noHardLinks reports whether err, of a link, says that the file system
// cannot make hard links (FAT, many FUSE and network file systems).
func noHardLinks(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOTSUP) ||
		errors.Is(err, syscall.ENOSYS) || errors.Is(err, errors.ErrUnsupported)
}

// keepOwner gives tmp the owner and group of the file fi describes, if it
// does not have them already.
func keepOwner(tmp *os.File, fi os.FileInfo) error {
	old, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	tfi, err := tmp.Stat()
	if err != nil {
		return unwrapPath(err)
	}
	cur, ok := tfi.Sys().(*syscall.Stat_t)
	if !ok || cur.Uid == old.Uid && cur.Gid == old.Gid {
		return nil
	}
	if err := tmp.Chown(int(old.Uid), int(old.Gid)); err != nil {
		return fmt.Errorf("the new content cannot keep the file's owner and group (%d:%d): %w", old.Uid, old.Gid, unwrapPath(err))
	}
	return nil
}

// stopSignals are the signals that stop a run: a temporary file is
// removed before the process ends (trackTemp).
var stopSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// reraise ends the process by sig, as it would have ended without the
// handler (the default action, now that it is restored).
func reraise(sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		syscall.Kill(os.Getpid(), s)
		time.Sleep(time.Second) // the signal is delivered asynchronously
		os.Exit(128 + int(s))
	}
	os.Exit(128 + 15)
}
