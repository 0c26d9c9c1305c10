// The package's own header: static inline wrappers of an opaque handle
// typed void *, which a library-style API hides behind a typedef.
#include <stdlib.h>

typedef void *store_handle;

static inline store_handle store_open(void) { return calloc(1, 16); }
static inline int store_shutdown(store_handle s) {
	if (s == NULL)
		return -1;
	free(s);
	return 0;
}
static inline int store_count(store_handle s) { return *(int *)s; }
