package cpreamble

import (
	"strings"
	"testing"
)

// TestEval decides #if conditions from the macros known; what depends on
// a macro nothing defines, or on a comparison, stays undecided.
func TestEval(t *testing.T) {
	ms := macros{"_WIN32": undefined, "__linux__": definedOne, "HAVE_X": defined}
	for expr, want := range map[string]tri{
		"0":                                  no,
		"1":                                  yes,
		"0x10":                               yes,
		"00":                                 no, // octal
		"0x0":                                no,
		"1UL":                                yes,
		"defined(_WIN32)":                    no,
		"!defined _WIN32":                    yes,
		"defined(HAVE_X)":                    yes,
		"HAVE_X":                             unknown, // defined, to what
		"__linux__":                          yes,
		"_WIN32":                             no, // undefined: 0
		"defined(RACY)":                      unknown,
		"defined(RACY) && defined(_WIN32)":   no,
		"defined(RACY) || !defined(_WIN32)":  yes,
		"defined(RACY) || defined(_WIN32)":   unknown,
		"(defined(HAVE_X) && !(0))":          yes,
		"VERSION >= 3":                       unknown,
		"defined(":                           unknown,
		"":                                   unknown,
		"defined(HAVE_X) && VERSION_MAJOR>2": unknown,
	} {
		if got := ms.eval(expr); got != want {
			t.Errorf("#if %s: %v, want %v", expr, got, want)
		}
	}
}

// TestBlankArms blanks the arms the build does not compile, reads the
// #else of arms decided false, and marks the first undecided arm.
func TestBlankArms(t *testing.T) {
	src := "#ifdef _WIN32\nwin();\n#else\nposix();\n#endif\n#ifdef RACY\nracy();\n#else\nnot();\n#endif\n#if 0\ndead();\n#endif\n"
	out, undecided, _ := blank([]byte(src))
	text := string(out)
	for _, s := range []string{"posix", "racy"} {
		if !strings.Contains(text, s) {
			t.Errorf("%s() is blanked:\n%s", s, text)
		}
	}
	for _, s := range []string{"win", "not", "dead"} {
		if strings.Contains(text, s) {
			t.Errorf("%s() is read:\n%s", s, text)
		}
	}
	if len(undecided) != 1 || !strings.Contains(src[undecided[0][0]:undecided[0][1]], "racy") || strings.Contains(src[undecided[0][0]:undecided[0][1]], "posix") {
		t.Errorf("undecided arms %v, want the one of racy() only", undecided)
	}
}

// A #define or #undef in an arm blanked only because an earlier arm was
// undecided may be compiled: the macro is unknown after it.
func TestMaybeUndef(t *testing.T) {
	src := "#define USE_FREE\n#ifdef HAVE_POOL\npool();\n#else\n#undef USE_FREE\n#endif\n#ifdef USE_FREE\nfree_it();\n#endif\n"
	_, undecided, _ := blank([]byte(src))
	in := false
	for _, r := range undecided {
		in = in || strings.Contains(src[r[0]:r[1]], "free_it")
	}
	if !in {
		t.Errorf("free_it() is taken as compiled; undecided arms %v", undecided)
	}
}

// TestUncompiled finds the text the build does not certainly compile,
// comments included (a //lifetime: directive there is not read): arms
// decided false, after the compiled one, undecided, or after an undecided
// one, nested or not; the code and comments of compiled arms, include
// guards' bodies and the text outside conditionals are compiled.
func TestUncompiled(t *testing.T) {
	src := "// out\n#ifndef G_H\n#define G_H\n// guard\n#if 0\n  // zero\n#elif 1\n// one\n#  if 0\n// nested\n#  endif\n#else\n// other\n#endif\n" +
		"#ifdef RACY\n// racy\n#else\n// notracy\n#endif\n#if 0\n/* a comment\n#endif\n// incomment\n*/\n#endif\n// after\n#endif\n"
	un := Uncompiled([]byte(src))
	for word, want := range map[string]bool{
		"out": false, "guard": false, "zero": true, "one": false, "nested": true, "other": true,
		"racy": true, "notracy": true, "incomment": true, "after": false,
	} {
		off := strings.Index(src, "// "+word+"\n")
		if off < 0 {
			t.Fatalf("no %q", word)
		}
		if got := un(off); got != want {
			t.Errorf("// %s: uncompiled %v, want %v", word, got, want)
		}
	}
}
