package checkthendestroy

/*
#include <stdlib.h>
typedef struct { int live; } cb;
static void cb_free(cb* c) { free(c); }
*/
import "C"

// A callback C may call from any thread releases shared state.
type Callback struct{ c *C.cb }

var current = &Callback{}

//export goRelease
func goRelease() {
	current.release()
}

func (cb *Callback) release() {
	if cb.c != nil { // want `release checks cb.c and then releases it \(line 22\) without a guard: two of C threads calling the //export function goRelease`
		C.cb_free(cb.c)
		cb.c = nil
	}
}
