#include <stdlib.h>
#include "condarms.h"
#if 0
//lifetime:release cd_g arg=0
#endif
//lifetime:borrow cd_g arg=0
#ifdef _WIN32
//lifetime:release cd_h arg=0
#elif defined(__linux__) || !defined(_WIN32)
//lifetime:borrow cd_h arg=0
#endif
#if 0
/* a comment opened in the arm
#endif
//lifetime:release cd_g arg=0
*/
#endif
static void (*cd_csink)(void *);
void cd_g(void *p) { if (cd_csink) cd_csink(p); }
void cd_h(void *p) { if (cd_csink) cd_csink(p); }
#if 0
#elif 1
//liftime:borrow cd_g arg=0 // want `did you mean //lifetime:borrow cd_g arg=0`
#endif
