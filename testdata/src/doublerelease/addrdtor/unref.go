package addrdtor

// An unref beside a destructor of the same type resets the object for
// reuse (av_packet_unref drops the packet's buffers; av_packet_free ends
// the packet). An unref that is its type's only release ends it
// (g_object_unref).

/*
typedef struct AVPacket { int size; } AVPacket;
AVPacket *av_packet_alloc(void);
void av_packet_unref(AVPacket *pkt);
void av_packet_free(AVPacket **pkt);
int av_read_packet(void *ctx, AVPacket *pkt);

typedef struct GObj { int refs; } GObj;
GObj *g_obj_new(void);
void g_obj_unref(GObj *o);
*/
import "C"

import "unsafe"

// demux reads packets into one AVPacket, unreferencing each after use.
func demux(ctx unsafe.Pointer) {
	pkt := C.av_packet_alloc()
	defer C.av_packet_free(&pkt)
	for C.av_read_packet(ctx, pkt) >= 0 {
		C.av_packet_unref(pkt)
	}
	C.av_packet_unref(pkt)
}

// unrefTwice drops a reference it holds once, twice.
func unrefTwice() {
	o := C.g_obj_new()
	C.g_obj_unref(o)
	C.g_obj_unref(o) // want `^o is released twice: by C.g_obj_unref at line 36`
}
