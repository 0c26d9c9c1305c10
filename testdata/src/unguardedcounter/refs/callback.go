package refs

// #include <stdint.h>
import "C"

// Silent: an aggregate's state updated from a C callback (after
// go-sqlite3's aggInfo.next, bumped from the //export stepTrampoline).
// The C library calls back on the thread that is using the connection the
// aggregate belongs to, so the //export function alone does not make the
// object shared.
type aggregate struct {
	next int64
}

var aggregates = map[uintptr]*aggregate{}

//export stepCallback
func stepCallback(id C.uintptr_t) {
	aggregates[uintptr(id)].step()
}

func (a *aggregate) step() { a.next++ }
