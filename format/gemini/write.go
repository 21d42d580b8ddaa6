package gemini

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// Write writes one session to the file out (created; replaced only with
// opt.Force) and returns its path.
// Into a home (opt.Home) a session from another layout keeps its
// sub-agent runs, each written beside it as Gemini CLI writes a
// sub-agent's session (runs_write.go); the session's own file comes first.
func (f Format) Write(r session.Reader, out string, opt format.WriteOptions) ([]string, error) {
	if !opt.Home {
		return format.WriteFile(Name, out, r, opt, f.WriteTo)
	}
	var runs *runSet
	var cwd string
	paths, err := format.WriteFile(Name, out, r, opt, func(w io.Writer, r session.Reader, opt format.WriteOptions) error {
		return f.writeTo(w, r, opt, func(m *session.Meta) *runSet {
			runs, cwd = newRunSet(SessionID(m)), m.Cwd
			return runs
		})
	})
	if err != nil || runs == nil {
		return paths, err
	}
	more, err := runs.write(filepath.Dir(out), cwd, opt.Force)
	return append(paths, more...), err
}

// Verbatim reports whether WriteTo copies r's lines: r is this layout's
// own reader of a JSON Lines file, untouched.
func (Format) Verbatim(r session.Reader) bool {
	rd, ok := r.(*reader)
	return ok && rd.i == 0 && !rd.c.legacy
}

// WriteTo writes one session to w as Gemini CLI's JSON Lines file. A
// session read from such a file gives back its lines byte for byte, every
// version of a message, $set and rewind included; a legacy document is
// written as the agent rewrites it when it resumes it (migrated); one from
// another layout is put on its active path and spelt as Gemini CLI 0.61.0
// writes a session.
func (f Format) WriteTo(w io.Writer, r session.Reader, opt format.WriteOptions) error {
	return f.writeTo(w, r, opt, nil)
}

// writeTo is WriteTo; home, when set, gives the set a session from
// another layout writes its sub-agent runs into (nil: a single file, which
// mapping adapted to hold none).
func (f Format) writeTo(w io.Writer, r session.Reader, opt format.WriteOptions, home func(*session.Meta) *runSet) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	if rd, ok := r.(*reader); ok && rd.i == 0 {
		lines := rd.c.lines
		if rd.c.legacy {
			lines = migrated(rd.c)
		}
		for _, l := range lines {
			bw.Write(l.raw)
			bw.WriteByte('\n')
		}
		return flush(bw)
	}
	defer r.Close()
	m := r.Meta()
	if m.Origin == Name {
		if err := writeOwn(bw, r); err != nil {
			return err
		}
		return flush(bw)
	}
	enc := &encoder{w: bw, meta: m, names: map[string]string{}, agents: map[string]string{}, ids: spell.NewIDs(caps.IDs, m, m.Created.UnixMilli())}
	if home != nil {
		enc.runs = home(m)
	}
	if err := session.Each(r, enc.entry); err != nil {
		return err
	}
	if err := enc.flush(); err != nil {
		return err
	}
	if !enc.started {
		return format.ErrNothingToWrite
	}
	return flush(bw)
}

func flush(bw *bufio.Writer) error {
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

// writeOwn writes a session of this layout that reached the writer through
// something else than its reader: the metadata line as read, then each
// message record as loaded (its last version), once.
func writeOwn(bw *bufio.Writer, r session.Reader) error {
	bw.Write(r.Meta().Raw)
	bw.WriteByte('\n')
	return session.Each(r, func(e *session.Entry) error {
		if len(e.Raw) > 0 && e.Sidechain == "" {
			bw.Write(e.Raw)
			bw.WriteByte('\n')
		}
		return nil
	})
}

// Place is where convert writes a session into a Gemini CLI home:
// tmp/<project>/chats/session-<YYYY-MM-DDThh-mm>-<id8>.jsonl, the project
// folder named as the agent names it (a slug of the working directory's
// last element), the time the session's start (UTC); a sub-agent's session
// of this layout goes to chats/<parentSessionId>/<sessionId>.jsonl.
func (Format) Place(m *session.Meta) string {
	t := m.Created.T.UTC()
	if m.Created.T.IsZero() {
		t = time.Unix(0, 0).UTC()
	}
	id := SessionID(m)
	if n, ok := m.Private.(*metaNote); ok && n.kind == "subagent" && m.Parent != nil && format.UnsafeID(m.Parent.SessionID) == "" && format.UnsafeID(id) == "" {
		// a sub-agent's own session goes back where the agent keeps it,
		// beside its parent's: chats/<parentSessionId>/<sessionId>.jsonl
		return fmt.Sprintf("%s/%s/%s/%s/%s.jsonl", TmpDir, Slug(m.Cwd), ChatsDir, m.Parent.SessionID, id)
	}
	if len(id) > 8 {
		id = id[:8]
	}
	return fmt.Sprintf("%s/%s/%s/%s%s-%s.jsonl", TmpDir, Slug(m.Cwd), ChatsDir, FilePrefix, t.Format("2006-01-02T15-04"), id)
}

// SessionID is the id a session is written under: its own when it is a
// UUID, else one derived from it.
func SessionID(m *session.Meta) string {
	if m.Origin == Name {
		return m.ID
	}
	return spell.SessionID(caps.IDs, m, 0)
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// Slug is Gemini CLI's name for a project folder: the last element of its
// path, lower case, each run of other characters than a-z and 0-9 a '-',
// none at either end ("project" when nothing is left).
func Slug(cwd string) string {
	base := cwd
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	s := strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(base), "-"), "-")
	if s == "" {
		return "project"
	}
	return s
}

