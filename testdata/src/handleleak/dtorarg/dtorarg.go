// Package dtorarg holds the handleleak cases of a pointer handed to C
// together with a pointer to a function that releases it: the library
// keeps the pointer and calls the destructor on it, so it is no longer
// Go's to free. A destructor argument that is no release (NULL, a static
// marker, a function that does something else) keeps Go's ownership.
package dtorarg

/*
#include <stdlib.h>
typedef void (*destroy_fn)(void *);
typedef struct table table;
typedef struct obj obj;
// Library functions, declared only: their bodies are not the package's.
void table_insert(table *t, const char *key, void *val, destroy_fn d);
void obj_set_data_full(obj *o, const char *key, void *data, destroy_fn d);
void log_value(void *p);
void blob_free(void *p);
// The package's own release of a value, by its body.
static void drop_value(void *p) { free(p); }
// Bodies that free nothing as the build compiles them: the free is in an
// arm left out, or in a comment.
static void keep_value(void *p) {
#if 0
	free(p);
#endif
}
static void note_value(void *p) {
	// free(p) is the table's job
	(void)"free(p)";
}
#ifdef LIFETIMEVET_NEVER_DEFINED
static void maybe_value(void *p) { free(p); }
#else
static void maybe_value(void *p) { }
#endif
*/
import "C"

import "unsafe"

// C.free given as the destructor, to a library function.
func Insert(t *C.table, k, v string) {
	ck := C.CString(k)
	defer C.free(unsafe.Pointer(ck))
	C.table_insert(t, ck, unsafe.Pointer(C.CString(v)), C.destroy_fn(C.free))
}

// A destructor the name rule reads as a release, on a method, the value
// from C.CBytes.
type Obj struct{ o *C.obj }

func (o *Obj) Attach(key string, data []byte) {
	ck := C.CString(key)
	defer C.free(unsafe.Pointer(ck))
	p := C.CBytes(data)
	C.obj_set_data_full(o.o, ck, p, (*[0]byte)(C.blob_free))
}

// A destructor of the package's own C that frees its parameter, chosen
// in a closure.
func Store(t *C.table, vals map[string]string) {
	put := func(k, v string) {
		ck := C.CString(k)
		defer C.free(unsafe.Pointer(ck))
		cv := C.CString(v)
		C.table_insert(t, ck, unsafe.Pointer(cv), C.destroy_fn(C.drop_value))
	}
	for k, v := range vals {
		put(k, v)
	}
}

// No destructor: the library copies or borrows the value, and Go still
// owns it.
func InsertStatic(t *C.table, k, v string) {
	ck := C.CString(k)
	defer C.free(unsafe.Pointer(ck))
	cv := C.CString(v) // want `the handle C.CString returns is not released on every path`
	C.table_insert(t, ck, unsafe.Pointer(cv), nil)
}

// A callback that is no release.
func InsertLogged(t *C.table, k, v string) {
	ck := C.CString(k)
	defer C.free(unsafe.Pointer(ck))
	cv := C.CString(v) // want `the handle C.CString returns is not released on every path`
	C.table_insert(t, ck, unsafe.Pointer(cv), C.destroy_fn(C.log_value))
}

// The key is not transferred with the value: its leak stays reported.
func InsertKeyLeak(t *C.table, k, v string) {
	ck := C.CString(k) // want `the handle C.CString returns is not released on every path`
	C.table_insert(t, ck, unsafe.Pointer(C.CString(v)), C.destroy_fn(C.free))
}

// A wrapper that hands its parameter over with the destructor takes its
// caller's handle.
func insertOwned(t *C.table, key *C.char, val unsafe.Pointer) {
	C.table_insert(t, key, val, C.destroy_fn(C.free))
}

func InsertVia(t *C.table, k, v string) {
	ck := C.CString(k)
	defer C.free(unsafe.Pointer(ck))
	insertOwned(t, ck, unsafe.Pointer(C.CString(v)))
}

// A destructor whose free the build does not compile releases nothing:
// the value is still Go's.
func InsertKept(t *C.table, k, v string) {
	ck := C.CString(k)
	defer C.free(unsafe.Pointer(ck))
	cv := C.CString(v) // want `the handle C.CString returns is not released on every path`
	C.table_insert(t, ck, unsafe.Pointer(cv), C.destroy_fn(C.keep_value))
}

func InsertNoted(t *C.table, k, v string) {
	ck := C.CString(k)
	defer C.free(unsafe.Pointer(ck))
	cv := C.CString(v) // want `the handle C.CString returns is not released on every path`
	C.table_insert(t, ck, unsafe.Pointer(cv), C.destroy_fn(C.note_value))
}

func InsertMaybe(t *C.table, k, v string) {
	ck := C.CString(k)
	defer C.free(unsafe.Pointer(ck))
	cv := C.CString(v) // want `the handle C.CString returns is not released on every path`
	C.table_insert(t, ck, unsafe.Pointer(cv), C.destroy_fn(C.maybe_value))
}
