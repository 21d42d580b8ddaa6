package ash

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sesstool/sesstool/format"
)

// DefaultStore is where ash keeps its sessions.
func (Format) DefaultStore() string {
	return format.InHome(".ash", "sessions")
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

// notLive reports whether a store's entry is not a live session by its name:
// hidden (a migration's temporary directory) or a backup migrate kept
// (<dir>.bak), as the walk passes over hidden entries and *.bak files. Named
// on the command line, such a directory is read like any other session.
func notLive(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".bak")
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

// sessionContents is what an ash session directory holds: its three files
// and its sub-agents' transcripts, all read.
var sessionContents = format.Contents{
	Read: []string{ContextFile, HistoryFile, StateFile, SubagentDir + "/*.jsonl"},
}

// Unread lists what a session directory holds beside ash's files. A store
// is walked, each session directory a unit of its own.
func (Format) Unread(path string) []format.Stray {
	// The walk claimed path: a session directory is the one holding a
	// context.jsonl (isSession would read its header again).
	if fi, err := os.Stat(path); err != nil || !fi.IsDir() || !exists(filepath.Join(path, ContextFile)) {
		return nil
	}
	return sessionContents.Strays(path)
}
