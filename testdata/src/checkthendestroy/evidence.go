// Package checkthendestroy holds the analysistest cases of the
// checkthendestroy analyzer: each bug beside its corrected version.
package checkthendestroy

/*
#include <stdlib.h>
typedef struct { int live; } res;
static res* res_new(void) { return malloc(sizeof(res)); }
static void res_free(res* r) { free(r); }
static int res_use(res* r) { return 0; }
*/
import "C"

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Documented is safe for concurrent use: its Close can run on two
// goroutines at once.
type Documented struct{ r *C.res }

func (d *Documented) Close() {
	if d.r != nil { // want `Close checks d.r and then releases it \(line 26\) without a guard: two goroutines \(Documented is documented as safe for concurrent use\) can both pass the check and release it twice`
		C.res_free(d.r)
		d.r = nil
	}
}

// Declared is //lifetime:threadsafe.
//
//lifetime:threadsafe
type Declared struct{ r *C.res }

func (d *Declared) Close() {
	if d.r != nil { // want `two goroutines \(Declared is declared //lifetime:threadsafe\)`
		C.res_free(d.r)
		d.r = nil
	}
}

// Locked has a mutex that guards r elsewhere; Close forgets it.
type Locked struct {
	mu sync.Mutex
	r  *C.res
}

func (l *Locked) Use() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.r == nil {
		return -1
	}
	return int(C.res_use(l.r))
}

func (l *Locked) Close() {
	if l.r != nil { // want `two goroutines \(Locked has a mutex, which guards r elsewhere\) can both pass the check and release it twice; claim it with atomic.Pointer.Swap\(nil\) or CompareAndSwap, or hold l.mu across both`
		C.res_free(l.r)
		l.r = nil
	}
}

// LockedOK holds the lock across the check and the release.
type LockedOK struct {
	mu sync.Mutex
	r  *C.res
}

func (l *LockedOK) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.r != nil {
		C.res_free(l.r)
		l.r = nil
	}
}

// ClaimOK takes the handle under the lock and releases it outside.
type ClaimOK struct {
	mu sync.Mutex
	r  *C.res
}

func (c *ClaimOK) Close() {
	c.mu.Lock()
	r := c.r
	c.r = nil
	c.mu.Unlock()
	if r != nil {
		C.res_free(r)
	}
}

// RecheckOK checks without the lock, then again with it.
type RecheckOK struct {
	mu sync.Mutex
	r  *C.res
}

func (c *RecheckOK) Close() {
	if c.r == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.r == nil {
		return
	}
	C.res_free(c.r)
	c.r = nil
}

// TryLockOK claims with TryLock.
type TryLockOK struct {
	mu sync.Mutex
	r  *C.res
}

func (c *TryLockOK) Close() {
	if c.mu.TryLock() {
		defer c.mu.Unlock()
		if c.r != nil {
			C.res_free(c.r)
			c.r = nil
		}
	}
}

// AtomicOK claims with a compare-and-swap.
type AtomicOK struct {
	closed atomic.Bool
	r      *C.res
}

func (c *AtomicOK) Close() {
	if c.closed.CompareAndSwap(false, true) {
		C.res_free(c.r)
	}
}

// SwapOK claims the handle with atomic.Pointer.Swap.
type SwapOK struct{ r atomic.Pointer[C.res] }

func (c *SwapOK) Close() {
	if r := c.r.Swap(nil); r != nil {
		C.res_free(r)
	}
}

// OnceOK releases inside sync.Once.
type OnceOK struct {
	once sync.Once
	r    *C.res
}

func (c *OnceOK) Close() {
	c.once.Do(func() {
		if c.r != nil {
			C.res_free(c.r)
			c.r = nil
		}
	})
}

// Plain has no concurrency evidence: however Close is written, it stays
// silent.
type Plain struct{ r *C.res }

func (p *Plain) Close() {
	if p.r != nil {
		C.res_free(p.r)
		p.r = nil
	}
}

// Confined says it is used by one goroutine at a time.
//
//lifetime:confined
type Confined struct {
	mu sync.Mutex
	r  *C.res
}

func (c *Confined) Use() { c.mu.Lock(); C.res_use(c.r); c.mu.Unlock() }

func (c *Confined) Close() {
	if c.r != nil {
		C.res_free(c.r)
		c.r = nil
	}
}

// NotSafe is not safe for concurrent use.
type NotSafe struct {
	mu sync.Mutex
	r  *C.res
}

func (c *NotSafe) Use() { c.mu.Lock(); C.res_use(c.r); c.mu.Unlock() }

func (c *NotSafe) Close() {
	if c.r != nil {
		C.res_free(c.r)
		c.r = nil
	}
}

// Spawned: Close runs on the goroutines a loop starts.
type Spawned struct{ r *C.res }

func (s *Spawned) Close() {
	if s.r != nil { // want `two of the goroutines started at line 224 can both pass the check`
		C.res_free(s.r)
		s.r = nil
	}
}

func startMany(s *Spawned) {
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() { defer wg.Done(); s.Close() }()
	}
	wg.Wait()
}

// Owned: each goroutine creates and closes its own value; the go
// statement hands it nothing of the type, so no two goroutines share one.
type Owned struct{ r *C.res }

func (o *Owned) Close() {
	if o.r != nil {
		C.res_free(o.r)
		o.r = nil
	}
}

