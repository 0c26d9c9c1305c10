//go:build unix && !linux

package bench

import (
	"os"
	"runtime"
	"syscall"
)

// rusageMaxRSS returns ru_maxrss in bytes: it is in bytes on Darwin, in
// KiB on the BSDs.
func rusageMaxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) * 1024
}
