// Wrappers whose free is what the including file makes it.
static inline void im_done(void *p) { free(p); }
