// Package dtorarg holds the doublerelease case of a pointer handed to C
// with a releasing destructor and then freed by Go as well.
package dtorarg

/*
#include <stdlib.h>
typedef void (*destroy_fn)(void *);
typedef struct table table;
void table_insert(table *t, const char *key, void *val, destroy_fn d);
*/
import "C"

import "unsafe"

// The table frees the value with the destructor; Go frees it too.
func InsertTwice(t *C.table, k, v string) {
	ck := C.CString(k)
	defer C.free(unsafe.Pointer(ck))
	cv := unsafe.Pointer(C.CString(v))
	C.table_insert(t, ck, cv, C.destroy_fn(C.free))
	C.free(cv) // want `cv is released twice: by C.table_insert at line 20 and again here`
}

// Without a destructor the table borrows the value: freeing it is right.
func InsertCopied(t *C.table, k, v string) {
	ck := C.CString(k)
	defer C.free(unsafe.Pointer(ck))
	cv := unsafe.Pointer(C.CString(v))
	C.table_insert(t, ck, cv, nil)
	C.free(cv)
}
