package main_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// TestLSPMalformedFrames sends `lifetimevet lsp` frames a broken client or
// proxy could send, each followed by more traffic: the server answers each
// with a JSON-RPC error and keeps serving. A file in a directory that does
// not exist gets a message about the directory.
func TestLSPMalformedFrames(t *testing.T) {
	bin := build(t)
	cmd := exec.Command(bin, "lsp")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOWORK=off")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Process.Kill(); cmd.Wait() })
	msgs := make(chan map[string]any, 100)
	go func() {
		r := bufio.NewReader(out)
		for {
			var m map[string]any
			if err := (jsonrpc2.VSCodeObjectCodec{}).ReadObject(r, &m); err != nil {
				close(msgs)
				return
			}
			msgs <- m
		}
	}()
	next := func(what string) map[string]any {
		t.Helper()
		select {
		case m, ok := <-msgs:
			if !ok {
				t.Fatalf("%s: the server closed its output", what)
			}
			return m
		case <-time.After(time.Minute):
			t.Fatalf("%s: no answer", what)
		}
		return nil
	}
	frame := func(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }
	expectError := func(what string, code float64) {
		t.Helper()
		m := next(what)
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != code || m["id"] != nil {
			t.Errorf("%s: got %v, want an error %v with id null", what, m, code)
		}
	}
	cases := []struct {
		what, send string
		code       float64
	}{
		{"bad JSON", frame(`{"jsonrpc":"2.0","id":1,"method":`), jsonrpc2.CodeParseError},
		{"no Content-Length", "Content-Type: application/json\r\n\r\n" + `{"jsonrpc":"2.0","method":"initialized","params":{}}`, jsonrpc2.CodeParseError},
		{"negative Content-Length", "Content-Length: -12\r\n\r\n", jsonrpc2.CodeParseError},
		{"an array body", frame(`[{"jsonrpc":"2.0","id":2,"method":"shutdown"}]`), jsonrpc2.CodeInvalidRequest},
		{"an object id", frame(`{"jsonrpc":"2.0","id":{"n":3},"method":"initialize","params":{}}`), jsonrpc2.CodeInvalidRequest},
		{"a negative id", frame(`{"jsonrpc":"2.0","id":-4,"method":"initialize","params":{}}`), jsonrpc2.CodeInvalidRequest},
		// two lengths: the body's end is unknown; the stream
		// resynchronises on the next frame's header
		{"two Content-Length headers", "Content-Length: 5\r\nContent-Length: 60\r\n\r\n" + `{"jsonrpc":"2.0","id":5,"method":"shutdown"}`, jsonrpc2.CodeParseError},
	}
	for _, c := range cases {
		io.WriteString(in, c.send)
		expectError(c.what, c.code)
	}
	// still serving
	io.WriteString(in, frame(`{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`))
	m := next("initialize")
	if m["id"] != float64(7) || m["result"] == nil {
		t.Fatalf("initialize after the malformed frames: %v", m)
	}
	io.WriteString(in, frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`))
	missing := filepath.Join(t.TempDir(), "gone", "x.go")
	open, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": "file://" + filepath.ToSlash(missing), "languageId": "go", "version": 1, "text": "package x\n"}}})
	io.WriteString(in, frame(string(open)))
	for {
		m := next("didOpen of a file in a missing directory")
		if m["method"] != "window/logMessage" {
			continue
		}
		msg, _ := m["params"].(map[string]any)["message"].(string)
		if !strings.Contains(msg, "the directory "+filepath.Dir(missing)+" does not exist") || strings.Contains(msg, "fork/exec") {
			t.Errorf("log message: %s", msg)
		}
		break
	}
}
