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

func (Format) Name() string      { return Name }
func (Format) Aliases() []string { return []string{"dir"} }

// Detect reports whether path is a goat session directory, or a store
// directory holding at least one.
func (Format) Detect(path string) bool {
	return isSession(path) || len(sessionsUnder(path, 1)) > 0
}

// isSession judges by content: metadata.json is an object with an "id", and
// messages.jsonl exists with a first line holding uuid and message.role (an
// empty file is a session that has no messages yet). What cannot be judged
// is claimed, so that validate names what is wrong instead of the session
// vanishing from a store: a metadata file or messages file that is not a
// regular file (never opened here: a FIFO would block), a metadata file
// whose "id" lies beyond the 64 KiB looked at, and a first message line
// that is torn (the file ends inside it, or it is not JSON).
func isSession(dir string) bool {
	mp, lp := filepath.Join(dir, MetadataFile), filepath.Join(dir, MessagesFile)
	mfi, err1 := os.Stat(mp)
	lfi, err2 := os.Stat(lp)
	if err1 != nil || err2 != nil || mfi.IsDir() || lfi.IsDir() {
		return false
	}
	if !mfi.Mode().IsRegular() || !lfi.Mode().IsRegular() {
		return true
	}
	// A byte order mark is looked past: validate reports it (utf8-bom).
	meta := bytes.TrimSpace(format.TrimBOM(format.Head(mp, 1<<16)))
	if !bytes.HasPrefix(meta, []byte("{")) {
		return false
	}
	if m := gjson.ParseBytes(meta); gjson.ValidBytes(meta) && (!m.IsObject() || m.Get("id").Type != gjson.String) {
		return false // whole, and not goat's metadata
	}
	f, err := regfile.Open(lp)
	if err != nil {
		return false
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	for {
		line, err := br.ReadSlice('\n')
		if t := bytes.TrimSpace(format.TrimBOM(line)); len(t) > 0 {
			if errors.Is(err, bufio.ErrBufferFull) || !gjson.ValidBytes(t) {
				return true // torn, or longer than looked at: validate says which
			}
			v := gjson.ParseBytes(t)
			return v.Get("uuid").Exists() && v.Get("message.role").Exists()
		}
		if err != nil {
			return errors.Is(err, io.EOF) // only blank lines: no messages yet
		}
	}
}