func startOwned(n int) {
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := &Owned{r: C.res_new()}
			defer o.Close()
			C.res_use(o.r)
		}()
	}
	wg.Wait()
}

// Detached: Reload starts a goroutine that releases the handle and
// returns at once, so the goroutine and Close's caller can both pass the
// check.
type Detached struct{ r *C.res }

func (d *Detached) reset() {
	if d.r != nil { // want `reset checks d.r and then releases it \(line \d+\) without a guard: the goroutine started at line \d+ and the caller of Close`
		C.res_free(d.r)
		d.r = nil
	}
}

func (d *Detached) Reload() {
	go func() { d.reset() }()
}

func (d *Detached) Close() { d.reset() }

// Joined: Reload waits for its goroutine on every path (a select case, or
// a receive after cancelling), the shape of go-sqlite3's exec: the
// goroutine never runs at the same time as Close's caller.
type Joined struct{ r *C.res }

func (j *Joined) reset() {
	if j.r != nil {
		C.res_free(j.r)
		j.r = nil
	}
}

func (j *Joined) Reload(cancel <-chan struct{}) {
	done := make(chan struct{})
	go func() {
		j.reset()
		close(done)
	}()
	select {
	case <-done:
	case <-cancel:
		<-done
	}
}

func (j *Joined) Close() { j.reset() }

// Finalized: its own finalizer runs once nothing uses the object, never at
// the same time as Reset.
type Finalized struct{ r *C.res }

func NewFinalized() *Finalized {
	f := &Finalized{r: C.res_new()}
	runtime.SetFinalizer(f, (*Finalized).release)
	return f
}

func (f *Finalized) release() {
	if f.r != nil {
		C.res_free(f.r)
		f.r = nil
	}
}

func (f *Finalized) Reset() {
	f.r = nil
}

// Pool is shared by the nodes that reference it; a node's finalizer
// releases the pool's handle while a caller may close the pool.
type Pool struct{ r *C.res }

func (p *Pool) drop() {
	if p.r != nil { // want `drop checks p.r and then releases it \(line \d+\) without a guard: the finalizer goroutine \(finalizer set at line \d+\) and the caller of Close`
		C.res_free(p.r)
		p.r = nil
	}
}

func (p *Pool) Close() { p.r = nil }

type Node struct{ p *Pool }

func NewNode(p *Pool) *Node {
	n := &Node{p: p}
	runtime.SetFinalizer(n, func(n *Node) { n.p.drop() })
	return n
}

// A released flag set after the check: a once-only transition.
type Flag struct {
	mu       sync.Mutex
	released bool
	r        *C.res
}

func (f *Flag) Use() { f.mu.Lock(); defer f.mu.Unlock(); C.res_use(f.r) }

func (f *Flag) Release() {
	if !f.released { // want `Release checks f.released and then sets it \(line \d+\) without a guard: two goroutines \(Flag has a mutex, which guards released elsewhere\)`
		f.released = true
		C.res_free(f.r)
	}
}

func (f *Flag) IsReleased() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.released
}

// CASIgnored makes a compare-and-swap but reads nothing of its result:
// both goroutines go on to the release.
type CASIgnored struct{ r atomic.Pointer[C.res] }

func (c *CASIgnored) Close() {
	r := c.r.Load() // want `Close checks c.r and then releases it \(line \d+\) without a guard: two goroutines \(CASIgnored.r is atomic, so it is shared\) can both pass the check and release it twice`
	if r == nil {
		return
	}
	c.r.CompareAndSwap(r, nil)
	C.res_free(r)
}

// SwapIgnored swaps the cell but releases what it loaded before.
type SwapIgnored struct{ r atomic.Pointer[C.res] }

func (c *SwapIgnored) Close() {
	r := c.r.Load() // want `Close checks c.r and then releases it`
	if r == nil {
		return
	}
	c.r.Swap(nil)
	C.res_free(r)
}

// CASFailed releases where its compare-and-swap failed: another
// goroutine's succeeded, and that one releases too.
type CASFailed struct{ r atomic.Pointer[C.res] }

func (c *CASFailed) Close() {
	r := c.r.Load() // want `Close checks c.r and then releases it`
	if r == nil {
		return
	}
	if c.r.CompareAndSwap(r, nil) == false {
		C.res_free(r)
	}
}

// CASChecked releases only where its compare-and-swap succeeded.
type CASChecked struct{ r atomic.Pointer[C.res] }

func (c *CASChecked) Close() {
	r := c.r.Load()
	if r == nil || !c.r.CompareAndSwap(r, nil) {
		return
	}
	C.res_free(r)
}

// SwapLogged tests the swap's result, but the release runs on both sides
// of that test.
type SwapLogged struct{ r atomic.Pointer[C.res] }

func (c *SwapLogged) Close() {
	r := c.r.Load() // want `Close checks c.r and then releases it`
	if r == nil {
		return
	}
	if old := c.r.Swap(nil); old != nil {
		println("closing")
	}
	C.res_free(r)
}

// CASKept keeps the swap's result and returns where it failed.
type CASKept struct{ r atomic.Pointer[C.res] }

func (c *CASKept) Close() {
	r := c.r.Load()
	if r == nil {
		return
	}
	won := c.r.CompareAndSwap(r, nil)
	if !won {
		return
	}
	C.res_free(r)
}
