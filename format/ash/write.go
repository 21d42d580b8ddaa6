package ash

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// Write writes one session as out/<session key>/. The directory is built
// complete under a temporary name next to it and renamed into place, so a
// failure leaves nothing half-written; an existing session directory is
// refused unless opt.Force.
func (Format) Write(r session.Reader, out string, opt format.WriteOptions) ([]string, error) {
	defer r.Close() // adapted by convert.For: entry kinds and roles ash lacks
	meta := r.Meta()
	w := newWriter(meta)
	key := w.key()
	dir := filepath.Join(out, key)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", out, err)
	}
	if _, err := os.Stat(dir); err == nil && !opt.Force {
		return nil, fmt.Errorf("%s: %w", dir, atomicfile.ErrExists)
	}
	tmp, err := os.MkdirTemp(out, "."+key+".tmp-")
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", out, err)
	}
	files, err := w.writeAll(r, tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	if err := replaceDir(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	for i, f := range files {
		files[i] = filepath.Join(dir, f)
	}
	return files, nil
}

// replaceDir renames the finished tmp to dir, moving an existing dir aside
// first and removing it only once the new one is in place.
func replaceDir(tmp, dir string) error {
	old := ""
	if _, err := os.Stat(dir); err == nil {
		old = tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("replace %s: %w", dir, err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			os.Rename(old, dir)
		}
		return fmt.Errorf("write %s: %w", dir, err)
	}
	syncDir(filepath.Dir(dir))
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = atomicfile.Sync(d)
		d.Close()
	}
}

// writer turns model entries into ash lines.
type writer struct {
	meta    *session.Meta
	own     bool // the session was read from ash: keep its ids and spelling
	version string
	sid     string     // header id
	ids     *spell.IDs // another layout's ids as ash's
	parents map[string]string
	files   map[string]*outFile // by sidechain; "" is context.jsonl
	history *outFile
	dir     string
	names   []string
	lastT   string
}

type pendingTool struct {
	slot int
	line []byte
}

type outFile struct {
	name    string
	f       *os.File
	w       *bufio.Writer
	pending []pendingTool
	since   int
}

func newWriter(meta *session.Meta) *writer {
	w := &writer{meta: meta, own: meta.Origin == Name, version: meta.Version, parents: map[string]string{}, files: map[string]*outFile{}}
	if !w.own || w.version == "" {
		w.version = Current
	}
	if w.own {
		w.sid = meta.ID
	} else {
		w.ids = spell.NewIDs(caps.IDs, meta, 0)
		w.sid = w.ids.Session()
	}
	return w
}

// id maps a source id: kept for ash sessions, restyled by mapping for
// others.
func (w *writer) id(src string) string {
	if w.own {
		return src
	}
	return w.ids.Of(src)
}

func (w *writer) state() gjson.Result {
	if n := noteOf[metaNote](&w.meta.Source); n != nil && n.State != nil {
		return gjson.ParseBytes(n.State)
	}
	return gjson.Result{}
}

// key is the directory name ash looks in for this session.
func (w *writer) key() string {
	if !w.own {
		return SessionKey("cli", w.sid, "", "")
	}
	if st := w.state(); st.Exists() {
		g := func(k string) string { return st.Get(k).String() }
		if w.version == "1" {
			return v1SessionKey(g("provider"), g("chat_id"), g("user_id"), g("thread_id"))
		}
		return SessionKey(g("provider"), g("chat_id"), g("user_id"), g("thread_id"))
	}
	x := func(k string) string { return gjson.ParseBytes(w.meta.Extra.Get(k)).String() }
	return SessionKey(w.meta.Provider, x("chat_id"), x("user_id"), "")
}

var safeName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

func (w *writer) file(sidechain string) (*outFile, error) {
	if f := w.files[sidechain]; f != nil {
		return f, nil
	}
	name := ContextFile
	if sidechain != "" {
		if !safeName.MatchString(sidechain) || strings.Contains(sidechain, "..") {
			return nil, fmt.Errorf("sub-agent id %q cannot be a file name", sidechain)
		}
		if why := format.UnsafeFileID(sidechain, ".jsonl"); why != "" {
			return nil, fmt.Errorf("sub-agent id %q %s", sidechain, why)
		}
		if err := os.MkdirAll(filepath.Join(w.dir, SubagentDir), 0o755); err != nil {
			return nil, fmt.Errorf("create %s: %w", SubagentDir, err)
		}
		name = filepath.Join(SubagentDir, sidechain+".jsonl")
	}
	of, err := w.create(name)
	if err != nil {
		return nil, err
	}
	w.files[sidechain] = of
	return of, nil
}

