package bench

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// maxRSS returns ru_maxrss of a waited process (KiB on Linux) in bytes.
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss) * 1024
	}
	return 0
}

// clockTick is USER_HZ, the unit of /proc/stat: 100 on every Linux
// architecture Go supports.
const clockTick = time.Second / 100

// machineBusy returns the CPU time all processors have spent busy since
// boot (user, nice, system, irq, softirq, steal; not idle or iowait).
func machineBusy() (time.Duration, bool) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	f := strings.Fields(string(line))
	if len(f) < 9 || f[0] != "cpu" {
		return 0, false
	}
	var busy int64
	for _, i := range []int{1, 2, 3, 6, 7, 8} { // user nice system [idle iowait] irq softirq steal
		n, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return 0, false
		}
		busy += n
	}
	return time.Duration(busy) * clockTick, true
}

// sampleTreeRSS samples, every SampleEvery until stop is closed, the summed
// RSS of root and its descendants, and returns the peak in bytes.
func sampleTreeRSS(root int, stop <-chan struct{}) int64 {
	page := int64(os.Getpagesize())
	var peak int64
	t := time.NewTicker(SampleEvery)
	defer t.Stop()
	for {
		if rss := treeRSS(root) * page; rss > peak {
			peak = rss
		}
		select {
		case <-stop:
			return peak
		case <-t.C:
		}
	}
}

// treeRSS returns the summed RSS, in pages, of root and its descendants.
func treeRSS(root int) int64 {
	dir, err := os.Open("/proc")
	if err != nil {
		return 0
	}
	names, _ := dir.Readdirnames(-1)
	dir.Close()
	children := map[int][]int{}
	rss := map[int]int64{}
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		ppid, pages, ok := procStat(pid)
		if !ok {
			continue
		}
		children[ppid] = append(children[ppid], pid)
		rss[pid] = pages
	}
	var sum int64
	stack := []int{root}
	for len(stack) > 0 {
		pid := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		sum += rss[pid]
		stack = append(stack, children[pid]...)
	}
	return sum
}

// procStat reads a process's parent and resident pages from
// /proc/PID/stat.
func procStat(pid int) (ppid int, pages int64, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	// pid (comm) state ppid ...; comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(string(data[i+1:]))
	// f[0] is field 3 (state): ppid is field 4, rss field 24.
	if len(f) < 22 {
		return 0, 0, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pages, err2 := strconv.ParseInt(f[21], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return ppid, pages, true
}
