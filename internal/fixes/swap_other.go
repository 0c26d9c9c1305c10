//go:build !linux

package fixes

// swapIn renames tmp over real if real holds old (WriteFileIf): without
// an exchange, the file is compared just before the rename.
func swapIn(tmp, real string, old []byte) error { return renameIf(tmp, real, old) }
