package codex

import (
	"bufio"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// encoder writes a session's lines, carrying what later lines need.
type encoder struct {
	w     *bufio.Writer
	meta  *session.Meta
	id    string
	clock session.Time // the last time written, for entries without one
	doc   bool         // the source was the TypeScript era's document
	calls map[string]bool
	total [5]int64 // running token totals: input, cached, output, reasoning, total
	err   error
}

func newEncoder(w *bufio.Writer, m *session.Meta) *encoder {
	e := &encoder{w: w, meta: m, id: SessionID(m), clock: m.Created, calls: map[string]bool{}}
	if n, ok := m.Private.(*metaNote); ok && m.Origin == Name {
		e.doc = n.doc
	}
	return e
}

func (e *encoder) line(b []byte) {
	if e.err != nil {
		return
	}
	e.w.Write(b)
	if err := e.w.WriteByte('\n'); err != nil {
		e.err = fmt.Errorf("write: %w", err)
	}
}

// ts is the line's timestamp, as Codex spells it: milliseconds, Z.
func (e *encoder) ts(t session.Time) string {
	if !t.T.IsZero() {
		e.clock = t
	}
	if e.clock.T.IsZero() {
		e.clock = e.meta.Created
	}
	if e.clock.T.IsZero() {
		return spell.ISO(time.Unix(0, 0))
	}
	return spell.ISO(e.clock.T)
}

// rec is one {timestamp, type, payload} line.
func (e *encoder) rec(t session.Time, typ string, payload []byte) {
	var o jsonx.Obj
	o.Str("timestamp", e.ts(t)).Str("type", typ).Raw("payload", payload)
	e.line(o.Bytes())
}

// header writes the session_meta line: the source's own bytes for a
// rollout, else the header Codex 0.169 writes.
func (e *encoder) header() error {
	m := e.meta
	if m.Origin == Name && len(m.Raw) > 0 && !e.doc {
		e.line(respellID(m.Raw, m.ID, e.id))
		return e.err
	}
	p := session.NewObj(nil)
	p.Str("id", e.id)
	p.Str("session_id", e.id)
	p.Str("timestamp", e.ts(m.Created))
	cwd := m.Cwd
	if cwd == "" {
		cwd = "/"
	}
	p.Str("cwd", cwd)
	p.Str("originator", "sesstool")
	p.Str("cli_version", CLIVersion)
	p.Str("source", "cli")
	if par := m.Parent; par != nil && par.SessionID != "" {
		p.Str("forked_from_id", spell.ParentSessionID(caps.IDs, par.SessionID))
	}
	if e.doc {
		// The document's own session members stay with the session.
		for _, f := range m.Extra {
			if !p.Has(f.Key) && f.Key != "session_id" && f.Key != "source" && f.Key != "originator" && f.Key != "forked_from_id" {
				p.Raw(f.Key, f.Value)
			}
		}
	}
	e.rec(m.Created, "session_meta", p.Bytes())
	return e.err
}

// respellID is a rollout's session_meta line for a session whose id is
// now model: its own bytes when its payload names that id, else with id
// (the id written, and the one in the file's name) in place of the old
// one and of session_id, so a session given another id in the run (two
// copies of one rollout) is not written as a second thread with the first
// one's id.
func respellID(raw []byte, model, id string) []byte {
	if old := gjson.GetBytes(raw, "payload.id"); old.Type != gjson.String || old.Str == model {
		return raw
	}
	var spans [][2]int
	for _, k := range []string{"payload.id", "payload.session_id"} {
		v := gjson.GetBytes(raw, k)
		if v.Type == gjson.String && v.Index > 0 {
			spans = append(spans, [2]int{v.Index, v.Index + len(v.Raw)})
		}
	}
	if len(spans) == 0 {
		return raw
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	out := make([]byte, 0, len(raw)+len(id))
	at := 0
	for _, sp := range spans {
		out = append(out, raw[at:sp[0]]...)
		out = jsonx.AppendString(out, id)
		at = sp[1]
	}
	return append(out, raw[at:]...)
}

// entry writes one entry's lines.
func (e *encoder) entry(en *session.Entry) error {
	switch {
	case en.Origin == Name && (en.Sidechain != "" || en.Kind == session.KindSubagent || en.Kind == session.KindSubagentEnd):
		// A sub-agent's run read along with its parent: it is written
		// from its own rollout.
	case native(en) && e.doc:
		e.line(wrap(e.ts(en.Time), en.Raw))
	case native(en):
		e.ts(en.Time)
		if n, ok := en.Private.(*replyNote); ok {
			for _, l := range n.lines {
				e.line(l)
			}
			break
		}
		e.line(en.Raw)
	case en.Kind == session.KindMessage && en.Message != nil:
		e.message(en)
	case en.Kind == session.KindCompaction && en.Compaction != nil:
		e.compaction(en)
	default:
		// the adaptation drops every other kind (Caps.CustomMessages): one
		// met here is Codex's own, read without its line
		if e.err == nil {
			e.err = fmt.Errorf("entry %q: Codex has no line for a %s entry", en.ID, en.Kind)
		}
	}
	return e.err
}

func (e *encoder) compaction(en *session.Entry) {
	c := en.Compaction // the summary only (Caps.CompactionLacks)
	if c.FirstKeptID != "" || c.TokensAfter != nil || len(c.Details) > 0 && string(c.Details) != "null" || c.BranchID != "" {
		e.fail(en, "Codex's compacted line keeps the summary only")
		return
	}
	var o jsonx.Obj
	o.Str("message", c.Summary)
	e.rec(en.Time, "compacted", o.Bytes())
}

// message writes a message as Codex 0.169 does: response items (a
// reasoning item per thinking block, a message item per run of text, a
// function_call per tool call), then the events codex app-server shows
// (user_message, agent_message) and the reply's token_count.
func (e *encoder) message(en *session.Entry) {
	m := en.Message
	switch m.Role {
	case session.RoleTool:
		for _, b := range m.Content {
			if b.Type != session.BlockText {
				// the adaptation drops them (Caps.BlocksOn)
				e.fail(en, "Codex's function_call_output holds no "+string(b.Type)+" blocks")
				return
			}
		}
		e.output(en.Time, m.ToolCallID, m.Text())
		return
	case session.RoleAssistant:
		e.assistant(en, m)
		return
	}
	role := string(m.Role)
	var items [][]byte
	var texts, images []string
	for _, b := range m.Content {
		switch b.Type {
		case session.BlockText:
			items = append(items, textItem("input_text", b.Text))
			texts = append(texts, b.Text)
		case session.BlockImage, session.BlockFile:
			u, err := imageURL(b)
			if err != nil {
				e.fail(en, err.Error())
				return
			}
			var o jsonx.Obj
			o.Str("type", "input_image").Str("image_url", u)
			items = append(items, o.Bytes())
			images = append(images, u)
		case session.BlockToolResult:
			e.output(en.Time, b.ToolCallID, b.Text)
		default:
			// the adaptation drops them (Caps.BlocksOn)
			e.fail(en, "Codex's "+role+" messages hold no "+string(b.Type)+" blocks")
			return
		}
	}
	var o jsonx.Obj
	o.Str("type", "message").Str("role", role).Raw("content", jsonx.Arr(items))
	e.rec(en.Time, "response_item", o.Bytes())
	if m.Role == session.RoleUser && len(items) > 0 {
		var ev jsonx.Obj
		imgs := make([][]byte, len(images))
		for i, u := range images {
			imgs[i] = jsonx.String(u)
		}
		ev.Str("type", "user_message").Str("message", strings.Join(texts, "\n")).Raw("images", jsonx.Arr(imgs)).
			Raw("local_images", []byte("[]")).Raw("text_elements", []byte("[]"))
		e.rec(en.Time, "event_msg", ev.Bytes())
	}
}

func textItem(typ, text string) []byte {
	var o jsonx.Obj
	o.Str("type", typ).Str("text", text)
	return o.Bytes()
}

// assistant writes an assistant reply, block by block in order.
func (e *encoder) assistant(en *session.Entry, m *session.Message) {
	var run [][]byte
	var said []string
	// Each message item has its agent_message event, which is what Codex
	// shows and counts as an agent message: a reply of two texts with a
	// call between them is two, as in the rollout it came from.
	flush := func() {
		if len(run) == 0 {
			return
		}
		var o jsonx.Obj
		o.Str("type", "message").Str("role", "assistant").Raw("content", jsonx.Arr(run))
		e.rec(en.Time, "response_item", o.Bytes())
		if len(said) > 0 {
			var ev jsonx.Obj
			ev.Str("type", "agent_message").Str("message", strings.Join(said, "\n"))
			e.rec(en.Time, "event_msg", ev.Bytes())
		}
		run, said = nil, nil
	}
	for _, b := range m.Content {
		switch b.Type {
		case session.BlockText:
			run = append(run, textItem("output_text", b.Text))
			said = append(said, b.Text)
		case session.BlockToolCall:
			flush()
			args := b.Arguments
			if len(args) == 0 {
				args = []byte("{}")
			}
			var o jsonx.Obj
			o.Str("type", "function_call").Str("name", b.ToolName).Str("arguments", string(args)).Str("call_id", b.ToolCallID)
			e.rec(en.Time, "response_item", o.Bytes())
			e.calls[b.ToolCallID] = true
		default:
			// the adaptation drops them (Caps.BlocksOn)
			e.fail(en, "Codex's assistant replies hold no "+string(b.Type)+" blocks")
			return
		}
	}
	flush()
	if len(m.Content) == 0 {
		var o jsonx.Obj
		o.Str("type", "message").Str("role", "assistant").Raw("content", []byte("[]"))
		e.rec(en.Time, "response_item", o.Bytes())
	}
	if u := m.Usage; u != nil && (u.Input|u.Output|u.CacheRead|u.CacheWrite|u.Reasoning != 0 || u.Total != nil && *u.Total != 0) {
		e.usage(en.Time, u) // a reply with no tokens counted has no token_count
	}
}

// usage writes a token_count event: the reply's tokens and the running
// total, as Codex counts them (input includes the cached tokens).
func (e *encoder) usage(t session.Time, u *session.Usage) {
	last := [5]int64{u.Input + u.CacheRead + u.CacheWrite, u.CacheRead, u.Output, u.Reasoning, 0}
	if u.Total != nil {
		last[4] = *u.Total
	} else {
		last[4] = last[0] + last[2]
	}
	for i := range last {
		e.total[i] += last[i]
	}
	tok := func(v [5]int64) []byte {
		var o jsonx.Obj
		o.Int("input_tokens", v[0]).Int("cached_input_tokens", v[1]).Int("output_tokens", v[2]).
			Int("reasoning_output_tokens", v[3]).Int("total_tokens", v[4])
		return o.Bytes()
	}
	var info, o jsonx.Obj
	info.Raw("total_token_usage", tok(e.total)).Raw("last_token_usage", tok(last)).Null("model_context_window")
	o.Str("type", "token_count").Raw("info", info.Bytes())
	e.rec(t, "event_msg", o.Bytes())
}

// output writes a tool result as a function_call_output item. Its call
// was written before it: the adaptation drops a result whose call is not
// kept (Caps.ResultsNeedCall), so one that is not is an error.
func (e *encoder) output(t session.Time, callID, text string) {
	if !e.calls[callID] {
		if e.err == nil {
			e.err = fmt.Errorf("tool result %q: its call is not written before it", callID)
		}
		return
	}
	var o jsonx.Obj
	o.Str("type", "function_call_output").Str("call_id", callID).Str("output", text)
	e.rec(t, "response_item", o.Bytes())
}

// imageURL is an image as Codex keeps it: a data: URL, or the URL itself.
// The adaptation drops a file that is no image and a block with neither
// (Caps.FilesImagesOnly, ImagesInline, ImagesLinked), and its file name.
func imageURL(b session.Block) (string, error) {
	switch {
	case b.Type == session.BlockFile && b.MimeType != "" && !strings.HasPrefix(b.MimeType, "image/"):
		return "", fmt.Errorf("Codex's messages hold images, not %s files", b.MimeType)
	case b.Data != "":
		mime := b.MimeType
		if mime == "" {
			mime = "application/octet-stream"
		}
		return "data:" + mime + ";base64," + b.Data, nil
	case b.URL != "":
		return b.URL, nil
	}
	return "", fmt.Errorf("the %s block has neither data nor a URL", b.Type)
}

// fail records that entry en holds what the adaptation should have
// removed (the writer was handed a session convert.For did not adapt,
// or one of Codex's own origin holding another layout's entries).
func (e *encoder) fail(en *session.Entry, why string) {
	if e.err == nil {
		e.err = fmt.Errorf("entry %q: %s", en.ID, why)
	}
}
