package model

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestWriteTable(t *testing.T) {
	m, err := ParseFile("gpu.model", []byte(`library zlib
doc https://example.com/zlib
kind session
kind tensor parent=session
release z_close kind=session
acquire z_open result kind=session
acquire z_tensor out=1 parent=0 kind=tensor
library alib
doc https://example.com/alib
kind handle
release a_free arg=1 kind=handle
acquire a_new out=0 kind=handle
acquire a_new result kind=handle
`))
	if err != nil {
		t.Fatal(err)
	}
	dir, err := ParseFile("x.go", []byte("library pre\nrelease my_free arg=2\n"))
	if err != nil {
		t.Fatal(err)
	}
	m.Merge(dir)
	var b bytes.Buffer
	if err := m.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		got = append(got, strings.Fields(line))
	}
	want := [][]string{
		{"LIBRARY", "FUNCTION", "ENTRY", "KIND", "PARENT", "SOURCE", "DOC"},
		{"alib", "a_free", "release", "arg=1", "kind=handle", "handle", "-", "gpu.model:11", "https://example.com/alib"},
		{"alib", "a_new", "acquire", "out=0", "kind=handle", "handle", "-", "gpu.model:12", "https://example.com/alib"},
		{"alib", "a_new", "acquire", "result", "kind=handle", "handle", "-", "gpu.model:13", "https://example.com/alib"},
		{"pre", "my_free", "release", "arg=2", "-", "-", "x.go:2", "-"},
		{"zlib", "z_close", "release", "arg=0", "kind=session", "session", "-", "gpu.model:5", "https://example.com/zlib"},
		{"zlib", "z_open", "acquire", "result", "kind=session", "session", "-", "gpu.model:6", "https://example.com/zlib"},
		{"zlib", "z_tensor", "acquire", "out=1", "parent=0", "kind=tensor", "tensor", "session", "gpu.model:7", "https://example.com/zlib"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(got), len(want), b.String())
	}
	for i := range want {
		if strings.Join(got[i], " ") != strings.Join(want[i], " ") {
			t.Errorf("line %d:\ngot  %q\nwant %q", i, got[i], want[i])
		}
	}
	// Columns line up: every row starts its SOURCE cell at the same offset.
	lines := strings.Split(b.String(), "\n")
	col := strings.Index(lines[0], "SOURCE")
	for _, line := range lines[1 : len(lines)-1] {
		if c := line[col-2 : col]; c != "  " {
			t.Errorf("column SOURCE does not line up in %q", line)
		}
	}
}

func TestWriteTableBuiltin(t *testing.T) {
	m, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := m.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, name := range m.Funcs() {
		n += len(m.Entries(name))
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != n+1 {
		t.Errorf("%d lines for %d entries", len(lines), n)
	}
	prev := ""
	for _, line := range lines[1:] {
		f := strings.Fields(line)
		if key := f[0] + " " + f[1]; key < prev {
			t.Errorf("%q sorts before %q", key, prev)
		} else {
			prev = key
		}
	}
	found := false
	for _, line := range lines[1:] {
		f := strings.Fields(line)
		if f[1] != "ncclCommAbort" {
			continue
		}
		found = true
		want := []string{"nccl", "ncclCommAbort", "release", "arg=0", "kind=communicator", "communicator", "-"}
		if strings.Join(f[:len(want)], " ") != strings.Join(want, " ") || !strings.HasPrefix(f[len(want)], "builtin:nccl.model:") ||
			!strings.HasPrefix(f[len(want)+1], "https://docs.nvidia.com/deeplearning/nccl/") {
			t.Errorf("ncclCommAbort row: %q", line)
		}
	}
	if !found {
		t.Errorf("no row for ncclCommAbort")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteTableError(t *testing.T) {
	m, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.WriteTable(failWriter{}); err == nil || err.Error() != "disk full" {
		t.Errorf("WriteTable to a failing writer: %v", err)
	}
}
