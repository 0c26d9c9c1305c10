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
#include <stdio.h>
#ifndef CD_CONFIG_H
#define CD_CONFIG_H
/* a guard-like conditional after an #include and before more code is not
   a guard the checker can assume: undecided, reported as not read */
//lifetime:release cd_g arg=0 // want `//lifetime:release cd_g is not read: it is inside an arm of .#ifndef CD_CONFIG_H. \(line 26\)`
#endif
int cd_after;
