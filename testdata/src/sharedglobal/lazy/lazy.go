// Package lazy creates package-level handles lazily from code that two
// goroutines reach, and keeps a registry whose lock covers its writes only.
package lazy

/*
#include <stdlib.h>
typedef struct { int live; } dev;
static dev* dev_open(void) { return malloc(sizeof(dev)); }
static int dev_call(dev* d) { return 0; }
*/
import "C"

import "sync"

// Direct: check, then create.
var dev *C.dev

func device() *C.dev {
	if dev == nil {
		dev = C.dev_open() // want `device checks the package-level variable dev \(line \d+\) and then sets it without a lock: the goroutine started at line \d+ and the goroutine started at line \d+ both run device`
	}
	return dev
}

func probe(n int) { C.dev_call(device()) }

func startProbes() {
	go probe(1)
	go probe(2)
}

// The set under a lock that the check does not hold, with no test again
// under it.
var (
	mu   sync.Mutex
	pool *C.dev
)

func getPool() *C.dev {
	if pool == nil {
		mu.Lock()
		pool = C.dev_open() // want `getPool checks the package-level variable pool \(line \d+\) without mu and then sets it under mu: two goroutines can run getPool at once \(the goroutines started at line \d+\)`
		mu.Unlock()
	}
	return pool
}

// Double-checked: the test again under the lock decides.
func getPoolOK() *C.dev {
	if pool == nil {
		mu.Lock()
		if pool == nil {
			pool = C.dev_open()
		}
		mu.Unlock()
	}
	return pool
}

// Through a helper that creates it.
var arena *C.dev

func openArena() { arena = C.dev_open() }

func getArena() *C.dev {
	if arena == nil {
		openArena() // want `getArena checks the package-level variable arena \(line \d+\) and then has openArena set it without a lock`
	}
	return arena
}

// Through a helper, under the lock across both: silent.
var table *C.dev

func openTable() { table = C.dev_open() }

func getTable() *C.dev {
	mu.Lock()
	defer mu.Unlock()
	if table == nil {
		openTable()
	}
	return table
}

// sync.Once: silent.
var (
	once sync.Once
	ctx  *C.dev
)

func getCtx() *C.dev {
	once.Do(func() { ctx = C.dev_open() })
	return ctx
}

func startPools() {
	for i := 0; i < 2; i++ {
		go getPool()
		go getPoolOK()
		go getArena()
		go getTable()
		go getCtx()
	}
}

// A registry whose lock covers Register's writes but not the reads of the
// C callback or of a helper that ranges over it.
var (
	regMu    sync.Mutex
	handlers = map[int]func(){}
)

func Register(id int, f func()) {
	regMu.Lock()
	handlers[id] = f
	regMu.Unlock()
}

//export goDispatch
func goDispatch(id C.int) {
	if f, ok := handlers[int(id)]; ok { // want `goDispatch reads the package-level map handlers without regMu, which Register holds when it changes the map`
		f()
	}
}

func each() {
	for _, f := range handlers { // want `each reads the package-level map handlers without regMu`
		f()
	}
}

func Each() { each() }

func EachOK() {
	regMu.Lock()
	defer regMu.Unlock()
	for _, f := range handlers {
		f()
	}
}