func (w *writer) create(name string) (*outFile, error) {
	f, err := os.OpenFile(filepath.Join(w.dir, name), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", name, err)
	}
	w.names = append(w.names, name)
	return &outFile{name: name, f: f, w: bufio.NewWriterSize(f, 1<<16)}, nil
}

func (o *outFile) line(b []byte) error {
	if _, err := o.w.Write(b); err != nil {
		return fmt.Errorf("write %s: %w", o.name, err)
	}
	return o.w.WriteByte('\n')
}

// flush writes the pending tool_use lines due before the next entry.
func (o *outFile) flush(all bool) error {
	keep := o.pending[:0]
	for _, p := range o.pending {
		if all || p.slot <= o.since {
			if err := o.line(p.line); err != nil {
				return err
			}
			continue
		}
		keep = append(keep, p)
	}
	o.pending = keep
	return nil
}

func (o *outFile) close() error {
	if err := o.flush(true); err != nil {
		return err
	}
	if err := o.w.Flush(); err != nil {
		o.f.Close()
		return fmt.Errorf("write %s: %w", o.name, err)
	}
	if err := atomicfile.Sync(o.f); err != nil {
		o.f.Close()
		return fmt.Errorf("write %s: %w", o.name, err)
	}
	return o.f.Close()
}

func (w *writer) writeAll(r session.Reader, dir string) ([]string, error) {
	w.dir = dir
	ctx, err := w.file("")
	if err != nil {
		return nil, err
	}
	if err := ctx.line(w.header()); err != nil {
		return nil, err
	}
	if n := noteOf[metaNote](&w.meta.Source); !w.own || n == nil || !n.NoHistory {
		if w.history, err = w.create(HistoryFile); err != nil {
			return nil, err
		}
	}
	var ferr error
	for ferr == nil {
		var e *session.Entry
		e, ferr = r.Next()
		if ferr != nil {
			break
		}
		ferr = w.entry(e)
	}
	if !errors.Is(ferr, io.EOF) {
		w.closeAll()
		return nil, ferr
	}
	if err := w.closeAll(); err != nil {
		return nil, err
	}
	if b, ok := w.stateFile(); ok {
		if err := atomicfile.WriteFile(filepath.Join(dir, StateFile), b, 0o644, false); err != nil {
			return nil, err
		}
		w.names = append(w.names, StateFile)
	}
	syncDir(dir)
	return w.names, nil
}

