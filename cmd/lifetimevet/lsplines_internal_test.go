package main

import (
	"os"
	"path/filepath"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// TestLSPLinesLoneCR checks the conversions between go/token's positions
// (lines end at "\n") and LSP's (lines end at "\r\n", "\r" or "\n") in a
// file with a lone carriage return in a comment and a CRLF line: a
// diagnostic or an edit after them must name the line the client sees.
func TestLSPLinesLoneCR(t *testing.T) {
	text := []byte("package p\n// a\rb\r\nvar é = 1\nvar x = 2\n")
	name := filepath.Join(t.TempDir(), "p.go")
	os.WriteFile(name, text, 0o666)
	c := lineCache{}
	// go/token's line 4 ("var x = 2"), column 5, is the client's line 4
	// (zero-based: package, "// a", "b", "var é", "var x")
	if got := c.position(name, 4, 5); got != (protocol.Position{Line: 4, Character: 4}) {
		t.Errorf("position(4:5) = %+v, want line 4 character 4", got)
	}
	// the byte offset of "= 1" on the line with é (2 bytes, 1 UTF-16 unit)
	off := len("package p\n// a\rb\r\nvar é ")
	if got, ok := c.offsetPosition(name, off); !ok || got != (protocol.Position{Line: 3, Character: 6}) {
		t.Errorf("offsetPosition(%d) = %+v, %v, want line 3 character 6", off, got, ok)
	}
	if got, ok := utf16Offset(text, protocol.Position{Line: 3, Character: 6}); !ok || got != off {
		t.Errorf("utf16Offset(3:6) = %d, %v, want %d", got, ok, off)
	}
	if got, ok := utf16Offset(text, protocol.Position{Line: 2, Character: 1}); !ok || got != len("package p\n// a\rb") {
		t.Errorf("utf16Offset(2:1) = %d, %v, want the offset of the CRLF after b", got, ok)
	}
}
