//go:build !unix

package fixes

import "os"

func hardLinks(os.FileInfo) uint64 { return 1 }

// noHardLinks: any link error is read as a file system without hard links.
func noHardLinks(error) bool { return true }

func keepOwner(*os.File, os.FileInfo) error { return nil }

var stopSignals = []os.Signal{os.Interrupt}

func reraise(os.Signal) { os.Exit(1) }
