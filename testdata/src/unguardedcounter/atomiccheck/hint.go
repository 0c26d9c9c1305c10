package atomiccheck

import (
	"sync"
	"sync/atomic"
)

// Hints raised to a value grown from their own earlier value: a lost
// raise makes the next caller grow again from the smaller seed, and loses
// nothing it cannot redo. Beside each, a value from outside raised the same
// way (lost for good) or a count tested against a bound (lost increments).

// A field of a shared type, grown by half each round.
type Encoder struct {
	mu      sync.Mutex
	sizeEst atomic.Int64 // starting size of the next output buffer
	largest atomic.Int64 // largest input seen, for Stats
}

func (e *Encoder) Encode(in []byte) []byte {
	n := e.sizeEst.Load()
	for n < int64(len(in)) {
		n += n / 2
	}
	out := make([]byte, 0, n)
	if e.sizeEst.Load() < n {
		e.sizeEst.Store(n)
	}
	if int64(len(in)) > e.largest.Load() { // want `Encode checks e.largest with an atomic Load and then sets it with a separate Store \(line \d+\): two goroutines can both pass the check, and the one that stores last can undo the other's update`
		e.largest.Store(int64(len(in)))
	}
	return append(out, in...)
}

func (e *Encoder) Stats() int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.largest.Load()
}

// A package-level hint in a function literal that a go statement starts,
// the operands reversed, grown by shifts.
var (
	batchHint atomic.Uint64
	queued    atomic.Uint64
)

func DrainAll(queues []func(uint64) bool) {
	for _, pending := range queues {
		go func() {
			n := batchHint.Load()
			for pending(n) {
				n <<= 1
			}
			if n > batchHint.Load() {
				batchHint.Store(n)
			}
		}()
	}
}

// A count tested against a bound: each lost Store is a lost item.
func Enqueue(limit uint64) bool {
	old := queued.Load() // want `Enqueue checks queued with an atomic Load and then sets it with a separate Store`
	if old < limit {
		queued.Store(old + 1)
		return true
	}
	return false
}

// A low-water hint with the sync/atomic functions, through a helper that
// shrinks the seed: a minimum, as harmless to lose as a maximum.
var minChunk int32 = 4096

func shrink(fits func(int32) bool) int32 {
	n := atomic.LoadInt32(&minChunk)
	for n > 64 && fits(n/2) {
		n /= 2
	}
	if n < atomic.LoadInt32(&minChunk) {
		atomic.StoreInt32(&minChunk, n)
	}
	return n
}

func Chunk(fits func(int32) bool) int32 { return shrink(fits) }

func startHints(e *Encoder) {
	for i := 0; i < 4; i++ {
		go e.Encode(nil)
		go Enqueue(8)
		go Chunk(func(int32) bool { return false })
	}
}
