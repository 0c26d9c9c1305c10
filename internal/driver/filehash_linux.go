package driver

import (
	"os"
	"syscall"
)

// identity returns a file's identity (see FileHashes).
func identity(fi os.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: fi.Size(), Mode: uint32(fi.Mode()),
		Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano()}, true
}
