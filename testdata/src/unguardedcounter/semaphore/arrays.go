package semaphore

import "sync"

// Locks in an array or slice, one per device, are told apart by where the
// array is, not by index: an object that always takes the same element
// (its device's) holds a lock.

const maxDevs = 4

var (
	devMu  [maxDevs]sync.Mutex
	devSem [maxDevs]chan struct{}
)

func init() {
	for i := range devSem {
		devSem[i] = make(chan struct{}, 1)
	}
}

// Launcher is safe for concurrent use.
type Launcher struct {
	dev      int
	launches int
	syncs    int
	drops    int
}

func (l *Launcher) Launch() {
	devMu[l.dev].Lock()
	defer devMu[l.dev].Unlock()
	l.launches++
}

func (l *Launcher) Sync() {
	devSem[l.dev] <- struct{}{}
	defer func() { <-devSem[l.dev] }()
	l.syncs++
}

// Drop counts after the unlock.
func (l *Launcher) Drop() {
	devMu[l.dev].Lock()
	devMu[l.dev].Unlock()
	l.drops++ // want `Drop increments l.drops without atomics or a lock`
}

// DevPool keeps its locks in a slice field.
type DevPool struct {
	mus []sync.Mutex
}

// Worker is safe for concurrent use.
type Worker struct {
	pool *DevPool
	slot int
	runs int
}

func (w *Worker) Run() {
	w.pool.mus[w.slot].Lock()
	w.runs++
	w.pool.mus[w.slot].Unlock()
}
