package gemini

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

// runSet gathers the sub-agent runs of a session from another layout
// written into a home, each as Gemini CLI 0.61.0 writes a sub-agent's
// session: chats/<parentSessionId>/<sessionId>.jsonl, a metadata line of
// kind "subagent" naming the workspace's directories, then its records.
// A run is held until the session is written (its lastUpdated is its end).
type runSet struct {
	parent string // the parent's session id, the runs' folder
	byID   map[string]*runFile
	order  []*runFile
}

type runFile struct {
	sid        string // the run's session id
	body       bytes.Buffer
	enc        *encoder
	start, end session.Time
}

func newRunSet(parent string) *runSet {
	return &runSet{parent: parent, byID: map[string]*runFile{}}
}

// get is the run of sidechain side, started on first use.
func (s *runSet) get(side string, parent *encoder) *runFile {
	if r, ok := s.byID[side]; ok {
		return r
	}
	sid := side
	if !spell.IsUUID(sid) {
		// Gemini CLI names the file after the id: a UUID, as its own are
		sid = spell.UUID("gemini:" + s.parent + ":agent:" + side)
	}
	r := &runFile{sid: sid}
	r.enc = &encoder{meta: parent.meta, ids: parent.ids, names: map[string]string{}, run: true}
	r.enc.w = bufio.NewWriter(&r.body)
	s.byID[side] = r
	s.order = append(s.order, r)
	return r
}

// side takes an entry of a sub-agent run or one that starts or ends it:
// into a home the run's entries go to its file, and the tool call that
// started it names it (agentId), as the agent links a call to its run. A
// single file (runs nil) has none: mapping has dropped them and counted
// them, by the declaration of a single file (caps.InFile, RunsHomeOnly),
// so one reaching it here is an error.
func (enc *encoder) side(e *session.Entry) error {
	if enc.runs == nil {
		return fmt.Errorf("session %s: entry %q of a sub-agent run: a single Gemini CLI file holds none (adapt the session by caps.InFile)", enc.meta.ID, e.ID)
	}
	switch {
	case e.Sidechain != "":
		r := enc.runs.get(e.Sidechain, enc)
		t := r.enc.timeOf(e)
		if r.start.IsZero() {
			r.start = t
		}
		if t.T.After(r.end.T) {
			r.end = t
		}
		c := *e
		c.Sidechain = ""
		return r.enc.entry(&c)
	case e.Subagent != nil && e.Subagent.ID != "":
		r := enc.runs.get(e.Subagent.ID, enc)
		if e.Kind == session.KindSubagent && e.Subagent.ParentToolCallID != "" {
			enc.agents[e.Subagent.ParentToolCallID] = r.sid
		}
		if e.Kind == session.KindSubagentEnd && e.Time.T.After(r.end.T) {
			r.end = e.Time
		}
		if r.start.IsZero() && e.Kind == session.KindSubagent {
			r.start = e.Time
		}
	}
	return nil
}

// write writes each run under dir (the chats folder) and returns the
// paths written.
func (s *runSet) write(dir, cwd string, force bool) ([]string, error) {
	var paths []string
	for _, r := range s.order {
		if err := r.enc.flush(); err != nil {
			return paths, err
		}
		if err := r.enc.w.Flush(); err != nil {
			return paths, err
		}
		// A run with no entries (its start only: a Copilot CLI run whose
		// events were not logged) is still written, its metadata alone, as
		// the agent starts one: the call that started it names it.
		end := r.end
		if end.IsZero() {
			end = r.start
		}
		var o jsonx.Obj
		o.Str("sessionId", r.sid).Str("projectHash", ProjectHash(cwd)).Str("startTime", iso(r.start)).
			Str("lastUpdated", iso(end)).Str("kind", "subagent")
		if cwd != "" {
			o.Raw("directories", jsonx.Arr([][]byte{jsonx.String(cwd)}))
		}
		data := append(append(o.Bytes(), '\n'), r.body.Bytes()...)
		p := filepath.Join(dir, s.parent, r.sid+".jsonl")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return paths, fmt.Errorf("create %s: %w", filepath.Dir(p), err)
		}
		if err := atomicfile.WriteFile(p, data, 0o644, force); err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}
