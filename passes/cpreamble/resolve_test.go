package cpreamble

import (
	"slices"
	"testing"
)

// A declaration's type is judged after the text's typedefs, tags and macros
// are resolved; the C11 <stdatomic.h> names are _Atomic types.
const resolveSrc = `#include <stdatomic.h>
#include <pthread.h>
#include "missing.h"
static atomic_long s_long;
static atomic_size_t s_size;
atomic_bool s_bool;
static atomic_uintptr_t s_uptr;
static atomic_int_fast32_t s_fast;
typedef _Atomic long counter_t;
typedef counter_t counter2_t;
static counter_t s_counter;
static counter2_t s_counter2;
#define THREAD_LOCAL _Thread_local
#define TLS2 THREAD_LOCAL
#define MSTLS __declspec(thread)
static THREAD_LOCAL long s_tls;
static TLS2 long s_tls2;
MSTLS int s_mstls;
#define ATOMIC _Atomic
static ATOMIC int s_atomic_macro;
struct stats { atomic_long hits; long misses; };
static struct stats s_tag;
typedef struct { counter_t n; } stats_t;
static stats_t s_typedef_struct;
static struct { atomic_int n; } s_anon;
typedef struct later later_t;
struct later { atomic_long n; };
static later_t s_later;

static long plain;
typedef long notatomic_t;
static notatomic_t s_notatomic;
static my_header_type s_unknown;     /* a header's typedef: taken as not atomic */
static atomic_flag s_flag;           /* a structure type, not an _Atomic one */
struct plainstats { long hits; };
static struct plainstats s_plaintag;
#define EMPTY
#undef ATOMIC
#define ATOMIC
static ATOMIC long s_undef;          /* ATOMIC is empty here */

static long slot_value;
static long *slot(void) { return &slot_value; }
static long aliased;
#define alias aliased
#define through (*slot())
static void writes_macros(void) {
	alias++;
	through = 1;
	plain++;
}
`

func TestResolveTypes(t *testing.T) {
	r := parseString(t, resolveSrc)
	got := varNames(r, func(v *Var) bool { return !v.Shared() })
	want := []string{"s_long", "s_size", "s_bool", "s_uptr", "s_fast", "s_counter", "s_counter2",
		"s_tls", "s_tls2", "s_mstls", "s_atomic_macro", "s_tag", "s_typedef_struct", "s_anon", "s_later"}
	if !slices.Equal(got, want) {
		t.Errorf("atomic or thread-local:\n got %v\nwant %v", got, want)
	}
	got = varNames(r, func(v *Var) bool { return v.Shared() })
	want = []string{"plain", "s_notatomic", "s_unknown", "s_flag", "s_plaintag", "s_undef", "slot_value", "aliased"}
	if !slices.Equal(got, want) {
		t.Errorf("shared:\n got %v\nwant %v", got, want)
	}
	if got, want := writes(r, "writes_macros"), []string{"aliased++", "plain++"}; !slices.Equal(got, want) {
		t.Errorf("writes through macros: got %v, want %v", got, want)
	}
}

// A header's typedefs and macros reach the files read after it.
func TestResolveHeader(t *testing.T) {
	r2 := parseUnits(t, nil, map[string]string{"compat.h": `#ifndef COMPAT_H
#define COMPAT_H
#define THREAD_LOCAL __thread
typedef _Atomic unsigned refcount_t;
#define GUARD() pthread_mutex_lock(&g_mu)
#define UNGUARD() pthread_mutex_unlock(&g_mu)
#endif
`, "x.c": `#include "compat.h"
static THREAD_LOCAL int a;
static refcount_t b;
static int c;
void f(void) { GUARD(); c++; UNGUARD(); }
`})
	if got, want := varNames(r2, func(v *Var) bool { return v.Shared() }), []string{"c"}; !slices.Equal(got, want) {
		t.Errorf("shared: got %v, want %v", got, want)
	}
	if fn := r2.byName["f"][0]; !fn.Locks || len(r2.Reach(fn)) != 0 {
		t.Errorf("f takes a lock through a header's macro")
	}
}

// A lock taken through a macro of the text, or through a lock wrapper,
// guards the writes of the function that takes it; a function that takes
// and gives back its own lock, a release wrapper alone and a
// once-initialiser guard nothing in their callers.
const lockSrc = `#include <pthread.h>
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static long n;
#define LOCK() pthread_mutex_lock(&mu)
#define UNLOCK() pthread_mutex_unlock(&mu)
#define LOCK_OF(m) pthread_mutex_lock(m)
#define LOCK_MU pthread_mutex_lock(&mu)
#define lock_fn pthread_mutex_lock
#define LOCK_W() lock()
#define LOCK_VIA() LOCK()
static void lock(void) { pthread_mutex_lock(&mu); }
static void unlock(void) { pthread_mutex_unlock(&mu); }
static void lock2(void) { lock(); }
static void unlock2(void) { unlock(); }
static int try_lock(void) { return pthread_mutex_trylock(&mu) == 0; }
static void locked_noop(void) { pthread_mutex_lock(&mu); pthread_mutex_unlock(&mu); }
static void self_locked(void) { lock(); unlock(); }
static void init(void) { }
static void setup(void) { pthread_once(&once, init); }

void by_macro(void) { LOCK(); n++; UNLOCK(); }
void by_macro_arg(void) { LOCK_OF(&mu); n++; pthread_mutex_unlock(&mu); }
void by_object_macro(void) { LOCK_MU; n++; UNLOCK(); }
void by_renaming_macro(void) { lock_fn(&mu); n++; UNLOCK(); }
void by_macro_wrapper(void) { LOCK_W(); n++; unlock(); }
void by_nested_macro(void) { LOCK_VIA(); n++; UNLOCK(); }
void by_wrapper(void) { lock(); n++; unlock(); }
void by_nested_wrapper(void) { lock2(); n++; unlock2(); }
void by_try(void) { if (try_lock()) { n++; unlock(); } }

void after_noop(void) { locked_noop(); n++; }
void after_self_locked(void) { self_locked(); n++; }
void after_unlock(void) { unlock(); n++; }
void after_once(void) { setup(); n++; }
void plain_write(void) { n++; }
`

func TestLockWrappers(t *testing.T) {
	r := parseString(t, lockSrc)
	var guarded, racy []string
	for _, fn := range r.Funcs {
		if len(fn.Writes) == 0 {
			continue
		}
		if len(r.Reach(fn)) == 0 {
			guarded = append(guarded, fn.Name)
		} else {
			racy = append(racy, fn.Name)
		}
	}
	if want := []string{"by_macro", "by_macro_arg", "by_object_macro", "by_renaming_macro", "by_macro_wrapper",
		"by_nested_macro", "by_wrapper", "by_nested_wrapper", "by_try"}; !slices.Equal(guarded, want) {
		t.Errorf("guarded:\n got %v\nwant %v", guarded, want)
	}
	if want := []string{"after_noop", "after_self_locked", "after_unlock", "after_once", "plain_write"}; !slices.Equal(racy, want) {
		t.Errorf("not guarded:\n got %v\nwant %v", racy, want)
	}
}
