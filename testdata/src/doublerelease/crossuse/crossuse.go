package crossuse

import "doublerelease/gpu"

func freeTwice() {
	b := gpu.Alloc(16)
	gpu.Free(b)
	gpu.Free(b) // want `b.p is released twice: by Free at line 7 and again here`
}

func releaseTwice() {
	b := gpu.Alloc(16)
	gpu.Release(b)
	gpu.Release(b)
}
