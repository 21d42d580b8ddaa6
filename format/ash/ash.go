// Package ash reads, writes, validates and migrates the session directories
// of ash (github.com/dcramer/ash): context.jsonl (header and every entry),
// history.jsonl (messages as text), state.json and subagents/<id>.jsonl.
package ash

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

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

func (Format) Name() string      { return Name }
func (Format) Aliases() []string { return nil }

// DefaultStore is where ash keeps its sessions.
func (Format) DefaultStore() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join("~", ".ash", "sessions")
	}
	return filepath.Join(home, ".ash", "sessions")
}

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

func isSession(path string) bool {
	_, ok := headerOf(path)
	return ok
}

// notLive reports whether a store's entry is not a live session by its name:
// hidden (a migration's temporary directory) or a backup migrate kept
// (<dir>.bak), as the walk passes over hidden entries and *.bak files. Named
// on the command line, such a directory is read like any other session.
func notLive(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".bak")
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

// Sessions lists the session at path, or every session directory of a store.
func (Format) Sessions(path string) ([]format.Ref, error) {
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		// A file of a session (context.jsonl named on the command line with
		// --format ash) stands for its directory.
		if dir := sessionOfFile(path); dir != "" {
			return []format.Ref{{Path: dir}}, nil
		}
		return nil, fmt.Errorf("%s: not a file of an ash session directory", path)
	}
	if isSession(path) {
		return []format.Ref{{Path: path}}, nil
	}
	ents, err := os.ReadDir(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	var out []format.Ref
	for _, e := range ents {
		p := filepath.Join(path, e.Name())
		if e.IsDir() && !notLive(e.Name()) && isSession(p) {
			out = append(out, format.Ref{Path: p})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// subagentFiles lists dir/subagents/*.jsonl, sorted.
func subagentFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(dir, SubagentDir))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Join(dir, SubagentDir), err)
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() && filepath.Ext(e.Name()) == ".jsonl" {
			out = append(out, filepath.Join(dir, SubagentDir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// sessionOfFile returns the session directory a file belongs to, or "".
func sessionOfFile(p string) string {
	dir := filepath.Dir(p)
	if filepath.Base(dir) == SubagentDir {
		dir = filepath.Dir(dir)
	}
	if isSession(dir) {
		return dir
	}
	return ""
}
