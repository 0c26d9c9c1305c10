// Package q holds images in unexported fields, behind accessors.
package q

import "finalizer/img"

// H holds an image.
type H struct{ im *img.Image }

// NewH returns a holder of a new image.
func NewH() *H { return &H{im: img.New()} }

// Get returns the image.
func (h *H) Get() *img.Image { return h.im }

// Take returns the image and clears the holder.
func (h *H) Take() *img.Image { im := h.im; h.im = nil; return im }

// Open holds an image in an exported field.
type Open struct{ Im *img.Image }

// Pair holds holders, behind accessors.
type Pair struct {
	in *H
	op *Open
}

// In returns the holder.
func (p *Pair) In() *H { return p.in }

// Op returns the open holder.
func (p *Pair) Op() *Open { return p.op }
