package semaphore

import "context"

// The token form: the channel holds one token while the lock is free. A
// receive takes it, a send gives it back.

// Engine fills its channel where it makes it.
type Engine struct {
	tok   chan struct{}
	runs  int
	fails int
}

func NewEngine() *Engine {
	t := make(chan struct{}, 1)
	t <- struct{}{}
	return &Engine{tok: t}
}

func (e *Engine) Run() {
	<-e.tok
	defer func() { e.tok <- struct{}{} }()
	e.runs++
}

// TryRun gives up when the context ends first.
func (e *Engine) TryRun(ctx context.Context) error {
	select {
	case <-e.tok:
	case <-ctx.Done():
		e.fails++ // want `TryRun increments e.fails without atomics or a lock`
		return ctx.Err()
	}
	e.runs++
	e.tok <- struct{}{}
	return nil
}

// Skip counts after giving the token back.
func (e *Engine) Skip() {
	<-e.tok
	e.tok <- struct{}{}
	e.runs++ // want `Skip increments e.runs without atomics or a lock`
}

func (e *Engine) Spawn(ctx context.Context) {
	for range 4 {
		go e.Run()
		go e.TryRun(ctx)
		go e.Skip()
	}
}

// Model fills it through the field, in its constructor.
type Model struct {
	tok  chan struct{}
	uses int
}

func NewModel() *Model {
	m := &Model{tok: make(chan struct{}, 1)}
	m.tok <- struct{}{}
	return m
}

func (m *Model) Use() {
	<-m.tok
	m.uses++
	m.tok <- struct{}{}
}

func (m *Model) Spawn() {
	for range 4 {
		go m.Use()
	}
}

// Pair fills a channel of two slots with two tokens: two holders at once.
type Pair struct {
	tok chan struct{}
	n   int
}

func NewPair() *Pair {
	t := make(chan struct{}, 2)
	t <- struct{}{}
	t <- struct{}{}
	return &Pair{tok: t}
}

func (p *Pair) Use() {
	<-p.tok
	p.n++ // want `Use increments p.n without atomics or a lock`
	p.tok <- struct{}{}
}

func (p *Pair) Spawn() {
	for range 4 {
		go p.Use()
	}
}

// Mixed stores an empty channel in one place and a filled one in
// another: neither form holds for every value, and nothing is excluded.
type Mixed struct {
	ch chan struct{}
	n  int
}

func NewMixed(filled bool) *Mixed {
	if filled {
		t := make(chan struct{}, 1)
		t <- struct{}{}
		return &Mixed{ch: t}
	}
	return &Mixed{ch: make(chan struct{}, 1)}
}

func (m *Mixed) Use() {
	<-m.ch
	m.n++ // want `Use increments m.n without atomics or a lock`
	m.ch <- struct{}{}
}

func (m *Mixed) Spawn() {
	for range 4 {
		go m.Use()
	}
}

// Results carries each worker's result in a channel of one slot: a
// worker's send waits only until Run receives the previous result, so two
// workers' counts can meet. No function both sends and receives: it is
// no lock.
type Results struct {
	res  chan int
	done int
}

func NewResults() *Results { return &Results{res: make(chan int, 1)} }

func (r *Results) work(v int) {
	r.res <- v
	r.done++ // want `work increments r.done without atomics or a lock`
}

func (r *Results) Run() int {
	for i := range 4 {
		go r.work(i)
	}
	s := 0
	for range 4 {
		s += <-r.res
	}
	return s
}

// Errs does the same through closures the go statements start.
type Errs struct {
	errc  chan error
	fails int
}

func NewErrs() *Errs { return &Errs{errc: make(chan error, 1)} }

func (e *Errs) Run(jobs []func() error) error {
	for _, j := range jobs {
		go func() {
			e.errc <- j()
			e.fails++ // want `the function literal in Run increments e.fails without atomics or a lock`
		}()
	}
	var err error
	for range jobs {
		if e := <-e.errc; e != nil {
			err = e
		}
	}
	return err
}
