package model

import (
	"strings"
	"testing"
)

func TestNullSafe(t *testing.T) {
	src := "library gp\nprefix gp_\nnull-safe gp_set_armor gp_op_encrypt\nrelease gp_release\n"
	m, err := ParseFile("gp.model", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"gp_set_armor": true, "gp_op_encrypt": true, "gp_op_sign": false, "other": false} {
		if got := m.ChecksNull(name); got != want {
			t.Errorf("ChecksNull(%s) = %v, want %v", name, got, want)
		}
	}
	for _, bad := range []string{"null-safe f\n", "library gp\nnull-safe\n", "library gp\nnull-safe 9x\n"} {
		if _, err := ParseFile("bad.model", []byte(bad)); err == nil || !strings.Contains(err.Error(), "null-safe") {
			t.Errorf("ParseFile(%q) = %v, want an error about null-safe", bad, err)
		}
	}
}
