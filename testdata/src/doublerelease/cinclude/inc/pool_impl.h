#include <stdlib.h>
static inline void pool_put(void *p) { free(p); }
