package ash

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/regfile"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// Open streams one session: context.jsonl in order, each subagent file's
// entries right after the agent_session entry that started it.
func (Format) Open(ref format.Ref) (session.Reader, error) {
	dir := ref.Path
	if ref.ID != "" {
		dir = filepath.Join(ref.Path, ref.ID)
	}
	f, err := regfile.Open(filepath.Join(dir, ContextFile))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	r := &reader{dir: dir, toolMsg: map[string]string{}, toolName: map[string]string{}, ids: map[string]bool{}}
	r.ctx = &fileReader{r: r, path: f.Name(), lr: jsonl.NewHeldReader(f), c: f}
	if err := r.readHeader(); err != nil {
		f.Close()
		return nil, err
	}
	if err := r.readHistory(); err != nil {
		f.Close()
		return nil, err
	}
	if err := r.readState(); err != nil {
		f.Close()
		return nil, err
	}
	subs, err := subagentFiles(dir)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.subs = subs
	return r, nil
}

type reader struct {
	dir      string
	meta     session.Meta
	ctx      *fileReader
	sub      *fileReader // the subagent file being streamed, if any
	subs     []string    // subagent files not streamed yet
	history  map[string][]byte
	toolMsg  map[string]string // tool_use id -> message id
	toolName map[string]string
	ids      map[string]bool
}

func (r *reader) Meta() *session.Meta { return &r.meta }

func (r *reader) Close() error {
	if r.sub != nil {
		r.sub.c.Close()
	}
	return r.ctx.c.Close()
}

func (r *reader) Next() (*session.Entry, error) {
	for {
		if r.sub != nil {
			e, err := r.sub.next()
			if !errors.Is(err, io.EOF) {
				return e, err
			}
			r.sub.c.Close()
			r.sub = nil
		}
		e, err := r.ctx.next()
		if errors.Is(err, io.EOF) && len(r.subs) > 0 {
			// Subagent files no agent_session named: streamed at the end.
			if err := r.openSub(r.subs[0]); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		if e.Kind == session.KindSubagent {
			p := filepath.Join(r.dir, SubagentDir, e.ID+".jsonl")
			for _, s := range r.subs {
				if s == p {
					if err := r.openSub(p); err != nil {
						return nil, err
					}
				}
			}
		}
		return e, nil
	}
}

func (r *reader) openSub(p string) error {
	for i, s := range r.subs {
		if s == p {
			r.subs = append(r.subs[:i:i], r.subs[i+1:]...)
			break
		}
	}
	f, err := regfile.Open(p)
	if err != nil {
		return fmt.Errorf("read %s: %w", p, err)
	}
	r.sub = &fileReader{r: r, path: p, lr: jsonl.NewHeldReader(f), c: f, sidechain: strings.TrimSuffix(filepath.Base(p), ".jsonl"), version: r.meta.Version}
	return nil
}

func (r *reader) readHeader() error {
	l, err := r.ctx.lr.Next()
	if err != nil {
		return fmt.Errorf("%s: no session header: %v", r.ctx.path, err)
	}
	v := gjson.ParseBytes(l.Bytes)
	if v.Get("type").String() != "session" {
		return fmt.Errorf("%s:1: the first line is not the session header", r.ctx.path)
	}
	m := &r.meta
	m.Origin = Name
	m.MessageLinks = caps.MessageLinks // the conversation tree reads the parent ids by ash's rule
	m.Raw = bytes.Clone(l.Bytes)
	err = jsonx.Members(l.Bytes, func(k string, val []byte) {
		switch k {
		case "type":
		case "version":
			m.Version = gjson.ParseBytes(val).String()
		case "id":
			m.ID = gjson.ParseBytes(val).String()
		case "created_at":
			m.Created, _ = session.ParseTime(gjson.ParseBytes(val).String())
		case "provider":
			m.Provider = gjson.ParseBytes(val).String()
		default:
			m.Extra = append(m.Extra, session.Field{Key: k, Value: bytes.Clone(val)})
		}
	})
	if err != nil {
		return fmt.Errorf("%s:1: %v", r.ctx.path, err)
	}
	r.ctx.version = m.Version
	return nil
}

// readHistory indexes history.jsonl by message id. It is held in memory:
// its lines are attached to context messages that come in any order.
func (r *reader) readHistory() error {
	p := filepath.Join(r.dir, HistoryFile)
	f, err := regfile.Open(p)
	if os.IsNotExist(err) {
		metaNoteOf(&r.meta).NoHistory = true
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", p, err)
	}
	defer f.Close()
	r.history = map[string][]byte{}
	lr := jsonl.NewHeldReader(f)
	for {
		l, err := lr.NextNonBlank()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		if !gjson.ValidBytes(l.Bytes) {
			return fmt.Errorf("%s:%d: invalid JSON", p, l.N)
		}
		r.history[gjson.GetBytes(l.Bytes, "id").String()] = bytes.Clone(l.Bytes)
	}
}

func (r *reader) readState() error {
	p := filepath.Join(r.dir, StateFile)
	b, err := regfile.ReadFile(p)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", p, err)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return fmt.Errorf("%s: %v", p, err)
	}
	metaNoteOf(&r.meta).State = buf.Bytes()
	return nil
}

