//go:build !linux

package fixes

import "os"

// swapIn renames tmp over real if real holds old (WriteFileIf): without
// an exchange, the file is compared just before the rename.
func swapIn(tmp, real string, old []byte) error {
	return renameIf(tmp, real, old)
}

// keepXattrs: extended attributes are kept on Linux only.
func keepXattrs(*os.File, string) error { return nil }
