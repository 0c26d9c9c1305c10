// Package gpubug is a module of its own for the command's tests.
package gpubug

/*
#include <stdlib.h>
typedef struct { int live; } obj;
static obj* obj_new(void) { return malloc(sizeof(obj)); }
static void obj_free(obj* o) { free(o); }
*/
import "C"

import "fmt"

// Twice releases a handle twice.
func Twice() {
	o := C.obj_new()
	C.obj_free(o)
	C.obj_free(o)
}

// Printf has a bug only go vet's own checks see.
func Printf() string { return fmt.Sprintf("%d", "not a number") }
