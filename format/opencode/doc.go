package opencode

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/tidwall/gjson"
)

// Doc is one session as every OpenCode layout stores it, before it is mapped
// onto the model: the session info, its messages with their parts (in
// conversation order), and the side files. All values are compact JSON.
type Doc struct {
	Info      []byte
	Messages  []Msg
	Todo      []byte // todo/<ses>.json (an array); nil when absent
	Diff      []byte // session_diff/<ses>.json (an array); nil when absent
	Project   []byte // project/<id>.json; nil when absent
	ProjectID string // the directory key the session is filed under
	FromDB    bool   // read from an opencode.db, whose project ids the JSON tree does not share
}

// Msg is one message: its info and its parts, in part-id order.
type Msg struct {
	Info  []byte
	Parts [][]byte
}

// ID returns the session id.
func (d *Doc) ID() string { return gjson.GetBytes(d.Info, "id").String() }

// compact returns b without insignificant whitespace.
func compact(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// appendCompact appends b, which must be valid JSON, to dst without
// insignificant whitespace: what json.Compact writes, without checking b
// again (the validator has).
func appendCompact(dst, b []byte) []byte {
	for i := 0; i < len(b); {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		case '"':
			end := stringEnd(b, i)
			dst = append(dst, b[i:end]...)
			i = end
		default:
			j := i + 1
			for j < len(b) && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' && b[j] != '"' {
				j++
			}
			dst = append(dst, b[i:j]...)
			i = j
		}
	}
	return dst
}

// stringEnd returns the index just past the string that starts at b[i].
func stringEnd(b []byte, i int) int {
	for j := i + 1; ; {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b)
		}
		q := j + k
		n := 0 // backslashes right before the quote: an odd number escapes it
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

// pretty spells compact JSON as JSON.stringify(x, null, 2) does.
func pretty(b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return b
	}
	return buf.Bytes()
}

// setMember returns obj with key set to val (replaced in place, or appended).
// A nil val removes the key. obj may be nil, meaning {}.
func setMember(obj []byte, key string, val []byte) []byte {
	var o jsonx.Obj
	found := false
	if len(obj) > 0 {
		_ = jsonx.Members(obj, func(k string, v []byte) {
			if k == key {
				found = true
				if val != nil {
					o.Raw(k, val)
				}
				return
			}
			o.Raw(k, v)
		})
	}
	if !found && val != nil {
		o.Raw(key, val)
	}
	return o.Bytes()
}

// withIDs merges a SQLite data blob with the id columns, as OpenCode's
// readers do: the blob first, then the ids.
func withIDs(data []byte, ids ...string) ([]byte, error) {
	c, err := compact(data)
	if err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(ids); i += 2 {
		c = setMember(c, ids[i], jsonx.String(ids[i+1]))
	}
	return c, nil
}

func (m Msg) encode() []byte {
	n := len(`{"info":,"parts":[]}`) + max(len(m.Info), len("null")) + len(m.Parts)
	for _, p := range m.Parts {
		n += len(p)
	}
	b := append(make([]byte, 0, n), `{"info":`...) // sized once: every message is encoded for its entry's Raw
	if len(m.Info) == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, m.Info...)
	}
	b = append(b, `,"parts":[`...)
	for i, p := range m.Parts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, p...)
	}
	return append(b, "]}"...)
}

// decodeMsg splits {info, parts} back apart.
func decodeMsg(b []byte) (Msg, error) {
	r := gjson.ParseBytes(b)
	info := r.Get("info")
	if !info.IsObject() {
		return Msg{}, fmt.Errorf("message without info object")
	}
	m := Msg{Info: []byte(info.Raw)}
	for _, p := range r.Get("parts").Array() {
		m.Parts = append(m.Parts, []byte(p.Raw))
	}
	return m, nil
}

// decodeDoc reads an export document.
func decodeDoc(b []byte) (*Doc, error) {
	c, err := compact(b)
	if err != nil {
		return nil, err
	}
	r := gjson.ParseBytes(c)
	info := r.Get("info")
	if !info.IsObject() {
		return nil, fmt.Errorf("no info object")
	}
	msgs := r.Get("messages")
	if !msgs.IsArray() {
		return nil, fmt.Errorf("no messages array")
	}
	d := &Doc{Info: []byte(info.Raw), ProjectID: info.Get("projectID").String()}
	for i, m := range msgs.Array() {
		mm, err := decodeMsg([]byte(m.Raw))
		if err != nil {
			return nil, fmt.Errorf("messages[%d]: %w", i, err)
		}
		d.Messages = append(d.Messages, mm)
	}
	return d, nil
}
