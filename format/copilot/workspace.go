package copilot

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/sesstool/sesstool/session"
)

// workspace is what sesstool reads of a session folder's workspace.yaml:
// Copilot CLI's name for the session, its last update, and the file's
// bytes, which this layout's writer gives back as they were.
type workspace struct {
	id, name, updated string
	raw               []byte
}

// metaNote is the Meta's Private note: the workspace.yaml read beside the
// log, if any.
type metaNote struct{ ws *workspace }

// readWorkspace reads the workspace.yaml beside an events.jsonl; nil when
// there is none (a flat <id>.jsonl, a file elsewhere, standard input).
func readWorkspace(eventsPath string) *workspace {
	if filepath.Base(eventsPath) != EventsFile {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(filepath.Dir(eventsPath), WorkspaceFile))
	if err != nil {
		return nil
	}
	ws := &workspace{raw: b}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || strings.HasPrefix(k, " ") || strings.HasPrefix(k, "#") {
			continue // only top-level "key: scalar" lines
		}
		v = yamlScalar(strings.TrimSpace(v))
		switch k {
		case "id":
			ws.id = v
		case "name":
			ws.name = v
		case "updated_at":
			ws.updated = v
		}
	}
	return ws
}

// yamlScalar is a one-line YAML scalar's value: a double-quoted string is
// unquoted as JSON (its escapes are JSON's for what Copilot writes), a
// single-quoted one with ” as a quote; a block scalar (| or >) is not read.
func yamlScalar(v string) string {
	switch {
	case strings.HasPrefix(v, `"`):
		var s string
		if json.Unmarshal([]byte(v), &s) == nil {
			return s
		}
	case strings.HasPrefix(v, "'") && strings.HasSuffix(v, "'") && len(v) >= 2:
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	case v == "|" || v == ">" || strings.HasPrefix(v, "|") || strings.HasPrefix(v, ">"):
		return ""
	}
	return v
}

// applyWorkspace sets what the workspace.yaml says of the session on m.
func applyWorkspace(m *session.Meta, ws *workspace) {
	if ws == nil || ws.id != "" && ws.id != m.ID {
		return // another session's file
	}
	m.Title = ws.name
	if t, ok := session.ParseTime(ws.updated); ok {
		m.Updated = t
	}
	m.Private = metaNote{ws: ws}
}
