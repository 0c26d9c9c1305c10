// Package claimed checks a Close that claims its object before releasing
// (a compare-and-swap, a closed flag, a helper that sets one) when the
// finalizer is a literal that calls Close: collected during the release,
// the object's finalizer finds it claimed and releases nothing. A test of
// the handle itself, or of state nothing changes before the call, claims
// nothing.
package claimed

/*
#include <stdlib.h>
typedef struct { int live; } res;
static res* res_new(void) { return calloc(1, sizeof(res)); }
static void res_free(res* r) { free(r); }
static int res_use(res* r) { return r->live; }
*/
import "C"

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// CAS claims with a compare-and-swap method.
type CAS struct {
	state atomic.Int32
	r     *C.res
}

func NewCAS() *CAS {
	b := &CAS{r: C.res_new()}
	runtime.SetFinalizer(b, func(b *CAS) { b.Close() })
	return b
}

func (b *CAS) Close() {
	if b.state.CompareAndSwap(0, 1) {
		C.res_free(b.r)
	}
}

// Use is not claimed: the finalizer can release during it.
func (b *CAS) Use() int {
	return int(C.res_use(b.r)) // want `b may be collected while C.res_use runs with b.r`
}

// Flag claims with a closed flag set before the release.
type Flag struct {
	closed bool
	r      *C.res
}

func NewFlag() *Flag {
	f := &Flag{r: C.res_new()}
	runtime.SetFinalizer(f, func(f *Flag) { f.Close() })
	return f
}

func (f *Flag) Close() {
	if f.closed {
		return
	}
	f.closed = true
	C.res_free(f.r)
}

// Locked claims through a helper that sets the flag under a mutex.
type Locked struct {
	mu     sync.Mutex
	closed bool
	r      *C.res
}

func NewLocked() *Locked {
	l := &Locked{r: C.res_new()}
	runtime.SetFinalizer(l, func(l *Locked) { l.Close() })
	return l
}

func (l *Locked) claim() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return false
	}
	l.closed = true
	return true
}

func (l *Locked) Close() {
	if !l.claim() {
		return
	}
	C.res_free(l.r)
}

// Func claims with atomic.CompareAndSwapInt32.
type Func struct {
	state int32
	r     *C.res
}

func NewFunc() *Func {
	f := &Func{r: C.res_new()}
	runtime.SetFinalizer(f, func(f *Func) { f.Close() })
	return f
}

func (f *Func) Close() {
	if atomic.CompareAndSwapInt32(&f.state, 0, 1) {
		C.res_free(f.r)
	}
}

// NilOnly tests the handle, which nothing changes before the release: the
// finalizer, run during it, passes the same test.
type NilOnly struct {
	r *C.res
}

func NewNilOnly() *NilOnly {
	n := &NilOnly{r: C.res_new()}
	runtime.SetFinalizer(n, func(n *NilOnly) { n.Close() })
	return n
}

func (n *NilOnly) Close() {
	if n.r != nil {
		C.res_free(n.r) // want `n may be collected while C.res_free runs with n.r`
	}
}

func note() {}

// Unguarded tests the flag but releases on both branches.
type Unguarded struct {
	closed bool
	r      *C.res
}

func NewUnguarded() *Unguarded {
	u := &Unguarded{r: C.res_new()}
	runtime.SetFinalizer(u, func(u *Unguarded) { u.Close() })
	return u
}

func (u *Unguarded) Close() {
	if u.closed {
		note()
	}
	u.closed = true
	C.res_free(u.r) // want `u may be collected while C.res_free runs with u.r`
}

// OtherField writes a field no test reads.
type OtherField struct {
	n int
	r *C.res
}

func NewOtherField() *OtherField {
	o := &OtherField{r: C.res_new()}
	runtime.SetFinalizer(o, func(o *OtherField) { o.Close() })
	return o
}

func (o *OtherField) Close() {
	if o.r != nil {
		o.n = 0
		C.res_free(o.r) // want `o may be collected while C.res_free runs with o.r`
	}
}

// Peeked only reads the flag, which nothing sets: no claim.
type Peeked struct {
	closed atomic.Bool
	r      *C.res
}

func NewPeeked() *Peeked {
	p := &Peeked{r: C.res_new()}
	runtime.SetFinalizer(p, func(p *Peeked) { p.Close() })
	return p
}

