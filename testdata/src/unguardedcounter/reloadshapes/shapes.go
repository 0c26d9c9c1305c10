// Package reloadshapes holds the shapes of decrement-then-reload where the
// Load is not a second look at the Add's variable, or where folding the
// Load into the Add would change what the program does.
package reloadshapes

import (
	"runtime"
	"sync/atomic"
)

type conn struct {
	refs  int32
	users atomic.Int64
	close func()
}

func (c *conn) note() {}

func (c *conn) last() bool { return true }

var verbose bool

// Folded: the Load follows the Add in straight-line code.
func (c *conn) Put() {
	c.users.Add(-1)
	if c.users.Load() == 0 { // want `Put tests c.users with a separate atomic Load`
		c.close()
	}
}

// Folded, keeping a comment written inside the Add call.
func (c *conn) PutNoted() {
	atomic.AddInt32(&c.refs, /* one reference */ -1)
	if atomic.LoadInt32(&c.refs) == 0 { // want `PutNoted tests c.refs with a separate atomic Load`
		c.close()
	}
}

var open int64

// Folded, on a global, through a helper that only returns.
func closeAll() {
	atomic.AddInt64(&open, -1)
	if n := atomic.LoadInt64(&open); n == 0 { // want `closeAll tests open with a separate atomic Load`
		shutdown()
	}
}

func shutdown() {}

type slot struct{ refs int32 }

// Not folded: a loop header that loads again on every iteration (a wait
// for the other holders); folding would decrement once per iteration.
// Not a finding either.
func (c *conn) WaitOthers() {
	atomic.AddInt32(&c.refs, -1)
	for atomic.LoadInt32(&c.refs) > 0 {
		runtime.Gosched()
	}
}

// Not a finding: the Load is of another object's counter.
func transfer(x, y *conn) {
	atomic.AddInt32(&x.refs, -1)
	if atomic.LoadInt32(&y.refs) == 0 {
		y.close()
	}
}

// Not a finding: after c = other, the Load is of the other object.
func (c *conn) handOff(other *conn) {
	atomic.AddInt32(&c.refs, -1)
	c = other
	if atomic.LoadInt32(&c.refs) == 0 {
		c.close()
	}
}

// Not a finding: the same, with the variable captured by a closure (a
// variable in memory, stored in between).
func handOffCaptured(c, other *conn) func() {
	f := func() { c.note() }
	atomic.AddInt32(&c.refs, -1)
	c = other
	if atomic.LoadInt32(&c.refs) == 0 {
		c.close()
	}
	return f
}

// Not a finding: another element's counter.
func dropOther(slots []slot, i, j int, free func(int)) {
	atomic.AddInt32(&slots[i].refs, -1)
	if atomic.LoadInt32(&slots[j].refs) == 0 {
		free(j)
	}
}

// Reported, not folded: another read of the counter in between sees the
// decremented value; folding would move the Add past it.
func (c *conn) Trace() int32 {
	atomic.AddInt32(&c.refs, -1)
	seen := atomic.LoadInt32(&c.refs)
	if atomic.LoadInt32(&c.refs) == 0 { // want `Trace tests c.refs with a separate atomic Load`
		c.close()
	}
	return seen
}

// Reported, not folded: an index in between can panic; where the panic
// is recovered, the Add would be lost after folding.
func (c *conn) Indexed(tab []int32, i int) bool {
	atomic.AddInt32(&c.refs, -1)
	x := tab[i]
	return x == atomic.LoadInt32(&c.refs) && c.last() // want `Indexed tests c.refs with a separate atomic Load`
}

// Reported, not folded: a dereference of another pointer can panic.
func (c *conn) Limited(lim *int32) {
	atomic.AddInt32(&c.refs, -1)
	x := *lim
	if atomic.LoadInt32(&c.refs) == x { // want `Limited tests c.refs with a separate atomic Load`
		c.close()
	}
}

// Reported, not folded: a type assertion, and a division, can panic.
func (c *conn) Asserted(v any, d int64) {
	c.users.Add(-1)
	if v.(int64)/d == c.users.Load() { // want `Asserted tests c.users with a separate atomic Load`
		c.close()
	}
}

// Reported, not folded: a call in between could look at the counter.
func (c *conn) Logged() {
	atomic.AddInt32(&c.refs, -1)
	c.note()
	if atomic.LoadInt32(&c.refs) == 0 { // want `Logged tests c.refs with a separate atomic Load`
		c.close()
	}
}

// Reported, not folded: the Load is not in straight-line code after the
// Add.
func (c *conn) Branchy() {
	atomic.AddInt32(&c.refs, -1)
	if verbose {
		println("released")
	}
	if atomic.LoadInt32(&c.refs) == 0 { // want `Branchy tests c.refs with a separate atomic Load`
		c.close()
	}
}

// Folded inside a loop that runs both the Add and the Load each time.
func (c *conn) drain(n int) {
	for range n {
		atomic.AddInt32(&c.refs, -1)
		if atomic.LoadInt32(&c.refs) == 0 { // want `drain tests c.refs with a separate atomic Load`
			c.close()
			return
		}
	}
}

// Folded: the variable is captured by a closure (it lives in memory), and
// nothing stores to it between the Add and the Load.
func releaseCaptured(c *conn) func() {
	f := func() { c.note() }
	atomic.AddInt32(&c.refs, -1)
	if atomic.LoadInt32(&c.refs) == 0 { // want `releaseCaptured tests c.refs with a separate atomic Load`
		c.close()
	}
	return f
}

// Folded under a label on the Add's line (not gofmt's layout): the Add
// alone goes, the label stays (a goto names it).
func (c *conn) labeled(skip bool) {
	if skip {
		goto done
	}
	c.note()
done: atomic.AddInt32(&c.refs, -1)
	if atomic.LoadInt32(&c.refs) == 0 { // want `labeled tests c.refs with a separate atomic Load`
		c.close()
	}
}

// Folded from the init of the if: the init goes, not its line.
func (c *conn) initAdd() {
	if atomic.AddInt32(&c.refs, -1); atomic.LoadInt32(&c.refs) == 0 { // want `initAdd tests c.refs with a separate atomic Load`
		c.close()
	}
}
