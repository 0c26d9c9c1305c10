// The package's .c file: the same spellings, through the package header
// and through nested wrappers.
#include "compat.h"

pthread_mutex_t native_mu = PTHREAD_MUTEX_INITIALIZER;

static long native_racy; // want `the file-scope C variable native_racy is written without a lock by native_bump`
static TLS long native_tls;
static refcount_t native_refs;
static long native_guarded;
static long native_nested;

static void inner_lock(void) { GUARD(&native_mu); }
static void outer_lock(void) { inner_lock(); }
static void inner_unlock(void) { UNGUARD(&native_mu); }

static void guarded(void) { GUARD(&native_mu); native_guarded++; UNGUARD(&native_mu); }
static void nested(void) { outer_lock(); native_nested++; inner_unlock(); }

long native_bump(void) {
	native_tls++;
	native_refs++;
	guarded();
	nested();
	return ++native_racy;
}