// ProjectHash is Gemini CLI's projectHash: the SHA-256 of the project
// root, in hex.
func ProjectHash(cwd string) string {
	h := sha256.Sum256([]byte(cwd))
	return hex.EncodeToString(h[:])
}

// encoder spells a session from another layout as Gemini CLI writes one.
type encoder struct {
	w       *bufio.Writer
	meta    *session.Meta
	ids     *spell.IDs
	names   map[string]string // tool call id -> the tool's name
	started bool
	last    session.Time // the last time written, for an entry with none

	// runs are the sub-agent runs written beside the session (a home),
	// nil for a single file; agents names, by tool call id, the run each
	// call started; run marks the encoder of a run (no header of its own).
	runs   *runSet
	agents map[string]string
	run    bool

	// reply is the gemini record being built: its tool calls wait for
	// their results, which follow it.
	reply *pendingReply
}

type pendingReply struct {
	e       *session.Entry
	blocks  []session.Block // the content of e and of the replies merged into it
	calls   []*session.Block
	results map[string]*session.Message
}

// waiting reports whether a call of the reply has no result yet.
func (p *pendingReply) waiting() bool { return len(p.results) < len(p.calls) }

// add takes in the content of one more assistant message.
func (p *pendingReply) add(m *session.Message) {
	p.blocks = append(p.blocks, m.Content...)
	p.calls = p.calls[:0]
	for i := range p.blocks {
		if p.blocks[i].Type == session.BlockToolCall {
			p.calls = append(p.calls, &p.blocks[i])
		}
	}
}

func (enc *encoder) header(first session.Time) {
	enc.started = true
	start := enc.meta.Created
	if start.IsZero() {
		start = first
	}
	end := enc.meta.Updated
	if end.IsZero() {
		end = start
	}
	var o jsonx.Obj
	o.Str("sessionId", enc.ids.Session()).Str("projectHash", ProjectHash(enc.meta.Cwd)).
		Str("startTime", iso(start)).Str("lastUpdated", iso(end)).Str("kind", "main")
	if enc.meta.Title != "" {
		o.Str("summary", enc.meta.Title)
	}
	enc.line(o.Bytes())
}

func (enc *encoder) line(b []byte) {
	enc.w.Write(b)
	enc.w.WriteByte('\n')
}

// iso spells t as Gemini CLI does (JavaScript's toISOString).
func iso(t session.Time) string {
	if t.T.IsZero() {
		return time.Unix(0, 0).UTC().Format("2006-01-02T15:04:05.000Z")
	}
	return t.T.UTC().Format("2006-01-02T15:04:05.000Z")
}

func (enc *encoder) timeOf(e *session.Entry) session.Time {
	t := e.Time
	if t.IsZero() && e.Message != nil {
		t = e.Message.Time
	}
	if t.IsZero() {
		t = enc.last
	}
	enc.last = t
	return t
}

