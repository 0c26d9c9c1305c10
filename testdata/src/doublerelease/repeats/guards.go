package repeats

/*
#include <stdlib.h>
typedef struct { int n; } device;
static device* device_create(void) { return calloc(1, sizeof(device)); }
static void device_destroy(device* d) { free(d); }
typedef struct { int n; } frame;
static frame* frame_alloc(void) { return calloc(1, sizeof(frame)); }
static void frame_free(frame** f) { if (f && *f) { free(*f); *f = NULL; } }
*/
import "C"

import (
	"context"
	"runtime"
	"sync"
)

// Each Close below tests state it changes, through something other than a
// field store: a done channel it closes, a context it cancels, a registry
// entry it deletes, a map entry it sets, a field C clears through its
// address. Called twice, and by the finalizer, the second run returns.

type Done struct {
	d    *C.device
	done chan struct{}
}

func NewDone() *Done {
	x := &Done{d: C.device_create(), done: make(chan struct{})}
	runtime.SetFinalizer(x, (*Done).Close)
	return x
}

func (x *Done) Close() {
	select {
	case <-x.done:
		return
	default:
	}
	close(x.done)
	C.device_destroy(x.d)
}

func UseDone() { x := NewDone(); x.Close(); x.Close() }

type Ctx struct {
	d      *C.device
	ctx    context.Context
	cancel context.CancelFunc
}

func NewCtx() *Ctx {
	ctx, cancel := context.WithCancel(context.Background())
	x := &Ctx{d: C.device_create(), ctx: ctx, cancel: cancel}
	runtime.SetFinalizer(x, (*Ctx).Close)
	return x
}

func (x *Ctx) Close() {
	if x.ctx.Err() != nil {
		return
	}
	x.cancel()
	C.device_destroy(x.d)
}

func UseCtx() { x := NewCtx(); x.Close(); x.Close() }

var live sync.Map

type Registered struct {
	id int
	d  *C.device
}

func NewRegistered(id int) *Registered {
	x := &Registered{id: id, d: C.device_create()}
	live.Store(id, true)
	runtime.SetFinalizer(x, (*Registered).Close)
	return x
}

func (x *Registered) Close() {
	if _, ok := live.LoadAndDelete(x.id); !ok {
		return
	}
	C.device_destroy(x.d)
}

func UseRegistered() { x := NewRegistered(1); x.Close(); x.Close() }

var (
	closedMu sync.Mutex
	closed   = map[int]bool{}
)

type Marked struct {
	id int
	d  *C.device
}

func NewMarked(id int) *Marked {
	x := &Marked{id: id, d: C.device_create()}
	runtime.SetFinalizer(x, (*Marked).Close)
	return x
}

func (x *Marked) Close() {
	closedMu.Lock()
	defer closedMu.Unlock()
	if closed[x.id] {
		return
	}
	closed[x.id] = true
	C.device_destroy(x.d)
}

func UseMarked() { x := NewMarked(1); x.Close(); x.Close() }

// Frame's C clears the field it is given the address of.
type Frame struct{ f *C.frame }

func NewFrame() *Frame {
	x := &Frame{f: C.frame_alloc()}
	runtime.SetFinalizer(x, (*Frame).Free)
	return x
}

func (x *Frame) Free() {
	if x.f != nil {
		C.frame_free(&x.f)
	}
}

func UseFrame() { x := NewFrame(); x.Free(); x.Free() }
