#include <stdlib.h>

/* arena build */ #define free(x) ((void)(x))
void cm_done(void *p) { free(p); }
#undef free
void cm_hand(void *p) { free(p); }