// fileReader turns the lines of context.jsonl or one subagent file into
// entries. A message is held back until the next line that is neither a
// tool_use nor a tool_result, so that its tool_use entries can be folded
// into its ToolCall blocks.
type fileReader struct {
	r         *reader
	path      string
	lr        *jsonl.Reader
	c         io.Closer
	sidechain string
	version   string
	queue     []*session.Entry // ready to hand out
	held      []*session.Entry // a message and the results after it
	lastMsg   string
	eof       bool
}

func (f *fileReader) next() (*session.Entry, error) {
	for len(f.queue) == 0 {
		if f.eof {
			if len(f.held) > 0 {
				f.queue, f.held = f.held, nil
				continue
			}
			return nil, io.EOF
		}
		if err := f.readLine(); err != nil {
			return nil, err
		}
	}
	e := f.queue[0]
	f.queue = f.queue[1:]
	return e, nil
}

func (f *fileReader) readLine() error {
	l, err := f.lr.Next()
	if errors.Is(err, io.EOF) {
		f.eof = true
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", f.path, err)
	}
	if len(bytes.TrimSpace(l.Bytes)) == 0 {
		return nil
	}
	if !gjson.ValidBytes(l.Bytes) {
		return fmt.Errorf("%s:%d: invalid JSON", f.path, l.N)
	}
	raw := bytes.Clone(l.Bytes)
	v := gjson.ParseBytes(raw)
	typ := v.Get("type").String()
	switch typ {
	case "tool_use":
		return f.toolUse(raw, v, l.N)
	case "tool_result":
		e, err := f.toolResult(raw, l.N)
		if err != nil {
			return err
		}
		if len(f.held) > 0 {
			f.held = append(f.held, e)
		} else {
			f.queue = append(f.queue, e)
		}
		return nil
	}
	f.queue = append(f.queue, f.held...)
	f.held = nil
	e, err := f.entry(raw, v, typ, l.N)
	if err != nil {
		return err
	}
	if e.Kind == session.KindMessage {
		f.held = []*session.Entry{e}
		return nil
	}
	f.queue = append(f.queue, e)
	return nil
}

func (f *fileReader) base(raw []byte, typ string, n int) *session.Entry {
	e := &session.Entry{Type: typ, Source: session.Source{Origin: Name, Raw: raw, Line: n}, Sidechain: f.sidechain}
	if f.sidechain != "" && !gjson.GetBytes(raw, "agent_session_id").Exists() {
		entryNoteOf(e).NoASID = true
	}
	return e
}

func str(val []byte) string { return gjson.ParseBytes(val).String() }

