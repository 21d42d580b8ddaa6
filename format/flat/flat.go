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
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
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

// DefaultStore is where the agent keeps its sessions:
// $XDG_CONFIG_HOME/agent/sessions, else ~/.config/agent/sessions.
func (*Format) DefaultStore() string {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "agent", "sessions")
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".config", "agent", "sessions")
}

// Detect reports whether path is a flat session file.
func (f *Format) Detect(path string) bool {
	return f.DetectHead(format.Head(path, 64<<10))
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

// Sessions lists the one session a flat file holds.
func (f *Format) Sessions(path string) ([]format.Ref, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("read %s: a flat session is a file, not a directory", path)
	}
	return []format.Ref{{Path: path}}, nil
}

// Open streams the session file at ref.Path into the model.
func (f *Format) Open(ref format.Ref) (session.Reader, error) {
	fh, err := os.Open(ref.Path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", ref.Path, err)
	}
	r, err := newReader(ref.Path, fh, fh)
	if err != nil {
		fh.Close()
		return nil, err
	}
	return r, nil
}

// OpenReader streams a session from r; name is used in errors.
func (f *Format) OpenReader(name string, r io.Reader) (session.Reader, error) {
	return newReader(name, r, nil)
}
