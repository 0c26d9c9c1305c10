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
