// The package's own .c file: read without its headers (the scanner does
// not open native.h, which declares CUcontext and NATIVE_API).
#include "native.h"

static int native_calls; // want `the file-scope C variable native_calls is written without a lock by native_entry`
int native_shared; // want `the file-scope C variable native_shared is written without a lock by native_helper \(line 12\), which native_entry calls`
_Atomic int native_atomic;
_Thread_local int native_tls;
const char *const native_name = "native";

static void native_helper(void) {
	native_shared++;
}

NATIVE_API int native_entry(CUcontext ctx) {
	native_calls++;
	native_helper();
	native_atomic++;
	native_tls++;
	return ctx != 0;
}