func (f *fileReader) entry(raw []byte, v gjson.Result, typ string, n int) (*session.Entry, error) {
	e := f.base(raw, typ, n)
	var err error
	switch typ {
	case "message":
		err = f.message(e, raw, n)
	case "compaction":
		e.Kind = session.KindCompaction
		e.Compaction = &session.Compaction{}
		err = jsonx.Members(raw, func(k string, val []byte) {
			c := e.Compaction
			switch k {
			case "type":
			case "id":
				e.ID = str(val)
			case "summary":
				c.Summary = str(val)
			case "first_kept_entry_id":
				c.FirstKeptID = str(val)
			case "tokens_before", "tokens_after":
				if i, err := strconv.ParseInt(string(val), 10, 64); err == nil {
					if k == "tokens_before" {
						c.TokensBefore = &i
					} else {
						c.TokensAfter = &i
					}
					return
				}
				e.Extra = append(e.Extra, session.Field{Key: k, Value: bytes.Clone(val)})
			case "created_at":
				e.Time, _ = session.ParseTime(str(val))
			case "branch_id":
				if gjson.ParseBytes(val).Type == gjson.String {
					c.BranchID = str(val)
					return
				}
				e.Extra = append(e.Extra, session.Field{Key: k, Value: bytes.Clone(val)})
			default:
				e.Extra = append(e.Extra, session.Field{Key: k, Value: bytes.Clone(val)})
			}
		})
		e.ParentID = f.lastMsg
	case "agent_session", "agent_session_complete":
		e.Kind = session.KindSubagent
		e.Subagent = &session.Subagent{}
		if typ == "agent_session_complete" {
			e.Kind = session.KindSubagentEnd
		}
		err = jsonx.Members(raw, func(k string, val []byte) {
			s := e.Subagent
			switch k {
			case "type":
			case "id":
				e.ID, s.ID = str(val), str(val)
			case "agent_session_id":
				s.ID = str(val)
			case "parent_tool_use_id":
				s.ParentToolCallID = str(val)
			case "agent_type":
				s.AgentType = str(val)
			case "agent_name":
				s.AgentName = str(val)
			case "result":
				s.Result = str(val)
			case "is_error":
				s.IsError = string(val) == "true"
			case "created_at":
				e.Time, _ = session.ParseTime(str(val))
			default:
				e.Extra = append(e.Extra, session.Field{Key: k, Value: bytes.Clone(val)})
			}
		})
		if e.ID == "" {
			e.ID = f.derivedID(n)
		}
		e.ParentID = f.lastMsg
	default:
		return nil, fmt.Errorf("%s:%d: unknown entry type %q", f.path, n, typ)
	}
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %v", f.path, n, err)
	}
	f.r.ids[e.ID] = true
	return e, nil
}

func (f *fileReader) derivedID(n int) string {
	return session.DerivedID(f.r.meta.ID+"/"+filepath.Base(f.path), n, func(id string) bool { return f.r.ids[id] })
}

