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
	arm := ArmsWith([]byte(src), nil)
	un := func(off int) bool { a, _ := arm(off); return a != ArmCompiled }
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

// TestEvalValues evaluates #if arithmetic on the values the scanner
// knows, exactly or as ranges: the compiler's sizes and byte order for the
// build's GOARCH, __STDC_VERSION__ of gnu17 or later, __GNUC__ of 4 or
// later, a -D's value; a comparison the range cannot decide, a
// function-like macro's call and a macro of unknown value stay undecided.
func TestEvalValues(t *testing.T) {
	ms := macros{"OWN": exact(3), "ZERO": definedZero, "HAVE_X": defined, "_WIN32": undefined, "UZERO": valueOf(" 0u"), "UONE": valueOf(" 1UL")}
	for k, v := range predefinedRanges("linux", "amd64") {
		ms[k] = v
	}
	for expr, want := range map[string]tri{
		"OWN > 2":                     yes,
		"OWN >= 4":                    no,
		"OWN == 3 && !ZERO":           yes,
		"OWN * 2 + 1 == 7":            yes,
		"(OWN << 2) == 12":            yes,
		"(OWN & 1) && (OWN | 4) == 7": yes,
		"OWN - 3":                     no,
		"-OWN < 0":                    yes,
		"OWN / 0":                     unknown,
		"__SIZEOF_POINTER__ == 8":     yes,
		"__SIZEOF_POINTER__ == 4":     no,
		"__SIZEOF_LONG__ >= 8":        yes,
		"__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__":           yes,
		"__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__":              no,
		"__STDC_VERSION__ >= 199901L":                         yes,
		"__STDC_VERSION__ >= 201112L":                         yes,
		"__STDC_VERSION__ > 201710L":                          unknown, // gcc 15 says C23
		"__STDC_VERSION__ == 201710L":                         unknown,
		"__STDC_VERSION__ < 199901L":                          no,
		"__GNUC__ >= 4":                                       yes,
		"__GNUC__ >= 9":                                       unknown,
		"__GNUC__ > 3 || defined(__clang__)":                  yes,
		"__has_include(<stdlib.h>)":                           unknown,
		"defined(__has_include) && __has_include(<stdlib.h>)": unknown,
		"HAVE_X > 2":                                          unknown,
		"UNKNOWN_MACRO == 1":                                  unknown,
		"_WIN32 == 0":                                         yes,
		"OWN ? 1 : HAVE_X":                                    yes,
		"ZERO ? HAVE_X : 0":                                   no,
		"OWN >":                                               unknown,
		"(OWN":                                                unknown,
		"'a' == 97":                                           unknown,
		"9223372036854775807 + 1 > 0":                         unknown,
		"18446744073709551615u > 0":                           unknown,
		// unsigned arithmetic (C's usual conversions): undecided
		// wherever a value may be negative
		"-1 > 0u":                unknown,
		"(0u - 1) > 0":           unknown,
		"-1 / 2u > 1":            unknown,
		"~0u == 0":               unknown,
		"OWN + 1u == 4":          yes,
		"OWN > 2u":               yes,
		"-1 < 0":                 yes,
		"~0 == -1":               yes,
		"0x8000000000000000 > 0": unknown,
		"-1 > UZERO":             unknown, // an unsigned macro: 0u
		"(0 - UONE) > 0":         unknown,
		"UONE == 1":              yes,
	} {
		if got := ms.eval(expr); got != want {
			t.Errorf("#if %s: %v, want %v", expr, got, want)
		}
	}
	// -std makes __STDC_VERSION__ exact; C90 leaves it undefined
	for _, tc := range []struct {
		flag string
		expr string
		want tri
	}{
		{"-std=c99", "__STDC_VERSION__ == 199901L", yes},
		{"-std=gnu11", "__STDC_VERSION__ >= 201710L", no},
		{"-std=c17", "__STDC_VERSION__ == 201710L", yes},
		{"-std=c2x", "__STDC_VERSION__ > 201710L", yes},
		{"-std=c89", "defined(__STDC_VERSION__)", no},
		{"-ansi", "defined(__STDC_VERSION__)", no},
		{"-std=weird", "__STDC_VERSION__ >= 199901L", unknown},
	} {
		e := &env{predefs: predefsOf([]string{tc.flag})}
		ms, _ := e.start()
		if got := ms.eval(tc.expr); got != tc.want {
			t.Errorf("%s: #if %s: %v, want %v", tc.flag, tc.expr, got, tc.want)
		}
	}
}

// FuzzArms reads any text as C: the evaluator of conditions and the arm
// scanner never panic, every offset is in one kind of arm, and an arm
// the scanner calls undecided names a directive inside the text.
func FuzzArms(f *testing.F) {
	for _, s := range []string{
		"#if __STDC_VERSION__ >= 199901L\nx();\n#else\ny();\n#endif\n",
		"#if (1 << 62) * 4 / -1 % 0 ? A : B\n#elif ~0 == -1 && 0x7fffffffffffffff + 1\n#endif\n",
		"#ifndef G\n#define G\n#if __has_include(<a.h>)\n//lifetime:release f arg=0\n#endif\n#endif\nint x;\n",
		"#if defined(\n#elif (\n#else\n#endif\n#endif\n#if\n",
		"#if -9223372036854775807 - 1 < 0 && 18446744073709551615u\n#endif\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		_ = newMacros().eval(string(src))
		arm := ArmsWith(src, &Predefines{p: predefsOf([]string{"-DOWN=3", "-std=c11"})})
		for off := 0; off <= len(src); off++ {
			a, dir := arm(off)
			if a == ArmUndecided && (dir < 0 || dir >= len(src)) {
				t.Fatalf("offset %d: undecided, directive at %d of %d", off, dir, len(src))
			}
			if a == ArmUndecided {
				_ = DirectiveText(src, dir)
			}
		}
	})
}
