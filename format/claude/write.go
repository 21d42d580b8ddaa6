package claude

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
	"github.com/tidwall/gjson"
)

// SessionID is the id a session is written under: its own when it is a
// UUID, else a UUID derived from it (package spell), as Claude Code lists only
// <uuid>.jsonl files.
func SessionID(m *session.Meta) string { return spell.SessionID(caps.IDs, m, 0) }

// Write writes one session under the store out (a CLAUDE_CONFIG_DIR):
// projects/<encoded cwd>/<session uuid>.jsonl, with its sub-agent runs in
// <session uuid>/subagents/agent-<id>.jsonl. Lines are written as they are
// read; every file appears complete or not at all.
func (f Format) Write(r session.Reader, out string, opt format.WriteOptions) ([]string, error) {
	defer r.Close()
	w := newWriter(r.Meta(), out, opt)
	if err := w.run(r); err != nil {
		w.abort()
		return nil, err
	}
	return w.commit()
}

type writer struct {
	meta   *session.Meta
	own    bool
	dir    string // the project folder
	sid    string
	ids    *spell.IDs // another layout's ids as Claude Code's
	cwd    string
	opt    format.WriteOptions
	files  map[string]*outFile // by sidechain ("" for the session file)
	order  []string
	agents map[string]string // sidechain -> file
	tip    map[string]string // sidechain -> uuid of the last line written
	metas  []sideFile        // sub-agents' .meta.json to write beside them
	conv   bool              // a line of the conversation is in the session file
	up     map[string]string // an entry not written -> the parent its children take
	chain  *convtree.Chain   // re-links a source that links messages only (ash)
	// held is a tool result of another layout, written once the next
	// entry is known: a sub-agent run its call started is named on it
	// (toolUseResult.agentId), as Claude Code links a Task to its run.
	held  *heldLine
	named map[string]string // sidechain -> the tool call whose result line names it
	open  []*outFile        // the files open now, at most maxOpen
	clock int
	// the main conversation's first and last prompt and last line, for
	// the last-prompt line (lastprompt.go)
	firstPrompt, lastPrompt, leaf string
}

type heldLine struct {
	side string
	e    *session.Entry
	l    line
}

type sideFile struct {
	side string
	data []byte
}

type outFile struct {
	path string
	af   *atomicfile.File
	bw   *bufio.Writer // nil while the file is suspended
	used int           // when it was last written to (writer.clock)
}

// maxOpen bounds the files a writer keeps open at once, the session's and
// its sub-agents': a file written to when as many are open closes the one
// written to longest ago (its buffer flushed, its temporary file
// suspended) and reopens when it is written to again. Every sub-agent
// used to stay open until the commit, a descriptor and a 64 KiB buffer
// each: 20,000 sub-agents ran out of descriptors, 15,000 took 1.4 GB.
const maxOpen = 16

func newWriter(m *session.Meta, out string, opt format.WriteOptions) *writer {
	w := &writer{meta: m, own: m.Origin == Name, ids: spell.NewIDs(caps.IDs, m, 0), cwd: m.Cwd, opt: opt,
		files: map[string]*outFile{}, agents: map[string]string{}, tip: map[string]string{}}
	w.sid = w.ids.Session()
	if w.cwd == "" {
		w.cwd = "/"
	}
	w.dir = filepath.Join(out, ProjectsDir, EncodeCwd(w.cwd))
	if m.MessageLinks {
		w.chain = &convtree.Chain{}
	}
	return w
}

func (w *writer) run(r session.Reader) error {
	if !w.own {
		if w.meta.Title != "" {
			if err := w.emit("", encodeTitle(nil, w.meta.Title, w.sid, false)); err != nil {
				return err
			}
		}
	}
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			if err := w.flush(); err != nil {
				return err
			}
			return w.writeLastPrompt()
		}
		if err != nil {
			return err
		}
		if err := w.entry(e); err != nil {
			return err
		}
	}
}

