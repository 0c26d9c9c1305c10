#include <stdlib.h>
typedef struct plc { int x; } plc;
static plc *plc_open(void) { return calloc(1, sizeof(plc)); }
static void plc_close(plc *p) { free(p); } //lifetime:release plc_close arg=0 // want `//lifetime:release after code on the same line is not read: a //lifetime: directive must be on a line of its own; move it to its own line before or after the declaration`
/* a comment first */ //lifetime:acquire plc_open // want `//lifetime:acquire after code on the same line is not read`
static const char *plc_doc = "see //lifetime:release plc_close"; // a string is not a comment
static int plc_n; /* //lifetime:release plc_close, inside a C comment, is C's prose */
// the lifetime: of a plc ends at plc_close (prose after code is left alone: no directive)
static int plc_m; // lifetime: the plc lives until plc_close
/* a C block comment over lines is C's prose:
   plc_open(); //lifetime:release plc_close arg=0
*/
static int plc_k; //lifetime:borrow plc_keep arg=0 // want `//lifetime:borrow after code on the same line is not read`
