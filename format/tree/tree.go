// Package tree is the pi / oh-my-pi "tree JSONL" layout, versions 1, 2 and 3:
// one session header line, then one entry per line, linked by id/parentId
// (v2, v3) or by file order (v1).
package tree

import (
	"bufio"
	"bytes"

	"github.com/sesstool/sesstool/format"
	"github.com/tidwall/gjson"
)

// Format is the tree layout. The zero value is ready to use.
type Format struct{}

var (
	_ format.Format = Format{}
	_ format.Writer = Format{}
	_ format.Stream = Format{}
)

func (Format) Name() string      { return Name }
func (Format) Aliases() []string { return []string{"pi", "jsonl"} }

// headBytes is how much of a file detection reads: enough for oh-my-pi's
// 256-byte title slot and any real header.
const headBytes = 64 << 10

// Detect reports whether path is a tree JSONL file, by its first lines.
func (f Format) Detect(path string) bool {
	return f.DetectHead(format.HeadGrow(path, headBytes, headerOpen))
}

// headerOpen: the head ends inside the header line (or inside the line
// after a title slot, which may be the header), so a header longer than
// the head is read whole before it is judged. A cut line whose type is
// already something else is no header, and is not read on.
func headerOpen(head []byte) bool {
	l := bytes.TrimSpace(format.TrimBOM(head))
	i := bytes.IndexByte(l, '\n')
	if i < 0 {
		return mayBe(l, "session") || mayBe(l, "title")
	}
	if gjson.GetBytes(l[:i], "type").String() == "title" && format.LineOpen(head, 1) {
		return mayBe(bytes.TrimSpace(l[i+1:]), "session")
	}
	return false
}

// mayBe reports whether a line, perhaps cut, may have type t: its "type"
// is t, or is not in what there is of it.
func mayBe(line []byte, t string) bool {
	v := gjson.GetBytes(line, "type")
	return len(line) > 0 && line[0] == '{' && (!v.Exists() || v.String() == t)
}

// DetectHead looks at the first non-blank line (the second, after an
// oh-my-pi title slot): a JSON object with "type":"session", a string id and
// pi's header shape. A header with "version":1 belongs to the flat layout,
// whose header is otherwise alike; pi's v1 headers have no version at all.
func (Format) DetectHead(head []byte) bool {
	h, ok := headerLine(head)
	if !ok {
		return false
	}
	v := gjson.ParseBytes(h)
	if !v.IsObject() || v.Get("type").String() != "session" || v.Get("id").Type != gjson.String {
		return false
	}
	if v.Get("parent_id").Exists() || v.Get("created_at").Exists() {
		return false
	}
	ver := v.Get("version")
	switch {
	case !ver.Exists():
		return v.Get("cwd").Exists() || v.Get("timestamp").Exists()
	case ver.Type == gjson.Number:
		return ver.Raw != "1"
	}
	return false
}

// headerLine returns the header's bytes from the start of a file: the first
// non-blank line, or the one after a title slot. The line must be complete
// unless it is all the head holds.
func headerLine(head []byte) ([]byte, bool) {
	// A byte order mark is not pi's, but the file is: validate reports it
	// (utf8-bom) rather than calling the file unknown.
	head = format.TrimBOM(head)
	skippedTitle := false
	for len(head) > 0 {
		i := bytes.IndexByte(head, '\n')
		var l []byte
		if i < 0 {
			l, head = head, nil
		} else {
			l, head = head[:i], head[i+1:]
		}
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		if !skippedTitle && gjson.GetBytes(l, "type").String() == "title" && i >= 0 {
			skippedTitle = true
			continue
		}
		return l, gjson.ValidBytes(l)
	}
	return nil, false
}

// peekHeader reads the header through br without consuming it, so the
// validator can pick the version's schemas before the parallel workers start.
func peekHeader(br *bufio.Reader) []byte {
	head, _ := br.Peek(headBytes)
	h, _ := headerLine(head)
	return h
}
