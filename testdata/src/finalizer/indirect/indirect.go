// Package indirect: handles of finalized objects reached less directly:
// through an accessor method, through a finalizer registered by a helper
// (generic, or taking interface values), and handles of several objects
// copied into a Go slice that a helper passes to C.
package indirect

/*
typedef struct { int n; } engine_t;
static void engine_delete(engine_t* e) {}
static int engine_version(engine_t* e) { return 0; }

typedef struct { int n; } table_t;
static void table_delete(table_t* t) {}
static int table_size(table_t* t) { return 0; }

typedef struct { int n; } session;
static void session_close(session* s) {}
static int session_run(session* s) { return 0; }

typedef struct { int n; } picture;
static void picture_unref(picture* p) {}
static int picture_join(picture** in, int n, picture** out) { return 0; }
static int picture_width(picture* p) { return 0; }
*/
import "C"

import "runtime"

// An accessor method returns the handle; the finalizer releases through it.
type Engine struct{ _inner *C.engine_t }

func NewEngine(h *C.engine_t) *Engine {
	e := &Engine{_inner: h}
	runtime.SetFinalizer(e, func(e *Engine) { C.engine_delete(e.inner()) })
	return e
}

func (e *Engine) inner() *C.engine_t { return e._inner }

func (e *Engine) Version() int {
	return int(C.engine_version(e.inner())) // want `e may be collected while C.engine_version runs with e._inner`
}

func (e *Engine) VersionOK() int {
	v := C.engine_version(e.inner())
	runtime.KeepAlive(e)
	return int(v)
}

// An accessor that calls another.
type Table struct{ _inner *C.table_t }

func newTable(h *C.table_t) *Table {
	t := &Table{_inner: h}
	runtime.SetFinalizer(t, func(t *Table) { C.table_delete(t.inner()) })
	return t
}

func (t *Table) ptr() *C.table_t   { return t._inner }
func (t *Table) inner() *C.table_t { return t.ptr() }

func (t *Table) Size() int {
	return int(C.table_size(t.inner())) // want `t may be collected while C.table_size runs with t._inner`
}

// A finalizer registered by a generic helper.
func track[T any](p *T, free func(*T)) {
	runtime.SetFinalizer(p, free)
}

type Session struct{ s *C.session }

func (s *Session) close() { C.session_close(s.s) }

func OpenSession(h *C.session) *Session {
	s := &Session{s: h}
	track(s, (*Session).close)
	return s
}

func (s *Session) Run() int {
	return int(C.session_run(s.s)) // want `s may be collected while C.session_run runs with s.s`
}

// A finalizer registered through interface values.
func setFinalizer(obj, fn any) { runtime.SetFinalizer(obj, fn) }

type Picture struct{ p *C.picture }

func newPicture(h *C.picture) *Picture {
	p := &Picture{p: h}
	setFinalizer(p, func(p *Picture) { C.picture_unref(p.p) })
	return p
}

func (p *Picture) Width() int {
	return int(C.picture_width(p.p)) // want `p may be collected while C.picture_width runs with p.p`
}

// Handles of the argument objects copied into a Go slice that a helper
// hands to C as an array.
func join(in []*C.picture) *C.picture {
	var out *C.picture
	C.picture_join(&in[0], C.int(len(in)), &out)
	return out
}

func (p *Picture) Join(others ...*Picture) *Picture {
	ins := []*C.picture{p.p}
	for _, o := range others {
		ins = append(ins, o.p)
	}
	out := join(ins) // want `the Picture objects in others may be collected while join runs with handles copied out of them`
	runtime.KeepAlive(p)
	return newPicture(out)
}

func (p *Picture) JoinOK(others ...*Picture) *Picture {
	ins := []*C.picture{p.p}
	for _, o := range others {
		ins = append(ins, o.p)
	}
	out := join(ins)
	runtime.KeepAlive(p)
	runtime.KeepAlive(others)
	return newPicture(out)
}

// Built with make and indexed stores, from a slice of objects.
func Mosaic(tiles []*Picture) *Picture {
	ins := make([]*C.picture, len(tiles))
	for i := range tiles {
		ins[i] = tiles[i].p
	}
	return newPicture(join(ins)) // want `the Picture objects in tiles may be collected while join runs`
}

// Raw C handles no finalizer owns: nothing to keep alive.
func joinRaw(a, b *C.picture) *C.picture {
	return join([]*C.picture{a, b})
}
