// Near misses in a package C file are reported as in the preamble.
#include <stdlib.h>
///lifetime:release buf_drop arg=0 // want `with two slashes; did you mean //lifetime:release buf_drop arg=0\?`
//lifetimе:release buf_drop arg=0 // want `U\+0435.*did you mean //lifetime:release buf_drop arg=0\?`
//lifetime:​release buf_drop arg=0 // want `invisible character U\+200B; .*did you mean //lifetime:release buf_drop arg=0\?`
/// lifetime: prose in Doxygen style is left alone
