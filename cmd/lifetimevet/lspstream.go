package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
)

// lspStream is the language server's JSON-RPC stream: LSP's base protocol
// (Content-Length headers, then a JSON body). Unlike jsonrpc2's codec, which
// closes the connection on the first frame it cannot read, it answers a
// malformed frame (no or a bad Content-Length, a body that is not JSON,
// not an object, or whose id is neither a string nor a non-negative
// integer) with a JSON-RPC error and reads on: an editor's or a proxy's
// mistake costs one message, not the session.
type lspStream struct {
	r *bufio.Reader
	w io.Writer
	c io.Closer

	mu sync.Mutex // guards w
}

func newLSPStream(r io.Reader, w io.Writer, c io.Closer) *lspStream {
	return &lspStream{r: bufio.NewReader(r), w: w, c: c}
}

// maxFrame bounds a frame's Content-Length (a bad header must not make the
// server allocate gigabytes).
const maxFrame = 256 << 20

// ReadObject reads the next well-formed message into v; it returns an
// error only when the input ends or cannot be read.
func (s *lspStream) ReadObject(v any) error {
	for {
		body, problem, err := s.readFrame()
		if err != nil {
			return err
		}
		if problem == "" {
			var id json.RawMessage
			id, problem = checkMessage(body)
			if problem == "" {
				// into a fresh value, so that a message that fails
				// half-way leaves nothing behind in v
				fresh := reflect.New(reflect.TypeOf(v).Elem())
				if err := json.Unmarshal(body, fresh.Interface()); err == nil {
					reflect.ValueOf(v).Elem().Set(fresh.Elem())
					return nil
				} else {
					problem = "invalid request: " + err.Error()
				}
			}
			if problem != "" && len(id) > 0 {
				s.replyError(id, jsonrpc2.CodeInvalidRequest, problem)
				continue
			}
		}
		code := int64(jsonrpc2.CodeParseError)
		if strings.HasPrefix(problem, "invalid request") {
			code = jsonrpc2.CodeInvalidRequest
		}
		s.replyError(nil, code, problem)
	}
}

// readFrame reads one frame: its body, or what is wrong with it (its
// headers were read; when its length is unknown, the input is skipped to
// the next Content-Length header).
func (s *lspStream) readFrame() (body []byte, problem string, err error) {
	length := -1
	sawHeader, conflict := false, false
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			if err == io.EOF && strings.TrimSpace(line) != "" {
				return nil, "", io.ErrUnexpectedEOF
			}
			return nil, "", err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if !sawHeader {
				continue // blank lines between frames
			}
			break
		}
		if !sawHeader {
			// resynchronise on a Content-Length header: what came
			// before it is the rest of a frame whose length was unknown
			if i := strings.Index(strings.ToLower(line), "content-length:"); i > 0 {
				line = line[i:]
			}
		}
		sawHeader = true
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			problem = fmt.Sprintf("parse error: malformed header %q", clip(line, 80))
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			switch {
			case err != nil:
				problem = fmt.Sprintf("parse error: Content-Length %q is not a number", clip(strings.TrimSpace(value), 40))
			case n < 0:
				problem = fmt.Sprintf("parse error: negative Content-Length %d", n)
			case n > maxFrame:
				problem = fmt.Sprintf("parse error: Content-Length %d is too large", n)
			case length >= 0 && n != length:
				// two lengths: the body's end is unknown, so the
				// stream resynchronises on the next header
				conflict = true
				problem = fmt.Sprintf("parse error: the frame has two Content-Length headers, %d and %d", length, n)
			default:
				length = n
			}
		}
	}
	if conflict {
		return nil, problem, nil
	}
	if length < 0 {
		if problem == "" {
			problem = "parse error: the frame has no Content-Length header"
		}
		return nil, problem, nil
	}
	body = make([]byte, length)
	if _, err := io.ReadFull(s.r, body); err != nil {
		return nil, "", err
	}
	if problem != "" {
		return nil, problem, nil
	}
	return body, "", nil
}

// checkMessage returns what is wrong with a message body, and its id when
// the id is usable in an error response.
func checkMessage(body []byte) (id json.RawMessage, problem string) {
	trimmed := bytes.TrimSpace(body)
	if !json.Valid(trimmed) {
		return nil, "parse error: the body is not JSON"
	}
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, "invalid request: the body is not a JSON object (batches are not part of LSP)"
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
	}
	if err := json.Unmarshal(trimmed, &m); err != nil {
		return nil, "invalid request: " + err.Error()
	}
	if len(m.ID) > 0 && string(m.ID) != "null" {
		var n uint64
		var str string
		if json.Unmarshal(m.ID, &n) != nil && json.Unmarshal(m.ID, &str) != nil {
			return nil, fmt.Sprintf("invalid request: the id %s is neither a string nor a non-negative integer", clip(string(m.ID), 40))
		}
		id = m.ID
	}
	if len(m.Method) > 0 {
		var method string
		if json.Unmarshal(m.Method, &method) != nil {
			return id, "invalid request: the method is not a string"
		}
	}
	return id, ""
}

// replyError writes a JSON-RPC error response (id null when the message's
// id is unknown).
func (s *lspStream) replyError(id json.RawMessage, code int64, msg string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	s.WriteObject(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc2.Error  `json:"error"`
	}{"2.0", id, jsonrpc2.Error{Code: code, Message: msg}})
}

// WriteObject writes a message with its Content-Length header.
func (s *lspStream) WriteObject(obj any) error {
	data, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "Content-Length: %d\r\n\r\n", len(data))
	buf.Write(data)
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err = s.w.Write(buf.Bytes())
	return err
}

func (s *lspStream) Close() error { return s.c.Close() }

// clip cuts s to at most n bytes (on a rune boundary), marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