func (p *Peeked) Close() {
	if p.closed.Load() {
		return
	}
	C.res_free(p.r) // want `p may be collected while C.res_free runs with p.r`
}

// Failed releases where the compare-and-swap failed: the finalizer's own
// may succeed.
type Failed struct {
	state atomic.Int32
	r     *C.res
}

func NewFailed() *Failed {
	f := &Failed{r: C.res_new()}
	runtime.SetFinalizer(f, func(f *Failed) { f.Close() })
	return f
}

func (f *Failed) Close() {
	if !f.state.CompareAndSwap(0, 1) {
		C.res_free(f.r) // want `f may be collected while C.res_free runs with f.r`
	}
}

// Negated claims with an early return on a failed swap: a claim.
type Negated struct {
	state atomic.Int32
	r     *C.res
}

func NewNegated() *Negated {
	n := &Negated{r: C.res_new()}
	runtime.SetFinalizer(n, func(n *Negated) { n.Close() })
	return n
}

func (n *Negated) Close() {
	if !n.state.CompareAndSwap(0, 1) {
		return
	}
	C.res_free(n.r)
}

// Helped claims with a compare-and-swap and releases through a helper.
type Helped struct {
	closed atomic.Bool
	r      *C.res
}

func NewHelped() *Helped {
	h := &Helped{r: C.res_new()}
	runtime.SetFinalizer(h, func(h *Helped) { h.Close() })
	return h
}

func (h *Helped) release() { C.res_free(h.r) }

func (h *Helped) Close() {
	if h.closed.CompareAndSwap(false, true) {
		h.release()
	}
}

// HelpedUnclaimed releases through the same kind of helper with no claim.
type HelpedUnclaimed struct {
	r *C.res
}

func NewHelpedUnclaimed() *HelpedUnclaimed {
	h := &HelpedUnclaimed{r: C.res_new()}
	runtime.SetFinalizer(h, func(h *HelpedUnclaimed) { h.Close() })
	return h
}

func (h *HelpedUnclaimed) release() {
	C.res_free(h.r) // want `h may be collected while C.res_free runs with h.r`
}

func (h *HelpedUnclaimed) Close() {
	if h.r != nil {
		h.release()
	}
}

// Swapped claims with a Swap, whose old value says whether it claimed.
type Swapped struct {
	closed atomic.Bool
	r      *C.res
}

func NewSwapped() *Swapped {
	s := &Swapped{r: C.res_new()}
	runtime.SetFinalizer(s, func(s *Swapped) { s.Close() })
	return s
}

func (s *Swapped) Close() {
	if s.closed.Swap(true) {
		return
	}
	C.res_free(s.r)
}

// Flags claims a flag in Close and another in Release, both before one
// helper: after Release, the finalizer's Close may run during the
// release's C call and release again.
type Flags struct {
	closed, released atomic.Bool
	r                *C.res
}

func NewFlags() *Flags {
	f := &Flags{r: C.res_new()}
	runtime.SetFinalizer(f, func(f *Flags) { f.Close() })
	return f
}

func (f *Flags) free() {
	C.res_free(f.r) // want `f may be collected while C.res_free runs with f.r`
}

func (f *Flags) Close() {
	if f.closed.CompareAndSwap(false, true) {
		f.free()
	}
}

func (f *Flags) Release() {
	if f.released.CompareAndSwap(false, true) {
		f.free()
	}
}

// Shared claims one flag in Close and in Release before one helper: the
// finalizer's Close claims it too, and only one of the claims succeeds.
type Shared struct {
	closed atomic.Bool
	r      *C.res
}

func NewShared() *Shared {
	s := &Shared{r: C.res_new()}
	runtime.SetFinalizer(s, func(s *Shared) { s.Close() })
	return s
}

func (s *Shared) free() { C.res_free(s.r) }

func (s *Shared) Close() {
	if s.closed.CompareAndSwap(false, true) {
		s.free()
	}
}

func (s *Shared) Release() {
	if s.closed.CompareAndSwap(false, true) {
		s.free()
	}
}

// Guarded claims one flag under a mutex in Close and in Shutdown, through
// a helper that sets it; the finalizer's Close claims the same flag.
type Guarded struct {
	mu     sync.Mutex
	closed bool
	r      *C.res
}

func NewGuarded() *Guarded {
	g := &Guarded{r: C.res_new()}
	runtime.SetFinalizer(g, func(g *Guarded) { g.Close() })
	return g
}

