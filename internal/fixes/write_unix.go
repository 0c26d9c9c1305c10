//go:build unix

package fixes

import (
	"fmt"
	"os"
	"syscall"
)

func hardLinks(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
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
