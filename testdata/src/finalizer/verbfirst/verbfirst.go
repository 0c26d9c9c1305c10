// Package verbfirst checks finalizers that release through a C function
// named verb first (DestroyX, ZQ_freeX): the destructor-name rule reads
// them from the prototype, so the finalizer's release is seen.
package verbfirst

/*
#include <stdlib.h>
typedef struct _PixelCanvas PixelCanvas;
struct _PixelCanvas { int w; };
static PixelCanvas* NewPixelCanvas(void) { return calloc(1, sizeof(PixelCanvas)); }
static PixelCanvas* DestroyPixelCanvas(PixelCanvas* c) { free(c); return NULL; }
static int CanvasWidth(PixelCanvas* c) { return c->w; }
static void CanvasSetImageDispose(PixelCanvas* c, int d) { }
typedef struct ZQ_DCtx_s ZQ_DCtx;
struct ZQ_DCtx_s { int level; };
static ZQ_DCtx* ZQ_createDCtx(void) { return calloc(1, sizeof(ZQ_DCtx)); }
static size_t ZQ_freeDCtx(ZQ_DCtx* c) { free(c); return 0; }
static size_t ZQ_decompressDCtx(ZQ_DCtx* c, void* dst, size_t n) { return 0; }
*/
import "C"

import (
	"runtime"
	"unsafe"
)

type Canvas struct{ c *C.PixelCanvas }

func NewCanvas() *Canvas {
	c := &Canvas{C.NewPixelCanvas()}
	runtime.SetFinalizer(c, func(c *Canvas) { C.DestroyPixelCanvas(c.c) })
	return c
}

func (c *Canvas) Width() int {
	return int(C.CanvasWidth(c.c)) // want `c may be collected while C.CanvasWidth runs with c.c`
}

func (c *Canvas) WidthOK() int {
	defer runtime.KeepAlive(c)
	return int(C.CanvasWidth(c.c))
}

// A finalizer that only calls a setter releases nothing: no finding.
type Painter struct{ c *C.PixelCanvas }

func NewPainter() *Painter {
	p := &Painter{C.NewPixelCanvas()}
	runtime.SetFinalizer(p, func(p *Painter) { C.CanvasSetImageDispose(p.c, 0) })
	return p
}

func (p *Painter) Width() int { return int(C.CanvasWidth(p.c)) }

type Decoder struct{ d *C.ZQ_DCtx }

func NewDecoder() *Decoder {
	d := &Decoder{C.ZQ_createDCtx()}
	runtime.SetFinalizer(d, func(d *Decoder) { C.ZQ_freeDCtx(d.d) })
	return d
}

func (d *Decoder) Decode(dst []byte) int {
	return int(C.ZQ_decompressDCtx(d.d, unsafe.Pointer(&dst[0]), C.size_t(len(dst)))) // want `d may be collected while C.ZQ_decompressDCtx runs with d.d`
}
