package sharedglobal

// static void *c_api;
// static void c_set_api(void *p) { c_api = p; }
import "C"

// Silent: a plain assignment in C made by set-up API.
func SetAPI() { C.c_set_api(nil) }