func (f *fileReader) message(e *session.Entry, raw []byte, n int) error {
	e.Kind = session.KindMessage
	m := &session.Message{}
	e.Message = m
	var perr error
	err := jsonx.Members(raw, func(k string, val []byte) {
		switch k {
		case "type":
		case "id":
			e.ID = str(val)
		case "role":
			m.Role = session.Role(str(val))
		case "content":
			if err := f.content(m, val); err != nil {
				perr = err
			}
		case "created_at":
			e.Time, _ = session.ParseTime(str(val))
		case "token_count":
			if i, err := strconv.ParseInt(string(val), 10, 64); err == nil {
				m.TokenCount = &i
				return
			}
			if string(val) == "null" {
				// ash's own spelling of "no count": the model's nil.
				entryNoteOf(e).NullTokenCount = true
				return
			}
			e.Extra = append(e.Extra, session.Field{Key: k, Value: bytes.Clone(val)})
		case "parent_id":
			if gjson.ParseBytes(val).Type == gjson.String && f.version != "1" {
				e.ParentID = str(val)
				return
			}
			e.Extra = append(e.Extra, session.Field{Key: k, Value: bytes.Clone(val)})
		case "agent_session_id":
			if s := str(val); s != "" && s == f.sidechain {
				return
			}
			e.Extra = append(e.Extra, session.Field{Key: k, Value: bytes.Clone(val)})
		default:
			e.Extra = append(e.Extra, session.Field{Key: k, Value: bytes.Clone(val)})
		}
	})
	if err == nil {
		err = perr
	}
	if err != nil {
		return err
	}
	if f.version == "1" {
		// v1 has no parent_id: the model chains messages in file order,
		// as the v2 migration does.
		e.ParentID = f.lastMsg
	}
	f.lastMsg = e.ID
	if h, ok := f.r.history[e.ID]; ok && f.sidechain == "" {
		f.attachHistory(e, h)
	}
	return nil
}

func (f *fileReader) content(m *session.Message, val []byte) error {
	c := gjson.ParseBytes(val)
	if c.Type == gjson.String {
		m.ContentIsString = true
		m.Content = []session.Block{{Type: session.BlockText, Text: c.String()}}
		return nil
	}
	var err error
	jerr := jsonx.Elements(val, func(_ int, b []byte) {
		blk := session.Block{}
		t := gjson.GetBytes(b, "type").String()
		switch t {
		case "text":
			blk.Type = session.BlockText
		case "tool_use":
			blk.Type = session.BlockToolCall
		case "tool_result":
			blk.Type = session.BlockToolResult
		default:
			err = fmt.Errorf("unknown content block type %q", t)
			return
		}
		_ = jsonx.Members(b, func(k string, v []byte) {
			switch {
			case k == "type":
			case k == "text" && t == "text", k == "content" && t == "tool_result":
				blk.Text = str(v)
			case k == "id" && t == "tool_use", k == "tool_use_id" && t == "tool_result":
				blk.ToolCallID = str(v)
			case k == "name" && t == "tool_use":
				blk.ToolName = str(v)
			case k == "input" && t == "tool_use":
				blk.Arguments = bytes.Clone(v)
			case k == "is_error" && t == "tool_result":
				blk.IsError = string(v) == "true"
			default:
				blk.Extra = append(blk.Extra, session.Field{Key: k, Value: bytes.Clone(v)})
			}
		})
		m.Content = append(m.Content, blk)
	})
	if jerr != nil {
		return fmt.Errorf("content: %v", jerr)
	}
	return err
}

// hasEntry reports a tool call block a tool_use entry was folded into.
func hasEntry(b *session.Block) bool {
	n := noteOf[callNote](&b.Source)
	return n != nil && n.Entry
}

