package counted

// GLib's byte arrays and sources, from the built-in glib model: a
// GByteArray freed into a GBytes is released (the GBytes is the caller's),
// and a GSource needs its unref after g_source_destroy, which drops no
// reference.

/*
#include <stdlib.h>
typedef struct { int refs; } GByteArray;
typedef struct { int refs; } GBytes;
typedef struct { int refs; } GSource;
typedef struct { int refs; } GMainContext;
static GByteArray *g_byte_array_new(void) { return calloc(1, sizeof(GByteArray)); }
static GBytes *g_byte_array_free_to_bytes(GByteArray *a) { free(a); return calloc(1, sizeof(GBytes)); }
static void g_bytes_unref(GBytes *b) { free(b); }
static GSource *g_idle_source_new(void) { return calloc(1, sizeof(GSource)); }
static unsigned g_source_attach(GSource *s, GMainContext *c) { return 1; }
static void g_source_destroy(GSource *s) { }
static void g_source_unref(GSource *s) { free(s); }
void *g_malloc(unsigned long n);
GBytes *g_bytes_new_take(void *data, unsigned long n);
typedef struct { int refs; } GPtrArray;
GPtrArray *g_ptr_array_new(void);
void g_ptr_array_add(GPtrArray *a, void *p);
char *g_strdup(const char *s);
typedef struct GList { void *data; struct GList *next; } GList;
GList *g_list_append(GList *l, void *data);
void *g_bytes_unref_to_data(GBytes *b, unsigned long *n);
void g_free(void *p);
*/
import "C"

import "unsafe"

func toBytes() *C.GBytes {
	ba := C.g_byte_array_new()
	return C.g_byte_array_free_to_bytes(ba)
}

func bytesDropped() {
	b := toBytes()
	C.g_bytes_unref(b)
}

func idle(ctx *C.GMainContext) {
	s := C.g_idle_source_new()
	C.g_source_attach(s, ctx)
	C.g_source_destroy(s)
	C.g_source_unref(s)
}

func idleKept(ctx *C.GMainContext) {
	s := C.g_idle_source_new() // want `the handle C.g_idle_source_new returns is not released on every path`
	C.g_source_attach(s, ctx)
	C.g_source_destroy(s)
}

// toBytesOr returns the GBytes, holding its one reference, to a caller
// that drops it on one path only.
func toBytesOr(fail bool) {
	b := toBytes() // want `the handle toBytes returns is not released on every path`
	if fail {
		return
	}
	C.g_bytes_unref(b)
}

// taken hands its buffer to the GBytes, which frees it.
func taken(n int) *C.GBytes {
	data := C.g_malloc(C.ulong(n))
	return C.g_bytes_new_take(data, C.ulong(n))
}

// added hands each string to the array.
func added() *C.GPtrArray {
	a := C.g_ptr_array_new()
	C.g_ptr_array_add(a, unsafe.Pointer(C.g_strdup(nil)))
	return a
}

// listed hands each string to the list, freed with g_list_free_full.
func listed() *C.GList {
	return C.g_list_append(nil, unsafe.Pointer(C.g_strdup(nil)))
}

// unwrapped drops the GBytes for its data, which it frees.
func unwrapped() {
	b := toBytes()
	var n C.ulong
	data := C.g_bytes_unref_to_data(b, &n)
	C.g_free(data)
}
