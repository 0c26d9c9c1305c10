package sharedglobal

// int native_entry(void *ctx);
import "C"

func Native() int { return int(C.native_entry(nil)) }
