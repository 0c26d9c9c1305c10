// Package cspelled holds C globals updated by C functions that Go calls
// from a function documented for concurrent use. Each racy global has a
// safe twin spelled through what the C text itself defines: a typedef or
// macro holding _Atomic or _Thread_local, a C11 <stdatomic.h> type name, a
// lock taken through a macro or through a lock wrapper of the package's C.
package cspelled

// #include <stdatomic.h>
// #include <pthread.h>
// #include "compat.h"
//
// static long racy; // want `the file-scope C variable racy is written without a lock by bump \(line 40\), and Go calls C.bump from Bump`
// static atomic_long hits;
// static atomic_size_t bytes;
// static atomic_bool seen;
// typedef _Atomic long counter_t;
// static counter_t counted;
// #define THREAD_LOCAL _Thread_local
// static THREAD_LOCAL long scratch;
// static struct { atomic_uint n; } stats;
//
// static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
// #define LOCK() pthread_mutex_lock(&mu)
// #define UNLOCK() pthread_mutex_unlock(&mu)
// static void lock(void) { pthread_mutex_lock(&mu); }
// static void unlock(void) { pthread_mutex_unlock(&mu); }
// static void locked_noop(void) { lock(); unlock(); }
//
// static long by_macro;
// static long by_wrapper;
// static long after_noop; // want `the file-scope C variable after_noop is written without a lock by bump_after_noop`
//
// static long bump(void) {
// 	hits++;
// 	bytes += 8;
// 	seen = 1;
// 	counted++;
// 	scratch++;
// 	stats.n++;
// 	return ++racy;
// }
// static void bump_macro(void) { LOCK(); by_macro++; UNLOCK(); }
// static void bump_wrapper(void) { lock(); by_wrapper++; unlock(); }
// static void bump_after_noop(void) { locked_noop(); after_noop++; }
import "C"

// Bump is safe for concurrent use by multiple goroutines.
func Bump() int { return int(C.bump()) }

// BumpMacro is safe for concurrent use by multiple goroutines.
func BumpMacro() { C.bump_macro() }

// BumpWrapper is safe for concurrent use by multiple goroutines.
func BumpWrapper() { C.bump_wrapper() }

// BumpAfterNoop is safe for concurrent use by multiple goroutines.
func BumpAfterNoop() { C.bump_after_noop() }

// Native is safe for concurrent use by multiple goroutines.
func Native() int { return int(C.native_bump()) }
