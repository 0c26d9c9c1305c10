#include <stdlib.h>
#include "opaque.h"

struct Blob { int refs; };

Blob *blob_new(void) { Blob *b = calloc(1, sizeof *b); b->refs = 1; return b; }
Blob *blob_ref(Blob *b) { b->refs++; return b; }
void blob_unref(Blob *b) { if (--b->refs == 0) free(b); }
