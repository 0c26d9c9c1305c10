// Package names holds the doublerelease cases of the destructor-name rule
// for C functions no model mentions: the name is read against the C
// prototype, and the released argument is the one whose type the name's
// object part names, in either word order.
package names

/*
#include <stdlib.h>
typedef void *quux_ioctx_t;
typedef void *quux_cursor;
static quux_cursor quux_cursor_new(quux_ioctx_t io) { return malloc(1); }
static void quux_cursor_free(quux_ioctx_t io, quux_cursor c) { free(c); }

typedef struct ZQ_DCtx_s ZQ_DCtx;
struct ZQ_DCtx_s { int level; };
static ZQ_DCtx* ZQ_createDCtx(void) { return malloc(sizeof(ZQ_DCtx)); }
static size_t ZQ_freeDCtx(ZQ_DCtx* c) { free(c); return 0; }

typedef struct _PixelCanvas PixelCanvas;
struct _PixelCanvas { int dispose; };
static PixelCanvas* NewPixelCanvas(void) { return calloc(1, sizeof(PixelCanvas)); }
static PixelCanvas* DestroyPixelCanvas(PixelCanvas* w) { free(w); return NULL; }
static void CanvasSetImageDispose(PixelCanvas* w, int d) { w->dispose = d; }

typedef struct { int n; } kvdb_t;
typedef struct { int sync; } kvdb_writeoptions_t;
static kvdb_t* kvdb_open(void) { return calloc(1, sizeof(kvdb_t)); }
static void kvdb_delete(kvdb_t* db, kvdb_writeoptions_t* o, const char* key, size_t n, char** err) {}
static void kvdb_close(kvdb_t* db) { free(db); }
*/
import "C"

// quux_cursor_free frees its second argument, the cursor: the I/O context
// it also takes is not released.
func cursorTwice(io C.quux_ioctx_t) {
	c := C.quux_cursor_new(io)
	C.quux_cursor_free(io, c)
	C.quux_cursor_free(io, c) // want `c is released twice: by C.quux_cursor_free at line 37 and again here`
}

func cursorsOfOneContext(io C.quux_ioctx_t) {
	a := C.quux_cursor_new(io)
	b := C.quux_cursor_new(io)
	C.quux_cursor_free(io, a)
	C.quux_cursor_free(io, b)
}

// Verb first, glued to the object after the library's prefix.
func dctxTwice() {
	c := C.ZQ_createDCtx()
	C.ZQ_freeDCtx(c)
	C.ZQ_freeDCtx(c) // want `c is released twice: by C.ZQ_freeDCtx at line 51 and again here`
}

func dctxOnce() {
	c := C.ZQ_createDCtx()
	defer C.ZQ_freeDCtx(c)
}

// Verb first in CamelCase.
func canvasTwice() {
	w := C.NewPixelCanvas()
	C.DestroyPixelCanvas(w)
	C.DestroyPixelCanvas(w) // want `w is released twice: by C.DestroyPixelCanvas at line 63 and again here`
}

// A setter whose name ends in a destructor's verb releases nothing: its
// object part ("CanvasSetImage") names no argument's type.
func setDisposeTwice() {
	w := C.NewPixelCanvas()
	C.CanvasSetImageDispose(w, 1)
	C.CanvasSetImageDispose(w, 2)
	C.DestroyPixelCanvas(w)
}

// A delete that takes a key removes the key, not the database.
func deleteKeys(o *C.kvdb_writeoptions_t, k *C.char) {
	db := C.kvdb_open()
	var err *C.char
	C.kvdb_delete(db, o, k, 1, &err)
	C.kvdb_delete(db, o, k, 1, &err)
	C.kvdb_close(db)
}

func closeTwice() {
	db := C.kvdb_open()
	C.kvdb_close(db)
	C.kvdb_close(db) // want `db is released twice: by C.kvdb_close at line 87 and again here`
}

// Through a method on a wrapper whose field holds the handle.
type Decoder struct{ c *C.ZQ_DCtx }

func (d *Decoder) Close() { C.ZQ_freeDCtx(d.c) } // want `d.c is released twice when \(\*Decoder\).Close is called twice on the same value`

func closeDecoderTwice() {
	d := &Decoder{c: C.ZQ_createDCtx()}
	d.Close()
	d.Close()
}

// Through a helper that takes the context first and the cursor second.
func dropCursor(io C.quux_ioctx_t, c C.quux_cursor) { C.quux_cursor_free(io, c) }

func dropCursorTwice(io C.quux_ioctx_t) {
	c := C.quux_cursor_new(io)
	dropCursor(io, c)
	dropCursor(io, c) // want `c is released twice: by dropCursor at line 107 and again here`
}

// A wrapper's setter is not a release either.
func (d *Decoder) setDispose(w *C.PixelCanvas) { C.CanvasSetImageDispose(w, 0) }

func setThrough(d *Decoder) {
	w := C.NewPixelCanvas()
	d.setDispose(w)
	d.setDispose(w)
	C.DestroyPixelCanvas(w)
}
