// Package conditional holds C globals written under preprocessor
// conditionals: a write the build may not compile (under a macro defined
// nowhere the scanner can see, or under #if 0) is no evidence; a write in
// an arm the build compiles for this platform is.
package conditional

// void bump_guarded(void);
//
// static long c_racy;
// #ifdef RACY
// static void bump_racy(void) { c_racy++; }
// #else
// static void bump_racy(void) { }
// #endif
//
// static long c_dead;
// static void bump_dead(void) {
// #if 0
// 	c_dead++;
// #endif
// }
//
// static long c_posix; // want `the file-scope C variable c_posix is written without a lock by bump_posix`
// static void bump_posix(void) {
// #ifdef _WIN32
// 	InterlockedIncrement(&c_posix);
// #else
// 	c_posix++;
// #endif
// }
//
// static long c_notcxx; // want `the file-scope C variable c_notcxx is written without a lock by bump_notcxx`
// #ifndef __cplusplus
// static void bump_notcxx(void) { c_notcxx++; }
// #endif
//
// static long c_either; // want `the file-scope C variable c_either is written without a lock by bump_either`
// #if defined(RACY) || !defined(_WIN32)
// static void bump_either(void) { c_either++; }
// #endif
//
// static long c_both;
// #if defined(RACY) && defined(_WIN32)
// static void bump_both(void) { c_both++; }
// #else
// static void bump_both(void) { }
// #endif
//
// #define WITH_COUNT 1
// static long c_defined; // want `the file-scope C variable c_defined is written without a lock by bump_defined`
// static void bump_defined(void) {
// #ifdef WITH_COUNT
// 	c_defined++;
// #endif
// }
//
// static long c_undef;
// #undef WITH_COUNT
// static void bump_undef(void) {
// #ifdef WITH_COUNT
// 	c_undef++;
// #endif
// }
import "C"

// Racy may be called from multiple goroutines.
func Racy() { C.bump_racy() }

// Dead may be called from multiple goroutines.
func Dead() { C.bump_dead() }

// Posix may be called from multiple goroutines.
func Posix() { C.bump_posix() }

// NotCxx may be called from multiple goroutines.
func NotCxx() { C.bump_notcxx() }

// Either may be called from multiple goroutines.
func Either() { C.bump_either() }

// Both may be called from multiple goroutines.
func Both() { C.bump_both() }

// Defined may be called from multiple goroutines.
func Defined() { C.bump_defined() }

// Undef may be called from multiple goroutines.
func Undef() { C.bump_undef() }

// Guarded may be called from multiple goroutines.
func Guarded() { C.bump_guarded() }
