package model

import (
	"go/types"
	"slices"
	"testing"
)

func TestRetainPairNames(t *testing.T) {
	for _, tc := range []struct {
		name string
		want string // "": not a retain name
	}{
		{"obj_ref", "obj_unref"},
		{"gst_object_ref", "gst_object_unref"},
		{"CFRetain", "CFRelease"},
		{"BoxRetain", "BoxRelease"},
		{"cairo_surface_retain", "cairo_surface_release"},
		{"Py_IncRef", "Py_DecRef"},
		{"IUnknown_AddRef", "IUnknown_Release"},
		{"ObjRef", "ObjUnref"},
		{"ObjRef", "ObjUnRef"},
		{"OBJ_REF", "OBJ_UNREF"},
		{"obj_unref", ""}, {"obj_deref", ""}, {"Deref", ""}, {"ref", ""}, {"_ref", ""}, {"obj_ref_count", ""}, {"xref", ""},
	} {
		got := retainPairNames(tc.name)
		switch {
		case tc.want == "" && len(got) > 0:
			t.Errorf("%s: pairs %v, want none", tc.name, got)
		case tc.want != "" && !slices.Contains(got, tc.want):
			t.Errorf("%s: pairs %v, want %s among them", tc.name, got, tc.want)
		}
	}
}

func TestRetainByName(t *testing.T) {
	c := newCgoTypes()
	num := types.Typ[types.Int]
	obj, other := c.ptr("obj"), c.ptr("other")
	withResult := func(res types.Type, params ...types.Type) *types.Signature {
		s := sigOf(params...)
		return types.NewSignatureType(nil, nil, nil, s.Params(), types.NewTuple(types.NewVar(0, nil, "r", res)), false)
	}
	for _, tc := range []struct {
		desc string
		name string
		sig  *types.Signature
		sigs map[string]*types.Signature // the other C functions the package calls
		key  int                         // -1: no retain
		out  int
	}{
		{"the pair releases the object", "obj_ref", withResult(obj, obj), map[string]*types.Signature{"obj_unref": sigOf(obj)}, 0, Returned},
		{"no result", "obj_ref", sigOf(obj), map[string]*types.Signature{"obj_unref": sigOf(obj)}, 0, None},
		{"the key is the argument of the released type", "obj_ref", sigOf(num, obj), map[string]*types.Signature{"obj_unref": sigOf(obj)}, 1, None},
		{"the pair is not called", "obj_ref", sigOf(obj), map[string]*types.Signature{}, -1, None},
		{"the pair releases another type", "obj_ref", sigOf(obj), map[string]*types.Signature{"obj_unref": sigOf(other)}, -1, None},
		{"the pair reads as no release", "obj_ref", sigOf(obj), map[string]*types.Signature{"obj_unref": sigOf(num)}, -1, None},
		{"not a retain name", "obj_get", sigOf(obj), map[string]*types.Signature{"obj_unref": sigOf(obj)}, -1, None},
	} {
		m := New()
		e := m.retainByName(tc.name, tc.sig, tc.sigs)
		switch {
		case tc.key < 0 && e != nil:
			t.Errorf("%s: %s is a retain keyed by %d, want none", tc.desc, tc.name, e.Key)
		case tc.key >= 0 && (e == nil || e.Key != tc.key || e.Out != tc.out || !e.Counted || !m.RetainsExisting(e)):
			t.Errorf("%s: %s: %+v, want a retain keyed by %d, out %d", tc.desc, tc.name, e, tc.key, tc.out)
		}
	}
}

// A keyed acquisition retains an existing handle when something else makes
// its kind; otherwise it makes all the references to what it counts.
func TestRetainsExisting(t *testing.T) {
	m, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{
		"g_object_ref":             true,
		"clRetainContext":          true,
		"cuDevicePrimaryCtxRetain": false,
		"cuMemHostRegister":        false,
	} {
		es := m.Acquires(name)
		if len(es) == 0 {
			t.Errorf("%s: not in the built-in models", name)
			continue
		}
		if got := m.RetainsExisting(es[0]); got != want {
			t.Errorf("RetainsExisting(%s) = %v, want %v", name, got, want)
		}
	}
}
