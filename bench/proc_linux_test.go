package bench

import (
	"os"
	"testing"
)

func TestTreeRSS(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	ppid, pages, ok := procStat(os.Getpid())
	if !ok || ppid != os.Getppid() || pages <= 0 {
		t.Errorf("procStat(self) = %d, %d, %v; parent is %d", ppid, pages, ok, os.Getppid())
	}
	if treeRSS(os.Getpid()) < pages {
		t.Errorf("treeRSS(self) < own RSS")
	}
}
