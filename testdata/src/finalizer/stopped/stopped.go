// Package stopped holds error paths that release a handle a cleanup was
// added for: once the cleanup is stopped it never runs, and the release
// needs no runtime.KeepAlive.
package stopped

/*
#include <stdlib.h>
typedef struct { int n; } session;
static session* session_new(void) { return calloc(1, sizeof(session)); }
static void session_release(session* s) { free(s); }
static int session_init(session* s, int o) { return o; }
*/
import "C"

import (
	"errors"
	"runtime"
)

type Session struct{ s *C.session }

func release(s *C.session) { C.session_release(s) }

func Stopped(o int) (*Session, error) {
	x := &Session{s: C.session_new()}
	cl := runtime.AddCleanup(x, release, x.s)
	if C.session_init(x.s, C.int(o)) != 0 {
		cl.Stop()
		C.session_release(x.s)
		return nil, errors.New("init")
	}
	return x, nil
}

// Unstopped releases on its error path with the cleanup still armed.
func Unstopped(o int) (*Session, error) {
	x := &Session{s: C.session_new()}
	runtime.AddCleanup(x, release, x.s)
	if C.session_init(x.s, C.int(o)) != 0 {
		C.session_release(x.s) // want `x may be collected while C.session_release runs with x.s`
		return nil, errors.New("init")
	}
	return x, nil
}
