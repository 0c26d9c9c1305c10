package main

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// sarifKeep are the arrays SARIF gives a meaning when empty: "results": []
// says the run found nothing (absent, it says the results were not
// computed).
var sarifKeep = map[string]bool{"results": true}

// cleanSARIF drops the placeholders go-sarif writes for what lifetimevet
// does not know: -1 for an unknown index, length, offset, id or rank, and
// empty arrays and objects (the SARIF schema's defaults, which mean the
// same as an absent property). data is a SARIF log as JSON; the result is
// indented, in the same order.
func cleanSARIF(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readJSON(dec)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	writeJSON(&buf, clean(v), "")
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// object is a JSON object with its keys in order.
type object struct {
	keys []string
	vals []any
}

func readJSON(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := &object{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := readJSON(dec)
			if err != nil {
				return nil, err
			}
			o.keys = append(o.keys, k.(string))
			o.vals = append(o.vals, v)
		}
		_, err := dec.Token() // }
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := readJSON(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token() // ]
		return a, err
	}
	return tok, nil
}

// clean drops the placeholder properties of objects in v.
func clean(v any) any {
	switch v := v.(type) {
	case *object:
		out := &object{}
		for i, k := range v.keys {
			x := clean(v.vals[i])
			switch x := x.(type) {
			case json.Number:
				if x.String() == "-1" {
					continue
				}
			case []any:
				if len(x) == 0 && !sarifKeep[k] {
					continue
				}
			case *object:
				if len(x.keys) == 0 {
					continue
				}
			}
			out.keys = append(out.keys, k)
			out.vals = append(out.vals, x)
		}
		return out
	case []any:
		for i := range v {
			v[i] = clean(v[i])
		}
	}
	return v
}

func writeJSON(buf *bytes.Buffer, v any, indent string) {
	in := indent + "  "
	switch v := v.(type) {
	case *object:
		if len(v.keys) == 0 {
			buf.WriteString("{}")
			return
		}
		buf.WriteString("{\n")
		for i, k := range v.keys {
			buf.WriteString(in)
			writeJSON(buf, k, in)
			buf.WriteString(": ")
			writeJSON(buf, v.vals[i], in)
			if i+1 < len(v.keys) {
				buf.WriteByte(',')
			}
			buf.WriteByte('\n')
		}
		buf.WriteString(indent + "}")
	case []any:
		if len(v) == 0 {
			buf.WriteString("[]")
			return
		}
		buf.WriteString("[\n")
		for i, x := range v {
			buf.WriteString(in)
			writeJSON(buf, x, in)
			if i+1 < len(v) {
				buf.WriteByte(',')
			}
			buf.WriteByte('\n')
		}
		buf.WriteString(indent + "]")
	case json.Number:
		buf.WriteString(v.String())
	default:
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			panic(fmt.Sprintf("cleanSARIF: %v", err)) // strings, bools and null only
		}
		buf.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	}
}
