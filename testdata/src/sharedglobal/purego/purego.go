// Package purego does not use cgo: the race detector sees its races (no
// cgo call hides them), so sharedglobal leaves its Go globals alone, even
// where its own goroutines overlap. The same shapes in a package that calls
// C are in goroutines.go.
package purego

import "sync"

var n int

// Silent: no goroutine of this package reaches it.
func Inc() { n++ }

var hits int

func Spawn() {
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
	hits++
}

var seen = map[string]bool{}

// One goroutine, and the caller of Background: two writers that overlap.
func Background() {
	go mark("bg")
	mark("fg")
}

func mark(s string) {
	seen[s] = true
}

var once int

// Silent: one goroutine writes, nothing else does.
func Single() {
	go func() { once++ }()
}
