package sharedglobal

// #include <stdlib.h>
// #include <pthread.h>
//
// static long c_allocated; // want `the file-scope C variable c_allocated is written without a lock by c_alloc \(line 13\), and Go calls C.c_alloc from CAlloc \(line 36\): two goroutines can run CAlloc at once`
// static long c_peak; // want `the file-scope C variable c_peak is written without a lock by c_alloc`
// static _Atomic long c_atomic;
// static _Thread_local int c_tls;
// static __thread int c_gnu_tls;
// static const int c_limit = 10;
// static void *c_alloc(size_t n) {
// 	c_allocated += n;
// 	if (c_allocated > c_peak)
// 		c_peak = c_allocated;
// 	c_atomic += n;
// 	c_tls++;
// 	c_gnu_tls++;
// 	return malloc(n < c_limit ? c_limit : n);
// }
// static int c_next_id(void) {
// 	static int id; // want `the static variable id of the C function c_next_id is written without a lock by c_next_id`
// 	return ++id;
// }
// static pthread_mutex_t c_mu = PTHREAD_MUTEX_INITIALIZER;
// static long c_locked;
// static void c_locked_add(long n) { pthread_mutex_lock(&c_mu); c_locked += n; pthread_mutex_unlock(&c_mu); }
// static long c_go_locked;
// static void c_go_locked_add(long n) { c_go_locked += n; }
// static long c_unused;
// static void c_not_called(void) { c_unused++; }
// static int c_shadow;
// static int c_shadowing(int c_shadow) { c_shadow++; int x = 0; x++; return c_shadow + x; }
import "C"

func CAlloc(n int) { C.free(C.c_alloc(C.size_t(n))) }

func NextID() int { return int(C.c_next_id()) }

func LockedAdd(n int) { C.c_locked_add(C.long(n)) }

func GoLockedAdd(n int) {
	mu.Lock()
	C.c_go_locked_add(C.long(n))
	mu.Unlock()
}

func Shadowing() int { return int(C.c_shadowing(1)) }
