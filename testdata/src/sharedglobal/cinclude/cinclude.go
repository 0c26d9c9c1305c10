// Package cinclude holds C globals updated by C functions that Go calls
// from functions documented for concurrent use, whose safe spellings come
// from a header of the module found through the -I directory of the
// package's flags: an atomic typedef and a lock macro.
package cinclude

// #cgo CFLAGS: -I${SRCDIR}/inc
// #include "compat.h"
//
// static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
// static counter_t counted;
// static long by_macro;
// static long racy; // want `the file-scope C variable racy is written without a lock by bump \(line 17\), and Go calls C.bump from Bump`
//
// static long bump(void) {
// 	counted++;
// 	return ++racy;
// }
// static void bump_macro(void) { LOCK(&mu); by_macro++; UNLOCK(&mu); }
import "C"

// Bump is safe for concurrent use by multiple goroutines.
func Bump() int { return int(C.bump()) }

// BumpMacro is safe for concurrent use by multiple goroutines.
func BumpMacro() { C.bump_macro() }
