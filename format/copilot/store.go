package copilot

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sesstool/sesstool/format"
)

// DefaultStore is Copilot CLI's home: $COPILOT_HOME, else ~/.copilot (the
// CLI resolves its config folder so, and keeps sessions in session-state/).
func (Format) DefaultStore() string { return format.EnvOrHome("COPILOT_HOME", ".copilot") }

// Sessions lists the one session a file holds, the one a session folder
// holds (its events.jsonl), or every session of a home or of its
// session-state folder.
func (f Format) Sessions(path string) ([]format.Ref, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if !fi.IsDir() {
		return []format.Ref{{Path: path}}, nil
	}
	files, err := sessionFiles(path)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("read %s: no Copilot CLI session here (no %s, no %s/ with sessions)", path, EventsFile, StateDir)
	}
	refs := make([]format.Ref, len(files))
	for i, p := range files {
		refs[i] = format.Ref{Path: p}
	}
	return refs, nil
}

// sessionFiles are the session files under dir: its own events.jsonl (a
// session folder), else every session of dir/session-state (a home) or of
// dir itself (a session-state folder): <id>/events.jsonl folders and the
// older flat <id>.jsonl files, each judged by its first line, by path.
func sessionFiles(dir string) ([]string, error) {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("read %s: not a directory", dir)
	}
	if p := filepath.Join(dir, EventsFile); isSessionFile(p) {
		return []string{p}, nil
	}
	state := dir
	if fi, err := os.Stat(filepath.Join(dir, StateDir)); err == nil && fi.IsDir() {
		state = filepath.Join(dir, StateDir)
	}
	ents, err := os.ReadDir(state)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", state, err)
	}
	var out []string
	for _, e := range ents {
		p := filepath.Join(state, e.Name())
		switch {
		case e.IsDir() && isSessionFile(filepath.Join(p, EventsFile)):
			out = append(out, filepath.Join(p, EventsFile))
		case e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".jsonl") && isSessionFile(p):
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

// isSessionFile reports whether p is a regular file that starts with
// Copilot CLI's session.start event.
func isSessionFile(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	return Format{}.DetectHead(format.HeadGrow(p, 64<<10, startOpen))
}

// sessionKnown is what Copilot CLI keeps in a session folder beside the
// log and workspace.yaml, which the layout does not read: checkpoints and
// the files it saved, its plan, the per-session database (todos), the VS
// Code metadata. Lock files are hidden and never listed.
var sessionKnown = []string{"checkpoints/", "files/", "research/", "rewind-file-snapshots/", "plan.md", "session.db", "vscode.metadata.json"}

// contents is what a unit of the layout holds, by its kind: a session
// folder, the session-state folder, or a whole home (whose other entries,
// config.json, logs/, session-store.db, installed-plugins/, …, are
// Copilot's own).
func contents(kind string) format.Contents {
	prefix := map[string]string{"session": "", "state": "*/", "home": StateDir + "/*/"}[kind]
	c := format.Contents{Read: []string{prefix + EventsFile, prefix + WorkspaceFile}}
	for _, k := range sessionKnown {
		c.Known = append(c.Known, prefix+k)
	}
	switch kind {
	case "state":
		c.Read = append(c.Read, "*.jsonl")
	case "home":
		c.Read = append(c.Read, StateDir+"/*.jsonl")
		c.Known = append(c.Known, "*")
	}
	return c
}

// Unread lists what a session folder, session-state folder or home holds
// that is neither a session's file nor Copilot's own: the walk reports it.
func (Format) Unread(path string) []format.Stray {
	fi, err := os.Stat(path)
	if err != nil || !fi.IsDir() {
		return nil // a log file
	}
	switch {
	case isSessionFile(filepath.Join(path, EventsFile)):
		return contents("session").Strays(path)
	case isDir(filepath.Join(path, StateDir)):
		return contents("home").Strays(path)
	}
	return contents("state").Strays(path)
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