// toolUse folds a tool_use entry into the ToolCall block of its message,
// recording where the line stood (slot: how many entries after the message)
// so the writer puts it back there.
func (f *fileReader) toolUse(raw []byte, v gjson.Result, n int) error {
	id, msgID := v.Get("id").String(), v.Get("message_id").String()
	f.r.toolMsg[id] = msgID
	f.r.toolName[id] = v.Get("name").String()
	if len(f.held) == 0 || f.held[0].ID != msgID {
		// Not after its message (ash itself never writes this): kept as an
		// entry of its own, written back as it was.
		e := f.base(raw, "tool_use", n)
		e.Kind = session.KindOther
		e.ID = f.derivedID(n)
		e.ParentID = msgID
		e.Custom = &session.Custom{Data: raw}
		f.r.ids[e.ID] = true
		if len(f.held) > 0 {
			f.held = append(f.held, e)
		} else {
			f.queue = append(f.queue, e)
		}
		return nil
	}
	msg := f.held[0].Message
	var blk *session.Block
	for i := range msg.Content {
		b := &msg.Content[i]
		if b.Type == session.BlockToolCall && b.ToolCallID == id && !hasEntry(b) {
			blk = b
			break
		}
	}
	if blk == nil {
		msg.Content = append(msg.Content, session.Block{Type: session.BlockToolCall, ToolCallID: id, ToolName: v.Get("name").String(),
			Arguments: []byte(v.Get("input").Raw), Source: session.Source{Origin: Name, Private: &callNote{NotInline: true}}})
		blk = &msg.Content[len(msg.Content)-1]
	}
	var o jsonx.Obj
	_ = jsonx.Members(raw, func(k string, val []byte) {
		switch k {
		case "type", "id", "message_id":
		case "name":
			if str(val) != blk.ToolName {
				o.Raw(k, val)
			}
		case "input":
			if !jsonx.Equal(val, blk.Arguments) {
				o.Raw(k, val)
			}
		case "agent_session_id":
			if str(val) != f.sidechain {
				o.Raw(k, val)
			}
		default:
			o.Raw(k, val)
		}
	})
	note, _ := blk.Private.(*callNote)
	if note == nil {
		note = &callNote{}
	}
	note.Entry, note.Slot, note.Members, note.Raw = true, len(f.held)-1, o.Bytes(), raw
	note.NoASID = f.sidechain != "" && !v.Get("agent_session_id").Exists()
	blk.Source = session.Source{Origin: Name, Line: n, Private: note}
	return nil
}

func (f *fileReader) toolResult(raw []byte, n int) (*session.Entry, error) {
	e := f.base(raw, "tool_result", n)
	e.Kind = session.KindMessage
	m := &session.Message{Role: session.RoleTool, SourceRole: "tool_result", ContentIsString: true}
	e.Message = m
	err := jsonx.Members(raw, func(k string, val []byte) {
		switch k {
		case "type":
		case "tool_use_id":
			m.ToolCallID = str(val)
		case "output":
			m.Content = []session.Block{{Type: session.BlockText, Text: str(val)}}
		case "success":
			if string(val) == "true" || string(val) == "false" {
				m.IsError = string(val) == "false"
				return
			}
			e.Extra = append(e.Extra, session.Field{Key: k, Value: bytes.Clone(val)})
		case "agent_session_id":
			if s := str(val); s != "" && s == f.sidechain {
				return
			}
			e.Extra = append(e.Extra, session.Field{Key: k, Value: bytes.Clone(val)})
		default:
			e.Extra = append(e.Extra, session.Field{Key: k, Value: bytes.Clone(val)})
		}
	})
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %v", f.path, n, err)
	}
	m.ToolName = f.r.toolName[m.ToolCallID]
	e.ParentID = f.r.toolMsg[m.ToolCallID]
	e.ID = f.derivedID(n)
	f.r.ids[e.ID] = true
	return e, nil
}

// attachHistory notes that the message has a history.jsonl line and keeps
// the members of that line the writer cannot derive from the message.
func (f *fileReader) attachHistory(e *session.Entry, h []byte) {
	m := e.Message
	derived := historyLine(e, nil)
	var o jsonx.Obj
	_ = jsonx.Members(h, func(k string, val []byte) {
		switch k {
		case "user_id":
			if gjson.ParseBytes(val).Type == gjson.String {
				m.AuthorID = str(val)
				return
			}
		case "username":
			if gjson.ParseBytes(val).Type == gjson.String {
				m.AuthorName = str(val)
				return
			}
		}
		if d := gjson.GetBytes(derived, gjsonKey(k)); d.Exists() && jsonx.Equal([]byte(d.Raw), val) {
			return
		}
		o.Raw(k, val)
	})
	entryNoteOf(e).History = o.Bytes()
}

// gjsonKey escapes a member name for a gjson path.
func gjsonKey(k string) string {
	r := strings.NewReplacer(".", `\.`, "*", `\*`, "?", `\?`, "|", `\|`, "#", `\#`, "@", `\@`)
	return r.Replace(k)
}