func (enc *encoder) entry(e *session.Entry) error {
	switch {
	case e.Sidechain != "" || e.Kind == session.KindSubagent || e.Kind == session.KindSubagentEnd:
		return enc.side(e)
	case e.Kind != session.KindMessage || e.Message == nil:
		// mapping drops extension messages and every other entry
		// (CustomMessages, NoLineWhy)
		return fmt.Errorf("session %s: entry %q: Gemini CLI has no record for a %s entry", enc.meta.ID, e.ID, e.Kind)
	}
	t := enc.timeOf(e)
	if !enc.started {
		enc.started = true
		if !enc.run {
			enc.header(t)
		}
	}
	m := e.Message
	if m.Role == session.RoleTool {
		if p := enc.reply; p != nil && p.wants(m.ToolCallID) {
			p.results[m.ToolCallID] = m
			return nil
		}
		if err := enc.flush(); err != nil {
			return err
		}
		enc.responseRecord(e, t)
		return nil
	}
	if m.Role == session.RoleAssistant {
		if p := enc.reply; p != nil && p.waiting() {
			// A reply split over several messages (Claude Code writes a
			// line per content block) whose calls wait for their results:
			// one gemini record, as the agent sends the turn back.
			p.add(m)
			return nil
		}
	}
	if err := enc.flush(); err != nil {
		return err
	}
	if m.Role == session.RoleAssistant {
		p := &pendingReply{e: e, results: map[string]*session.Message{}}
		p.add(m)
		for _, c := range p.calls {
			enc.names[c.ToolCallID] = c.ToolName
		}
		enc.reply = p
		if len(p.calls) == 0 {
			return enc.flush()
		}
		return nil
	}
	var o jsonx.Obj
	o.Str("id", enc.ids.Of(e.ID)).Str("timestamp", iso(t)).Str("type", "user").Raw("content", parts(m.Content))
	enc.line(o.Bytes())
	return nil
}

func (p *pendingReply) wants(id string) bool {
	for _, c := range p.calls {
		if c.ToolCallID == id {
			_, done := p.results[id]
			return !done
		}
	}
	return false
}

// flush writes the pending gemini record with the results gathered.
func (enc *encoder) flush() error {
	p := enc.reply
	if p == nil {
		return nil
	}
	enc.reply = nil
	m := p.e.Message
	t := enc.timeOfReply(p.e)
	for i, c := range p.calls {
		id := enc.callID(p.e, i, c.ToolCallID)
		if id != c.ToolCallID {
			if res, ok := p.results[c.ToolCallID]; ok {
				delete(p.results, c.ToolCallID)
				p.results[id] = res
			}
			c.ToolCallID = id
		}
	}
	var o jsonx.Obj
	o.Str("id", enc.ids.Of(p.e.ID)).Str("timestamp", iso(t)).Str("type", "gemini")
	if callsFirst(p.blocks) {
		// A text after a call: the content holds every part in order,
		// the calls among them, which Gemini CLI then sends back as
		// they are (and the toolCalls only for their results), so the
		// model sees the turn as it was.
		o.Raw("content", parts(p.blocks)).Raw("thoughts", []byte("[]"))
	} else {
		var texts []session.Block
		var thoughts [][]byte
		for _, b := range p.blocks {
			switch b.Type {
			case session.BlockThinking:
				var th jsonx.Obj
				th.Str("subject", "").Str("description", b.Text).Str("timestamp", iso(t))
				thoughts = append(thoughts, th.Bytes())
			case session.BlockToolCall:
			default:
				texts = append(texts, b)
			}
		}
		if len(texts) <= 1 && (len(texts) == 0 || texts[0].Type == session.BlockText) {
			s := ""
			if len(texts) == 1 {
				s = texts[0].Text
			}
			o.Str("content", s)
		} else {
			o.Raw("content", parts(texts))
		}
		o.Raw("thoughts", jsonx.Arr(thoughts))
	}
	if u := m.Usage; u != nil {
		var tk jsonx.Obj
		tk.Int("input", u.Input+u.CacheRead+u.CacheWrite).Int("output", u.Output).Int("cached", u.CacheRead).Int("thoughts", u.Reasoning).Int("tool", 0).Int("total", u.TotalTokens())
		o.Raw("tokens", tk.Bytes())
	}
	if m.Model != "" {
		o.Str("model", m.Model)
	}
	if len(p.calls) > 0 {
		var calls [][]byte
		for i, c := range p.calls {
			res := p.results[c.ToolCallID]
			if res == nil {
				// Gemini CLI sends every recorded call back with its
				// result: mapping answers a call the source never did
				// (CallsNeedResults)
				return fmt.Errorf("session %s: entry %q: tool call %q has no result, which Gemini CLI cannot record", enc.meta.ID, p.e.ID, c.ToolCallID)
			}
			calls = append(calls, enc.toolCall(p.e, i, c, res, t))
		}
		o.Raw("toolCalls", jsonx.Arr(calls))
	}
	enc.line(o.Bytes())
	return nil
}

func (enc *encoder) timeOfReply(e *session.Entry) session.Time {
	if !e.Time.IsZero() {
		return e.Time
	}
	if e.Message != nil && !e.Message.Time.IsZero() {
		return e.Message.Time
	}
	return enc.last
}

