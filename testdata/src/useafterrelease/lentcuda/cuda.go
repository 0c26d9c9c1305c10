// Package lentcuda checks the built-in model's lent handles: a function of
// a CUDA module is valid only while the module is loaded.
package lentcuda

/*
typedef int CUresult;
typedef struct CUmod_st { int n; } *CUmodule;
typedef struct CUfunc_st { int n; } *CUfunction;
typedef struct CUstream_st { int n; } *CUstream;
static CUresult cuModuleLoad(CUmodule* m, const char* path) { static struct CUmod_st x; *m = &x; return 0; }
static CUresult cuModuleUnload(CUmodule m) { return 0; }
static CUresult cuModuleGetFunction(CUfunction* f, CUmodule m, const char* name) { static struct CUfunc_st x; *f = &x; return 0; }
static CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
	unsigned shmem, CUstream s, void** params, void** extra) { return 0; }
*/
import "C"

type Kernel struct {
	mod C.CUmodule
	fn  C.CUfunction
}

func Load(path, name *C.char) (*Kernel, error) {
	k := &Kernel{}
	if C.cuModuleLoad(&k.mod, path) != 0 {
		return nil, nil
	}
	if C.cuModuleGetFunction(&k.fn, k.mod, name) != 0 {
		C.cuModuleUnload(k.mod)
		return nil, nil
	}
	return k, nil // the function is lent by the module, which k keeps: no leak
}

func launchAfterUnload(path, name *C.char) {
	var mod C.CUmodule
	var fn C.CUfunction
	C.cuModuleLoad(&mod, path)
	C.cuModuleGetFunction(&fn, mod, name)
	C.cuModuleUnload(mod)
	C.cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil) // want `fn is passed to C.cuLaunchKernel after C.cuModuleUnload released mod at line 40`
}

func launchThenUnload(path, name *C.char) {
	var mod C.CUmodule
	var fn C.CUfunction
	C.cuModuleLoad(&mod, path)
	defer C.cuModuleUnload(mod)
	C.cuModuleGetFunction(&fn, mod, name)
	C.cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, nil, nil, nil)
}