func (g *Guarded) claim() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.closed = true
	return true
}

func (g *Guarded) free() { C.res_free(g.r) }

func (g *Guarded) Close() {
	if g.claim() {
		g.free()
	}
}

func (g *Guarded) Shutdown() {
	if g.claim() {
		g.free()
	}
}

// Disarmed claims, disarms the finalizer, then frees through a helper:
// once disarmed, nothing can release during the helper's C call.
type Disarmed struct {
	closed atomic.Bool
	r      *C.res
}

func NewDisarmed() *Disarmed {
	d := &Disarmed{r: C.res_new()}
	runtime.SetFinalizer(d, func(d *Disarmed) { C.res_free(d.r) })
	return d
}

func (d *Disarmed) free() { C.res_free(d.r) }

func (d *Disarmed) Close() {
	if d.closed.CompareAndSwap(false, true) {
		runtime.SetFinalizer(d, nil)
		d.free()
	}
}

// Branchy's finalizer calls Close or frees directly: the direct path
// claims nothing, so Close's claim does not keep it out.
type Branchy struct {
	closed atomic.Bool
	pooled bool
	r      *C.res
}

func NewBranchy() *Branchy {
	b := &Branchy{r: C.res_new()}
	runtime.SetFinalizer(b, func(b *Branchy) {
		if b.pooled {
			b.Close()
		} else {
			b.free()
		}
	})
	return b
}

func (b *Branchy) free() {
	C.res_free(b.r) // want `b may be collected while C.res_free runs with b.r`
}

func (b *Branchy) Close() {
	if b.closed.CompareAndSwap(false, true) {
		b.free()
	}
}

// Deferred frees in a deferred call, registered only past the claim the
// finalizer's Close makes too: the deferred call runs after it.
type Deferred struct {
	closed atomic.Bool
	r      *C.res
}

func NewDeferred() *Deferred {
	d := &Deferred{r: C.res_new()}
	runtime.SetFinalizer(d, func(d *Deferred) { d.Close() })
	return d
}

func (d *Deferred) free() { C.res_free(d.r) }

func (d *Deferred) flush() {}

func (d *Deferred) Close() {
	if !d.closed.CompareAndSwap(false, true) {
		return
	}
	defer d.free()
	d.flush()
}

func (d *Deferred) Release() {
	if d.closed.CompareAndSwap(false, true) {
		defer d.free()
	}
}

// DeferredBare's Release defers free without a claim: the finalizer's
// Close can free during it.
type DeferredBare struct {
	closed atomic.Bool
	r      *C.res
}

func NewDeferredBare() *DeferredBare {
	d := &DeferredBare{r: C.res_new()}
	runtime.SetFinalizer(d, func(d *DeferredBare) { d.Close() })
	return d
}

func (d *DeferredBare) free() { C.res_free(d.r) } // want `d may be collected while C.res_free runs with d.r`

func (d *DeferredBare) Close() {
	if d.closed.CompareAndSwap(false, true) {
		d.free()
	}
}

func (d *DeferredBare) Release() { defer d.free() }

// DeferredOther's Release claims a flag the finalizer's Close never
// tests.
type DeferredOther struct {
	closed, released atomic.Bool
	r                *C.res
}

func NewDeferredOther() *DeferredOther {
	d := &DeferredOther{r: C.res_new()}
	runtime.SetFinalizer(d, func(d *DeferredOther) { d.Close() })
	return d
}

func (d *DeferredOther) free() { C.res_free(d.r) } // want `d may be collected while C.res_free runs with d.r`

func (d *DeferredOther) Close() {
	if !d.closed.CompareAndSwap(false, true) {
		return
	}
	defer d.free()
}

func (d *DeferredOther) Release() {
	if d.released.CompareAndSwap(false, true) {
		defer d.free()
	}
}

// DeferredDisarmed disarms the finalizer before deferring free.
type DeferredDisarmed struct {
	r *C.res
}

func NewDeferredDisarmed() *DeferredDisarmed {
	d := &DeferredDisarmed{r: C.res_new()}
	runtime.SetFinalizer(d, (*DeferredDisarmed).free)
	return d
}

func (d *DeferredDisarmed) free() { C.res_free(d.r) }

func (d *DeferredDisarmed) Close() {
	runtime.SetFinalizer(d, nil)
	defer d.free()
}

