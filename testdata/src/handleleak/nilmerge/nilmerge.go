// Package nilmerge holds the handleleak cases of a handle acquired only on
// some paths, into a variable that stays nil on the others, and released
// under a nil test: on every path the variable is the handle or nil, also
// after enough unrelated branches (flags, a switch) that the paths are
// merged.
package nilmerge

/*
#include <stdlib.h>
typedef struct img { int n; } img;
//lifetime:acquire img_load
//lifetime:release img_unref
static img *img_load(const char *path) { return malloc(sizeof(img)); }
static void img_unref(img *m) { free(m); }
static int render(const img *a, const img *b, int flags) { return flags; }
static int set_opt(int k, const char *v) { return v ? k : -1; }
*/
import "C"

import "unsafe"

type Job struct {
	Base, Overlay      string
	Sharp, Gray, Flip  bool
	Crop, Rotate, Fast bool
}

// Render acquires each image only when its path is set, into fields of a
// local struct, and releases each under a nil test at the end (silent
// before the merge kept "the handle or nil" too: a known negative).
func Render(j Job) int {
	var im struct{ base, over *C.img }
	f := 0
	if j.Sharp {
		f |= 1
	}
	if j.Gray {
		f |= 2
	}
	if j.Flip {
		f |= 4
	}
	if j.Crop {
		f |= 8
	}
	if j.Base != "" {
		p := C.CString(j.Base)
		im.base = C.img_load(p)
		C.free(unsafe.Pointer(p))
	}
	if j.Overlay != "" {
		p := C.CString(j.Overlay)
		im.over = C.img_load(p)
		C.free(unsafe.Pointer(p))
	}
	n := int(C.render(im.base, im.over, C.int(f)))
	if im.base != nil {
		C.img_unref(im.base)
	}
	if im.over != nil {
		C.img_unref(im.over)
	}
	return n
}

// RenderLeak forgets the overlay on the early return.
func RenderLeak(j Job) int {
	var base, over *C.img
	f := 0
	if j.Sharp {
		f |= 1
	}
	if j.Gray {
		f |= 2
	}
	if j.Flip {
		f |= 4
	}
	if j.Crop {
		f |= 8
	}
	if j.Base != "" {
		p := C.CString(j.Base)
		base = C.img_load(p)
		C.free(unsafe.Pointer(p))
	}
	if j.Overlay != "" {
		p := C.CString(j.Overlay)
		over = C.img_load(p) // want `the handle C.img_load returns is not released on every path`
		C.free(unsafe.Pointer(p))
	}
	n := int(C.render(base, over, C.int(f)))
	if base != nil {
		C.img_unref(base)
	}
	if n < 0 {
		return n
	}
	if over != nil {
		C.img_unref(over)
	}
	return n
}

// unrefIfSet is a helper that releases only a non-nil image.
func unrefIfSet(m *C.img) {
	if m != nil {
		C.img_unref(m)
	}
}

// Apply sets each option in a loop, converting its value only when set,
// choosing the call by a switch, and freeing through a helper.
type Set struct{ vals map[string]string }

func (s *Set) Apply(keys []string) int {
	bad := 0
	for _, k := range keys {
		var m *C.img
		if v := s.vals[k]; v != "" {
			p := C.CString(v)
			m = C.img_load(p)
			C.free(unsafe.Pointer(p))
		}
		var rc C.int
		switch k {
		case "a":
			rc = C.render(m, nil, 1)
		case "b":
			rc = C.render(m, nil, 2)
		case "c":
			rc = C.render(nil, m, 3)
		case "d":
			rc = C.render(nil, m, 4)
		case "e":
			rc = C.render(m, m, 5)
		}
		unrefIfSet(m)
		if rc < 0 {
			bad++
		}
	}
	return bad
}

// A deferred closure frees the C strings a few options made, each only
// when it was made; the flags first.
func Configure(j Job, user, pass, host string) int {
	var cu, cp, ch *C.char
	defer func() {
		for _, p := range []*C.char{cu, cp, ch} {
			if p != nil {
				C.free(unsafe.Pointer(p))
			}
		}
	}()
	k := 0
	if j.Fast {
		k++
	}
	if j.Rotate {
		k++
	}
	if j.Crop {
		k++
	}
	if j.Flip {
		k++
	}
	if user != "" {
		cu = C.CString(user)
	}
	if pass != "" {
		cp = C.CString(pass)
	}
	if host != "" {
		ch = C.CString(host)
	}
	return int(C.set_opt(C.int(k), cu)) + int(C.set_opt(1, cp)) + int(C.set_opt(2, ch))
}

// The test inverted: the handle is freed only where it is nil.
func Inverted(j Job, path string) int {
	var m *C.img
	f := 0
	if j.Sharp {
		f |= 1
	}
	if j.Gray {
		f |= 2
	}
	if j.Flip {
		f |= 4
	}
	if j.Crop {
		f |= 8
	}
	if path != "" {
		p := C.CString(path)
		m = C.img_load(p) // want `the handle C.img_load returns is not released on every path`
		C.free(unsafe.Pointer(p))
	}
	n := int(C.render(m, nil, C.int(f)))
	if m == nil {
		C.img_unref(m)
	}
	return n
}
