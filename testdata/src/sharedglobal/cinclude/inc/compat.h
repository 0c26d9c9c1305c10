#include <pthread.h>
#include <stdatomic.h>
typedef atomic_long counter_t;
#define LOCK(m) pthread_mutex_lock(m)
#define UNLOCK(m) pthread_mutex_unlock(m)
