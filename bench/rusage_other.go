//go:build !unix

package bench

import "os"

// rusageMaxRSS is not available here.
func rusageMaxRSS(*os.ProcessState) int64 { return 0 }
