package cpreamble

import (
	"fmt"
	"strings"
	"testing"
)

// TestAlways checks which calls a body makes on every path by which it
// returns, and which parameters they pass: "f(0,-1)" is a call of f with
// parameter 0 as its first argument and something else as its second.
func TestAlways(t *testing.T) {
	for _, tc := range []struct {
		body string
		want string
	}{
		{"free(o);", "free(0)"},
		{"free((void *)o);", "free(0)"},
		{"free((void *)(uintptr_t)(o));", "free(0)"},
		{"(void)lib_close(o);", "lib_close(0)"},
		{"return lib_close(o);", "lib_close(0)"},
		{"int rc = lib_close(o); log_rc(rc); return rc;", "lib_close(0) log_rc(-1)"},
		{"pool_put(n, o);", "pool_put(1,0)"},
		{"o->n = 0; free(o->buf); free(o);", "free(-1) free(0)"},
		{"{ free(o); }", "free(0)"},
		// NULL guards of the parameter itself
		{"if (o) free(o);", "free(0)"},
		{"if (o != NULL) { lib_close(o); }", "lib_close(0)"},
		{"if (!o) return; free(o);", "free(0)"},
		{"if (NULL == o) return -1; return lib_close(o);", "lib_close(0)"},
		// a guard of the parameter says nothing of the others
		{"if (o) pool_put(n, o);", "pool_put(-1,0)"},
		// not on every path
		{"if (n > 0) free(o);", ""},
		{"if (n > 0) return; free(o);", ""},
		{"if (o) { free(o); return; } free(o);", "free(0)"},
		{"while (n--) step(o); free(o);", "free(0)"},
		{"for (;;) { if (done(o)) return; } free(o);", ""},
		{"if (n) free(o); else keep(o);", ""},
		{"goto out; out: free(o);", ""},
		{"if (n) goto out; free(o); out: return;", ""},
		// the parameter changed before the call
		{"o = o->next; free(o);", "free(-1)"},
		{"o++; free(o);", "free(-1)"},
		{"take(&o); free(o);", "take(-1) free(-1)"},
		// under a preprocessor condition: one the build does not
		// compile, or one the scanner cannot decide, is no evidence
		{"\n#ifdef OWN_FREE\nfree(o);\n#endif\n", ""},
		{"\n#if 0\nfree(o);\n#else\nlib_close(o);\n#endif\n", "lib_close(0)"},
		{"\n#ifndef _WIN32\nfree(o);\n#endif\n", "free(0)"},
		{"\n#if 00\nfree(o);\n#endif\n", ""}, // octal zero
		// a macro that may leave the function, a call that does not
		// return: what follows is not on every path
		{"\n#define DROP_OR_RETURN(p) do { if (--*(int *)(p) > 0) return; } while (0)\nDROP_OR_RETURN(o); free(o);", ""},
		{"\n#define DONE return\nDONE; free(o);", ""},
		{"\n#define FAIL_IF(c) if (c) goto out\nFAIL_IF(n); free(o); out: ;", ""},
		{"CHECK_OR_BAIL(o); free(o);", ""}, // a macro from a header
		{"longjmp(env, 1); free(o);", ""},
		{"exit(1); free(o);", ""},
		{"\n#define LOG(x) log_it(x)\nLOG(n); free(o);", "log_it(1) free(0)"}, // a macro that cannot leave: the call of what it renames
		// do { S } while (0) runs S once
		{"do { free(o); } while (0);", "free(0)"},
		{"do { free(o); } while (n);", ""},
		{"do { if (n) break; free(o); } while (0);", ""},
		{"do { if (n) continue; free(o); } while (0);", ""},
		// a break of the do goes to the statement after it
		{"do { free(o); if (n) break; log_it(n); } while (0);", "free(0)"},
		{"do { if (n) break; log_it(n); } while (0); free(o);", "free(0)"},
		{"do { free(o); break; } while (0); log_it(n);", "free(0) log_it(1)"},
		{"do { { lib_close(o); } if (n > 1) { break; } } while (0);", "lib_close(0)"},
		// ... unless what the reading skipped can leave, or changes
		// the parameter
		{"do { if (n) break; return; } while (0); free(o);", ""},
		{"do { if (n) break; o = spare(); } while (0); free(o);", "free(-1)"},
		// a loop that assigns the parameter: it may hold something else
		{"while (n--) o = o->next; free(o);", "free(-1)"},
		{"for (int i = 0; i < n; i++) { o = next_of(o); } free(o);", "free(-1)"},
		// free redefined by the text, or a local function pointer
		{"\n#define free(x) ((void)(x))\nfree(o);", ""},
		{"\n#define free(x) my_free(x)\nfree(o);", "my_free(0)"},
		{"\n#define free my_free\nfree(o);", "my_free(0)"},
		{"do { for (;;) { if (n) break; } free(o); } while (0);", "free(0)"},
		{"do { switch (n) { case 1: break; } free(o); } while (0);", "free(0)"},
		{"void (*free)(void *) = keep; free(o);", ""},
		// a directive after a block comment on its line is one (C
		// strips comments first); a splice in a directive's name
		{"\n/* arena */ #define free(x) ((void)(x))\nfree(o);", ""},
		{"\n/* arena */ #define free(x) my_free(x)\nfree(o);", "my_free(0)"},
		{"\n#i\\\nf 0\nfree(o);\n#endif\n", ""},
		{"\n#i\\\nf 1\nfree(o);\n#endif\n", "free(0)"},
		// a write through a macro: one that assigns its argument, or
		// takes its address
		{"\n#define CLEAR(x) ((x) = 0)\nCLEAR(o); free(o);", "free(-1)"},
		{"\n#define NEXT(x) x = next_of(x)\nNEXT(o); free(o);", "free(-1)"},
		{"\n#define TAKE(x) take(&(x))\nTAKE(o); free(o);", "free(-1)"},
		{"\n#define TOUCH(x) ((void)(x))\nTOUCH(o); free(o);", "free(0)"},
		{"\n#define CLEAR2(a, b) ((b) = 0)\nCLEAR2(o, n); free(o);", "free(0)"},
		{"\n#define RESET o = 0\nRESET; free(o);", "free(-1)"},
		// a local of the parameter's name hides it
		{"{ void *o __attribute__((unused)) = malloc(1); free(o); }", "malloc(-1) free(-1)"},
		{"{ void *q __attribute__((unused)) = malloc(1); free(q); } free(o);", "malloc(-1) free(-1) free(0)"},
		// a name that says it returns under a condition is a macro
		// that may (a function cannot make its caller return)
		{"g_return_if_fail(o != NULL); free(o);", ""},
		{"returnIfNull(o); free(o);", ""},
		{"get_return_code(o); free(o);", "get_return_code(0) free(0)"},
		// a macro defined in an arm the scanner cannot decide: the
		// call may be of it or of the function
		{"\n#ifdef ARENA\n#define free(x) my_free(x)\n#endif\nfree(o);", ""},
		// not one call
		{"free(o) + 1;", ""},
		{"n = a(o) ? b(o) : 0;", ""},
	} {
		src := "static void f(handle o, int n) {" + tc.body + "}"
		if strings.Contains(tc.body, "#define") {
			// the macro before the function, as C needs it
			def, rest, _ := strings.Cut(strings.TrimPrefix(tc.body, "\n"), "\n")
			if strings.HasPrefix(def, "#if") {
				// the conditional's lines up to its #endif
				e := strings.Index(rest, "#endif\n") + len("#endif\n")
				def, rest = def+"\n"+rest[:e], rest[e:]
			}
			src = def + "\nstatic void f(handle o, int n) {" + rest + "}"
		}
		r := parseString(t, src)
		if len(r.Funcs) != 1 {
			t.Fatalf("%q: %d functions", tc.body, len(r.Funcs))
		}
		var got []string
		for _, c := range r.Funcs[0].Always {
			var args []string
			for _, a := range c.Args {
				args = append(args, fmt.Sprint(a))
			}
			got = append(got, c.Name+"("+strings.Join(args, ",")+")")
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%q: always %q, want %q", tc.body, g, tc.want)
		}
	}
}

// A parameter that is a function pointer named like a release is the
// caller's function, not the library's.
func TestAlwaysFuncParam(t *testing.T) {
	r := parseString(t, "static void done(void *p, void (*free)(void *)) { free(p); }")
	if len(r.Funcs) != 1 || len(r.Funcs[0].Always) != 0 {
		t.Errorf("always %+v, want none", r.Funcs[0].Always)
	}
}

// A macro applies from its #define to its #undef: my_free's own free is
// libc's; h's is my_free; after the #undef it is libc's again.
func TestAlwaysMacroScope(t *testing.T) {
	r := parseString(t, "static void my_free(void *q) { free(q); }\n#define free(x) my_free(x)\nstatic void h(void *p) { free(p); }\n#undef free\nstatic void g(void *p) { free(p); }\n")
	want := map[string]string{"my_free": "free", "h": "my_free", "g": "free"}
	for _, fn := range r.Funcs {
		if len(fn.Always) != 1 || fn.Always[0].Name != want[fn.Name] {
			t.Errorf("%s: always %+v, want one call of %s", fn.Name, fn.Always, want[fn.Name])
		}
	}
}
