package cgocall

import (
	"go/types"
	"strings"
)

// HoldsC reports whether a value of type t holds a value of a C type (a
// name cgo gives a C type, _Ctype_...), directly or through pointers,
// arrays and struct fields, a few levels deep: whether it owns or refers
// to C memory or a C handle.
func HoldsC(t types.Type) bool { return holdsC(t, 0) }

func holdsC(t types.Type, depth int) bool {
	if depth > 3 {
		return false
	}
	switch u := types.Unalias(t).(type) {
	case *types.Pointer:
		return holdsC(u.Elem(), depth)
	case *types.Array:
		return holdsC(u.Elem(), depth)
	case *types.Slice:
		return holdsC(u.Elem(), depth+1)
	case *types.Map:
		return holdsC(u.Key(), depth+1) || holdsC(u.Elem(), depth+1)
	case *types.Named:
		if strings.HasPrefix(u.Obj().Name(), "_Ctype_") {
			return true
		}
		return holdsC(u.Underlying(), depth+1)
	case *types.Struct:
		for i := range u.NumFields() {
			if holdsC(u.Field(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}
