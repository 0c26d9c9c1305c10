#ifndef CONDITIONAL_C
#define CONDITIONAL_C

// an include guard: the file is compiled
long c_guarded; // want `the file-scope C variable c_guarded is written without a lock by bump_guarded`
void bump_guarded(void) { c_guarded++; }

#endif