func (w *writer) entry(e *session.Entry) error {
	if w.held != nil && e.Kind != session.KindSubagent {
		if err := w.flush(); err != nil {
			return err
		}
	}
	own := e.Origin == Name
	if w.chain != nil && !own {
		c := *e
		c.ParentID = w.chain.Parent(e)
		e = &c
	}
	nt := noteOf(e.Private)
	if own && nt != nil && nt.marker {
		side := e.Subagent.ID
		w.agents[side] = strings.TrimPrefix(side, agentPrefix)
		if nt.sideMeta != nil {
			w.metas = append(w.metas, sideFile{side: side, data: nt.sideMeta})
		}
		return nil
	}
	switch {
	case e.Kind == session.KindSubagent || e.Kind == session.KindSubagentEnd:
		if h := w.held; h != nil && e.Kind == session.KindSubagent && e.Subagent != nil && h.e.Message.ToolCallID == e.Subagent.ParentToolCallID && e.Subagent.ParentToolCallID != "" {
			h.l.agent = w.agent(e.Subagent.ID)
			if w.named == nil {
				w.named = map[string]string{}
			}
			w.named[e.Subagent.ID] = h.e.Message.ToolCallID
			if err := w.flush(); err != nil {
				return err
			}
		}
		w.skip(e) // the run is a file of its own (counted converted by mapping)
		if e.Kind == session.KindSubagent && e.Subagent != nil && !own {
			// the run's .meta.json says what started it when its call's
			// result line, written already, could not
			var o jsonx.Obj
			o.Str("agentType", e.Subagent.AgentType)
			if w.named[e.Subagent.ID] == "" && e.Subagent.ParentToolCallID != "" {
				o.Str("toolUseId", e.Subagent.ParentToolCallID)
			}
			w.metas = append(w.metas, sideFile{side: e.Subagent.ID, data: append(o.Bytes(), '\n')})
		}
		return nil
	case own && e.Kind == session.KindCompaction && nt != nil && nt.summary != nil:
		c := *e // a compaction summary Claude Code wrote is its user line
		c.Message = nt.summary
		if e.Compaction != nil && e.Compaction.Summary != nt.summary.Text() {
			m := *nt.summary
			m.Content, m.ContentIsString = []session.Block{{Type: session.BlockText, Text: e.Compaction.Summary}}, true
			c.Message = &m
		}
		return w.message(&c, own)
	case own && e.Kind == session.KindOther && e.Custom != nil:
		return w.emit(e.Sidechain, e.Custom.Data)
	case e.Kind == session.KindSessionInfo:
		w.skip(e) // a title line has no uuid: what follows hangs from the line before
		return w.emit(e.Sidechain, w.merge(e, own, encodeTitle(e, e.Title, w.sid, own)))
	case e.Kind == session.KindCompaction && e.Message != nil:
		// another layout's summary, as the user line mapping made it
		// (CompactionAsUser), marked isCompactSummary
		return w.message(e, false)
	case e.Message != nil && (e.Kind == session.KindMessage || e.Kind == session.KindCustomMessage):
		return w.message(e, own)
	}
	// mapping drops what Claude Code has no line for (NoLineWhy)
	return fmt.Errorf("session %s: entry %q: Claude Code has no line for a %s entry like it", w.meta.ID, e.ID, e.Kind)
}

// skip records an entry that is not written: what hangs from it hangs
// from its parent.
func (w *writer) skip(e *session.Entry) {
	if w.up == nil {
		w.up = map[string]string{}
	}
	w.up[e.ID] = w.parentOf(e.ParentID)
}

// parentOf is the written entry id stands for.
func (w *writer) parentOf(id string) string {
	if p, ok := w.up[id]; ok {
		return p
	}
	return id
}

// message writes a message entry: back as its own lines when Claude Code
// wrote it, else as one new line.
func (w *writer) message(e *session.Entry, own bool) error {
	nt := noteOf(e.Private)
	if own && nt != nil {
		return w.ownMessage(e, nt)
	}
	l := w.newLine(e)
	w.notePrompt(e, l)
	if e.Message.Role == session.RoleTool && e.Sidechain == "" {
		w.held = &heldLine{side: e.Sidechain, e: e, l: l}
		return nil
	}
	return w.emit(e.Sidechain, encodeMessage(e, l, e.Message.Content, false))
}

