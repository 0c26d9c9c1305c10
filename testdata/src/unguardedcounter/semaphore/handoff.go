package semaphore

import "sync"

// A lock handed off: the spawner takes it, and the goroutine it starts
// gives it back when it ends (at most one background compaction at a
// time). The goroutine runs holding it; the spawner, after the go
// statement, does not.

// Compactor is safe for concurrent use.
type Compactor struct {
	compacting  chan struct{}
	flushing    chan struct{}
	compactions int
	flushes     int
	queued      int
}

func NewCompactor() *Compactor {
	return &Compactor{compacting: make(chan struct{}, 1), flushing: make(chan struct{}, 1)}
}

// MaybeCompact starts a compaction unless one is running.
func (c *Compactor) MaybeCompact() {
	select {
	case c.compacting <- struct{}{}:
	default:
		return
	}
	go func() {
		defer func() { <-c.compacting }()
		c.compactions++
	}()
}

// Flush waits for the running flush, and starts the next in a method.
func (c *Compactor) Flush() {
	c.flushing <- struct{}{}
	go c.flushBG()
	c.queued++ // want `Flush increments c.queued without atomics or a lock`
}

func (c *Compactor) flushBG() {
	c.flushes++
	<-c.flushing
}

// Syncer hands a sync.Mutex to the goroutine that unlocks it. It is safe
// for concurrent use.
type Syncer struct {
	mu    sync.Mutex
	syncs int
	kicks int
}

func (s *Syncer) Sync() {
	s.mu.Lock()
	go func() {
		defer s.mu.Unlock()
		s.syncs++
	}()
}

// Kick unlocks the mutex itself: the goroutine holds nothing.
func (s *Syncer) Kick() {
	s.mu.Lock()
	go func() {
		s.kicks++ // want `the function literal in Kick increments s.kicks without atomics or a lock`
	}()
	s.mu.Unlock()
}

// Loader's channel holds a token while free; the goroutine gives the token
// back through a helper it defers. It is safe for concurrent use.
type Loader struct {
	tok   chan struct{}
	loads int
}

func NewLoader() *Loader {
	l := &Loader{tok: make(chan struct{}, 1)}
	l.tok <- struct{}{}
	return l
}

func (l *Loader) giveBack() { l.tok <- struct{}{} }

func (l *Loader) Load() {
	<-l.tok
	go func() {
		defer l.giveBack()
		l.loads++
	}()
}

// Scheduler hands its slot off in a helper that starts the goroutine:
// after the call the caller holds nothing.
//
// Scheduler is safe for concurrent use.
type Scheduler struct {
	slot      chan struct{}
	mu        sync.Mutex
	scheduled int
	ran       int
	waits     int
	seen      int
}

func NewScheduler() *Scheduler { return &Scheduler{slot: make(chan struct{}, 1)} }

func (s *Scheduler) start() {
	go func() {
		defer func() { <-s.slot }()
		s.ran++
	}()
}

func (s *Scheduler) Schedule() {
	s.slot <- struct{}{}
	s.start()
	s.scheduled++ // want `Schedule increments s.scheduled without atomics or a lock`
}

// Wait starts a goroutine that takes the mutex itself: it waits for
// Wait's own unlock, and takes nothing from it.
func (s *Scheduler) Wait() {
	s.mu.Lock()
	go func() {
		s.mu.Lock()
		s.seen++
		s.mu.Unlock()
	}()
	s.waits++
	s.mu.Unlock()
}
