#ifndef COMPAT_H
#define COMPAT_H
#include <pthread.h>
/* the package's own portability header: its macros and typedefs reach the
   files that include it */
#if defined(_MSC_VER)
#define TLS __declspec(thread)
#else
#define TLS __thread
#endif
typedef _Atomic unsigned refcount_t;
extern pthread_mutex_t native_mu;
#define GUARD(m) pthread_mutex_lock(m)
#define UNGUARD(m) pthread_mutex_unlock(m)
long native_bump(void);
#endif
