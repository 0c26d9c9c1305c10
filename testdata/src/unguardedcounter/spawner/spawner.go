// Package spawner starts a goroutine that runs a function on a value and
// then runs the same function on that value itself: the two activations
// overlap, with no happens-before between them, unless the spawner waits
// for the goroutine first.
package spawner

/*
#include <stdlib.h>
typedef struct { int pct; } job;
static void job_step(job* j) { j->pct++; }
*/
import "C"

import "sync"

type Job struct {
	mu   sync.Mutex
	pct  int
	seen int
	j    *C.job
}

func (j *Job) Tick() {
	j.mu.Lock()
	j.pct++
	C.job_step(j.j)
	j.mu.Unlock()
	j.seen++ // want `Tick increments j.seen without atomics or a lock: two goroutines can run Tick at once \(the goroutines that run Tick on one value: the one started at line 33, and Par's own, which calls it after starting that one\)`
}

// Par runs Tick on j in a goroutine and in its own.
func Par(j *Job) {
	go j.Tick()
	j.Tick()
}

// Locked counts under the lock in both.
func (j *Job) Locked() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.pct++
}

func ParLocked(j *Job) {
	go j.Locked()
	j.Locked()
}

// Meter's method runs in a goroutine and then in the spawner, but the
// spawner waits for the goroutine to finish first.
type Meter struct {
	n int
	m *C.job
}

func (m *Meter) Step(done chan<- struct{}) {
	m.n++
	C.job_step(m.m)
	if done != nil {
		close(done)
	}
}

func Sequential(m *Meter) {
	done := make(chan struct{})
	go m.Step(done)
	<-done
	m.Step(nil)
}

// Two values, one goroutine each: nothing is shared.
type Gauge struct {
	n int
	g *C.job
}

func (g *Gauge) Step() {
	g.n++
	C.job_step(g.g)
}

func Both(a, b *Gauge) {
	go a.Step()
	b.Step()
}

// A package function given the same value in both.
type Counter struct {
	hits int
	c    *C.job
}

func hit(c *Counter) {
	c.hits++ // want `hit increments c.hits without atomics or a lock: two goroutines can run hit at once \(the goroutines that run hit on one value: the one started at line 99, and Spread's own`
	C.job_step(c.c)
}

func Spread(c *Counter, more bool) {
	go hit(c)
	if more {
		hit(c)
	}
}

// Waited joins the goroutine through a helper before running Step
// itself.
type Waited struct {
	n    int
	done chan struct{}
	w    *C.job
}

func (w *Waited) Step(signal bool) {
	w.n++
	C.job_step(w.w)
	if signal {
		close(w.done)
	}
}

func (w *Waited) wait() { <-w.done }

func RunWaited(w *Waited) {
	w.done = make(chan struct{})
	go w.Step(true)
	w.wait()
	w.Step(false)
}

// Shard runs one value in a goroutine and another itself, through the
// same receiver.
type Shard struct {
	mu sync.Mutex
}

type Part struct {
	done int
	p    *C.job
}

func (s *Shard) step(p *Part) {
	p.done++
	C.job_step(p.p)
}

func SplitParts(s *Shard, a, b *Part) {
	go s.step(a)
	s.step(b)
}
