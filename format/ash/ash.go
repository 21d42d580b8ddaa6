// Package ash reads, writes, validates and migrates the session directories
// of ash (github.com/dcramer/ash): context.jsonl (header and every entry),
// history.jsonl (messages as text), state.json and subagents/<id>.jsonl.
package ash

import (
	"bytes"
	"os"
	"path/filepath"

	"github.com/sesstool/sesstool/format"
	"github.com/tidwall/gjson"
)

// Name is the --format name.
const Name = "ash"

// Current is the newest session version ash writes ("2" since 2026-02-15).
const Current = "2"

// File names inside a session directory.
const (
	ContextFile = "context.jsonl"
	HistoryFile = "history.jsonl"
	StateFile   = "state.json"
	SubagentDir = "subagents"
)

// Format is the ash layout.
type Format struct{}

var _ format.Format = Format{}
var _ format.Writer = Format{}
var _ format.Migrator = Format{}
var _ format.Unreader = Format{}

func (Format) Name() string      { return Name }
func (Format) Aliases() []string { return nil }

// Detect accepts a session directory (context.jsonl whose first line is a
// header with a string version, a provider and a created_at) or a store
// holding such directories.
func (Format) Detect(path string) bool {
	return isSession(path) || isStore(path)
}

// headerOf returns the first line of dir/context.jsonl when it is an ash header.
func headerOf(dir string) (gjson.Result, bool) {
	head := format.TrimBOM(format.Head(filepath.Join(dir, ContextFile), 1<<16))
	if head == nil {
		return gjson.Result{}, false
	}
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	v := gjson.ParseBytes(bytes.TrimSpace(head))
	ok := v.IsObject() && v.Get("type").String() == "session" &&
		v.Get("version").Type == gjson.String && v.Get("provider").Exists() && v.Get("created_at").Exists()
	return v, ok
}

// isSession: a session directory by its header, or by its files' names
// (context.jsonl, history.jsonl and state.json, which no other layout
// spells), so that a session whose header is broken is still ash's, and
// validate says what is wrong with it. A context.jsonl that is not a
// regular file, beside ash's state.json or history.jsonl, is claimed
// unread (a FIFO would block), so that validate names it instead of the
// session vanishing from its store.
func isSession(path string) bool {
	if _, ok := headerOf(path); ok {
		return true
	}
	ctx := filepath.Join(path, ContextFile)
	if isRegular(ctx) && isRegular(filepath.Join(path, HistoryFile)) && isRegular(filepath.Join(path, StateFile)) {
		return true
	}
	fi, err := os.Stat(ctx)
	if err != nil || fi.Mode().IsRegular() || fi.IsDir() {
		return false
	}
	return exists(filepath.Join(path, StateFile)) || exists(filepath.Join(path, HistoryFile))
}

func isRegular(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func isStore(path string) bool {
	ents, err := os.ReadDir(path)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if e.IsDir() && !notLive(e.Name()) && isSession(filepath.Join(path, e.Name())) {
			return true
		}
	}
	return false
}
