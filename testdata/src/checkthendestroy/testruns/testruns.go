// Package testruns: goroutines that tests start. go test runs test
// functions one at a time, and a goroutine a test starts shows how the
// test uses the package, not how its callers do.
package testruns

/*
#include <stdlib.h>
typedef struct { int live; } stmt;
static stmt* stmt_open(void) { return calloc(1, sizeof(stmt)); }
static void stmt_finalize(stmt* s) { free(s); }
static int stmt_step(stmt* s) { return 0; }
*/
import "C"

import (
	"database/sql/driver"
	"sync"
)

// Stmt is a database/sql driver statement: database/sql never uses one
// from two goroutines at once, so its mutex is no evidence that callers
// share one.
type Stmt struct {
	mu sync.Mutex
	s  *C.stmt
}

func Open() *Stmt { return &Stmt{s: C.stmt_open()} }

func (st *Stmt) Close() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.s != nil {
		C.stmt_finalize(st.s)
		st.s = nil
	}
	return nil
}

func (st *Stmt) NumInput() int                                   { return 0 }
func (st *Stmt) Exec(args []driver.Value) (driver.Result, error) { return nil, nil }
func (st *Stmt) Query(args []driver.Value) (driver.Rows, error)  { return nil, nil }

// Step passes the handle to C without the lock Close takes. Tests that
// call it while a goroutine of theirs closes the statement are no
// evidence that callers share a Stmt (each test goroutine may open its
// own): no finding here.
func (st *Stmt) Step() int {
	return int(C.stmt_step(st.s))
}
