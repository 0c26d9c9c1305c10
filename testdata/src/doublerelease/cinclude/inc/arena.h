#ifndef ARENA_H
#define ARENA_H
/* the arena keeps every block until the arena goes: free is a no-op */
#define free(x) ((void)(x))
#endif
