package repeats

/*
#include <stdlib.h>
static char* op_run(char** err) { *err = 0; return 0; }
static void op_free_error(void* e) { free(e); }
*/
import "C"

import (
	"errors"
	"unsafe"
)

// errString turns a C error string into an error and frees it: called
// twice on one string, it frees it twice.
func errString(e *C.char) (err error) {
	if e != nil {
		err = errors.New(C.GoString(e))
		C.op_free_error(unsafe.Pointer(e))
	}
	return
}

func RunOp() (err error) {
	var e *C.char
	C.op_run(&e)
	if err = errString(e); err == nil {
		println("ok")
	}
	err = errString(e) // want `e is released twice: by errString at line 28 and again here`
	return err
}

func RunOpOnce() error {
	var e *C.char
	C.op_run(&e)
	return errString(e)
}
