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
	"sort"
	"strings"

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

// DefaultStore is goat's DefaultBaseDir(): ~/.claude/projects.
func (Format) DefaultStore() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join("~", ".claude", "projects")
	}
	return filepath.Join(home, ".claude", "projects")
}

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

// storeSessions lists the session directories directly under dir, sorted.
func storeSessions(dir string) []string { return sessionsUnder(dir, -1) }

// sessionsUnder lists up to max (all when negative) session directories
// directly under dir, sorted; Detect asks for one, so walking a large tree
// does not open every session of every store twice.
func sessionsUnder(dir string, max int) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if fi, err := os.Stat(p); err == nil && fi.IsDir() && isSession(p) {
			out = append(out, p)
			if len(out) == max {
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// Sessions lists one session for a session directory, or every session of a store.
func (Format) Sessions(path string) ([]format.Ref, error) {
	if isSession(path) {
		return []format.Ref{{Path: path}}, nil
	}
	var out []format.Ref
	for _, p := range storeSessions(path) {
		out = append(out, format.Ref{Path: p}) // each session directory names itself
	}
	if out == nil {
		if _, err := os.Stat(path); err != nil {
			return nil, err
		}
	}
	return out, nil
}
