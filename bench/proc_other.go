//go:build !linux

package bench

import (
	"os"
	"time"
)

// maxRSS returns ru_maxrss of a waited process in bytes, where the
// platform has it (see rusage_unix.go).
func maxRSS(ps *os.ProcessState) int64 { return rusageMaxRSS(ps) }

// machineBusy is not available without /proc/stat.
func machineBusy() (time.Duration, bool) { return 0, false }

// sampleTreeRSS is not available without /proc: it waits for stop and
// returns 0.
func sampleTreeRSS(root int, stop <-chan struct{}) int64 {
	<-stop
	return 0
}
