// Package img sets a finalizer that importers see through a fact.
package img

/*
#include <stdlib.h>
typedef struct { int live; } img;
static img* img_new(void) { return malloc(sizeof(img)); }
static void img_free(img* i) { free(i); }
static int img_width(img* i) { return 1; }
*/
import "C"

import "runtime"

// Image owns a C image.
type Image struct{ P *C.img }

// New returns an image freed by its finalizer.
func New() *Image {
	i := &Image{P: C.img_new()}
	runtime.SetFinalizer(i, func(i *Image) { C.img_free(i.P) })
	return i
}

// Ptr returns the C image.
func (i *Image) Ptr() *C.img { return i.P }

// Use passes the image to C without keeping its owner: a borrowing wrapper.
func Use(p *C.img) int { return int(C.img_width(p)) }
