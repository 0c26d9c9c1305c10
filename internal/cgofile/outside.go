package cgofile

import (
	"os"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// The package's C can include headers that are none of the package's
// files: one in a subdirectory (`#include "inc/arena.h"`) or in a
// directory of the module that a `#cgo CFLAGS: -I${SRCDIR}/../inc` names.
// Pass.ReadFile does not give them, and no driver's cache key has them,
// so a pass reads them with ReadOutside, which a driver that caches
// results can watch (SetOutsideReader) to key its entry on what was read.

var outsideReaders sync.Map // *analysis.Pass → func(string) ([]byte, error)

// ReadOutside returns the content of the file at path, which is outside
// the package's own files, for pass: through the reader the driver set
// for the pass, or from disk. A missing file is an error satisfying
// errors.Is(err, fs.ErrNotExist); a driver records that too (a header
// created later changes the reading).
func ReadOutside(pass *analysis.Pass, path string) ([]byte, error) {
	if r, ok := outsideReaders.Load(pass); ok {
		return r.(func(string) ([]byte, error))(path)
	}
	return os.ReadFile(path)
}

// SetOutsideReader makes read the way pass's analyzer reads files outside
// the package (ReadOutside) until ClearOutsideReader.
func SetOutsideReader(pass *analysis.Pass, read func(string) ([]byte, error)) {
	outsideReaders.Store(pass, read)
}

// ClearOutsideReader forgets pass's reader.
func ClearOutsideReader(pass *analysis.Pass) {
	outsideReaders.Delete(pass)
}
