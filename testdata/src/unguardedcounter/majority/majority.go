// Package majority: a type's mutex guards a counter when (nearly) all of
// the counter's uses hold it, as checklocks infers a field's guard: at
// least 9 in 10, or all but one. Below that, the type keeps no lock
// contract for the counter, and an update without the lock is no exception
// to one.
package majority

/*
typedef struct { int live; } ctx;
static int ctx_run(ctx* c, int n) { return n; }
*/
import "C"

import "sync"

// Meter: 9 of the 10 uses of n hold mu; the tenth is reported.
type Meter struct {
	mu sync.Mutex
	n  int
	c  *C.ctx
}

func (m *Meter) A() { m.mu.Lock(); m.n++; m.mu.Unlock() }
func (m *Meter) B() { m.mu.Lock(); m.n++; m.mu.Unlock() }
func (m *Meter) C() { m.mu.Lock(); m.n++; m.mu.Unlock() }
func (m *Meter) D() { m.mu.Lock(); m.n++; m.mu.Unlock() }
func (m *Meter) E() { m.mu.Lock(); m.n++; m.mu.Unlock() }
func (m *Meter) F() { m.mu.Lock(); m.n--; m.mu.Unlock() }
func (m *Meter) G() { m.mu.Lock(); m.n--; m.mu.Unlock() }
func (m *Meter) H() { m.mu.Lock(); m.n--; m.mu.Unlock() }
func (m *Meter) I() { m.mu.Lock(); m.n--; C.ctx_run(m.c, 0); m.mu.Unlock() }
func (m *Meter) J() {
	m.n++ // want `J increments m.n without atomics or a lock: Meter has a mutex, which A holds when it accesses n \(line \d+\), as 9 of its 10 uses do`
}

// NewMeter fills in a new object before it is shared: not a use.
func NewMeter() *Meter {
	m := &Meter{}
	m.n = 1
	return m
}

// Gauge: 6 of the 10 uses of n hold mu; silent.
type Gauge struct {
	mu sync.Mutex
	n  int
	c  *C.ctx
}

func (g *Gauge) A() { g.mu.Lock(); g.n++; g.mu.Unlock() }
func (g *Gauge) B() { g.mu.Lock(); g.n++; g.mu.Unlock() }
func (g *Gauge) C() { g.mu.Lock(); g.n++; g.mu.Unlock() }
func (g *Gauge) D() { g.mu.Lock(); g.n--; g.mu.Unlock() }
func (g *Gauge) E() { g.mu.Lock(); g.n--; g.mu.Unlock() }
func (g *Gauge) F() { g.mu.Lock(); g.n--; C.ctx_run(g.c, 0); g.mu.Unlock() }
func (g *Gauge) G() { g.n++ }
func (g *Gauge) H() { g.n++ }
func (g *Gauge) I() { g.n-- }
func (g *Gauge) J() { g.n-- }

// Dial: 3 of 5 uses hold mu, two do not: a pattern, not an exception;
// silent.
type Dial struct {
	mu sync.Mutex
	n  int
	c  *C.ctx
}

func (d *Dial) A() { d.mu.Lock(); d.n++; d.mu.Unlock() }
func (d *Dial) B() { d.mu.Lock(); d.n--; d.mu.Unlock() }
func (d *Dial) C() { d.mu.Lock(); d.n++; C.ctx_run(d.c, 0); d.mu.Unlock() }
func (d *Dial) D() { d.n++ }
func (d *Dial) E() { d.n-- }

// Knob: 3 of 4 uses hold mu; the one that does not is reported.
type Knob struct {
	mu sync.Mutex
	n  int
	c  *C.ctx
}

func (k *Knob) A() { k.mu.Lock(); k.n++; k.mu.Unlock() }
func (k *Knob) B() { k.mu.Lock(); k.n--; k.mu.Unlock() }
func (k *Knob) C() { k.mu.Lock(); k.n++; C.ctx_run(k.c, 0); k.mu.Unlock() }
func (k *Knob) D() {
	k.n-- // want `D decrements k.n without atomics or a lock: Knob has a mutex, which A holds when it accesses n \(line \d+\), as 3 of its 4 uses do`
}
