package doublerelease

/*
#include <stdlib.h>
typedef struct prog_st { int live; } *prog;
typedef int result;
//lifetime:acquire prog_create out=0
//lifetime:release prog_destroy indirect clears
//lifetime:acquire lib_init global
//lifetime:release lib_shutdown global
static result prog_create(prog* p) { *p = malloc(sizeof **p); return 0; }
static result prog_destroy(prog* p) { free(*p); *p = NULL; return 0; }
static result lib_init(void) { return 0; }
static result lib_shutdown(void) { return 0; }
typedef struct _cl_context { int refs; } *cl_context;
static cl_context clCreateContext(void* props, unsigned n, void* devs, void* notify, void* user, int* err) { return calloc(1, sizeof(struct _cl_context)); }
static int clRetainContext(cl_context c) { return 0; }
static int clReleaseContext(cl_context c) { return 0; }
*/
import "C"

// prog_destroy takes a pointer to the handle and clears it (as
// nvrtcDestroyProgram does): a second call finds NULL.
func destroyTwiceOK() {
	var p C.prog
	C.prog_create(&p)
	C.prog_destroy(&p)
	C.prog_destroy(&p)
}

// A copy of the handle outlives the clear.
func destroyCopy() {
	var p C.prog
	C.prog_create(&p)
	q := p
	C.prog_destroy(&p)
	C.prog_destroy(&q) // want `q is released twice`
}

// Library state is counted (nvmlInit/nvmlShutdown): one shutdown per init.
func shutdownTwice() {
	C.lib_init()
	C.lib_shutdown()
	C.lib_shutdown() // want `the preamble library state is released twice: by C.lib_shutdown at line 43 and again here`
}

func shutdownOK() {
	C.lib_init()
	C.lib_init()
	C.lib_shutdown()
	C.lib_shutdown()
}
