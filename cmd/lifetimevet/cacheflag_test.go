package main_test

import (
	"strings"
	"testing"
)

// TestCacheFlagValue checks that a -cache value other than on or off is a
// flag error (exit status 2), not a warning after which the run goes on.
func TestCacheFlagValue(t *testing.T) {
	bin := build(t)
	for _, args := range [][]string{{"-cache=bogus", "."}, {"lsp", "-cache=bogus"}} {
		_, stderr, code := run(t, t.TempDir(), bin, args...)
		if code != 2 || !strings.Contains(stderr, `invalid value "bogus" for flag -cache: want on or off`) {
			t.Errorf("lifetimevet %s: status %d, stderr:\n%s", strings.Join(args, " "), code, stderr)
		}
	}
}
