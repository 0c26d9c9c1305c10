// Package lent holds the useafterrelease cases of lent handles: a handle
// that lives as long as the argument that lent it (borrowed-from=N) must
// not reach C after that argument's release.
package lent

/*
#include <stdlib.h>
typedef struct { int n; } shader_lib;
typedef struct { shader_lib* lib; } shader_fn;
typedef struct { int rows; } cur_t;
//lifetime:acquire shlib_load out=0
//lifetime:release shlib_unload
//lifetime:acquire shlib_symbol out=0 borrowed-from=1
//lifetime:acquire cur_open
//lifetime:release cur_close
//lifetime:borrow cur_label result borrowed-from=0
static int shlib_load(shader_lib** l) { *l = calloc(1, sizeof(shader_lib)); return 0; }
static void shlib_unload(shader_lib* l) { free(l); }
static int shlib_symbol(shader_fn** f, shader_lib* l, const char* name) { static shader_fn fn; fn.lib = l; *f = &fn; return 0; }
static int shader_run(shader_fn* f) { return 0; }
static cur_t* cur_open(void) { return calloc(1, sizeof(cur_t)); }
static void cur_close(cur_t* c) { free(c); }
static const char* cur_label(cur_t* c) { return "x"; }
static void print_label(const char* s) { }
*/
import "C"

// The function lives as long as its library: running it after the unload
// reads freed memory.
func runAfterUnload(name *C.char) {
	var lib *C.shader_lib
	C.shlib_load(&lib)
	var fn *C.shader_fn
	C.shlib_symbol(&fn, lib, name)
	C.shlib_unload(lib)
	C.shader_run(fn) // want `fn is passed to C.shader_run after C.shlib_unload released lib at line 35, and fn lives only as long as lib \(it is lent, not owned\)`
}

// Run before the unload; the lent function is never released itself.
func runThenUnload(name *C.char) {
	var lib *C.shader_lib
	C.shlib_load(&lib)
	defer C.shlib_unload(lib)
	var fn *C.shader_fn
	C.shlib_symbol(&fn, lib, name)
	C.shader_run(fn)
}

// A lent result: the label belongs to the cursor.
func labelAfterClose() {
	c := C.cur_open()
	s := C.cur_label(c)
	C.cur_close(c)
	C.print_label(s) // want `s is passed to C.print_label after C.cur_close released c at line 53`
}

func labelBeforeClose() {
	c := C.cur_open()
	s := C.cur_label(c)
	C.print_label(s)
	C.cur_close(c)
}