// flag is a claim a helper makes on an atomic value: the location it
// claims is the atomic.Bool, as a caller's own CompareAndSwap of it is.
type flag struct{ set atomic.Bool }

func (f *flag) claim() bool { return f.set.CompareAndSwap(false, true) }

func claimOf(b *atomic.Bool) bool { return b.CompareAndSwap(false, true) }

// ViaField claims through a method of a field in Close, directly in
// Release: one location, one winner.
type ViaField struct {
	f flag
	r *C.res
}

func NewViaField() *ViaField {
	v := &ViaField{r: C.res_new()}
	runtime.SetFinalizer(v, func(v *ViaField) { v.Close() })
	return v
}

func (v *ViaField) free() { C.res_free(v.r) }

func (v *ViaField) Close() {
	if v.f.claim() {
		v.free()
	}
}

func (v *ViaField) Release() {
	if v.f.set.CompareAndSwap(false, true) {
		v.free()
	}
}

// ViaEmbedded claims through the promoted method of an embedded flag.
type ViaEmbedded struct {
	flag
	r *C.res
}

func NewViaEmbedded() *ViaEmbedded {
	v := &ViaEmbedded{r: C.res_new()}
	runtime.SetFinalizer(v, func(v *ViaEmbedded) { v.Close() })
	return v
}

func (v *ViaEmbedded) free() { C.res_free(v.r) }

func (v *ViaEmbedded) Close() {
	if v.claim() {
		v.free()
	}
}

func (v *ViaEmbedded) Release() {
	if v.set.CompareAndSwap(false, true) {
		v.free()
	}
}

// ViaFunc claims with a function given the flag's address.
type ViaFunc struct {
	closed atomic.Bool
	r      *C.res
	peer   *ViaFunc
}

func NewViaFunc() *ViaFunc {
	v := &ViaFunc{r: C.res_new()}
	runtime.SetFinalizer(v, func(v *ViaFunc) { v.Close() })
	return v
}

func (v *ViaFunc) free() { C.res_free(v.r) }

func (v *ViaFunc) Close() {
	if claimOf(&v.closed) {
		v.free()
	}
}

func (v *ViaFunc) Release() {
	if v.closed.CompareAndSwap(false, true) {
		v.free()
	}
}

// ViaPeer's Release claims another object's flag: nothing keeps the
// finalizer's Close out.
type ViaPeer struct {
	closed atomic.Bool
	r      *C.res
	peer   *ViaPeer
}

func NewViaPeer() *ViaPeer {
	v := &ViaPeer{r: C.res_new()}
	runtime.SetFinalizer(v, func(v *ViaPeer) { v.Close() })
	return v
}

func (v *ViaPeer) free() { C.res_free(v.r) } // want `v may be collected while C.res_free runs with v.r`

func (v *ViaPeer) Close() {
	if v.closed.CompareAndSwap(false, true) {
		v.free()
	}
}

func (v *ViaPeer) Release() {
	if claimOf(&v.peer.closed) {
		v.free()
	}
}

// DeferredLit defers a literal that frees, past the claim.
type DeferredLit struct {
	closed atomic.Bool
	r      *C.res
}

func NewDeferredLit() *DeferredLit {
	d := &DeferredLit{r: C.res_new()}
	runtime.SetFinalizer(d, func(d *DeferredLit) { d.Close() })
	return d
}

func (d *DeferredLit) free() { C.res_free(d.r) }

func (d *DeferredLit) Close() {
	if d.closed.CompareAndSwap(false, true) {
		d.free()
	}
}

func (d *DeferredLit) Release() {
	if !d.closed.CompareAndSwap(false, true) {
		return
	}
	defer func() { d.free() }()
}

// DeferredLitBare defers the literal without a claim.
type DeferredLitBare struct {
	closed atomic.Bool
	r      *C.res
}

func NewDeferredLitBare() *DeferredLitBare {
	d := &DeferredLitBare{r: C.res_new()}
	runtime.SetFinalizer(d, func(d *DeferredLitBare) { d.Close() })
	return d
}

func (d *DeferredLitBare) free() { C.res_free(d.r) } // want `d may be collected while C.res_free runs with d.r`

func (d *DeferredLitBare) Close() {
	if d.closed.CompareAndSwap(false, true) {
		d.free()
	}
}

