// Package valuerecv holds the finalizer cases of methods with a value
// receiver: the receiver is a copy, so a KeepAlive of it keeps nothing
// alive; the object whose finalizer releases the handle is the one the
// caller holds, and the caller needs the KeepAlive.
package valuerecv

/*
#include <stdlib.h>
typedef struct { int bands; } img;
static img* img_new(int b) { img* i = calloc(1, sizeof *i); i->bands = b; return i; }
static void img_free(img* i) { free(i); }
static int img_bands(img* i) { return i->bands; }
*/
import "C"

import "runtime"

type Image struct {
	p *C.img
}

func NewImage(bands int) *Image {
	i := &Image{p: C.img_new(C.int(bands))}
	runtime.SetFinalizer(i, func(i *Image) { C.img_free(i.p) })
	return i
}

// Nothing to say here: i is a copy of the caller's Image.
func (i Image) Bands() int {
	return int(C.img_bands(i.p))
}

func Count() int {
	img := NewImage(3)
	return img.Bands() // want `img may be collected while \(Image\).Bands runs with img.p: nothing uses img after the call`
}

func CountFixed() int {
	img := NewImage(3)
	n := img.Bands()
	runtime.KeepAlive(img)
	return n
}