// flush writes the held tool result line.
func (w *writer) flush() error {
	h := w.held
	if h == nil {
		return nil
	}
	w.held = nil
	b := encodeMessage(h.e, h.l, h.e.Message.Content, false)
	if h.l.agent != "" {
		// the run's link, as Claude Code writes it on a Task's result
		var o jsonx.Obj
		o.Str("agentId", h.l.agent)
		b = append(b[:len(b)-1], `,"toolUseResult":`...)
		b = append(append(b, o.Bytes()...), '}')
	}
	return w.emit(h.side, b)
}

func (w *writer) newLine(e *session.Entry) line {
	side := e.Sidechain
	l := line{uuid: w.id(e.ID), time: spell.ISO(e.Time.T), session: w.sid, cwd: w.cwd, sidechain: side != ""}
	if e.Time.T.IsZero() {
		l.time = spell.ISO(w.meta.Created.T)
	}
	if p := w.parentOf(e.ParentID); p != "" {
		l.parent = w.id(p)
	}
	if side != "" {
		l.agent = w.agent(side)
	}
	return l
}

// ownMessage writes the lines a Claude Code message was read from, each
// merged with what the model holds of it.
func (w *writer) ownMessage(e *session.Entry, nt *note) error {
	parts := nt.parts
	if parts == nil {
		parts = []part{{raw: e.Raw, uuid: e.ID, blocks: len(e.Message.Content)}}
	}
	blocks := e.Message.Content
	for i, p := range parts {
		if p.blocks < 0 {
			if err := w.emit(e.Sidechain, p.raw); err != nil {
				return err
			}
			continue
		}
		n := min(p.blocks, len(blocks))
		if i == len(parts)-1 {
			n = len(blocks) // blocks added after reading go on the last line
		}
		mine := blocks[:n]
		blocks = blocks[n:]
		var out []byte
		if i == 0 {
			l := line{uuid: p.uuid, time: e.Time.Raw, session: w.meta.ID, cwd: w.meta.Cwd, version: w.meta.Version}
			if !nt.parentNull {
				l.parent = rawParent(e.Raw)
			}
			if l.time == "" {
				l.time = spell.ISO(e.Time.T)
			}
			canon := encodeMessage(e, l, mine, true)
			canon = w.restore(canon, e.Raw, nt)
			out = jsonx.Merge(e.Raw, canon)
		} else {
			out = jsonx.Merge(p.raw, replaceContent(p.raw, mine))
		}
		if err := w.emit(e.Sidechain, out); err != nil {
			return err
		}
	}
	return nil
}

// restore drops from canon the members the source line did not have
// (isSidechain, sessionId, cwd, version are written only where read).
func (w *writer) restore(canon, raw []byte, nt *note) []byte {
	var o jsonx.Obj
	has := map[string]bool{}
	for _, k := range nt.omitted {
		has[k] = true
	}
	gjson.ParseBytes(raw).ForEach(func(k, _ gjson.Result) bool {
		has[k.String()] = true
		return true
	})
	gjson.ParseBytes(canon).ForEach(func(k, v gjson.Result) bool {
		if has[k.String()] {
			o.Raw(k.String(), []byte(v.Raw))
		}
		return true
	})
	return o.Bytes()
}

func rawParent(raw []byte) string { return gjson.GetBytes(raw, "parentUuid").String() }

func (w *writer) merge(e *session.Entry, own bool, canon []byte) []byte {
	if own && len(e.Raw) > 0 {
		return jsonx.Merge(e.Raw, canon)
	}
	return canon
}

// id is the uuid an entry is written under (mapping restyles another
// layout's).
func (w *writer) id(id string) string {
	if w.own {
		return id
	}
	return w.ids.Of(id)
}

