package bench

import (
	"errors"
	"os/exec"
	"time"
)

// A Sample is one measured run of a command.
type Sample struct {
	// Wall is the elapsed time from start to exit.
	Wall time.Duration
	// CPU is user plus system time of the process and of every descendant
	// it waited for (the go command waits for its compilers and vet tools):
	// the rusage wait4 returns.
	CPU time.Duration
	// MaxRSS is the peak resident set size of the largest single process
	// of the tree (rusage ru_maxrss, which the kernel reports for a waited
	// process as the maximum over it and its waited-for descendants), in
	// bytes.
	MaxRSS int64
	// TreeRSS is the peak of the summed resident set sizes of the process
	// and all its live descendants, sampled every SampleEvery from /proc (0
	// where /proc is not available). Processes shorter than the interval
	// can be missed, so it is a lower bound.
	TreeRSS int64
	// OthersCPU is the CPU time the rest of the machine used while the
	// command ran: busy time from /proc/stat minus CPU (0 where /proc is
	// not available).
	OthersCPU time.Duration
	// Exit is the exit status (go vet exits 1 when it reports findings,
	// standalone lifetimevet 3, staticcheck 1).
	Exit int
}

// SampleEvery is the interval of the process-tree RSS sampler.
var SampleEvery = 100 * time.Millisecond

// Measure runs cmd (not yet started) to completion and measures it. An
// exit status other than 0 is not an error; failing to start or to be
// waited for is.
func Measure(cmd *exec.Cmd) (Sample, error) {
	var s Sample
	busy0, haveBusy := machineBusy()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return s, err
	}
	stop := make(chan struct{})
	peak := make(chan int64, 1)
	go func() { peak <- sampleTreeRSS(cmd.Process.Pid, stop) }()
	err := cmd.Wait()
	s.Wall = time.Since(start)
	close(stop)
	s.TreeRSS = <-peak
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return s, err
	}
	ps := cmd.ProcessState
	s.Exit = ps.ExitCode()
	s.CPU = ps.UserTime() + ps.SystemTime()
	s.MaxRSS = maxRSS(ps)
	if busy1, ok := machineBusy(); ok && haveBusy {
		s.OthersCPU = max(busy1-busy0-s.CPU, 0)
	}
	return s, nil
}
