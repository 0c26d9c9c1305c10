package model

import (
	"fmt"
	"go/types"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// builtinLibraries are the libraries lifetimevet knows out of the box; each
// has a data file data/NAME.model holding a section "library NAME".
var builtinLibraries = []string{
	"cuda-driver", "cuda-runtime", "libc",
	"cublas", "cublaslt", "cudnn", "cufft", "curand", "cusparse", "cusolver",
	"nccl", "nvrtc", "nvml", "nvjpeg",
	"opencl", "vulkan", "hip", "level-zero",
	"onnxruntime", "llama", "ggml",
	"sqlite", "libgit2", "glib", "vips",
}

func TestBuiltinModels(t *testing.T) {
	m, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	libs := map[string]*Library{}
	for _, l := range m.Libraries {
		if libs[l.Name] != nil {
			t.Errorf("library %s declared in %s and %s", l.Name, libs[l.Name].Source, l.Source)
		}
		libs[l.Name] = l
		if l.Doc == "" {
			t.Errorf("library %s names no documentation", l.Name)
		}
		// Every kind's parent is a kind of the same library.
		for k, p := range l.Kinds {
			if _, ok := l.Kinds[p]; p != "" && !ok {
				t.Errorf("library %s: kind %s belongs to undeclared kind %s", l.Name, k, p)
			}
		}
	}
	for _, want := range builtinLibraries {
		l := libs[want]
		if l == nil {
			t.Errorf("no built-in model for %s", want)
			continue
		}
		file := "data/" + want + ".model"
		if _, err := builtinFS.ReadFile(file); err != nil {
			t.Errorf("library %s: no data file %s", want, file)
		}
		if !strings.HasPrefix(l.Source, "builtin:"+want+".model:") {
			t.Errorf("library %s is declared in %s, want %s", want, l.Source, file)
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
	for _, lib := range builtinLibraries {
		if c := counts[lib]; c[0] == 0 || c[1] == 0 {
			t.Errorf("library %s: %d acquisitions, %d releases", lib, c[0], c[1])
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
			} else if u, err := url.Parse(e.Doc); err != nil || u.Scheme != "https" || u.Host == "" {
				t.Errorf("%s (%s): documentation %q is not an https URL", e.Func, e.Source, e.Doc)
			}
			if e.Kind == "" && e.Role != Uses { // borrow NAME arg=N: a use, of any kind
				t.Errorf("%s (%s): no kind", e.Func, e.Source)
			}
			// An entry naming its parent argument makes a handle of a kind
			// that belongs to another.
			if e.Parent != None && libs[e.Library].Kinds[e.Kind] == "" {
				t.Errorf("%s (%s): parent=%d, but kind %s of %s belongs to no kind", e.Func, e.Source, e.Parent, e.Kind, e.Library)
			}
		}
	}
	// A function belongs to one library: entries of two libraries for one
	// function would all apply.
	for _, name := range m.Funcs() {
		es := m.Entries(name)
		for _, e := range es[1:] {
			if e.Library != es[0].Library {
				t.Errorf("%s is modelled by %s (%s) and %s (%s)", name, es[0].Library, es[0].Source, e.Library, e.Source)
			}
		}
	}

	one := func(name string, role Role) *Entry {
		t.Helper()
		var found *Entry
		for _, e := range m.Entries(name) {
			if e.Role == role {
				if found != nil {
					t.Errorf("%s: two %s entries", name, role)
				}
				found = e
			}
		}
		if found == nil {
			t.Fatalf("%s: no %s entry", name, role)
		}
		return found
	}
	if got := m.Releases("cuMemFree", nil); len(got) != 1 || got[0].Arg != 0 || got[0].Kind != "device-memory" {
		t.Errorf("cuMemFree: %v", got)
	}
	if got := m.Acquires("cuDevicePrimaryCtxRetain"); len(got) != 1 || got[0].Out != 0 || got[0].Key != 1 || !got[0].Counted {
		t.Errorf("cuDevicePrimaryCtxRetain: %v", got)
	}
	for _, tc := range []struct {
		name string
		role Role
		want string // Entry.String()
	}{
		{"cublasCreate_v2", Acquire, "acquire cublasCreate_v2 out=0 kind=cublas-handle"},
		{"cublasLtMatmulDescDestroy", Release, "release cublasLtMatmulDescDestroy arg=0 kind=matmul-descriptor"},
		{"cudnnCreateSpatialTransformerDescriptor", Acquire, "acquire cudnnCreateSpatialTransformerDescriptor out=0 kind=spatial-transformer-descriptor"},
		{"cudnnBackendCreateDescriptor", Acquire, "acquire cudnnBackendCreateDescriptor out=1 kind=backend-descriptor"},
		{"cusparseSpMMOp_createPlan", Acquire, "acquire cusparseSpMMOp_createPlan out=1 parent=0 kind=spmmop-plan"},
		{"ncclCommSplit", Acquire, "acquire ncclCommSplit out=3 kind=communicator"},
		{"nvrtcCreateProgram", Acquire, "acquire nvrtcCreateProgram out=0 kind=program"},
		{"nvrtcDestroyProgram", Release, "release nvrtcDestroyProgram arg=0 kind=program indirect clears"},
		{"nvmlInit_v2", Acquire, "acquire nvmlInit_v2 kind=nvml-state global"},
		{"nvmlShutdown", Release, "release nvmlShutdown kind=nvml-state global"},
		{"nvmlDeviceGetHandleByIndex_v2", Borrow, "borrow nvmlDeviceGetHandleByIndex_v2 out=1 kind=device"},
		{"clCreateCommandQueueWithProperties", Acquire, "acquire clCreateCommandQueueWithProperties result parent=0 kind=command-queue counted"},
		{"clRetainMemObject", Acquire, "acquire clRetainMemObject key=0 kind=mem"},
		{"clReleaseMemObject", Release, "release clReleaseMemObject arg=0 key=0 kind=mem"},
		{"clCreateKernel", Acquire, "acquire clCreateKernel result parent=0 kind=kernel counted"},
		{"vkCreateBuffer", Acquire, "acquire vkCreateBuffer out=3 parent=0 kind=buffer"},
		{"vkDestroyBuffer", Release, "release vkDestroyBuffer arg=1 kind=buffer"},
		{"vkFreeCommandBuffers", Release, "release vkFreeCommandBuffers arg=3 kind=command-buffer indirect"},
		{"hipFree", Release, "release hipFree arg=0 kind=device-memory"},
		{"zeMemAllocShared", Acquire, "acquire zeMemAllocShared out=6 parent=0 kind=memory"},
		{"zeMemFree", Release, "release zeMemFree arg=1 kind=memory"},
		{"CreateSessionFromArray", Acquire, "acquire CreateSessionFromArray out=4 parent=0 kind=session"},
		{"CreateSession", Acquire, "acquire CreateSession out=3 parent=2 kind=session"},
		{"ReleaseOrtValue", Release, "release ReleaseOrtValue arg=0 kind=value"},
		{"llama_init_from_model", Acquire, "acquire llama_init_from_model result parent=0 kind=context"},
		{"llama_sampler_chain_add", Transfer, "transfer llama_sampler_chain_add arg=1 kind=sampler"},
		{"ggml_backend_graph_plan_free", Release, "release ggml_backend_graph_plan_free arg=1 kind=graph-plan"},
		{"sqlite3_open_v2", Acquire, "acquire sqlite3_open_v2 out=1 kind=connection"},
		{"sqlite3_prepare_v3", Acquire, "acquire sqlite3_prepare_v3 out=4 kind=statement"},
		{"sqlite3_blob_open", Acquire, "acquire sqlite3_blob_open out=6 kind=blob"},
		{"git_repository_open", Acquire, "acquire git_repository_open out=0 kind=repository"},
		{"git_commit_lookup", Acquire, "acquire git_commit_lookup out=0 parent=1 kind=object"},
		{"git_buf_dispose", Release, "release git_buf_dispose arg=0 kind=buf indirect clears"},
		{"git_libgit2_init", Acquire, "acquire git_libgit2_init kind=libgit2-state global"},
		{"g_object_ref", Acquire, "acquire g_object_ref result key=0 kind=object"},
		{"g_object_unref", Release, "release g_object_unref arg=0 key=0 kind=object"},
		{"g_clear_object", Release, "release g_clear_object arg=0 kind=object counted indirect clears"},
		{"vips_resize", Acquire, "acquire vips_resize out=1 kind=object counted"},
	} {
		if got := one(tc.name, tc.role).String(); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
	// ncclCommAbort then ncclCommDestroy releases one communicator twice.
	if a, d := one("ncclCommAbort", Release), one("ncclCommDestroy", Release); !Compatible(a.Class(), d.Class()) {
		t.Errorf("ncclCommAbort (%s) and ncclCommDestroy (%s) release different things", a.Class(), d.Class())
	}
	// g_object_ref counts a reference g_object_unref drops: both keyed by the object.
	if r, u := one("g_object_ref", Acquire), one("g_object_unref", Release); r.Key != 0 || u.Key != 0 || !u.Counted || r.Out != Returned {
		t.Errorf("g_object_ref %v, g_object_unref %v", r, u)
	}
}

func TestLentAndUses(t *testing.T) {
	m, err := ParseFile("l.model", []byte(`library l
doc https://example.com/l
kind mod
kind fn parent=mod
kind pool
kind item parent=pool freed-with-parent
acquire mod_load out=0 kind=mod
acquire mod_symbol out=0 borrowed-from=1 kind=fn
borrow pool_peek result borrowed-from=0 kind=item
acquire pool_take result kind=item
acquire pool_child out=1 parent=0 freed-with-parent
borrow mod_run arg=0
borrow mod_run arg=2
`))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"mod_symbol": "borrow mod_symbol out=0 borrowed-from=1 kind=fn",
		"pool_peek":  "borrow pool_peek result borrowed-from=0 kind=item",
		"pool_child": "acquire pool_child out=1 parent=0 freed-with-parent",
		"mod_run":    "borrow mod_run arg=0",
	} {
		if got := m.Entries(name)[0].String(); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if !m.Uses("mod_run", 0) || m.Uses("mod_run", 1) || !m.Uses("mod_run", 2) {
		t.Errorf("mod_run uses: %v", m.Entries("mod_run"))
	}
	if len(m.Releases("mod_run", nil)) != 0 || len(m.Acquires("mod_run")) != 0 {
		t.Errorf("a borrow of an argument neither acquires nor releases")
	}
	if !m.FreedWithParent(m.Entries("pool_take")[0]) || !m.FreedWithParent(m.Entries("pool_child")[0]) || m.FreedWithParent(m.Entries("mod_load")[0]) {
		t.Errorf("freed-with-parent: kind item and pool_child are, mod is not")
	}
}

func TestParseFileErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"acquire f", "m.model:1: acquire before any library line"},
		{"library l\nrelease", "m.model:2: release needs a C function name"},
		{"library l\nrelease f arg=-1", `m.model:2: arg="-1": want an argument index from 0`},
		{"library l\nrelease f arg=", `m.model:2: arg="": want an argument index from 0`},
		{"library l\nrelease f arg=2147483647", `m.model:2: arg=2147483647: out of range: an argument index counts the C function's parameters from 0, and no C function takes that many (at most 64 here)`},
		{"library l\nrelease f arg=99999999999999999999", `m.model:2: arg=99999999999999999999: out of range`},
		{"library l\nrelease f out=1", `m.model:2: release does not take "out=1"`},
		{"library l\nfrobnicate f", `m.model:2: unknown verb "frobnicate"`},
		{"library l\nacquire f kind=x", "m.model:2: kind x is not declared in library l"},
		{"library l\nkind a parent=b", "m.model:2: parent kind b is not declared before kind a"},
		{"library l\nlibrary l", "m.model:2: library l declared twice: at m.model:1 and here"},
		{"library l\nkind k\nkind j\nkind k parent=j", "m.model:4: kind k declared twice in library l: at m.model:2 and here"},
		{"library l\nacquire 9f", `m.model:2: "9f" is not a C function name`},
		{"library l\nrelease f arg=1 arg=2", "m.model:2: arg given twice"},
		{"library l\nrelease f global indirect clears", "m.model:2: global excludes indirect and clears"},
		{"library l\nkind a freed-with-parent", "m.model:2: freed-with-parent needs parent=KIND"},
		{"library l\nkind a\nkind b parent=a freed", "m.model:3: want: kind NAME [parent=KIND [freed-with-parent]]"},
		{"library l\nacquire f out=0 freed-with-parent", "m.model:2: freed-with-parent needs parent=N"},
		{"library l\nacquire f out=0 borrowed-from=0", "m.model:2: borrowed-from=0 names the out-parameter itself"},
		{"library l\nacquire f out=0 parent=1 borrowed-from=1", "m.model:2: borrowed-from excludes parent="},
		{"library l\nborrow f arg=0 result", "m.model:2: borrow with arg= says the function uses argument N"},
		{"library l\nrelease f borrowed-from=1", `m.model:2: release does not take "borrowed-from=1"`},
		{"library l\rrelease f arg=0\r", "m.model:1: line ends are bare CR; use LF or CRLF"},
		{"library l\r\nrelease f arg=0\r\n# x\ry\n", "m.model:3: line ends are bare CR; use LF or CRLF"},
		{"\ufeffrelease f arg=0", "m.model:1: release before any library line"},         // the BOM skipped, the line counted as written
		{"library l\n\ufeffrelease f arg=0", `m.model:2: unknown verb "\ufeffrelease"`}, // a BOM is skipped at the start only
	} {
		_, err := ParseFile("m.model", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFile(%q) = %v, want error containing %q", tc.src, err, tc.want)
		}
	}
}