// callsFirst reports whether a text or a thought follows a tool call in
// bs, an order a gemini record's content-then-toolCalls cannot keep.
func callsFirst(bs []session.Block) bool {
	call := false
	for _, b := range bs {
		switch b.Type {
		case session.BlockToolCall:
			call = true
		case session.BlockText, session.BlockThinking:
			if call && b.Text != "" {
				return true
			}
		}
	}
	return false
}

// callID is a tool call's id as written: its own, or one derived.
func (enc *encoder) callID(e *session.Entry, n int, id string) string {
	if id != "" {
		return id
	}
	return spell.CallID(enc.ids.Session(), e.ID, n)
}

// toolCall is one ToolCallRecord with its result, as the agent records a
// call that ran: the function response in the result, status success or
// error.
func (enc *encoder) toolCall(e *session.Entry, n int, c *session.Block, res *session.Message, t session.Time) []byte {
	id := enc.callID(e, n, c.ToolCallID)
	args := c.Arguments
	if !gjson.ValidBytes(args) || !gjson.ParseBytes(args).IsObject() {
		args = []byte("{}")
	}
	args = stringify(nil, gjson.ParseBytes(args))
	var o jsonx.Obj
	o.Str("id", id).Str("name", c.ToolName).Raw("args", args)
	if a := enc.agents[c.ToolCallID]; a != "" {
		o.Str("agentId", a) // the sub-agent run it started, in its own file
	}
	status := "success"
	if res.IsError {
		status = "error"
	}
	o.Raw("result", jsonx.Arr([][]byte{functionResponse(id, c.ToolName, res)}))
	rt := t
	if !res.Time.IsZero() {
		rt = res.Time
	}
	o.Str("status", status).Str("timestamp", iso(rt))
	return o.Bytes()
}

// functionResponse is a tool result as the Part the agent sends back:
// {"functionResponse": {id, name, response: {output}}} ({error} for a
// failed call).
func functionResponse(id, name string, m *session.Message) []byte {
	key := "output"
	if m.IsError {
		key = "error"
	}
	var resp, fr, part jsonx.Obj
	resp.Str(key, textOf(m))
	fr.Str("id", id).Str("name", name).Raw("response", resp.Bytes())
	part.Raw("functionResponse", fr.Bytes())
	return part.Bytes()
}

func textOf(m *session.Message) string {
	var s []string
	for _, b := range m.Content {
		if b.Type == session.BlockText || b.Type == session.BlockToolResult {
			s = append(s, b.Text)
		}
	}
	return strings.Join(s, "\n")
}

// responseRecord is a tool result whose call is not the reply before it:
// a user record of its function response, as the agent records one.
func (enc *encoder) responseRecord(e *session.Entry, t session.Time) {
	m := e.Message
	// The API wants the function's name on its response: the call's, when
	// the result does not say it.
	name := m.ToolName
	if name == "" {
		name = enc.names[m.ToolCallID]
	}
	if name == "" {
		name = "unknown"
	}
	var o jsonx.Obj
	o.Str("id", enc.ids.Of(e.ID)).Str("timestamp", iso(t)).Str("type", "user").
		Raw("content", jsonx.Arr([][]byte{functionResponse(m.ToolCallID, name, m)}))
	enc.line(o.Bytes())
}

// parts is content as an array of Parts: a tool call as its functionCall
// (its id given by the caller when it has none).
func parts(bs []session.Block) []byte {
	var out [][]byte
	for _, b := range bs {
		var o jsonx.Obj
		switch b.Type {
		case session.BlockText:
			o.Str("text", b.Text)
		case session.BlockThinking:
			o.Str("text", b.Text).Bool("thought", true)
		case session.BlockToolCall:
			var fc jsonx.Obj
			args := b.Arguments
			if !gjson.ValidBytes(args) || !gjson.ParseBytes(args).IsObject() {
				args = []byte("{}")
			}
			fc.Str("id", b.ToolCallID).Str("name", b.ToolName).Raw("args", stringify(nil, gjson.ParseBytes(args)))
			o.Raw("functionCall", fc.Bytes())
		case session.BlockImage, session.BlockFile:
			var d jsonx.Obj
			if b.Data != "" {
				d.Str("mimeType", b.MimeType).Str("data", b.Data)
				o.Raw("inlineData", d.Bytes())
			} else {
				d.Str("mimeType", b.MimeType).Str("fileUri", b.URL)
				o.Raw("fileData", d.Bytes())
			}
		default:
			continue
		}
		out = append(out, o.Bytes())
	}
	return jsonx.Arr(out)
}
