package opencode

import (
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// Name is the format name that Origin carries for entries read here.
const Name = "opencode"

// metaNote is the reader's Private note on a session: its side files,
// which the model has no slot for.
type metaNote struct {
	Todo    []byte // todo/<ses>.json
	Diff    []byte // session_diff/<ses>.json
	Project []byte // project/<id>.json
	FromDB  bool   // read from an opencode.db: filed anew when written as a JSON tree
}

// Unmodelled counts the side files: another layout cannot hold them.
func (n *metaNote) Unmodelled() int {
	c := 0
	for _, b := range [][]byte{n.Todo, n.Diff, n.Project} {
		if b != nil {
			c++
		}
	}
	return c
}

// msgNote is the reader's Private note on a message entry.
type msgNote struct {
	// Parts are the parts that are not content (step-start, step-finish,
	// snapshot, patch, ...) and their positions: [{"at":i,"part":{...}}].
	Parts []byte
	// Trigger, on a compaction (a summary message), is the user message
	// whose only part is "compaction" that asked for it: OpenCode's spelling
	// of the compaction, not a message of the conversation, written back
	// before the summary by the OpenCode writer only.
	Trigger *session.Entry
}

// Unmodelled counts the non-content parts as one: another layout cannot
// hold them (their tokens are in the message's usage).
func (n *msgNote) Unmodelled() int {
	if n.Parts != nil {
		return 1
	}
	return 0
}

// resultNote is the reader's Private note on a tool result entry.
type resultNote struct {
	NoInput bool // the part's state has no input (0.15 pending state): none is invented
}

// callNote is the reader's Private note on a tool call block whose part is
// still pending or running: a call with no result yet.
type callNote struct {
	State []byte // the part's state, as read
}

// notes returns the reader's Private note of type T on src, or nil when
// src was not read by OpenCode's readers.
func notes[T any](src *session.Source) *T {
	if !ours(src.Origin) {
		return nil
	}
	n, _ := src.Private.(*T)
	return n
}

func appendUnique(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

func metaOf(d *Doc, children []string) session.Meta {
	m := session.Meta{Source: session.Source{Origin: Name, Raw: d.Info}, Children: append([]string(nil), children...)}
	_ = jsonx.Members(d.Info, func(k string, v []byte) {
		r := gjson.ParseBytes(v)
		switch k {
		case "id":
			m.ID = r.String()
		case "title":
			m.Title = r.String()
		case "directory":
			m.Cwd = r.String()
		case "version":
			m.Version = r.String()
		case "parentID":
			m.Parent = &session.Parent{SessionID: r.String()}
		case "time":
			m.Created = millis(r.Get("created"))
			m.Updated = millis(r.Get("updated"))
			m.Extra = append(m.Extra, session.Field{Key: k, Value: v})
		default:
			m.Extra = append(m.Extra, session.Field{Key: k, Value: v})
		}
	})
	if d.Todo != nil || d.Diff != nil || d.Project != nil || d.FromDB {
		m.Private = &metaNote{Todo: d.Todo, Diff: d.Diff, Project: d.Project, FromDB: d.FromDB}
	}
	return m
}

func millis(r gjson.Result) session.Time {
	if !r.Exists() {
		return session.Time{}
	}
	t := session.FromMillis(r.Int())
	t.Raw = r.Raw
	return t
}

// entriesOf maps one message: the message entry, then one RoleTool entry
// per tool part (its state: output or error, status, title, metadata, time).
func entriesOf(m Msg) []*session.Entry {
	info := fields(m.Info)
	role := info.Get("role").String()
	e := &session.Entry{Kind: session.KindMessage, Type: role, ID: info.Get("id").String(),
		Time: millis(info.Get("time.created")), Source: session.Source{Origin: Name, Raw: m.encode()}}
	msg := &session.Message{Role: session.Role(role), Time: e.Time}
	if role != "user" && role != "assistant" {
		msg.Role = session.RoleCustom
		msg.SourceRole = role
	}
	e.Message = msg
	var steps *session.Usage
	_ = jsonx.Members(m.Info, func(k string, v []byte) {
		r := gjson.ParseBytes(v)
		switch k {
		case "id", "role":
		case "modelID":
			msg.Model = r.String()
		case "providerID":
			msg.Provider = r.String()
		case "finish":
			msg.StopReason = r.String()
		case "cost":
			if msg.Usage == nil {
				msg.Usage = &session.Usage{}
			}
			msg.Usage.Cost = &session.Cost{Total: r.Float()}
		case "error":
			msg.Error = errorText(r)
			msg.Extra = append(msg.Extra, session.Field{Key: k, Value: v})
		default:
			msg.Extra = append(msg.Extra, session.Field{Key: k, Value: v})
		}
	})
	var tools []*session.Entry
	var others [][]byte
	for i, p := range m.Parts {
		pr := fields(p)
		switch pr.Get("type").String() {
		case "text", "reasoning", "file":
			msg.Content = append(msg.Content, contentBlock(p))
		case "tool":
			b, res := toolBlocks(p, e)
			msg.Content = append(msg.Content, b)
			if res != nil {
				tools = append(tools, res)
			}
		default:
			if pr.Get("type").String() == "step-finish" {
				steps = addTokens(steps, pr.Get("tokens"))
			}
			var o jsonx.Obj
			others = append(others, o.Int("at", int64(i)).Raw("part", p).Bytes())
		}
	}
	if others != nil {
		e.Private = &msgNote{Parts: jsonx.Arr(others)}
	}
	if tok := info.Get("tokens"); tok.Exists() || steps != nil {
		if msg.Usage == nil {
			msg.Usage = &session.Usage{}
		}
		// The info's tokens are its last step's (processor.ts overwrites
		// them); the message's usage is the sum of its step-finish parts.
		src := steps
		if src == nil {
			src = addTokens(nil, tok)
		}
		c := msg.Usage.Cost
		*msg.Usage = *src
		msg.Usage.Cost = c
	}
	if role == "assistant" && info.Get("summary").Bool() {
		e.Kind = session.KindCompaction
		e.Compaction = &session.Compaction{Summary: msg.Text()}
	}
	return append([]*session.Entry{e}, tools...)
}

func addTokens(u *session.Usage, t gjson.Result) *session.Usage {
	if !t.Exists() {
		return u
	}
	if u == nil {
		u = &session.Usage{}
	}
	u.Input += t.Get("input").Int()
	u.Output += t.Get("output").Int()
	u.Reasoning += t.Get("reasoning").Int()
	u.CacheRead += t.Get("cache.read").Int()
	u.CacheWrite += t.Get("cache.write").Int()
	if tt := t.Get("total"); tt.Exists() {
		n := tt.Int()
		if u.Total != nil {
			n += *u.Total
		}
		u.Total = &n
	}
	return u
}

func errorText(r gjson.Result) string {
	if s := r.Get("data.message").String(); s != "" {
		return s
	}
	if s := r.Get("name").String(); s != "" {
		return s
	}
	return r.Raw
}

// contentBlock maps a text, reasoning or file part.
func contentBlock(p []byte) session.Block {
	var b session.Block
	var mime, url string
	_ = jsonx.Members(p, func(k string, v []byte) {
		r := gjson.ParseBytes(v)
		switch k {
		case "type":
			switch r.String() {
			case "text":
				b.Type = session.BlockText
			case "reasoning":
				b.Type = session.BlockThinking
			default:
				b.Type = session.BlockFile
			}
		case "text":
			b.Text = r.String()
		case "mime":
			mime = r.String()
		case "url":
			url = r.String()
		case "filename":
			b.Filename = r.String()
		case "sessionID", "messageID":
		default:
			b.Extra = append(b.Extra, session.Field{Key: k, Value: v})
		}
	})
	if b.Type == session.BlockFile {
		b.MimeType = mime
		b.URL = url
		if strings.HasPrefix(mime, "image/") {
			b.Type = session.BlockImage
			if d, ok := strings.CutPrefix(url, "data:"+mime+";base64,"); ok {
				if _, err := base64.StdEncoding.DecodeString(d); err == nil {
					b.Data, b.URL = d, ""
				}
			}
		}
	}
	return b
}

// rawIn returns the bytes of r, a value got from b, where they sit in b (no
// copy; like the members jsonx.Members hands out), or a copy when gjson does
// not say where.
func rawIn(b []byte, r gjson.Result) []byte {
	if i, n := r.Index, len(r.Raw); i > 0 && i+n <= len(b) && string(b[i:i+n]) == r.Raw {
		return b[i : i+n : i+n]
	}
	return []byte(r.Raw)
}

// toolBlocks maps a tool part onto a ToolCall block and its result message.
// hasResult reports whether a tool part's state holds a result, which the
// reader makes an entry of its own: a call that is pending or running has
// none unless it has an output or an error already.
func hasResult(st gjson.Result) bool {
	s := st.Get("status").String()
	return !(s == "pending" || s == "running") || st.Get("output").Exists() || st.Get("error").Exists()
}

func toolBlocks(p []byte, owner *session.Entry) (session.Block, *session.Entry) {
	pr := fields(p)
	b := session.Block{Type: session.BlockToolCall, ToolCallID: pr.Get("callID").String(), ToolName: pr.Get("tool").String()}
	_ = jsonx.Members(p, func(k string, v []byte) {
		switch k {
		case "type", "callID", "tool", "state", "sessionID", "messageID":
		default:
			b.Extra = append(b.Extra, session.Field{Key: k, Value: v})
		}
	})
	st := pr.Get("state")
	state := rawIn(p, st)
	res := &session.Entry{Kind: session.KindMessage, Type: "tool", ID: pr.Get("id").String(), Source: session.Source{Origin: Name}}
	msg := &session.Message{Role: session.RoleTool, SourceRole: "tool", ToolCallID: b.ToolCallID, ToolName: b.ToolName}
	res.Message = msg
	hasInput := false
	_ = jsonx.Members(state, func(k string, v []byte) {
		r := gjson.ParseBytes(v)
		switch k {
		case "input":
			b.Arguments = json.RawMessage(v)
			hasInput = true
		case "output":
			msg.Content = []session.Block{{Type: session.BlockText, Text: r.String()}}
		case "error":
			msg.IsError = true
			msg.Content = []session.Block{{Type: session.BlockText, Text: r.String()}}
			if r.Type != gjson.String {
				msg.Extra = append(msg.Extra, session.Field{Key: k, Value: v})
			}
		default:
			msg.Extra = append(msg.Extra, session.Field{Key: k, Value: v})
		}
	})
	if !hasResult(st) {
		// A call that never finished has no result: other layouts must not
		// invent an empty one. The state stays on the call, for OpenCode.
		b.Source = session.Source{Origin: Name, Private: &callNote{State: state}}
		return b, nil
	}
	if !hasInput {
		// 0.15 pending state has no input: remember that, so it is not invented.
		res.Private = &resultNote{NoInput: true}
	}
	res.Time = owner.Time
	if t := st.Get("time.end"); t.Exists() {
		res.Time = millis(t)
	} else if t := st.Get("time.start"); t.Exists() {
		res.Time = millis(t)
	}
	msg.Time = res.Time
	return b, res
}
