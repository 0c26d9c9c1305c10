package semaphore

// A one-slot channel inside a struct field, made in a nested composite
// literal or by a helper that returns the struct, is a lock as it is when
// assigned field by field.

type slot struct{ lock chan struct{} }

type base struct {
	sem chan struct{}
}

// Nested is safe for concurrent use.
type Nested struct {
	in   slot
	runs int
}

func NewNested() *Nested { return &Nested{in: slot{lock: make(chan struct{}, 1)}} }

func (n *Nested) Run() {
	n.in.lock <- struct{}{}
	defer func() { <-n.in.lock }()
	n.runs++
}

func newSlot() slot { return slot{lock: make(chan struct{}, 1)} }

// Made is safe for concurrent use.
type Made struct {
	in   slot
	runs int
}

func NewMade() *Made { return &Made{in: newSlot()} }

func (m *Made) Run() {
	m.in.lock <- struct{}{}
	m.runs++
	<-m.in.lock
}

// Embedded is safe for concurrent use.
type Embedded struct {
	base
	runs int
}

func NewEmbedded() *Embedded { return &Embedded{base: base{sem: make(chan struct{}, 1)}} }

func (e *Embedded) Run() {
	e.sem <- struct{}{}
	e.runs++
	<-e.sem
}

// TwoSlot holds a slot of two: two holders at once.
type TwoSlot struct {
	in   slot
	runs int
}

func NewTwoSlot() *TwoSlot { return &TwoSlot{in: slot{lock: make(chan struct{}, 2)}} }

func (w *TwoSlot) Run() {
	w.in.lock <- struct{}{}
	w.runs++ // want `Run increments w.runs without atomics or a lock`
	<-w.in.lock
}

func (w *TwoSlot) Spawn() {
	for range 4 {
		go w.Run()
	}
}

// Given takes its slot from the caller: any channel.
type Given struct {
	in   slot
	runs int
}

func NewGiven(s slot) *Given { return &Given{in: s} }

func (g *Given) Run() {
	g.in.lock <- struct{}{}
	g.runs++ // want `Run increments g.runs without atomics or a lock`
	<-g.in.lock
}

func (g *Given) Spawn() {
	for range 4 {
		go g.Run()
	}
}

// A helper that makes a channel of the capacity its caller gives: one
// slot where the caller says 1.
func newSemOf(n int) chan struct{} { return make(chan struct{}, n) }

func newSlotOf(n int) slot { return slot{lock: newSemOf(n)} }

// Sized is safe for concurrent use.
type Sized struct {
	sem  chan struct{}
	in   slot
	runs int
	hits int
}

func NewSized() *Sized { return &Sized{sem: newSemOf(1), in: newSlotOf(1)} }

func (s *Sized) Run() {
	s.sem <- struct{}{}
	defer func() { <-s.sem }()
	s.runs++
}

func (s *Sized) Hit() {
	s.in.lock <- struct{}{}
	s.hits++
	<-s.in.lock
}

// Pooled makes its channel with four slots through the same helper.
type Pooled struct {
	sem  chan struct{}
	runs int
}

func NewPooled() *Pooled { return &Pooled{sem: newSemOf(4)} }

func (p *Pooled) Run() {
	p.sem <- struct{}{}
	p.runs++ // want `Run increments p.runs without atomics or a lock`
	<-p.sem
}

func (p *Pooled) Spawn() {
	for range 4 {
		go p.Run()
	}
}
