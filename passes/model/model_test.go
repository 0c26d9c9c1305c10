package model

import (
	"go/types"
	"strings"
	"testing"
)

func TestBuiltinModels(t *testing.T) {
	m, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	libs := map[string]*Library{}
	for _, l := range m.Libraries {
		libs[l.Name] = l
		if l.Doc == "" {
			t.Errorf("library %s names no documentation", l.Name)
		}
	}
	for _, want := range []string{"cuda-driver", "cuda-runtime", "libc"} {
		if libs[want] == nil {
			t.Errorf("no built-in model for %s", want)
		}
	}
	// Every release pairs with an acquisition of its kind in its library,
	// and every library both acquires and releases.
	acquired := map[string]bool{}
	counts := map[string][2]int{}
	for _, name := range m.Funcs() {
		for _, e := range m.Entries(name) {
			c := counts[e.Library]
			switch e.Role {
			case Acquire:
				acquired[e.Library+"/"+e.Kind] = true
				c[0]++
			case Release:
				c[1]++
			}
			counts[e.Library] = c
		}
	}
	for lib, c := range counts {
		if c[0] == 0 || c[1] == 0 {
			t.Errorf("library %s: %d acquisitions, %d releases", lib, c[0], c[1])
		}
	}
	for _, name := range m.Funcs() {
		for _, e := range m.Entries(name) {
			if e.Role == Release && !acquired[e.Library+"/"+e.Kind] {
				t.Errorf("%s (%s): release of kind %q pairs with no acquisition", e.Func, e.Source, e.Kind)
			}
			if e.Doc == "" {
				t.Errorf("%s (%s): no documentation", e.Func, e.Source)
			}
		}
	}
	if got := m.Releases("cuMemFree", nil); len(got) != 1 || got[0].Arg != 0 || got[0].Kind != "device-memory" {
		t.Errorf("cuMemFree: %v", got)
	}
	if got := m.Acquires("cuDevicePrimaryCtxRetain"); len(got) != 1 || got[0].Out != 0 || got[0].Key != 1 || !got[0].Counted {
		t.Errorf("cuDevicePrimaryCtxRetain: %v", got)
	}
}

func TestParseFileErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"acquire f", "m.model:1: acquire before any library line"},
		{"library l\nrelease", "m.model:2: release needs a C function name"},
		{"library l\nrelease f arg=-1", `m.model:2: arg="-1": want an argument index from 0`},
		{"library l\nrelease f out=1", `m.model:2: release does not take "out=1"`},
		{"library l\nfrobnicate f", `m.model:2: unknown verb "frobnicate"`},
		{"library l\nacquire f kind=x", "m.model:2: kind x is not declared in library l"},
		{"library l\nkind a parent=b", "m.model:2: parent kind b is not declared before kind a"},
		{"library l\nlibrary l", "m.model:2: library l declared twice"},
		{"library l\nacquire 9f", `m.model:2: "9f" is not a C function name`},
		{"library l\nrelease f arg=1 arg=2", "m.model:2: arg given twice"},
	} {
		_, err := ParseFile("m.model", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFile(%q) = %v, want error containing %q", tc.src, err, tc.want)
		}
	}
}

func TestParseFile(t *testing.T) {
	m, err := ParseFile("gpu.model", []byte(`# a project's own library
library mylib
doc https://example.com/mylib
kind session
kind tensor parent=session
acquire my_open result kind=session
acquire my_tensor out=1 parent=0 kind=tensor
release my_close kind=session   # argument 0
release my_tensor_free arg=1 kind=tensor
`))
	if err != nil {
		t.Fatal(err)
	}
	e := m.Entries("my_tensor")[0]
	if e.Out != 1 || e.Parent != 0 || e.Kind != "tensor" || e.Source != "gpu.model:7" || e.Doc != "https://example.com/mylib" {
		t.Errorf("my_tensor: %+v", e)
	}
	if m.Libraries[0].Kinds["tensor"] != "session" {
		t.Errorf("kinds: %v", m.Libraries[0].Kinds)
	}
	if r := m.Releases("my_tensor_free", nil); len(r) != 1 || r[0].Arg != 1 {
		t.Errorf("my_tensor_free: %v", r)
	}
}

func TestDestructorNames(t *testing.T) {
	ptr := types.NewSignatureType(nil, nil, nil, types.NewTuple(types.NewVar(0, nil, "p", types.Typ[types.UnsafePointer])), nil, false)
	num := types.NewSignatureType(nil, nil, nil, types.NewTuple(types.NewVar(0, nil, "n", types.Typ[types.Int])), nil, false)
	m := New()
	for name, want := range map[string]bool{
		"nft_free": true, "cuStreamDestroy": true, "g_object_unref": true, "mat_close": true,
		"tensor_delete": true, "free_verifier": true, "fdb_database_destroy": true, "ArrowSchemaRelease": true,
		"free": false, "close": false, "freeze_frame": false, "closest_point": false, "delete_file_list": false,
		"use": false, "set_release_date": false,
	} {
		if got := len(m.Releases(name, ptr)) > 0; got != want {
			t.Errorf("%s: destructor = %v, want %v", name, got, want)
		}
	}
	if len(m.Releases("nft_free", num)) > 0 {
		t.Errorf("nft_free(int) read as a destructor: the rule needs a pointer argument")
	}
}

// FuzzParseFile checks that no model file makes the parser panic; its seeds
// run in every go test.
func FuzzParseFile(f *testing.F) {
	f.Add([]byte("library l\ndoc x\nkind k\nacquire f out=0 kind=k\nrelease g arg=1 kind=k\n"))
	f.Add([]byte("library l\nacquire f key=1\nrelease g key=0 counted\nborrow h result\ntransfer t arg=2\n"))
	f.Add([]byte("library\n\x00\n=\nrelease = =\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseFile("fuzz.model", data)
		if err == nil && m == nil {
			t.Fatal("nil model without error")
		}
		if err != nil && !strings.HasPrefix(err.Error(), "fuzz.model:") {
			t.Fatalf("error does not name the file: %v", err)
		}
	})
}

// FuzzParseEntry checks the directive grammar the same way.
func FuzzParseEntry(f *testing.F) {
	for _, s := range []string{"acquire ctx_create", "release mem_free arg=1", "acquire stream_create parent=0 out=1", "borrow x result", "release", "acquire f result out=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseEntry(s)
		if err == nil && e == nil {
			t.Fatal("nil entry without error")
		}
	})
}