func (d *DeferredLitBare) Release() {
	defer func() { d.free() }()
}

// DeferredInHelper's helper defers free; its caller claims first, and the
// deferred call runs before the helper returns.
type DeferredInHelper struct {
	closed atomic.Bool
	r      *C.res
}

func NewDeferredInHelper() *DeferredInHelper {
	d := &DeferredInHelper{r: C.res_new()}
	runtime.SetFinalizer(d, func(d *DeferredInHelper) { d.Close() })
	return d
}

func (d *DeferredInHelper) free() { C.res_free(d.r) }

func (d *DeferredInHelper) release() { defer d.free() }

func (d *DeferredInHelper) Close() {
	if d.closed.CompareAndSwap(false, true) {
		d.free()
	}
}

func (d *DeferredInHelper) Release() {
	if !d.closed.CompareAndSwap(false, true) {
		return
	}
	d.release()
}

// DeferredInHelperBare calls the helper without a claim.
type DeferredInHelperBare struct {
	closed atomic.Bool
	r      *C.res
}

func NewDeferredInHelperBare() *DeferredInHelperBare {
	d := &DeferredInHelperBare{r: C.res_new()}
	runtime.SetFinalizer(d, func(d *DeferredInHelperBare) { d.Close() })
	return d
}

func (d *DeferredInHelperBare) free() { C.res_free(d.r) } // want `d may be collected while C.res_free runs with d.r`

func (d *DeferredInHelperBare) release() { defer d.free() }

func (d *DeferredInHelperBare) Close() {
	if d.closed.CompareAndSwap(false, true) {
		d.free()
	}
}

func (d *DeferredInHelperBare) Release() { d.release() }

// Inverted's helper says true when the claim failed: returning early on
// true leaves the release past a claim.
type Inverted struct {
	closed atomic.Bool
	r      *C.res
}

func NewInverted() *Inverted {
	v := &Inverted{r: C.res_new()}
	runtime.SetFinalizer(v, func(v *Inverted) { v.Close() })
	return v
}

func (v *Inverted) alreadyClosed() bool { return !v.closed.CompareAndSwap(false, true) }

func (v *Inverted) free() { C.res_free(v.r) }

func (v *Inverted) Close() {
	if v.alreadyClosed() {
		return
	}
	v.free()
}

func (v *Inverted) Release() {
	if v.closed.CompareAndSwap(false, true) {
		v.free()
	}
}

// InvertedMisused frees where the inverted helper says the claim failed.
type InvertedMisused struct {
	closed atomic.Bool
	r      *C.res
}

func NewInvertedMisused() *InvertedMisused {
	v := &InvertedMisused{r: C.res_new()}
	runtime.SetFinalizer(v, func(v *InvertedMisused) { v.Close() })
	return v
}

func (v *InvertedMisused) alreadyClosed() bool { return !v.closed.CompareAndSwap(false, true) }

func (v *InvertedMisused) free() { C.res_free(v.r) } // want `v may be collected while C.res_free runs with v.r`

func (v *InvertedMisused) Close() {
	if v.closed.CompareAndSwap(false, true) {
		v.free()
	}
}

func (v *InvertedMisused) Release() {
	if v.alreadyClosed() {
		v.free()
	}
}

// ComparedFalse frees where CompareAndSwap(…) == false: the claim failed.
type ComparedFalse struct {
	closed atomic.Bool
	r      *C.res
}

func NewComparedFalse() *ComparedFalse {
	v := &ComparedFalse{r: C.res_new()}
	runtime.SetFinalizer(v, func(v *ComparedFalse) { v.Close() })
	return v
}

func (v *ComparedFalse) free() { C.res_free(v.r) } // want `v may be collected while C.res_free runs with v.r`

func (v *ComparedFalse) Close() {
	if v.closed.CompareAndSwap(false, true) {
		v.free()
	}
}

func (v *ComparedFalse) Release() {
	if v.closed.CompareAndSwap(false, true) == false {
		v.free()
	}
}

// ComparedTrue claims with CompareAndSwap(…) == true.
type ComparedTrue struct {
	closed atomic.Bool
	r      *C.res
}

func NewComparedTrue() *ComparedTrue {
	v := &ComparedTrue{r: C.res_new()}
	runtime.SetFinalizer(v, func(v *ComparedTrue) { v.Close() })
	return v
}

