// Package cmacros holds C bodies that only look like releases once the
// compiler's view is taken: a directive after a block comment, a splice
// in a directive's name, a write through a macro, a local that hides the
// parameter; each beside the body that does release.
package cmacros

/*
#include <stdlib.h>
static void *mk(void) { return calloc(1, 8); }

void cm_done(void *p);
void cm_hand(void *p);

#define CLEAR(x) ((x) = 0)
#define TOUCH(x) ((void)(x))
static void mw_done(void *p) { CLEAR(p); free(p); }
static void mw_touch(void *p) { TOUCH(p); free(p); }

static void sh_done(void *p) {
	{
		void *p __attribute__((unused)) = malloc(1);
		free(p);
	}
}
static void sh_other(void *p) {
	{
		void *q __attribute__((unused)) = malloc(1);
		free(q);
	}
	free(p);
}

static void sp_done(void *p) {
#i\
f 0
	free(p);
#endif
}
static void sp_hand(void *p) {
#i\
f 1
	free(p);
#endif
}
*/
import "C"

// Silent: cm.c's free is an arena's no-op.
func CommentDefineTwice() {
	p := C.mk()
	C.cm_done(p)
	C.cm_done(p)
}

func UndefTwice() {
	p := C.mk()
	C.cm_hand(p)
	C.cm_hand(p) // want `p is released twice: by C.cm_hand at line 57 and again here`
}

// Silent: CLEAR(p) makes p NULL, and free(NULL) does nothing.
func MacroWriteTwice() {
	p := C.mk()
	C.mw_done(p)
	C.mw_done(p)
}

func MacroTouchTwice() {
	p := C.mk()
	C.mw_touch(p)
	C.mw_touch(p) // want `p is released twice: by C.mw_touch at line 70 and again here`
}

// Silent: the free is of the inner p.
func ShadowTwice() {
	p := C.mk()
	C.sh_done(p)
	C.sh_done(p)
}

func ShadowOtherTwice() {
	p := C.mk()
	C.sh_other(p)
	C.sh_other(p) // want `p is released twice: by C.sh_other at line 83 and again here`
}

// Silent: #if 0, split by a splice.
func SpliceTwice() {
	p := C.mk()
	C.sp_done(p)
	C.sp_done(p)
}

func SpliceHandTwice() {
	p := C.mk()
	C.sp_hand(p)
	C.sp_hand(p) // want `p is released twice: by C.sp_hand at line 96 and again here`
}
