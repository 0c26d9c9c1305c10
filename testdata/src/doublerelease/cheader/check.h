// Checks: return_unless returns from the function that uses it; note
// only logs.
#include <stdio.h>
#define return_unless(c) do { if (!(c)) return; } while (0)
#define note(p) fprintf(stderr, "%p\n", (void *)(p))