// TestModelFileBOM: a model file that starts with a UTF-8 byte order mark
// (as some editors save) reads as without it, and lines keep their numbers.
func TestModelFileBOM(t *testing.T) {
	m, err := ParseFile("m.model", []byte("\ufefflibrary l\r\nrelease f arg=0\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	es := m.Entries("f")
	if len(es) != 1 || es[0].Source != "m.model:2" || m.Libraries[0].Name != "l" {
		t.Errorf("entries %v, libraries %v", es, m.Libraries)
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

// cgoTypes makes a package holding the types cgo would write for the C
// declarations of a test: a pointer to _Ctype_struct_NAME for each struct,
// and the typedef aliases of the structs.
type cgoTypes struct {
	pkg *types.Package
}

func newCgoTypes() *cgoTypes { return &cgoTypes{types.NewPackage("example.com/p", "p")} }

// ptr returns *_Ctype_struct_NAME (declaring the struct once).
func (c *cgoTypes) ptr(name string) types.Type {
	tn := "_Ctype_struct_" + name
	if obj := c.pkg.Scope().Lookup(tn); obj != nil {
		return types.NewPointer(obj.Type())
	}
	obj := types.NewTypeName(0, c.pkg, tn, nil)
	types.NewNamed(obj, types.NewStruct(nil, nil), nil)
	c.pkg.Scope().Insert(obj)
	return types.NewPointer(obj.Type())
}

// alias declares typedef struct NAME ALIAS (type _Ctype_ALIAS = _Ctype_struct_NAME).
func (c *cgoTypes) alias(alias, name string) {
	elem := c.ptr(name).(*types.Pointer).Elem()
	obj := types.NewTypeName(0, c.pkg, "_Ctype_"+alias, nil)
	types.NewAlias(obj, elem)
	c.pkg.Scope().Insert(obj)
}

// handle returns a typedef of void* (type _Ctype_NAME unsafe.Pointer).
func (c *cgoTypes) handle(name string) types.Type {
	obj := types.NewTypeName(0, c.pkg, "_Ctype_"+name, nil)
	return types.NewNamed(obj, types.Typ[types.UnsafePointer], nil)
}

func sigOf(params ...types.Type) *types.Signature {
	var vs []*types.Var
	for i, p := range params {
		vs = append(vs, types.NewVar(0, nil, fmt.Sprint("p", i), p))
	}
	return types.NewSignatureType(nil, nil, nil, types.NewTuple(vs...), nil, false)
}

func TestDestructorNames(t *testing.T) {
	c := newCgoTypes()
	void := types.Typ[types.UnsafePointer]
	num := types.Typ[types.Int]
	c.alias("widget", "__0") // typedef struct { ... } widget;
	for _, tc := range []struct {
		name     string
		sig      *types.Signature
		arg      int  // -1: no release
		indirect bool // a release of what the argument points to, which it clears
	}{
		// the handle's address (T **): its pointee is released and set
		// to NULL
		{"av_frame_free", sigOf(types.NewPointer(c.ptr("AVFrame"))), 0, true},
		{"img_destroy", sigOf(types.NewPointer(c.ptr("img_t"))), 0, true},
		{"av_packet_free", sigOf(types.NewPointer(c.ptr("AVPacket"))), 0, true},
		{"release_pool", sigOf(num, types.NewPointer(c.ptr("pool_s"))), 1, true},
		{"widget_close", sigOf(c.ptr("__0")), 0, false},
		// the verb last, the object part naming the argument's type
		{"nft_rule_free", sigOf(c.ptr("nft_rule")), 0, false},
		{"cuStreamDestroy", sigOf(c.ptr("CUstream_st")), 0, false},
		{"fdb_database_destroy", sigOf(c.ptr("FDBDatabase")), 0, false},
		{"ArrowSchemaRelease", sigOf(c.ptr("ArrowSchema")), 0, false},
		{"tensor_delete", sigOf(c.ptr("my_tensor_t")), 0, false},
		{"kv_database_destroy", sigOf(c.ptr("kv_db")), 0, false}, // the type's name abbreviates the object's
		{"sql_stmt_finish_close", sigOf(c.ptr("sql_statement")), -1, false},
		{"widget_close", sigOf(c.ptr("__0")), 0, false}, // through the typedef of an anonymous struct
		{"quux_cursor_free", sigOf(c.handle("quux_ioctx_t"), c.handle("quux_cursor")), 1, false},
		// the verb first
		{"free_verifier", sigOf(c.ptr("verifier")), 0, false},
		{"ZQ_freeDCtx", sigOf(c.ptr("ZQ_DCtx_s")), 0, false},
		{"DestroyPixelCanvas", sigOf(c.ptr("_PixelCanvas")), 0, false},
		{"release_pool", sigOf(num, c.ptr("pool_s")), 1, false},
		// a library's free of untyped memory
		{"kv_free", sigOf(void), 0, false},
		// not releases
		{"CanvasSetImageDispose", sigOf(c.ptr("_PixelCanvas"), num), -1, false},                     // a setter
		{"kvdb_delete", sigOf(c.ptr("kvdb_t"), c.ptr("kvdb_writeoptions_t"), void, num), -1, false}, // a delete of a key
		{"table_delete", sigOf(c.ptr("table"), num), -1, false},
		{"quux_cursor_free", sigOf(c.handle("quux_ioctx_t"), c.handle("quux_thing")), -1, false}, // no argument fits
		{"ZQ_freeDCtx", sigOf(c.ptr("ZQ_CCtx_s")), -1, false},
		{"nft_free", sigOf(num), -1, false},
		{"fsx_release", sigOf(c.ptr("fsx_mount_info")), 0, false},     // the library's own object, named by its prefix
		{"fsx_close", sigOf(c.ptr("fsx_mount_info"), num), -1, false}, // closes a descriptor of the mount
		{"fsx_lock_release", sigOf(c.ptr("fsx_image"), void), -1, false},
		{"cuStreamDestroy", sigOf(void), -1, false},
		{"free", sigOf(void), -1, false}, {"close", sigOf(num), -1, false},
		{"freeze_frame", sigOf(c.ptr("frame")), -1, false}, {"closest_point", sigOf(c.ptr("point")), -1, false},
		{"delete_file_list", sigOf(void), -1, false}, {"use", sigOf(void), -1, false},
		{"set_release_date", sigOf(c.ptr("date")), -1, false},
	} {
		m := New()
		got := m.Releases(tc.name, tc.sig)
		switch {
		case tc.arg < 0 && len(got) > 0:
			t.Errorf("%s%s: released argument %d, want no release", tc.name, tc.sig, got[0].Arg)
		case tc.arg >= 0 && (len(got) != 1 || got[0].Arg != tc.arg || !got[0].ByName):
			t.Errorf("%s%s: %v, want a release of argument %d by name", tc.name, tc.sig, got, tc.arg)
		case tc.arg >= 0 && (got[0].Indirect != tc.indirect || got[0].Clears != tc.indirect):
			t.Errorf("%s%s: indirect %v, clears %v, want %v", tc.name, tc.sig, got[0].Indirect, got[0].Clears, tc.indirect)
		}
	}
}

// FuzzParseFile checks that no model file makes the parser panic; its seeds
// run in every go test.
func FuzzParseFile(f *testing.F) {
	f.Add([]byte("library l\ndoc x\nkind k\nacquire f out=0 kind=k\nrelease g arg=1 kind=k\n"))
	f.Add([]byte("library l\nacquire f key=1\nrelease g key=0 counted\nborrow h result\ntransfer t arg=2\n"))
	f.Add([]byte("library\n\x00\n=\nrelease = =\n"))
	f.Add([]byte("library l\nkind p\nkind c parent=p freed-with-parent\noverride release free\nborrow g arg=1\nborrow g arg=1\n"))
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
	for _, s := range []string{"acquire ctx_create", "release mem_free arg=1", "acquire stream_create parent=0 out=1", "borrow x result", "release", "acquire f result out=1",
		"borrow f arg=0", "acquire f out=0 borrowed-from=1", "acquire f out=1 parent=0 freed-with-parent", "borrow f arg=0 result"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseEntry(s)
		if err == nil && e == nil {
			t.Fatal("nil entry without error")
		}
	})
}

// TestModelFileParsedOnce checks that a model file is parsed once per
// process and content, not once per package: two loads share its entries,
// and an edit is seen.
func TestModelFileParsedOnce(t *testing.T) {
	name := filepath.Join(t.TempDir(), "mine.model")
	if err := os.WriteFile(name, []byte("library mine\ndoc https://example.com\nkind k\nacquire mine_open kind=k\nrelease mine_close kind=k\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m1, err1 := Load([]string{name})
	m2, err2 := Load([]string{name})
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if e1, e2 := m1.Entries("mine_open"), m2.Entries("mine_open"); len(e1) != 1 || len(e2) != 1 || e1[0] != e2[0] {
		t.Errorf("the model file was parsed again: %v %v", e1, e2)
	}
	if err := os.WriteFile(name, []byte("library mine\ndoc https://example.com\nkind k\nacquire mine_open2 kind=k\nrelease mine_close kind=k\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m3, err := Load([]string{name})
	if err != nil || len(m3.Entries("mine_open2")) != 1 || len(m3.Entries("mine_open")) != 0 {
		t.Errorf("the edited model file was not read again: %v", err)
	}
}

// TestContradictoryModels checks that a model file that repeats an entry,
// gives one C function two roles for one argument, or redefines a built-in
// entry without "override" is an error naming both places.
func TestContradictoryModels(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"library l\nrelease f arg=0\nrelease f arg=0", `m.model:3: release f arg=0 repeats the entry at m.model:2`},
		{"library l\nacquire f result\nborrow f result", `m.model:3: borrow f result contradicts "acquire f result" at m.model:2: one C function with two roles for the result`},
		{"library l\nborrow f arg=1\ntransfer f arg=1", `m.model:3: transfer f arg=1 contradicts "borrow f arg=1" at m.model:2`},
		{"library l\nrelease f arg=0\nrelease f arg=0 indirect", `contradicts "release f arg=0" at m.model:2: one C function with two roles for argument 0`},
		// an out-parameter is an argument: written through and released
		{"library l\nacquire g out=0\nrelease g arg=0", `m.model:3: release g arg=0 contradicts "acquire g out=0" at m.model:2: one C function with two roles for argument 0`},
		{"library l\ntransfer g arg=1\n\nacquire g out=1", `m.model:4: acquire g out=1 contradicts "transfer g arg=1" at m.model:2: one C function with two roles for argument 1`},
	} {
		_, err := ParseFile("m.model", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFile(%q) = %v, want error containing %q", tc.src, err, tc.want)
		}
	}
	// Complementary entries of one function are not contradictions.
	if _, err := ParseFile("m.model", []byte("library l\nrelease g arg=0\nacquire g result\nborrow h result\nborrow h arg=0\nborrow h arg=1\nacquire r out=0\nrelease r arg=0 indirect\nacquire o out=1\nrelease o arg=0\n")); err != nil {
		t.Errorf("complementary entries: %v", err)
	}

	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	redef := write("redef.model", "library libc\nborrow free result\n")
	if _, err := Load([]string{redef}); err == nil || !strings.Contains(err.Error(), "redef.model:2: borrow free result redefines C.free, which builtin:libc.model:") ||
		!strings.Contains(err.Error(), `write "override borrow free result"`) {
		t.Errorf("redefinition of free: %v", err)
	}
	over := write("over.model", "library mylibc\noverride release free arg=0\n")
	m, err := Load([]string{over})
	if err != nil {
		t.Fatalf("override: %v", err)
	}
	if es := m.Entries("free"); len(es) != 1 || !strings.HasSuffix(es[0].Source, "over.model:2") {
		t.Errorf("override: free is %v", es)
	}
	stale := write("stale.model", "library l\noverride release no_such_free arg=0\n")
	if _, err := Load([]string{stale}); err == nil || !strings.Contains(err.Error(), "stale.model:2: override release no_such_free arg=0: no earlier model describes C.no_such_free") {
		t.Errorf("override of nothing: %v", err)
	}
	// Across files, the same two roles are a redefinition, unless the
	// second says "override".
	acq, rel := write("acq.model", "library acq\nacquire g_open out=0\n"), write("rel.model", "library rel\nrelease g_open arg=0\n")
	if _, err := Load([]string{acq, rel}); err == nil || !strings.Contains(err.Error(), "rel.model:2: release g_open arg=0 redefines C.g_open, which "+acq+":2 already describes") {
		t.Errorf("two roles across model files: %v", err)
	}
	relOver := write("relover.model", "library rel\noverride release g_open arg=0\n")
	if m, err := Load([]string{acq, relOver}); err != nil {
		t.Errorf("two roles across model files, with override: %v", err)
	} else if es := m.Entries("g_open"); len(es) != 1 || es[0].Role != Release {
		t.Errorf("override: g_open is %v, want the release only", es)
	}
	// The same file given twice, under two spellings or through a link,
	// is loaded once, silently.
	mine := write("mine.model", "library mine\nrelease mine_free arg=0\n")
	link := filepath.Join(dir, "link.model")
	if err := os.Symlink(mine, link); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, ".", "sub", "..", "mine.model")
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if m, err := Load([]string{mine, mine, other, link}); err != nil {
		t.Errorf("one model file given three times: %v", err)
	} else if es := m.Entries("mine_free"); len(es) != 1 {
		t.Errorf("one model file given three times: mine_free is %v, want one entry", es)
	}
	// Two model files may not redefine each other's entries either.
	a, b := write("a.model", "library a\nrelease a_free\n"), write("b.model", "library b\nrelease a_free arg=1\n")
	if _, err := Load([]string{a, b}); err == nil || !strings.Contains(err.Error(), "b.model:2: release a_free arg=1 redefines C.a_free, which") {
		t.Errorf("redefinition across model files: %v", err)
	}
}

// TestLoadRefusesDevices checks that a model file that is not a regular
// file (a device that never ends, as /dev/zero) is an error naming it, not
// a read that never returns or exhausts memory.
func TestLoadRefusesDevices(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	_, err := Load([]string{"/dev/zero"})
	if err == nil || !strings.Contains(err.Error(), "/dev/zero: not a regular file") {
		t.Errorf("Load(/dev/zero): %v, want not a regular file", err)
	}
}

// TestParseFileCutsTokens: a runaway token a model file's error echoes (an
// unknown key with a 2 MB value, a long function name, an unknown verb)
// is cut to its first bytes and "…", as a directive's are; the file name
// and line stay whole.
func TestParseFileCutsTokens(t *testing.T) {
	long := strings.Repeat("x", 2_000_000)
	for _, tc := range []struct{ src, want string }{
		{"library l\nrelease h_done arg=0 doc=" + long, `m.model:2: release does not take "doc=` + strings.Repeat("x", 59) + "… (it takes"},
		{"library l\n" + long + " f", `m.model:2: unknown verb "` + strings.Repeat("x", 63) + "… (want"},
		{"library l\nnull-safe 9" + long, `m.model:2: null-safe "9` + strings.Repeat("x", 62) + "… want a C function name"},
	} {
		_, err := ParseFile("m.model", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || len(err.Error()) > 200 {
			msg := "<nil>"
			if err != nil {
				msg = err.Error()[:min(len(err.Error()), 300)]
			}
			t.Errorf("ParseFile: %d bytes: %s; want one starting %q", len(msg), msg, tc.want)
		}
	}
}
