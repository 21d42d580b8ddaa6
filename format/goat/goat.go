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

func (Format) Name() string      { return Name }
func (Format) Aliases() []string { return []string{"dir"} }

// Detect reports whether path is a goat session directory, or a store
// directory holding at least one.
func (Format) Detect(path string) bool {
	return isSession(path) || len(sessionsUnder(path, 1)) > 0
}

// isSession judges by content: metadata.json is an object with an "id", and
// messages.jsonl exists with a first line holding uuid and message.role (an
// empty file is a session that has no messages yet).
func isSession(dir string) bool {
	// A byte order mark is looked past: validate reports it (utf8-bom).
	meta := format.TrimBOM(format.Head(filepath.Join(dir, MetadataFile), 1<<16))
	if meta == nil {
		return false
	}
	m := gjson.ParseBytes(meta)
	if !m.IsObject() || m.Get("id").Type != gjson.String {
		// A metadata file over 64 KiB is cut; fall back to a prefix test.
		if !bytes.HasPrefix(bytes.TrimSpace(meta), []byte("{")) || !bytes.Contains(meta, []byte(`"id"`)) {
			return false
		}
	}
	f, err := os.Open(filepath.Join(dir, MessagesFile))
	if err != nil {
		return false
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	for {
		line, err := br.ReadSlice('\n')
		if t := bytes.TrimSpace(format.TrimBOM(line)); len(t) > 0 {
			v := gjson.ParseBytes(t)
			return v.Get("uuid").Exists() && v.Get("message.role").Exists()
		}
		if err != nil {
			return errors.Is(err, io.EOF) // only blank lines: no messages yet
		}
	}
}
