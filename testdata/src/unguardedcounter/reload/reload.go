package reload

import "sync/atomic"

type Buf struct {
	refs int32
	n    atomic.Int64
	free func()
}

func (b *Buf) Release() {
	atomic.AddInt32(&b.refs, -1)
	if atomic.LoadInt32(&b.refs) == 0 { // want `Release tests b.refs with a separate atomic Load after the atomic Add at line 12: two goroutines can both add before either loads`
		b.free()
	}
}

func (b *Buf) Done() {
	b.n.Add(-1)
	if b.n.Load() <= 0 { // want `Done tests b.n with a separate atomic Load after the atomic Add at line 19`
		b.free()
	}
}

// Fixed: the value Add returns decides.
func (b *Buf) ReleaseFixed() {
	if atomic.AddInt32(&b.refs, -1) == 0 {
		b.free()
	}
}
