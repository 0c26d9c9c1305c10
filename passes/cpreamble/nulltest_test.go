package cpreamble

import "testing"

func TestNullTests(t *testing.T) {
	for _, tc := range []struct {
		body string
		want bool
	}{
		{"if (!c) return -1; return c->n;", true},
		{"if (c == NULL) return -1;", true},
		{"if (NULL != c) { use(c); }", true},
		{"if (c) { use(c); }", true},
		{"return c && c->n;", true},
		{"if (!c->live) return -1;", false},
		{"return c->n;", false},
		{"if (n == 0) return 0; return c->n;", false},
	} {
		got := nullTests(tokenize([]byte(tc.body)), []string{"c", "n"})["c"]
		if got != tc.want {
			t.Errorf("%q: tests NULL = %v, want %v", tc.body, got, tc.want)
		}
	}
}
