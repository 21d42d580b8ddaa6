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

// projectContents is what a project folder holds: the session files and
// the older sub-agent files beside them (*.jsonl, all read), and each
// session's folder <uuid>/ with its sub-agent runs and the large tool
// outputs its lines point at (any name: the folder is taken whole). The runs' .meta.json, the folder's
// sessions-index.json and Claude Code's memory/ are its own, expected.
// Whose a sub-agent run is, is not a name: ownedRuns says.
var projectContents = format.Contents{
	Read:  []string{"*.jsonl", "*/" + SubagentDir + "/" + agentPrefix + "*.jsonl", "*/" + ToolResults + "/"},
	Known: []string{"*/" + SubagentDir + "/" + agentPrefix + "*" + metaSuffix, "sessions-index.json", "memory/"},
}

// Unread lists what the project folders at path hold that no session
// reads: files and folders the layout does not know, a session folder
// whose session file is gone, and an older sub-agent file naming no
// session of its folder. A store's other folders and files (settings,
// history.jsonl, todos/, ...) are Claude Code's own, and not listed.
func (Format) Unread(path string) []format.Stray {
	fi, err := os.Stat(path)
	if err != nil || !fi.IsDir() {
		return nil
	}
	sub := projectsOf(path)
	if sub == "" {
		return projectStrays(path)
	}
	ents, err := os.ReadDir(sub)
	if err != nil {
		return []format.Stray{{Path: sub, Err: err}}
	}
	var out []format.Stray
	for _, e := range ents {
		p := filepath.Join(sub, e.Name())
		switch {
		case strings.HasPrefix(e.Name(), ".") || strings.HasSuffix(e.Name(), ".bak"):
		case e.IsDir():
			out = append(out, projectStrays(p)...)
		default:
			out = append(out, format.Stray{Path: p, Why: "a file among the project folders"})
		}
	}
	return out
}

// projectStrays lists what one project folder holds that no session reads.
func projectStrays(dir string) []format.Stray {
	orphans := orphanRuns(dir)
	var out []format.Stray
	for _, s := range projectContents.Strays(dir) {
		if !under(s.Path, orphans) {
			out = append(out, s)
		}
	}
	out = append(out, orphans...)
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func under(p string, in []format.Stray) bool {
	for _, s := range in {
		if p == s.Path || strings.HasPrefix(p, s.Path+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// orphanRuns are the sub-agent runs of dir that belong to no session of
// it: a session folder <uuid>/ with no <uuid>.jsonl beside it (Sessions
// lists only session files), and an older agent-*.jsonl whose sessionId no
// session file has (subagentFiles attaches a run by it). The session ids
// are the files' names, as Claude Code names them; a session file's lines
// are read for its id only when an older run names none of those.
func orphanRuns(dir string) []format.Stray {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil // projectContents reports it
	}
	var out []format.Stray
	var olds []string
	for _, e := range ents {
		n := e.Name()
		p := filepath.Join(dir, n)
		switch {
		case strings.HasPrefix(n, ".") || strings.HasSuffix(n, ".bak"):
		case e.IsDir():
			if !isRegular(p+".jsonl") && !projectContents.Has(n, true) {
				out = append(out, format.Stray{Path: p, Why: "no " + n + ".jsonl beside it, so no session reads it"})
			}
		case isAgentFile(p):
			olds = append(olds, p)
		}
	}
	if len(olds) == 0 {
		return out
	}
	var ids map[string]bool
	for _, p := range olds {
		sid := fileSessionID(p)
		if sid != "" && isRegular(filepath.Join(dir, sid+".jsonl")) {
			continue
		}
		if ids == nil {
			ids = sessionIDs(dir)
		}
		if !ids[sid] || sid == "" {
			out = append(out, format.Stray{Path: p, Why: "a sub-agent run of no session in its folder"})
		}
	}
	return out
}

// sessionIDs are the ids the reader gives the session files of dir.
func sessionIDs(dir string) map[string]bool {
	files, _ := sessionFiles(dir)
	ids := map[string]bool{}
	for _, p := range files {
		ids[readerSessionID(p)] = true
	}
	return ids
}

func isRegular(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// StdinFile is the name standard input is spooled to: a session file of
// its own (a transcript whose sub-agents, if any, are not on the pipe).
func (Format) StdinFile() string { return "stdin.jsonl" }

// DetectOnStdin judges standard input's first bytes as a transcript file's.
func (Format) DetectOnStdin(head []byte) bool { return detectHead(head) }
