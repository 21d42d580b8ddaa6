// Package goat reads, writes and validates the session directories of goat
// (github.com/jack-phare/goat, pkg/session): one directory per session with
// metadata.json, messages.jsonl, an optional transcript.jsonl and
// checkpoints/<id>/{manifest.json,files/<sha256>}. The layout has no version
// field; its schemas live under schema/goat/v1/.
package goat

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/regfile"
	"github.com/tidwall/gjson"
)

// Name is the format's canonical name; entries read here carry it as Origin.
const Name = "goat"

// File names inside a session directory.
const (
	MetadataFile   = "metadata.json"
	MessagesFile   = "messages.jsonl"
	TranscriptFile = "transcript.jsonl"
	CheckpointsDir = "checkpoints"
	ManifestFile   = "manifest.json"
	BlobsDir       = "files"
)

// Format is the goat session directory layout.
type Format struct{}

var _ format.Format = Format{}
var _ format.Writer = Format{}
var _ format.Unreader = Format{}

func (Format) Name() string      { return Name }
func (Format) Aliases() []string { return []string{"dir"} }

// Detect reports whether path is a goat session directory, or a store
// directory holding at least one.
func (Format) Detect(path string) bool {
	return isSession(path) || len(sessionsUnder(path, 1)) > 0
}

// isSession judges by the two files goat writes, metadata.json and
// messages.jsonl, and their content: each must look like goat's (metadata
// an object with an "id"; the first message line with uuid and
// message.role, or no message yet) or not be JSON at all. So a session
// whose files are broken is still goat's, and validate says what is wrong
// with it, while another program's valid files of the same names (seed's
// flat message lines, metadata without an id) are not claimed.
//
// A metadata or messages file that is not a regular file is claimed unread
// (a FIFO would block), and so is a first message line longer than is
// looked at, so that validate names what is wrong.
func isSession(dir string) bool {
	mfi, err1 := os.Stat(filepath.Join(dir, MetadataFile))
	lfi, err2 := os.Stat(filepath.Join(dir, MessagesFile))
	if err1 != nil || err2 != nil || mfi.IsDir() || lfi.IsDir() {
		return false
	}
	if !mfi.Mode().IsRegular() || !lfi.Mode().IsRegular() {
		return true
	}
	meta := metadataShape(dir)
	if meta != shapeGoat && meta != shapeBroken {
		return false
	}
	msgs := messagesShape(dir)
	return msgs == shapeGoat || msgs == shapeBroken
}

type shape int

const (
	shapeGoat    shape = iota
	shapeBroken        // not JSON: a goat file gone wrong, for validate to report
	shapeForeign       // valid JSON of another shape
	shapeAbsent        // no such regular file
)

func metadataShape(dir string) shape {
	// A byte order mark is looked past: validate reports it (utf8-bom).
	meta := format.TrimBOM(format.Head(filepath.Join(dir, MetadataFile), 1<<16))
	if meta == nil {
		return shapeAbsent
	}
	m := gjson.ParseBytes(meta)
	if m.IsObject() && m.Get("id").Type == gjson.String {
		return shapeGoat
	}
	// A metadata file over 64 KiB is cut; fall back to a prefix test.
	if bytes.HasPrefix(bytes.TrimSpace(meta), []byte("{")) && bytes.Contains(meta, []byte(`"id"`)) {
		return shapeGoat
	}
	if !gjson.ValidBytes(meta) {
		return shapeBroken
	}
	return shapeForeign
}

func messagesShape(dir string) shape {
	p := filepath.Join(dir, MessagesFile)
	if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
		return shapeAbsent
	}
	f, err := regfile.Open(p)
	if err != nil {
		return shapeAbsent
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	for {
		line, err := br.ReadSlice('\n')
		if t := bytes.TrimSpace(format.TrimBOM(line)); len(t) > 0 {
			if errors.Is(err, bufio.ErrBufferFull) {
				return shapeBroken // longer than looked at: validate says more
			}
			v := gjson.ParseBytes(t)
			switch {
			case v.Get("uuid").Exists() && v.Get("message.role").Exists():
				return shapeGoat
			case !gjson.ValidBytes(t):
				return shapeBroken
			}
			return shapeForeign
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return shapeGoat // only blank lines: no messages yet
			}
			return shapeAbsent
		}
	}
}
