package spawner

/*
typedef struct { int pct; } task;
static void task_step(task* t) { t->pct++; }
*/
import "C"

import (
	"sync"

	"golang.org/x/sync/errgroup"
)

// The goroutine's literal, or the bound method a WaitGroup's Go runs,
// calls the function the spawner then calls on the same value.

type Task struct {
	steps int
	polls int
	t     *C.task
}

func (t *Task) step() {
	t.steps++ // want `step increments t.steps without atomics or a lock: two goroutines can run step at once \(the goroutines that run step on one value: the one started at line 36`
	C.task_step(t.t)
}

func (t *Task) poll() {
	t.polls++ // want `poll increments t.polls without atomics or a lock: two goroutines can run poll at once \(the goroutines that run poll on one value: the one started at line 46`
}

func BothStep(t *Task) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t.step()
	}()
	t.step()
	wg.Wait()
}

func Group(t *Task) {
	var wg sync.WaitGroup
	wg.Go(t.poll)
	t.poll()
	wg.Wait()
}

// After waits for the goroutine first.
type After struct{ n int }

func (a *After) step() { a.n++ }

func Sequenced(a *After) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		a.step()
	}()
	wg.Wait()
	a.step()
}

// Pair runs it on another value.
type Pair struct{ n int }

func (p *Pair) step() { p.n++ }

func Other(a, b *Pair) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.step()
	}()
	b.step()
	<-done
}

// Sharded counts in goroutines an errgroup starts in a loop.
type Sharded struct {
	done int
	t    *C.task
}

func (s *Sharded) Run(parts []int) error {
	var g errgroup.Group
	for range parts {
		g.Go(func() error {
			s.done++ // want `the function literal in Run increments s.done without atomics or a lock: two goroutines can run the function literal in Run at once \(the goroutines started at line 91\)`
			C.task_step(s.t)
			return nil
		})
	}
	return g.Wait()
}

// Serial waits for each before the next.
func (s *Sharded) Serial(parts []int) error {
	for range parts {
		var g errgroup.Group
		g.Go(func() error {
			C.task_step(s.t)
			return nil
		})
		if err := g.Wait(); err != nil {
			return err
		}
	}
	return nil
}
