package reloadbytes

import "sync/atomic"

type Buf struct {
	refs int32
	free func()
}

// Release has a comment before the Add on its line: the line keeps the
// comment, and no blank after it.
func (b *Buf) Release() {
	/* drop one */ atomic.AddInt32(&b.refs, -1)
	if atomic.LoadInt32(&b.refs) == 0 { // want `Release tests b.refs with a separate atomic Load`
		b.free()
	}
}

// Drop shares its line with the switch that tests the count: the Add's
// separator goes with it (no stray ";").
func (b *Buf) Drop() {
	atomic.AddInt32(&b.refs, -1); switch atomic.LoadInt32(&b.refs) { // want `Drop tests b.refs with a separate atomic Load`
	case 0:
		b.free()
	}
}
