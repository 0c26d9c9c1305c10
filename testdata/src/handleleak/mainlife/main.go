// Command mainlife holds the handleleak cases of main: what main holds
// lives until the process exits.
package main

/*
#include <stdlib.h>
typedef int CUresult;
typedef struct CUctx_st { int live; } *CUcontext;
static CUresult cuCtxCreate(CUcontext *c, unsigned flags, int dev) { return 0; }
static CUresult cuCtxDestroy(CUcontext c) { return 0; }
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
)

func run(ctx C.CUcontext) error {
	if len(os.Args) > 3 {
		return errors.New("too many arguments")
	}
	return nil
}

func main() {
	var ctx C.CUcontext
	if C.cuCtxCreate(&ctx, 0, 0) != 0 {
		fmt.Fprintln(os.Stderr, "no context")
		return
	}
	if len(os.Args) > 1 {
		fmt.Println("usage: mainlife")
		return
	}
	C.cuCtxDestroy(ctx)
}

// Not main: the early return leaks.
func probe() error {
	var ctx C.CUcontext
	if C.cuCtxCreate(&ctx, 0, 0) != 0 { // want `the handle C.cuCtxCreate acquires into ctx is not released on every path`
		return errors.New("no context")
	}
	if len(os.Args) > 1 {
		return errors.New("usage")
	}
	C.cuCtxDestroy(ctx)
	return nil
}
