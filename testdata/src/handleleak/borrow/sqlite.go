package borrow

/*
#include <stdlib.h>
typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt { int row; } sqlite3_stmt;
static int sqlite3_prepare_v2(sqlite3* db, const char* sql, int n, sqlite3_stmt** st, const char** tail) { *st = calloc(1, sizeof(sqlite3_stmt)); return 0; }
static int sqlite3_step(sqlite3_stmt* st) { return 101; }
static int sqlite3_finalize(sqlite3_stmt* st) { free(st); return 0; }
*/
import "C"

// The built-in model says sqlite3_step only uses its statement (even when
// the package compiles SQLite's C itself): the error return leaks it.
func exec(db *C.sqlite3, sql *C.char) error {
	var st *C.sqlite3_stmt
	if C.sqlite3_prepare_v2(db, sql, -1, &st, nil) != 0 { // want `the handle C.sqlite3_prepare_v2 acquires into st is not released on every path \(the return at line 21 leaks it\)`
		return errConfig
	}
	if C.sqlite3_step(st) != 101 {
		return errConfig
	}
	C.sqlite3_finalize(st)
	return nil
}

func execOK(db *C.sqlite3, sql *C.char) error {
	var st *C.sqlite3_stmt
	if C.sqlite3_prepare_v2(db, sql, -1, &st, nil) != 0 {
		return errConfig
	}
	defer C.sqlite3_finalize(st)
	if C.sqlite3_step(st) != 101 {
		return errConfig
	}
	return nil
}
