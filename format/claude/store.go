package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/tidwall/gjson"
)

// DefaultStore is where Claude Code keeps its sessions: $CLAUDE_CONFIG_DIR,
// else ~/.claude (sessions under projects/).
func (Format) DefaultStore() string { return format.EnvOrHome("CLAUDE_CONFIG_DIR", ".claude") }

// Sessions lists the sessions at path: a session file is one; a project
// folder holds one per <uuid>.jsonl; a store (a folder with projects/)
// every session of every project. Sub-agent transcripts are part of their
// parent session, never sessions of their own.
func (Format) Sessions(path string) ([]format.Ref, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if !fi.IsDir() {
		if isAgentFile(path) {
			return nil, fmt.Errorf("read %s: a sub-agent transcript is part of its parent session; name the session file instead", path)
		}
		return []format.Ref{{Path: path}}, nil
	}
	projects := []string{path}
	if sub := projectsOf(path); sub != "" {
		ents, err := os.ReadDir(sub)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", sub, err)
		}
		projects = projects[:0]
		for _, e := range ents {
			if e.IsDir() {
				projects = append(projects, filepath.Join(sub, e.Name()))
			}
		}
	}
	var refs []format.Ref
	for _, dir := range projects {
		files, err := sessionFiles(dir)
		if err != nil {
			return nil, err
		}
		for _, p := range files {
			refs = append(refs, format.Ref{Path: p})
		}
	}
	return refs, nil
}

// sessionFiles are the session files directly in a project folder, sorted.
func sessionFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	var out []string
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".jsonl") && !isAgentFile(p) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

// subagentFiles are the sub-agent transcripts of the session file path: the
// 2.1.2+ <uuid>/subagents/agent-*.jsonl, and the older agent-*.jsonl beside
// the session whose lines carry its session id (sid).
func subagentFiles(path, sid string) []string {
	stem := strings.TrimSuffix(path, ".jsonl")
	out, _ := filepath.Glob(filepath.Join(stem, SubagentDir, agentPrefix+"*.jsonl"))
	sort.Strings(out)
	if sid == "" {
		return out
	}
	older, _ := filepath.Glob(filepath.Join(filepath.Dir(path), agentPrefix+"*.jsonl"))
	sort.Strings(older)
	for _, p := range older {
		if fileSessionID(p) == sid {
			out = append(out, p)
		}
	}
	return out
}

// agentID is a sub-agent file's id: agent-<id>.jsonl.
func agentID(p string) string {
	return strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), agentPrefix), ".jsonl")
}

// fileSessionID is the sessionId of the first line of the file at p that
// has one, or "".
func fileSessionID(p string) string {
	fh, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer fh.Close()
	lr := jsonl.NewReader(fh)
	for i := 0; i < metaScan; i++ {
		l, err := lr.NextNonBlank()
		if err != nil {
			return ""
		}
		if s := gjson.GetBytes(format.TrimBOM(l.Bytes), "sessionId"); s.Type == gjson.String {
			return s.String()
		}
	}
	return ""
}
