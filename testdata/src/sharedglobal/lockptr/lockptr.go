// Package lockptr takes its locks through pointers: a package-level
// *sync.RWMutex, a *sync.Mutex field of a package-level struct pointer, and
// an embedded *sync.Mutex of a package-level struct value. A lock is the
// mutex object, however many pointer loads reach it; each negative holds
// it, each positive beside it does not.
package lockptr

/*
#include <stdlib.h>
typedef struct { int n; } codec;
static codec *codec_open(int id) { return calloc(1, sizeof(codec)); }
*/
import "C"

import "sync"

// A package-level *sync.RWMutex guarding a cache of C handles.
var (
	cacheMu = new(sync.RWMutex)
	cache   = map[int]*C.codec{}
)

func codecFor(id int) *C.codec {
	cacheMu.RLock()
	c := cache[id]
	cacheMu.RUnlock()
	if c != nil {
		return c
	}
	cacheMu.Lock()
	defer cacheMu.Unlock()
	c = C.codec_open(C.int(id))
	cache[id] = c
	return c
}

func codecForUnlocked(id int) *C.codec {
	c := C.codec_open(C.int(id))
	cache[id] = c // want `codecForUnlocked writes the package-level map cache without a lock`
	return c
}

// A *sync.Mutex field of a package-level pointer to a struct.
type registry struct {
	mu    *sync.Mutex
	count int
}

var reg = &registry{mu: &sync.Mutex{}}

var opened int

func countOpen() {
	reg.mu.Lock()
	opened++
	reg.mu.Unlock()
}

func countOpenUnlocked() {
	opened++ // want `countOpenUnlocked updates the package-level variable opened \(read-modify-write\) without a lock`
}

// An embedded *sync.Mutex in a package-level struct value: the promoted
// Lock loads the pointer from the struct's field.
var state struct {
	*sync.Mutex
	dev *C.codec
}

var spare *C.codec

func device() *C.codec {
	state.Lock()
	defer state.Unlock()
	if state.dev == nil {
		state.dev = C.codec_open(0)
	}
	return state.dev
}

func spareDevice() *C.codec {
	if spare == nil {
		spare = C.codec_open(1) // want `spareDevice checks the package-level variable spare \(line \d+\) and then sets it without a lock`
	}
	return spare
}

func init() { state.Mutex = new(sync.Mutex) }

func Start(ids []int) {
	for _, id := range ids {
		go func(id int) {
			codecFor(id)
			codecForUnlocked(id)
			countOpen()
			countOpenUnlocked()
			device()
			spareDevice()
		}(id)
	}
}
