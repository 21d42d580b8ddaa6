// Package flat reads, writes and validates the flat JSONL session layout of
// the Go agent github.com/nickcecere/agent (later bitop-dev/agent): a header
// line, an optional branch line for a forked file, then message and
// compaction entries chained by snake_case parent_id.
//
// See docs/flat.md for the layout, the rules validate applies and how the
// layout maps to the neutral model.
package flat

import (
	"bytes"

	"github.com/sesstool/sesstool/format"
	"github.com/tidwall/gjson"
)

// Name is the layout's --format name.
const Name = "flat"

// Format is the flat JSONL layout.
type Format struct{}

// New returns the layout.
func New() *Format { return &Format{} }

var (
	_ format.Format = (*Format)(nil)
	_ format.Writer = (*Format)(nil)
	_ format.Stream = (*Format)(nil)
)

func (*Format) Name() string      { return Name }
func (*Format) Aliases() []string { return []string{"agent"} }

// Detect reports whether path is a flat session file.
func (f *Format) Detect(path string) bool {
	return f.DetectHead(format.HeadGrow(path, 64<<10, headerOpen))
}

// headerOpen: the head ends inside the first line, which may still be a
// header (its "type", if there is one before the cut, is "session"), so it
// is read whole before it is judged.
func headerOpen(head []byte) bool {
	if !format.LineOpen(head, 0) {
		return false
	}
	l := bytes.TrimSpace(format.TrimBOM(head))
	v := gjson.GetBytes(l, "type")
	return len(l) > 0 && l[0] == '{' && (!v.Exists() || v.String() == "session")
}

// DetectHead reports whether the first line is a flat header: type "session"
// with the integer version 1. pi's tree layout also starts with a "session"
// line, but with no version (v1) or version 2 or 3.
func (*Format) DetectHead(head []byte) bool {
	line := head
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		line = head[:i]
	}
	line = bytes.TrimSpace(bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")))
	if len(line) == 0 || line[0] != '{' || !gjson.ValidBytes(line) {
		return false
	}
	v := gjson.ParseBytes(line)
	if v.Get("type").String() != "session" {
		return false
	}
	ver := v.Get("version")
	return ver.Type == gjson.Number && ver.Raw == "1"
}
