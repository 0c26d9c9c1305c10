package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSelectingKeepsDirectives checks that selecting analyzers by name
// (-doublerelease, standalone and under go vet) keeps lifetimedirective, so
// that a misspelt directive the selected analyzer would have read is still
// reported, and that -lifetimedirective=false alone drops it.
func TestSelectingKeepsDirectives(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module m\n\ngo 1.22\n"), 0o666)
	os.WriteFile(filepath.Join(dir, "p.go"), []byte(`package p

// #include <stdlib.h>
// typedef struct { int n; } buf;
// static buf* buf_new(void) { return malloc(sizeof(buf)); }
// static void buf_drop(buf* b) { free(b); }
import "C"

//liftime:release buf_drop
func Drop(b *C.buf) { C.buf_drop(b) }
`), 0o666)
	const typo = "did you mean //lifetime:release buf_drop?"
	for _, tc := range []struct {
		name string
		args []string
		want bool
	}{
		{"standalone -doublerelease", []string{bin, "-doublerelease", "./..."}, true},
		{"standalone -doublerelease=true -useafterrelease", []string{bin, "-doublerelease=true", "-useafterrelease", "./..."}, true},
		{"standalone -doublerelease -lifetimedirective=false", []string{bin, "-doublerelease", "-lifetimedirective=false", "./..."}, false},
		{"standalone -doublerelease=false", []string{bin, "-doublerelease=false", "./..."}, true},
		{"go vet -doublerelease", []string{"go", "vet", "-vettool=" + bin, "-doublerelease", "./..."}, true},
		{"go vet -doublerelease -lifetimedirective=false", []string{"go", "vet", "-vettool=" + bin, "-doublerelease", "-lifetimedirective=false", "./..."}, false},
	} {
		stdout, stderr, _ := run(t, dir, tc.args[0], tc.args[1:]...)
		if got := strings.Contains(stdout+stderr, typo); got != tc.want {
			t.Errorf("%s: typo reported %v, want %v; output:\n%s%s", tc.name, got, tc.want, stdout, stderr)
		}
	}
}
