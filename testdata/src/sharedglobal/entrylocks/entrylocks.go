// Package entrylocks: a package-level lock that every caller of a helper
// holds at the call guards the package-level state the helper changes.
package entrylocks

/*
#include <stdlib.h>
typedef struct { int live; } dev;
static dev* dev_open(void) { return malloc(sizeof(dev)); }
static int dev_call(dev* d) { return 0; }
*/
import "C"

import "sync"

var mu sync.Mutex

// (d) A package-level handle created lazily by a helper whose callers all
// hold mu: silent.
var dev *C.dev

func device() *C.dev {
	if dev == nil {
		dev = C.dev_open()
	}
	return dev
}

func probe() {
	mu.Lock()
	defer mu.Unlock()
	C.dev_call(device())
}

func reprobe() {
	mu.Lock()
	C.dev_call(device())
	mu.Unlock()
}

// Two levels deep, with a counter: silent.
var (
	ctx   *C.dev
	opens int
)

func openCtx() {
	opens++
	ctx = C.dev_open()
}

func context() *C.dev {
	if ctx == nil {
		openCtx()
	}
	return ctx
}

func use() {
	mu.Lock()
	defer mu.Unlock()
	C.dev_call(context())
}

func startAll() {
	go probe()
	go reprobe()
	go probe()
	go use()
	go use()
	go bare()
	go bare()
	go hooked()
	go hooked()
	go spawned()
	go spawned()
}

// The same helper with a caller that does not hold mu: reported.
var pool *C.dev

func getPool() *C.dev {
	if pool == nil {
		pool = C.dev_open() // want `getPool checks the package-level variable pool \(line \d+\) and then sets it without a lock`
	}
	return pool
}

func locked() {
	mu.Lock()
	defer mu.Unlock()
	C.dev_call(getPool())
}

func bare() {
	locked()
	C.dev_call(getPool())
}

// A helper whose address escapes (stored as a callback): whoever calls the
// callback may hold nothing.
var (
	arena *C.dev
	hooks []func() *C.dev
)

func getArena() *C.dev {
	if arena == nil {
		arena = C.dev_open() // want `getArena checks the package-level variable arena \(line \d+\) and then sets it without a lock`
	}
	return arena
}

func hooked() {
	mu.Lock()
	hooks = append(hooks, getArena)
	C.dev_call(getArena())
	mu.Unlock()
	for _, h := range hooks {
		C.dev_call(h())
	}
}

// A helper also started on its own goroutine, which holds nothing.
var counter int

func bump() {
	counter++ // want `bump updates the package-level variable counter \(read-modify-write\) without a lock`
}

func spawned() {
	mu.Lock()
	bump()
	mu.Unlock()
	go bump()
}

// Declared: a helper passed as a callback says its callers hold the
// package's lock (silent); one whose doc only mentions the lock says
// nothing about its callers (reported).
var (
	regMu   sync.Mutex
	reg     = map[int]*C.dev{}
	regTail = map[int]*C.dev{}
)

// register must be called with regMu held.
func register(id int) { reg[id] = C.dev_open() }

// registerTail opens the device first, while holding no lock, and
// records it; regMu is held elsewhere.
func registerTail(id int) {
	regTail[id] = C.dev_open() // want `registerTail writes the package-level map regTail without a lock`
}

var onReset []func(int)

func init() { onReset = append(onReset, register, registerTail) }

func startRegister() {
	for i := 0; i < 2; i++ {
		go func() {
			regMu.Lock()
			defer regMu.Unlock()
			register(i)
			registerTail(i)
		}()
	}
}
