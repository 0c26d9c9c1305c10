// Package addrdtor calls destructors that take the handle's address
// (T **) and set the caller's pointer to NULL, declared only, as a
// library's header declares them (av_frame_free, av_packet_free):
// the destructor-name rule reads them as releasing the handle the
// argument points to, and clearing it. A second call, or a deferred one
// after an early one, passes NULL; a copy of the handle made before is
// not cleared.
package addrdtor

/*
typedef struct AVFrame { int w; } AVFrame;
AVFrame *av_frame_alloc(void);
void av_frame_free(AVFrame **frame);

typedef struct img_t img_t;
img_t *img_load(const char *path);
void img_destroy(img_t **pimg);
*/
import "C"

import (
	"errors"
	"runtime"
)

type Frame struct{ p *C.AVFrame }

func NewFrame() *Frame {
	f := &Frame{p: C.av_frame_alloc()}
	runtime.SetFinalizer(f, (*Frame).Free)
	return f
}

// Free is idempotent: av_frame_free sets f.p to NULL.
func (f *Frame) Free() { C.av_frame_free(&f.p) }

func FreeTwice() {
	f := NewFrame()
	f.Free()
	f.Free()
}

func encode(n int) error {
	f := C.av_frame_alloc()
	defer C.av_frame_free(&f) // reads f at exit: NULL after the early free
	if n < 0 {
		C.av_frame_free(&f)
		return errors.New("negative")
	}
	return nil
}

// copyThenFree frees the handle through a copy the first call did not
// clear.
func copyThenFree() {
	f := C.av_frame_alloc()
	g := f
	C.av_frame_free(&f)
	C.av_frame_free(&g) // want `^g is released twice: by C.av_frame_free at line 58`
}

// Image holds another library's handle in a field, freed by a helper.
type Image struct{ im *C.img_t }

func (i *Image) destroy() { C.img_destroy(&i.im) }

func (i *Image) Close() error {
	i.destroy()
	return nil
}

func loadTwice(path *C.char) {
	i := &Image{im: C.img_load(path)}
	i.Close()
	i.destroy()
}

// closeKept keeps the handle before the destroy clears the field, and
// destroys the copy again.
func closeKept(i *Image) {
	old := i.im
	C.img_destroy(&i.im)
	C.img_destroy(&old) // want `^old is released twice: by C.img_destroy at line 82`
}

var global *C.img_t

func closeGlobal() {
	C.img_destroy(&global)
	C.img_destroy(&global)
}