func (w *writer) closeAll() error {
	var first error
	for _, f := range w.files {
		if err := f.close(); err != nil && first == nil {
			first = err
		}
	}
	if w.history != nil {
		if err := w.history.close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// when spells an entry's time: the source spelling for ash sessions, else
// Python's; an entry without a time takes the previous one's.
func (w *writer) when(t session.Time) string {
	switch {
	case w.own && t.Raw != "":
		w.lastT = t.Raw
	case !t.T.IsZero():
		w.lastT = spell.PyTime(t.T)
	case w.lastT == "":
		w.lastT = spell.PyTime(w.meta.Created.T)
	}
	return w.lastT
}

func (w *writer) header() []byte {
	var o jsonx.Obj
	o.Str("type", "session").Str("version", w.version).Str("id", w.sid).Str("created_at", w.when(w.meta.Created))
	provider := w.meta.Provider
	if !w.own {
		provider = caps.FixedProvider
	}
	o.Str("provider", provider)
	if w.own {
		extras(&o, w.meta.Extra)
		return jsonx.Merge(w.meta.Raw, o.Bytes())
	}
	o.Null("user_id").Str("chat_id", w.sid) // the chat_id that names the directory
	return o.Bytes()
}

// extras adds the members sesstool kept verbatim.
func extras(o *jsonx.Obj, x session.Extras) {
	for _, f := range x {
		o.Extra(f.Key, f.Value) // never a second "id" or "type"
	}
}

func (w *writer) entry(e *session.Entry) error {
	if err := w.holds(e); err != nil {
		return err
	}
	of, err := w.file(w.id(e.Sidechain))
	if err != nil {
		return err
	}
	if e.Kind == session.KindMessage && e.Message != nil && e.Message.Role != session.RoleTool {
		if err := of.flush(true); err != nil {
			return err
		}
		if err := w.message(of, e); err != nil {
			return err
		}
		of.since = 0
		return nil
	}
	if err := of.flush(false); err != nil {
		return err
	}
	// A message's parent in ash is a message: other entries pass on theirs.
	w.parents[e.ID] = w.parents[e.ParentID]
	var line []byte
	switch e.Kind {
	case session.KindMessage, session.KindCustomMessage:
		if e.Message == nil {
			return fmt.Errorf("entry %s: message entry without a message", e.ID)
		}
		line = w.toolResult(e) // holds let no other message through

	case session.KindCompaction:
		line = w.compaction(e)
	case session.KindSubagent, session.KindSubagentEnd:
		line = w.subagent(e)
	default: // holds let only ash's own through
		line = e.Custom.Data // a stray tool_use line of an ash source
	}
	of.since++
	return of.line(w.merge(e, line))
}

// holds says what in e ash has no line for, before a sub-agent file is
// opened for it. convert.Adapt left out what ash's declaration lacks
// (entry kinds, extension messages, results without their call, runs no
// tool call started), so what is left is an entry the declaration does
// not describe: refused, never skipped unseen.
func (w *writer) holds(e *session.Entry) error {
	switch e.Kind {
	case session.KindMessage, session.KindCompaction, session.KindSubagent, session.KindSubagentEnd:
		return nil
	case session.KindOther:
		if w.own && e.Origin == Name && e.Custom != nil {
			return nil
		}
	case session.KindCustomMessage:
		if e.Message != nil && e.Message.Role == session.RoleTool {
			return nil
		}
	}
	return fmt.Errorf("entry %s: ash has no line for a %s entry", e.ID, loss.Entry(e))
}

func (w *writer) merge(e *session.Entry, canon []byte) []byte {
	if w.own && e.Origin == Name && len(e.Raw) > 0 {
		return jsonx.Merge(e.Raw, canon)
	}
	return canon
}

func (w *writer) sidechain(o *jsonx.Obj, e *session.Entry) {
	if n := noteOf[entryNote](&e.Source); e.Sidechain != "" && (n == nil || !n.NoASID) {
		o.Str("agent_session_id", w.id(e.Sidechain))
	}
}

func (w *writer) message(of *outFile, e *session.Entry) error {
	m := e.Message
	id := w.id(e.ID)
	w.parents[e.ID] = e.ID
	role := string(m.Role) // convert.Adapt gave it one ash has
	for _, b := range m.Content {
		if !caps.HoldsBlock(b.Type) { // convert.Adapt dropped what ash's declaration lacks
			return fmt.Errorf("entry %s: ash has no %s block", e.ID, b.Type)
		}
	}
	var o jsonx.Obj
	o.Str("type", "message").Str("id", id).Str("role", role)
	content, tools := w.content(m, id, e)
	o.Raw("content", content)
	o.Str("created_at", w.when(e.Time))
	if m.TokenCount != nil {
		o.Int("token_count", *m.TokenCount)
	} else if n := noteOf[entryNote](&e.Source); !w.own || n != nil && n.NullTokenCount {
		o.Null("token_count")
	}
	if w.own {
		extras(&o, e.Extra)
	}
	w.sidechain(&o, e)
	if w.version != "1" && e.ParentID != "" {
		if p := w.parents[e.ParentID]; p != "" {
			o.Str("parent_id", w.id(p))
		} else if w.own {
			o.Str("parent_id", e.ParentID)
		}
	}
	if err := of.line(w.merge(e, o.Bytes())); err != nil {
		return err
	}
	of.pending = append(of.pending, tools...)
	return w.historyOf(e, role)
}

// content encodes a message's content, and the tool_use entry lines its
// tool calls also get.
func (w *writer) content(m *session.Message, msgID string, e *session.Entry) ([]byte, []pendingTool) {
	var elems [][]byte
	var tools []pendingTool
	allText := true
	for _, b := range m.Content {
		switch b.Type {
		case session.BlockText:
			var o jsonx.Obj
			o.Str("type", "text").Str("text", b.Text)
			w.blockExtras(&o, b.Extra)
			elems = append(elems, o.Bytes())
		case session.BlockToolCall:
			if p, ok := w.toolEntry(b, msgID, e); ok {
				tools = append(tools, p)
			}
			if n := noteOf[callNote](&b.Source); n != nil && n.NotInline {
				continue
			}
			allText = false
			var o jsonx.Obj
			args := b.Arguments
			if len(args) == 0 {
				args = []byte("{}")
			}
			o.Str("type", "tool_use").Str("id", b.ToolCallID).Str("name", b.ToolName).Raw("input", args)
			w.blockExtras(&o, b.Extra)
			elems = append(elems, o.Bytes())
		case session.BlockToolResult:
			allText = false
			var o jsonx.Obj
			o.Str("type", "tool_result").Str("tool_use_id", b.ToolCallID).Str("content", b.Text).Bool("is_error", b.IsError)
			w.blockExtras(&o, b.Extra)
			elems = append(elems, o.Bytes())
		}
	}
	if allText && (len(elems) == 1 && (m.ContentIsString || !w.own) || len(elems) == 0 && (m.ContentIsString || !w.own)) {
		return jsonx.String(m.Text()), tools
	}
	return jsonx.Arr(elems), tools
}

// blockExtras writes a block's unknown members for an ash source only:
// another layout's (goat's "type":"function") mean nothing here.
func (w *writer) blockExtras(o *jsonx.Obj, x session.Extras) {
	if w.own {
		extras(o, x)
	}
}

// toolEntry builds the separate tool_use line of a tool call. Calls read
// from ash have one only when the source did; calls from other layouts
// always get one, right after the message, as ash's writer does.
func (w *writer) toolEntry(b session.Block, msgID string, e *session.Entry) (pendingTool, bool) {
	note := noteOf[callNote](&b.Source)
	if (note == nil || !note.Entry) && w.own {
		return pendingTool{}, false
	}
	if note == nil {
		note = &callNote{}
	}
	args := b.Arguments
	if len(args) == 0 {
		args = []byte("{}")
	}
	n := gjson.ParseBytes(note.Members)
	var o jsonx.Obj
	o.Str("type", "tool_use").Str("id", b.ToolCallID).Str("message_id", msgID)
	name, input := jsonx.String(b.ToolName), []byte(args)
	if v := n.Get("name"); v.Exists() {
		name = []byte(v.Raw)
	}
	if v := n.Get("input"); v.Exists() {
		input = []byte(v.Raw)
	}
	o.Raw("name", name).Raw("input", input)
	if !note.NoASID {
		w.sidechain(&o, e)
	}
	n.ForEach(func(k, v gjson.Result) bool {
		switch k.String() {
		case "name", "input":
		default:
			o.Raw(k.String(), []byte(v.Raw))
		}
		return true
	})
	line := o.Bytes()
	if note.Raw != nil && w.own {
		line = jsonx.Merge(note.Raw, line)
	}
	return pendingTool{slot: note.Slot, line: line}, true
}

func (w *writer) toolResult(e *session.Entry) []byte {
	m := e.Message
	var o jsonx.Obj
	o.Str("type", "tool_result").Str("tool_use_id", m.ToolCallID).Str("output", m.Text()).Bool("success", !m.IsError)
	if w.own {
		extras(&o, e.Extra)
	}
	w.sidechain(&o, e)
	if e.ParentID != "" {
		w.parents[e.ID] = w.parents[e.ParentID]
	}
	return o.Bytes()
}

func (w *writer) compaction(e *session.Entry) []byte {
	c := e.Compaction
	if c == nil {
		c = &session.Compaction{}
	}
	var o jsonx.Obj
	o.Str("type", "compaction").Str("id", w.id(e.ID)).Str("summary", c.Summary)
	i64 := func(k string, p *int64) {
		if p != nil {
			o.Int(k, *p)
		} else if !w.own {
			o.Int(k, 0)
		}
	}
	i64("tokens_before", c.TokensBefore)
	i64("tokens_after", c.TokensAfter)
	o.Str("first_kept_entry_id", w.id(c.FirstKeptID)).Str("created_at", w.when(e.Time))
	if c.BranchID != "" {
		o.Str("branch_id", c.BranchID)
	}
	if w.own {
		extras(&o, e.Extra)
	}
	w.parents[e.ID] = w.parents[e.ParentID]
	return o.Bytes()
}

func (w *writer) subagent(e *session.Entry) []byte {
	s := e.Subagent
	if s == nil {
		s = &session.Subagent{}
	}
	var o jsonx.Obj
	if e.Kind == session.KindSubagent {
		typ := s.AgentType
		if typ != "skill" && typ != "agent" {
			typ = "agent"
		}
		o.Str("type", "agent_session").Str("id", w.id(s.ID)).Str("parent_tool_use_id", s.ParentToolCallID).
			Str("agent_type", typ).Str("agent_name", s.AgentName).Str("created_at", w.when(e.Time))
	} else {
		o.Str("type", "agent_session_complete").Str("agent_session_id", w.id(s.ID)).Str("result", s.Result).
			Bool("is_error", s.IsError).Str("created_at", w.when(e.Time))
	}
	if w.own {
		extras(&o, e.Extra)
	}
	w.parents[e.ID] = w.parents[e.ParentID]
	return o.Bytes()
}

func (w *writer) historyOf(e *session.Entry, role string) error {
	if w.history == nil || e.Sidechain != "" {
		return nil
	}
	var note []byte
	if n := noteOf[entryNote](&e.Source); n != nil {
		note = n.History
	}
	if w.own && note == nil {
		return nil
	}
	if !w.own && role != "user" && role != "assistant" {
		return nil
	}
	if !w.own && string(e.Message.Role) != role {
		// history.jsonl names the role context.jsonl wrote (a bash run is a user message)
		c, m := *e, spell.AsUser(e.Message)
		m.Role = session.Role(role)
		c.Message = m
		e = &c
	}
	return w.history.line(historyLine(e, note, w.id(e.ID), w.when(e.Time)))
}

// historyOrder is pydantic's field order of HistoryEntry.
var historyOrder = []string{"id", "role", "content", "created_at", "user_id", "username", "display_name", "metadata"}

// historyLine is the history.jsonl line of a message: id, role, its text
// flattened, created_at, author fields and metadata, with note's members
// (what the source line had that the message does not say) laid over them.
func historyLine(e *session.Entry, note []byte, ids ...string) []byte {
	m := e.Message
	id, at := e.ID, e.Time.Raw
	if len(ids) == 2 {
		id, at = ids[0], ids[1]
	}
	vals := map[string][]byte{"id": jsonx.String(id), "role": jsonx.String(string(m.Role)), "content": jsonx.String(m.Text()), "created_at": jsonx.String(at)}
	if m.AuthorID != "" {
		vals["user_id"] = jsonx.String(m.AuthorID)
	}
	if m.AuthorName != "" {
		vals["username"] = jsonx.String(m.AuthorName)
	}
	if md := e.Extra.Get("metadata"); md != nil && string(md) != "null" && string(md) != "{}" {
		vals["metadata"] = md
	}
	var extra []string
	if note != nil {
		_ = jsonx.Members(note, func(k string, v []byte) {
			if _, known := vals[k]; !known && !contains(historyOrder, k) {
				extra = append(extra, k)
			}
			vals[k] = v
		})
	}
	var o jsonx.Obj
	for _, k := range append(historyOrder, extra...) {
		if v, ok := vals[k]; ok {
			o.Raw(k, v)
		}
	}
	return o.Bytes()
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// stateFile is state.json: the source's, re-indented as pydantic writes it,
// or one built from the header for sessions from other layouts.
func (w *writer) stateFile() ([]byte, bool) {
	if n := noteOf[metaNote](&w.meta.Source); n != nil && n.State != nil {
		return pretty(n.State), true
	}
	if w.own {
		return nil, false // ash's own test fixtures have none
	}
	created := w.meta.Created.T.UTC()
	var o jsonx.Obj
	o.Str("provider", "cli").Str("chat_id", w.sid).Null("user_id").Null("thread_id").
		Str("created_at", strings.TrimSuffix(strings.TrimSuffix(spell.PyTime(created), "+00:00"), ".000000")+"Z").
		Null("active_stack").Raw("branches", []byte("[]"))
	return pretty(o.Bytes()), true
}

// pretty indents compact JSON by 2 spaces with ": " after keys, as
// pydantic's model_dump_json(indent=2) does; no final newline.
func pretty(b []byte) []byte {
	var out []byte
	var walk func(v gjson.Result, depth int)
	ind := func(d int) { out = append(out, '\n'); out = append(out, strings.Repeat("  ", d)...) }
	walk = func(v gjson.Result, depth int) {
		switch {
		case v.IsObject():
			n := 0
			out = append(out, '{')
			v.ForEach(func(k, val gjson.Result) bool {
				if n > 0 {
					out = append(out, ',')
				}
				ind(depth + 1)
				out = append(out, k.Raw...)
				out = append(out, ": "...)
				walk(val, depth+1)
				n++
				return true
			})
			if n > 0 {
				ind(depth)
			}
			out = append(out, '}')
		case v.IsArray():
			n := 0
			out = append(out, '[')
			v.ForEach(func(_, val gjson.Result) bool {
				if n > 0 {
					out = append(out, ',')
				}
				ind(depth + 1)
				walk(val, depth+1)
				n++
				return true
			})
			if n > 0 {
				ind(depth)
			}
			out = append(out, ']')
		default:
			out = append(out, v.Raw...)
		}
	}
	walk(gjson.ParseBytes(b), 0)
	return out
}
