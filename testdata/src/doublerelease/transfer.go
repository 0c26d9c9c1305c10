package doublerelease

/*
#include <stdlib.h>
typedef struct { int n; } frame;
typedef struct { int n; } queue;
static frame* frame_new(void) { return calloc(1, sizeof(frame)); }
static void frame_destroy(frame* f) { free(f); }
// The queue frees the frame once it is consumed.
//lifetime:transfer queue_push arg=1
static void queue_push(queue* q, frame* f) { free(f); }
*/
import "C"

import "runtime"

// Frame owns a C frame and frees it from its finalizer.
type Frame struct{ f *C.frame }

func NewFrame() *Frame {
	fr := &Frame{f: C.frame_new()}
	runtime.SetFinalizer(fr, func(fr *Frame) { C.frame_destroy(fr.f) })
	return fr
}

// Submit hands the frame to C for good, yet leaves the finalizer armed: the
// queue frees the frame and then the finalizer frees it again.
func Submit(q *C.queue, fr *Frame) {
	C.queue_push(q, fr.f) // want `fr.f is handed to C for good here \(C.queue_push takes ownership\) and released again by the finalizer set at line \d+ \(func literal\) once the Frame is collected; disarm it \(runtime.SetFinalizer\(fr, nil\)\)`
}

// SubmitOK disarms the finalizer and forgets the handle once C owns it.
func SubmitOK(q *C.queue, fr *Frame) {
	runtime.SetFinalizer(fr, nil)
	C.queue_push(q, fr.f)
	fr.f = nil
}

// Handed to the queue, then destroyed by Go as well.
func pushThenDestroy(q *C.queue) {
	f := C.frame_new()
	C.queue_push(q, f)
	C.frame_destroy(f) // want `f is released twice: by C.queue_push at line \d+ and again here`
}

// Corrected: once C owns it, Go leaves it alone.
func pushOnly(q *C.queue) {
	f := C.frame_new()
	C.queue_push(q, f)
}
