package sharedglobal

import "sync"

// The package's own goroutines make unexported state shared, library API or
// not (purego has the same shapes in a package that does not call C: silent).
var hits int

func spawn() {
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	wg.Wait()
}

func work() {
	hits++ // want `work updates the package-level variable hits \(read-modify-write\) without a lock: two goroutines can run work at once \(the goroutines started at line 13\)`
}

var seen = map[string]bool{}

// One goroutine, and the caller of background: two writers that overlap.
func background() {
	go mark("bg")
	mark("fg")
}

func mark(s string) {
	seen[s] = true // want `mark writes the package-level map seen without a lock`
}

var single int

// Silent: one goroutine writes, nothing else does.
func startSingle() {
	go func() { single++ }()
}

var _ = []func(){spawn, background, startSingle}

// The update in the goroutine's own function literal: the message names
// the literal by the function it is in (not go/ssa's spawnInline$1).
var misses int

func spawnInline() {
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			misses++ // want `the function literal in spawnInline updates the package-level variable misses \(read-modify-write\) without a lock: two goroutines can run the function literal in spawnInline at once`
		}()
	}
	wg.Wait()
}

// Corrected: under a lock.
var (
	missesMu     sync.Mutex
	missesLocked int
)

func spawnInlineLocked() {
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			missesMu.Lock()
			missesLocked++
			missesMu.Unlock()
		}()
	}
	wg.Wait()
}
