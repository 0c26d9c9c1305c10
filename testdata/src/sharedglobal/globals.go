// Package sharedglobal uses cgo: its exported functions are library API
// that callers may call from any goroutine.
package sharedglobal

/*
#include <stdlib.h>
*/
import "C"

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

var allocated int64

func Alloc(n int) unsafe.Pointer {
	allocated += int64(n) // want `Alloc updates the package-level variable allocated \(read-modify-write\) without a lock: two goroutines can run Alloc at once \(callers of Alloc, library API of a package that guards its package-level state \(\w+\)\)`
	return C.malloc(C.size_t(n))
}

var calls int

func Count() { calls++ } // want `Count updates the package-level variable calls`

var names []string

func Register(name string) { names = append(names, name) } // want `Register appends to the package-level slice names`

var handle unsafe.Pointer

func Handle() unsafe.Pointer {
	if handle == nil {
		handle = C.malloc(16) // want `Handle checks the package-level variable handle \(line 34\) and then sets it without a lock`
	}
	return handle
}

var registry = map[int]string{}

func Put(k int, v string) { registry[k] = v } // want `Put writes the package-level map registry without a lock`

func Drop(k int) { delete(registry, k) } // want `Drop deletes from the package-level map registry without a lock`

// Fixed: a mutex held around every update.
var (
	mu      sync.Mutex
	guarded int64
	gmap    = map[int]string{}
)

func AllocLocked(n int) {
	mu.Lock()
	guarded += int64(n)
	gmap[n] = "x"
	mu.Unlock()
}

func DropLocked(k int) {
	mu.Lock()
	defer mu.Unlock()
	delete(gmap, k)
}

// A map read without the lock that its writes hold.
func Get(k int) string { return gmap[k] } // want `Get reads the package-level map gmap without mu, which AllocLocked holds when it changes the map \(line 56\)`

func GetLocked(k int) string {
	mu.Lock()
	defer mu.Unlock()
	return gmap[k]
}

// Fixed: an RWMutex, read-locked for reads.
var (
	rw   sync.RWMutex
	rmap = map[int]int{}
)

func RGet(k int) int {
	rw.RLock()
	defer rw.RUnlock()
	return rmap[k]
}

func RPut(k, v int) {
	rw.Lock()
	rmap[k] = v
	rw.Unlock()
}

// Fixed: atomic.Int64 and sync.Map.
var total atomic.Int64

func Add(n int64) { total.Add(n) }

var smap sync.Map

func Store(k, v int) { smap.Store(k, v) }

// Fixed: sync.Once for lazy creation.
var (
	once      sync.Once
	lazy      unsafe.Pointer
	lazyCount int
)

func Lazy() unsafe.Pointer {
	once.Do(func() {
		lazy = C.malloc(8)
		lazyCount++
		fillLazy()
	})
	return lazy
}

func fillLazy() { registry[0] = "lazy" }

var onceValue = sync.OnceValue(func() int { lazyCount++; return lazyCount })

func OnceValue() int { return onceValue() }

// Silent: init functions and package initialisers.
var (
	table = map[string]int{}
	inits int
)

func init() {
	table["a"] = 1
	inits++
	fill()
}

func fill() {
	table["b"] = 2
	inits++
}

var initialised = build()

func build() int {
	inits++
	return inits
}

// Silent: a plain store is not a read-modify-write.
var last error

func SetLast(err error) { last = err }

// Silent: reached by no goroutine.
var private int

func bump() { private++ }

// Reached from C threads through //export.
var callbacks int

//export goCallback
func goCallback() {
	callbacks++ // want `goCallback updates the package-level variable callbacks \(read-modify-write\) without a lock: two goroutines can run goCallback at once \(C threads calling the //export function goCallback\)`
}

// Silent: set-up and teardown API, which callers call once, before and
// after concurrent use (after onnxruntime_go's InitializeEnvironment).
var libHandle unsafe.Pointer

func InitializeLibrary() {
	if libHandle == nil {
		libHandle = C.malloc(1)
	}
}

func DestroyLibrary() {
	if libHandle != nil {
		C.free(libHandle)
		libHandle = nil
	}
}

// Reported all the same: a read-modify-write in set-up API.
var initCount int

func Init() { initCount++ } // want `Init updates the package-level variable initCount`

// Silent: a map swapped out under the lock is the function's own (after
// git2go's unregisterManagedTransports).
var transports = struct {
	sync.Mutex
	m map[string]int
}{m: map[string]int{}}

func RegisterTransport(name string) {
	transports.Lock()
	defer transports.Unlock()
	transports.m[name]++
}

func UnregisterAll() int {
	transports.Lock()
	old := transports.m
	transports.m = map[string]int{}
	transports.Unlock()
	n := 0
	for _, v := range old {
		n += v
	}
	return n
}

var cache map[string]int

func lazyGet() map[string]int {
	if cache == nil {
		cache = map[string]int{}
	}
	return cache
}
