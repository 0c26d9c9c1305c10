package main_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVetFixSaysUnfixed checks that go vet -fix and go fix -fixtool, whose
// fix mode prints no finding and exits 0, print the findings they leave
// unfixed (a double free has no fix; a fix in a cgo file is one go vet
// cannot apply), leave the file as it was, and print them again when the go
// command answers the second run from its cache.
func TestVetFixSaysUnfixed(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n\ngo 1.22\n"), 0o666)
	src := []byte(`package p

/*
#include <stdlib.h>
typedef struct res { int x; } res;
static int res_use(res *r) { return r->x; }
static void res_free(res *r) { free(r); }
*/
import "C"

import "runtime"

type Res struct{ r *C.res }

func Open(r *C.res) *Res {
	x := &Res{r}
	runtime.SetFinalizer(x, func(x *Res) { C.res_free(x.r) })
	return x
}

func (x *Res) Use() int { return int(C.res_use(x.r)) }

func Twice() {
	q := C.malloc(8)
	C.free(q)
	C.free(q)
}
`)
	file := filepath.Join(dir, "p.go")
	os.WriteFile(file, src, 0o666)
	for _, args := range [][]string{
		{"vet", "-vettool=" + bin, "-fix", "."},
		{"vet", "-vettool=" + bin, "-fix", "."}, // answered from go's cache
		{"fix", "-fixtool=" + bin, "."},
	} {
		stdout, stderr, _ := run(t, dir, "go", args...)
		out := stdout + stderr
		if !strings.Contains(out, "p.go:26:2: q is released twice") || !strings.Contains(out, "[doublerelease] (not fixed") {
			t.Errorf("go %s: the double free is not said; output:\n%s", strings.Join(args, " "), out)
		}
		if !strings.Contains(out, "p.go:21:") || !strings.Contains(out, "[finalizer] (not fixed") {
			t.Errorf("go %s: the finalizer finding in a cgo file is not said; output:\n%s", strings.Join(args, " "), out)
		}
		if got, _ := os.ReadFile(file); !bytes.Equal(got, src) {
			t.Errorf("go %s changed p.go:\n%s", strings.Join(args, " "), got)
		}
	}
}