// agent is the id of the sub-agent file a sidechain is written to.
func (w *writer) agent(side string) string {
	if a, ok := w.agents[side]; ok {
		return a
	}
	a := strings.TrimPrefix(side, agentPrefix)
	if format.UnsafeID(a) != "" || a == side {
		a = "a" + strings.ReplaceAll(spell.UUID(w.sid+":agent:"+side), "-", "")[:16]
	}
	w.agents[side] = a
	return a
}

// emit writes one line to the file of sidechain side.
func (w *writer) emit(side string, b []byte) error {
	of, err := w.file(side)
	if err != nil {
		return err
	}
	if side == "" && !w.conv {
		w.conv = isConversation(gjson.ParseBytes(b))
	}
	if _, err := of.bw.Write(b); err != nil {
		return fmt.Errorf("write %s: %w", of.path, err)
	}
	return of.bw.WriteByte('\n')
}

func (w *writer) file(side string) (*outFile, error) {
	w.clock++
	if of, ok := w.files[side]; ok {
		of.used = w.clock
		if of.bw != nil {
			return of, nil
		}
		if err := w.room(); err != nil {
			return nil, err
		}
		if err := of.af.Resume(); err != nil {
			return nil, err
		}
		of.bw = bufio.NewWriterSize(of.af, 1<<16)
		w.open = append(w.open, of)
		return of, nil
	}
	if err := w.room(); err != nil {
		return nil, err
	}
	p := filepath.Join(w.dir, w.sid+".jsonl")
	if side != "" {
		p = filepath.Join(w.dir, w.sid, SubagentDir, agentPrefix+w.agent(side)+".jsonl")
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", filepath.Dir(p), err)
	}
	af, err := atomicfile.Create(p, 0o644, w.opt.Force)
	if err != nil {
		return nil, err
	}
	of := &outFile{path: p, af: af, bw: bufio.NewWriterSize(af, 1<<16), used: w.clock}
	w.files[side] = of
	w.order = append(w.order, side)
	w.open = append(w.open, of)
	return of, nil
}

// room suspends the open file written to longest ago when maxOpen are
// open.
func (w *writer) room() error {
	if len(w.open) < maxOpen {
		return nil
	}
	i := 0
	for j, of := range w.open {
		if of.used < w.open[i].used {
			i = j
		}
	}
	oldest := w.open[i]
	w.open = append(w.open[:i], w.open[i+1:]...)
	if err := oldest.bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", oldest.path, err)
	}
	if err := oldest.af.Suspend(); err != nil {
		return err
	}
	oldest.bw = nil
	return nil
}

func (w *writer) abort() {
	for _, of := range w.files {
		of.af.Abort()
	}
}

func (w *writer) commit() ([]string, error) {
	if !w.conv { // no line of the conversation: Claude Code would find no session
		w.abort()
		return nil, &exitcode.Error{Code: exitcode.Invalid, Err: fmt.Errorf("session %s: %w: Claude Code writes a session file only once it has a line, and this session has no entry it can hold", w.meta.ID, format.ErrNothingToWrite)}
	}
	var out []string
	sides := []string{""}
	for _, s := range w.order {
		if s != "" {
			sides = append(sides, s)
		}
	}
	for _, side := range sides {
		of := w.files[side]
		if of.bw != nil {
			if err := of.bw.Flush(); err != nil {
				w.abort()
				return nil, fmt.Errorf("write %s: %w", of.path, err)
			}
		}
		if err := of.af.Commit(); err != nil {
			w.abort()
			return nil, err
		}
		out = append(out, of.path)
	}
	for _, m := range w.metas {
		of, ok := w.files[m.side]
		if !ok {
			continue
		}
		p := strings.TrimSuffix(of.path, ".jsonl") + metaSuffix
		if err := atomicfile.WriteFile(p, m.data, 0o644, w.opt.Force); err != nil {
			return out, err
		}
		out = append(out, p)
	}
	if n, ok := w.meta.Private.(*metaNote); ok && w.own && n.toolResults != "" {
		// the outputs Claude Code moved out of the transcript, as they are
		copied, err := copyResults(n.toolResults, filepath.Join(w.dir, w.sid, ToolResults), w.opt.Force)
		out = append(out, copied...)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}
