package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/tools/go/packages"
)

// progressDelay is how long a phase runs before progress is shown: short
// runs stay quiet.
const progressDelay = time.Second

// A progress shows, on a terminal, what a long run is doing: one line,
// rewritten in place and cleared at the end. It is silent when standard
// error is not a terminal (piped, redirected, under CI).
type progress struct {
	w       io.Writer
	enabled bool

	mu    sync.Mutex
	msg   func() string
	shown bool
	done  chan struct{}
	once  sync.Once
}

func newProgress(w *os.File) *progress {
	p := &progress{w: w, enabled: isTerminal(w) && os.Getenv("TERM") != "dumb", done: make(chan struct{})}
	if p.enabled {
		go p.loop()
	}
	return p
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func (p *progress) loop() {
	start := time.Now()
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-t.C:
			if time.Since(start) < progressDelay {
				continue
			}
			p.mu.Lock()
			if p.msg != nil {
				fmt.Fprintf(p.w, "\r\033[K%s: %s", progName(), p.msg())
				p.shown = true
			}
			p.mu.Unlock()
		}
	}
}

// phase shows a fixed message.
func (p *progress) phase(msg string) {
	p.mu.Lock()
	p.msg = func() string { return msg + "…" }
	p.mu.Unlock()
}

// countPackages shows how many of the packages under pkgs (the roots and
// every dependency, which the passes analyse for facts) have been
// analysed, and returns the driver's hook that counts them.
func (p *progress) countPackages(pkgs []*packages.Package) func(*packages.Package) {
	total := 0
	packages.Visit(pkgs, nil, func(*packages.Package) { total++ })
	var done atomic.Int64
	p.mu.Lock()
	p.msg = func() string { return fmt.Sprintf("analysed %d of %d packages", min(done.Load(), int64(total)), total) }
	p.mu.Unlock()
	return func(*packages.Package) { done.Add(1) }
}

// stop clears the progress line and stops updating it.
func (p *progress) stop() {
	p.once.Do(func() {
		close(p.done)
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.shown {
			fmt.Fprint(p.w, "\r\033[K")
		}
		p.msg = nil
	})
}