func (v *ComparedTrue) free() { C.res_free(v.r) }

func (v *ComparedTrue) Close() {
	if v.closed.CompareAndSwap(false, true) {
		v.free()
	}
}

func (v *ComparedTrue) Release() {
	if v.closed.CompareAndSwap(false, true) == true {
		v.free()
	}
}

// ClaimInDeferred claims inside the deferred literal, before freeing.
type ClaimInDeferred struct {
	closed atomic.Bool
	r      *C.res
}

func NewClaimInDeferred() *ClaimInDeferred {
	d := &ClaimInDeferred{r: C.res_new()}
	runtime.SetFinalizer(d, func(d *ClaimInDeferred) { d.Close() })
	return d
}

func (d *ClaimInDeferred) free() { C.res_free(d.r) }

func (d *ClaimInDeferred) Close() {
	if d.closed.CompareAndSwap(false, true) {
		d.free()
	}
}

func (d *ClaimInDeferred) Release() {
	defer func() {
		if d.closed.CompareAndSwap(false, true) {
			d.free()
		}
	}()
}

// Direct claims the finalizer's flag in Release and makes its own C call
// there: the finalizer, collected during it, fails its claim.
type Direct struct {
	closed atomic.Bool
	r      *C.res
}

func NewDirect() *Direct {
	d := &Direct{r: C.res_new()}
	runtime.SetFinalizer(d, (*Direct).Close)
	return d
}

func (d *Direct) Close() {
	if d.closed.CompareAndSwap(false, true) {
		C.res_free(d.r)
	}
}

func (d *Direct) Release() {
	if d.closed.CompareAndSwap(false, true) {
		C.res_free(d.r)
	}
}

// Drain claims the flag and then uses the handle: the finalizer's claim
// fails while the object is claimed.
func (d *Direct) Drain() int {
	if ok := d.closed.CompareAndSwap(false, true); !ok {
		return 0
	}
	return int(C.res_use(d.r))
}

// DrainSwapped claims with Swap(true), whose old value false says it
// claimed.
func (d *Direct) DrainSwapped() int {
	if d.closed.Swap(true) == true {
		return 0
	}
	return int(C.res_use(d.r))
}

// DrainOther claims another flag than the finalizer's.
type DrainOther struct {
	closed, drained atomic.Bool
	r               *C.res
}

func NewDrainOther() *DrainOther {
	d := &DrainOther{r: C.res_new()}
	runtime.SetFinalizer(d, (*DrainOther).Close)
	return d
}

func (d *DrainOther) Close() {
	if d.closed.CompareAndSwap(false, true) {
		C.res_free(d.r)
	}
}

func (d *DrainOther) Drain() int {
	if !d.drained.CompareAndSwap(false, true) {
		return 0
	}
	return int(C.res_use(d.r)) // want `d may be collected while C.res_use runs with d.r`
}

// DrainFailed uses the handle where its claim failed: the object may
// already be released.
func (d *Direct) DrainFailed() int {
	if d.closed.CompareAndSwap(false, true) {
		return 0
	}
	return int(C.res_use(d.r)) // want `d may be collected while C.res_use runs with d.r`
}

// Peek wins the claim and gives it back before its C call: the
// finalizer's claim can then succeed during the call.
func (d *Direct) Peek() int {
	if d.closed.CompareAndSwap(false, true) {
		d.closed.Store(false)
		return int(C.res_use(d.r)) // want `d may be collected while C.res_use runs with d.r`
	}
	return 0
}

// PeekAfter gives the claim back only after its C call.
func (d *Direct) PeekAfter() int {
	if d.closed.CompareAndSwap(false, true) {
		n := int(C.res_use(d.r))
		d.closed.Store(false)
		return n
	}
	return 0
}

// Plain claims a plain flag under its mutex and gives it back before the
// call.
type Plain struct {
	mu     sync.Mutex
	closed bool
	r      *C.res
}

func NewPlain() *Plain {
	p := &Plain{r: C.res_new()}
	runtime.SetFinalizer(p, (*Plain).Close)
	return p
}

func (p *Plain) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	p.mu.Unlock()
	C.res_free(p.r)
}

func (p *Plain) Peek() int {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return 0
	}
	p.closed = true
	p.closed = false
	p.mu.Unlock()
	return int(C.res_use(p.r)) // want `p may be collected while C.res_use runs with p.r`
}
