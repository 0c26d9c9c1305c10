// Package purego does not use cgo: its exported functions are not library
// API of a cgo package, so only its own goroutines make state shared.
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
	hits++ // want `work updates the package-level variable hits \(read-modify-write\) without a lock: two goroutines can run work at once \(the goroutines started at line 18\)`
}

var seen = map[string]bool{}

// One goroutine, and the caller of Background: two writers that overlap.
func Background() {
	go mark("bg")
	mark("fg")
}

func mark(s string) {
	seen[s] = true // want `mark writes the package-level map seen without a lock`
}

var once int

// Silent: one goroutine writes, nothing else does.
func Single() {
	go func() { once++ }()
}
