#ifndef CONDARMS_H
#define CONDARMS_H
// a directive inside an include guard is compiled: it is read
//lifetime:borrow cd_h arg=0 // want `//lifetime:borrow cd_h arg=0 repeats the entry at .*condarms.c:10:\d+`
#endif
