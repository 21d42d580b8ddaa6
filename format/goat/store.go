package goat

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sesstool/sesstool/format"
)

// DefaultStore is goat's DefaultBaseDir(): ~/.claude/projects.
func (Format) DefaultStore() string {
	return format.InHome(".claude", "projects")
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

// Keeps reports goat's memory folders among its session directories:
// Cleanup never deletes a memory, agent-memory or *-memory folder there
// (auto-memory and per-agent memory, which outlive sessions). They hold no
// session; one that does (a session directory so named) is a session.
func (Format) Keeps(path string, dir bool) bool {
	name := filepath.Base(path)
	return dir && (name == "memory" || name == "agent-memory" || strings.HasSuffix(name, "-memory")) && !isSession(path)
}

var _ format.Keeper = Format{}

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

// sessionContents is what a goat session directory holds: the files the
// layout reads, and the lock files goat's writer takes beside them.
var sessionContents = format.Contents{
	Read: []string{
		MetadataFile, MessagesFile, TranscriptFile,
		// Every name is a blob's: the folder is taken whole, not listed.
		CheckpointsDir + "/*/" + ManifestFile, CheckpointsDir + "/*/" + BlobsDir + "/",
	},
	Known: []string{MessagesFile + ".lock", TranscriptFile + ".lock"},
}

// Unread lists what a session directory holds beside goat's files. A store
// is walked, each session directory a unit of its own.
func (Format) Unread(path string) []format.Stray {
	// The walk claimed path: a session directory is the one holding
	// goat's two files (isSession would read them again).
	if _, err := os.Stat(filepath.Join(path, MetadataFile)); err != nil {
		return nil
	}
	if _, err := os.Stat(filepath.Join(path, MessagesFile)); err != nil {
		return nil
	}
	return sessionContents.Strays(path)
}
