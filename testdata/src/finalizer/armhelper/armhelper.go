// Package armhelper holds finalizers armed by helpers of another package
// of the module: the object may be collected during a C call that uses
// its handle, as with a finalizer set directly.
package armhelper

/*
#include <stdlib.h>
typedef struct { int n; } queue;
static queue* queue_create(void) { return calloc(1, sizeof(queue)); }
static void queue_destroy(queue* q) { free(q); }
static int queue_depth(queue* q) { return q->n; }
*/
import "C"

import "finalizer/armhelper/own"

type Queue struct{ q *C.queue }

func (x *Queue) destroy() { C.queue_destroy(x.q) }

func NewQueue() *Queue {
	x := &Queue{q: C.queue_create()}
	own.Arm(x, (*Queue).destroy)
	return x
}

func (x *Queue) Depth() int { return int(C.queue_depth(x.q)) } // want `x may be collected while C.queue_depth runs with x.q`

type Tracked struct{ q *C.queue }

func (x *Tracked) destroy() { C.queue_destroy(x.q) }

func NewTracked() *Tracked {
	x := &Tracked{q: C.queue_create()}
	own.Track(x, (*Tracked).destroy)
	return x
}

func (x *Tracked) Depth() int { return int(C.queue_depth(x.q)) } // want `x may be collected while C.queue_depth runs with x.q`

type Watched struct{ q *C.queue }

func NewWatched() *Watched {
	x := &Watched{q: C.queue_create()}
	own.Watch(x, func(x *Watched) { C.queue_destroy(x.q) })
	return x
}

func (x *Watched) Depth() int { return int(C.queue_depth(x.q)) } // want `x may be collected while C.queue_depth runs with x.q`

// Remembered's helper arms nothing: no finalizer releases the handle.
type Remembered struct{ q *C.queue }

func NewRemembered() *Remembered {
	x := &Remembered{q: C.queue_create()}
	own.Remember(x, func(x *Remembered) { C.queue_destroy(x.q) })
	return x
}

func (x *Remembered) Depth() int { return int(C.queue_depth(x.q)) }
