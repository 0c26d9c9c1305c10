package cpreamble

import (
	"go/token"
	"slices"
	"strings"
	"testing"
)

// parseString reads src as a .c file and resolves its functions' writes.
func parseString(t *testing.T, src string) *Result {
	t.Helper()
	return parseWith(t, &Result{byName: map[string][]*Func{}, vars: map[string][]*Var{}, reach: map[*Func][]Reach{}}, src)
}

// parseWith reads src as a .c file into r (which may hold headers read
// before).
func parseWith(t *testing.T, r *Result, src string) *Result {
	t.Helper()
	fset := token.NewFileSet()
	tf := fset.AddFile("x.c", -1, len(src))
	tf.SetLinesForContent([]byte(src))
	file := &File{Name: "x.c", segs: []seg{{off: 0, pos: tf.Pos(0), n: len(src)}}}
	p := r.read(file, []byte(src))
	r.link([]*parser{p})
	return r
}

func varNames(r *Result, pred func(*Var) bool) []string {
	var out []string
	for _, v := range r.Vars {
		if pred(v) {
			name := v.Name
			if v.Func != nil {
				name = v.Func.Name + "." + name
			}
			out = append(out, name)
		}
	}
	return out
}

func writes(r *Result, fn string) []string {
	var out []string
	for _, f := range r.Funcs {
		if f.Name == fn {
			for _, w := range f.Writes {
				out = append(out, w.Var.Name+w.Op)
			}
		}
	}
	return out
}

// The scanner needs no header: cuda.h is missing, CUresult and CUcontext
// are unknown, macros are not expanded.
const cudaLike = `#include <cuda.h>
#include "missing.h"
#define COUNT(x) ((x)++)
#ifdef __cplusplus
extern "C" {
#endif

static CUcontext g_ctx = NULL;
static size_t g_allocated_bytes, g_peak_bytes = 0;
static const char *g_name = "x";       /* a writable pointer to const */
static char *const g_fixed = 0;        // const itself
static const int g_limit = 4;
static _Atomic long g_atomic;
static _Thread_local int g_tls;
__thread int g_gnu_tls;
__declspec(thread) int g_ms_tls;
extern int g_extern;
int g_table[16] = { 1, 2, 3 };
struct node { int refs; struct node *next; } g_head;
typedef struct { int x; } point;
static void (*g_callback)(int);
CUresult cuInit(unsigned int flags);
static struct { int n; } g_anon;
enum { A, B };

__attribute__((unused)) static CUresult track(CUcontext c, size_t n) {
	size_t local = n;
	g_allocated_bytes += n;
	if (g_allocated_bytes > g_peak_bytes)
		g_peak_bytes = g_allocated_bytes;
	g_ctx = c;
	local++;
	g_table[3] = 1;
	g_head.refs--;
	++g_anon.n;
	g_atomic++;
	g_name = "y";
	if (g_limit == 4 && g_callback != NULL) g_callback(1);
	return cuInit(0);
}

int next_id(void) {
	static int id;
	static const int base = 10;
	for (int i = 0; i < 2; i++) { id++; }
	return base + id;
}

static int shadow(int g_ctx_count, point *p) {
	int g_allocated_bytes = 0;
	g_allocated_bytes++;
	p->x = 1;
	g_ctx_count++;
	return g_allocated_bytes;
}

void locked(void) {
	pthread_mutex_lock(&mu);
	g_tls++;
	g_peak_bytes = 0;
	pthread_mutex_unlock(&mu);
}

void caller(void) { next_id(); }

#ifdef __cplusplus
}
#endif
`

func TestScanner(t *testing.T) {
	r := parseString(t, cudaLike)
	shared := varNames(r, func(v *Var) bool { return v.Shared() && !v.Extern })
	want := []string{"g_ctx", "g_allocated_bytes", "g_peak_bytes", "g_name", "g_table", "g_head", "g_callback", "g_anon", "next_id.id"}
	if !slices.Equal(shared, want) {
		t.Errorf("shared variables: got %v, want %v", shared, want)
	}
	notShared := varNames(r, func(v *Var) bool { return !v.Shared() })
	wantNot := []string{"g_fixed", "g_limit", "g_atomic", "g_tls", "g_gnu_tls", "g_ms_tls", "next_id.base"}
	if !slices.Equal(notShared, wantNot) {
		t.Errorf("const, atomic or thread-local: got %v, want %v", notShared, wantNot)
	}
	var funcs []string
	for _, f := range r.Funcs {
		funcs = append(funcs, f.Name)
	}
	if want := []string{"track", "next_id", "shadow", "locked", "caller"}; !slices.Equal(funcs, want) {
		t.Errorf("functions: got %v, want %v", funcs, want)
	}
	if got, want := writes(r, "track"), []string{"g_allocated_bytes+=", "g_peak_bytes=", "g_ctx=", "g_table=", "g_head--", "g_anon++", "g_name="}; !slices.Equal(got, want) {
		t.Errorf("track writes %v, want %v", got, want)
	}
	if got, want := writes(r, "next_id"), []string{"id++"}; !slices.Equal(got, want) {
		t.Errorf("next_id writes %v, want %v", got, want)
	}
	if got := writes(r, "shadow"); len(got) != 0 {
		t.Errorf("shadow writes only locals and parameters, got %v", got)
	}
	var lockedFn, callerFn *Func
	for _, f := range r.Funcs {
		switch f.Name {
		case "locked":
			lockedFn = f
		case "caller":
			callerFn = f
		}
	}
	if !lockedFn.Locks || len(r.Reach(lockedFn)) != 0 {
		t.Errorf("locked takes a lock: its writes are guarded")
	}
	reach := r.Reach(callerFn)
	if len(reach) != 1 || reach[0].Write.Var.Name != "id" || len(reach[0].Chain) != 2 {
		t.Errorf("caller reaches next_id's static through a call: got %+v", reach)
	}
}

// Garbage in, nothing out: the scanner never fails, it reads less.
func TestScannerTolerant(t *testing.T) {
	for _, src := range []string{
		"", "{", "}", "static int", "int f(", "x = ;", "#define X {\nint a;",
		"MACRO(foo) int bar;", "static int a = {", "/* unterminated", `"unterminated`,
		strings.Repeat("{", 100) + "static int x;",
		"int f(void) { static int s; s++; ", // no closing brace
		// macros that expand into each other, unbalanced replacements,
		// typedefs and tags cut short
		"#define A B(B) B\n#define B(x) A A(x)\nvoid f(void) { A(); A; B(1); }\nstatic A v;",
		"#define L(\n#define M )\nvoid f(void) { L(x); M; M(); }",
		"#define n (*\nstatic long n; void f(void) { n++; }",
		"typedef", "typedef struct {", "struct s {", "typedef _Atomic", "#define T\nstatic T",
	} {
		parseString(t, src)
	}
}
