package gemini

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// Open reads one session file.
func (f Format) Open(ref format.Ref) (session.Reader, error) {
	return format.OpenFile(ref, func(name string, r io.Reader, c io.Closer) (session.Reader, error) {
		defer c.Close()
		return f.OpenReader(name, r)
	})
}

// OpenReader reads a session from r. The whole file is read first: a
// message's last version, a later $set or a rewind decides what an earlier
// line means, as in the agent's own loader.
func (Format) OpenReader(name string, r io.Reader) (session.Reader, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	c, err := load(name, b)
	if err != nil {
		return nil, err
	}
	return build(name, c), nil
}

// reader streams a session built from a loaded file.
type reader struct {
	meta    session.Meta
	entries []*session.Entry
	i       int
	c       *conv
}

func (r *reader) Meta() *session.Meta { return &r.meta }

func (r *reader) Next() (*session.Entry, error) {
	if r.i >= len(r.entries) {
		return nil, io.EOF
	}
	r.i++
	return r.entries[r.i-1], nil
}

func (r *reader) Close() error { return nil }

// metaNote is what the writer needs to give the file back: the file as
// loaded. It also counts, for info, the records the loader applied.
type metaNote struct {
	c           *conv
	projectHash string
	kind        string
}

// Unmodelled counts the messages a rewind dropped: the file keeps them,
// the session does not, so another layout has no place for them.
func (n *metaNote) Unmodelled() int { return n.c.rewound }

// Applied names the records the loader applied that are not messages.
func (n *metaNote) Applied() map[string]int {
	out := map[string]int{}
	for k, v := range map[string]int{"$set": n.c.sets, "$rewindTo": n.c.rewinds, "rewound message": n.c.rewound,
		"message replaced": n.c.replaced, "$set messages": n.c.checkpoints} {
		if v > 0 {
			out[k] = v
		}
	}
	return out
}

// build turns a loaded file into the model.
func build(name string, c *conv) *reader {
	r := &reader{c: c}
	m := &r.meta
	m.Origin, m.Raw, m.Line = Name, c.metaRaw, c.metaLine
	m.ID = c.get("sessionId").String()
	m.Title = c.get("summary").String()
	m.Created, _ = session.ParseTime(c.get("startTime").String())
	m.Updated, _ = session.ParseTime(c.get("lastUpdated").String())
	m.Version = V2
	if c.legacy {
		m.Version = V1
	}
	note := &metaNote{c: c, projectHash: c.get("projectHash").String(), kind: c.get("kind").String()}
	m.Private = note
	if dirs := c.get("directories"); dirs.IsArray() && len(dirs.Array()) > 0 {
		m.Cwd = dirs.Array()[0].String()
	}
	if root := projectRoot(name); root != "" {
		m.Cwd = root
	}
	if note.kind == "subagent" {
		// chats/<parentSessionId>/<sessionId>.jsonl, which the parent's
		// reader brings in as a run (runs)
		dir := filepath.Dir(name)
		m.Parent = &session.Parent{SessionID: filepath.Base(dir), Run: filepath.Base(filepath.Dir(dir)) == ChatsDir}
	}
	for _, k := range []string{"memoryScratchpad", "directories"} {
		if v := c.get(k); v.Exists() {
			m.Extra.Set(k, []byte(v.Raw))
		}
	}
	answered := answeredLater(c)
	emitted := map[string]bool{} // call ids whose result is an entry already
	prev := ""
	add := func(e *session.Entry) {
		e.ParentID = prev
		prev = e.ID
		r.entries = append(r.entries, e)
	}
	for _, g := range c.msgs {
		for _, e := range entriesOf(g, answered, emitted) {
			add(e)
		}
	}
	if note.kind != "subagent" && filepath.Base(filepath.Dir(name)) == ChatsDir {
		r.entries = append(r.entries, runs(name, m.ID, prev, c)...)
	}
	return r
}

// runs reads the sub-agent runs of the session in the chats folder of
// name, chats/<sessionId>/*.jsonl, for after its last entry (last): each
// a subagent entry, the run's entries on a sidechain (the sub-agent's
// session id), a subagent_end entry with its last reply, in the order the
// runs started. So an export shows them inside their parent, as Codex's
// and Claude Code's are; the file of each is also a session of its own,
// and this layout's writer leaves them out of the parent's file. A run
// that cannot be read is left out: it is validated as a file of its own.
func runs(name, id, last string, c *conv) []*session.Entry {
	if id == "" || format.UnsafeID(id) != "" {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(name), id, "*.jsonl"))
	type run struct {
		start string
		es    []*session.Entry
	}
	var all []run
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		sc, err := load(p, b)
		if err != nil {
			continue
		}
		sr := build(p, sc)
		sub := &session.Subagent{ID: sr.meta.ID, ParentToolCallID: spawnedBy(c, sr.meta.ID)}
		start := &session.Entry{Kind: session.KindSubagent, Type: "subagent", ID: session.DerivedID(sr.meta.ID, 0, nil),
			Time: sr.meta.Created, Subagent: sub, Source: session.Source{Origin: Name}}
		es := []*session.Entry{start}
		result := ""
		end := sr.meta.Updated
		for _, e := range sr.entries {
			e.Sidechain = sr.meta.ID
			if e.ParentID == "" {
				e.ParentID = start.ID
			}
			if e.Message != nil && e.Message.Role == session.RoleAssistant && e.Message.Text() != "" {
				result = e.Message.Text()
			}
			es = append(es, e)
		}
		fin := *sub
		fin.Result = result
		es = append(es, &session.Entry{Kind: session.KindSubagentEnd, Type: "subagent_end", ID: session.DerivedID(sr.meta.ID, -1, nil),
			ParentID: start.ID, Time: end, Subagent: &fin, Source: session.Source{Origin: Name}})
		all = append(all, run{start: sr.meta.Created.Raw, es: es})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].start < all[j].start })
	var out []*session.Entry
	for _, r := range all {
		r.es[0].ParentID = last
		out = append(out, r.es...)
		last = r.es[len(r.es)-1].ID
	}
	return out
}

// spawnedBy is the tool call of the session that ran sub-agent id: the
// call whose record names it as its agentId.
func spawnedBy(c *conv, id string) string {
	for _, g := range c.msgs {
		for _, tc := range g.v.Get("toolCalls").Array() {
			if tc.Get("agentId").String() == id {
				return tc.Get("id").String()
			}
		}
	}
	return ""
}

// answeredLater are the tool call ids a user record of functionResponses
// answers (Gemini CLI 0.61.0 records the responses so, besides the call's
// result): those results are read from the user record, once.
func answeredLater(c *conv) map[string]bool {
	out := map[string]bool{}
	for _, g := range c.msgs {
		if g.v.Get("type").String() == "user" && onlyResponses(g.v.Get("content")) {
			for _, p := range g.v.Get("content").Array() {
				out[p.Get("functionResponse.id").String()] = true
			}
		}
	}
	return out
}

// repeats reports whether every functionResponse of content answers a
// call whose result is an entry already.
func repeats(content gjson.Result, emitted map[string]bool) bool {
	for _, p := range content.Array() {
		if !emitted[p.Get("functionResponse.id").String()] {
			return false
		}
	}
	return true
}

// onlyResponses reports whether content is a non-empty array of
// functionResponse parts.
func onlyResponses(content gjson.Result) bool {
	if !content.IsArray() {
		return false
	}
	ps := content.Array()
	for _, p := range ps {
		if !p.Get("functionResponse").IsObject() {
			return false
		}
	}
	return len(ps) > 0
}

// entriesOf is the model of one message record.
func entriesOf(g *msg, answered, emitted map[string]bool) []*session.Entry {
	v := g.v
	typ := v.Get("type").String()
	t, _ := session.ParseTime(v.Get("timestamp").String())
	src := session.Source{Origin: Name, Raw: g.raw, Line: g.line}
	switch typ {
	case "user":
		if onlyResponses(v.Get("content")) {
			if repeats(v.Get("content"), emitted) {
				// Every response of the record answers a call answered
				// already: Gemini CLI 0.61.0, resuming a session, records
				// the turn it sends again (<reply id>_response). Kept for
				// this layout's writer; not a second result.
				return []*session.Entry{{Kind: session.KindOther, Type: "repeated-response", ID: g.id, Time: t,
					Custom: &session.Custom{CustomType: "repeated-response", Data: g.raw}, Source: src}}
			}
			out := responses(g, t, src)
			for _, e := range out {
				emitted[e.Message.ToolCallID] = true
			}
			return out
		}
		m := &session.Message{Role: session.RoleUser}
		contentOf(m, v.Get("content"))
		if d := v.Get("displayContent"); d.Exists() {
			m.Extra.Set("displayContent", []byte(d.Raw))
		}
		return []*session.Entry{{Kind: session.KindMessage, Type: typ, ID: g.id, Time: t, Message: m, Source: src}}
	case "gemini":
		out := reply(g, t, src, answered)
		for _, e := range out[1:] {
			emitted[e.Message.ToolCallID] = true
		}
		return out
	default:
		// info, error, warning: the agent's notices to the user, never sent
		// to the model.
		data := v.Get("content").Raw
		e := &session.Entry{Kind: session.KindCustom, Type: typ, ID: g.id, Time: t,
			Custom: &session.Custom{CustomType: typ, Data: []byte(data)}, Source: src}
		return []*session.Entry{e}
	}
}

// contentOf reads a PartListUnion into m's blocks.
func contentOf(m *session.Message, content gjson.Result) {
	switch {
	case content.Type == gjson.String:
		m.ContentIsString = true
		m.Content = append(m.Content, session.Block{Type: session.BlockText, Text: content.String()})
		return
	case content.IsObject():
		addPart(m, content)
		return
	}
	var unknown []string
	content.ForEach(func(_, p gjson.Result) bool {
		if p.Type == gjson.String {
			m.Content = append(m.Content, session.Block{Type: session.BlockText, Text: p.String()})
		} else if !addPart(m, p) {
			unknown = append(unknown, p.Raw)
		}
		return true
	})
	if len(unknown) > 0 {
		m.Extra.Set("parts", []byte("["+strings.Join(unknown, ",")+"]"))
	}
}

// addPart adds one Part as a block; false for a part the model has no
// block for (code, its result, a function response outside a response
// record).
func addPart(m *session.Message, p gjson.Result) bool {
	sig := p.Get("thoughtSignature").String()
	switch {
	case p.Get("text").Type == gjson.String:
		b := session.Block{Type: session.BlockText, Text: p.Get("text").String(), Signature: sig}
		if p.Get("thought").Bool() {
			b.Type = session.BlockThinking
		}
		m.Content = append(m.Content, b)
	case p.Get("inlineData").IsObject():
		d := p.Get("inlineData")
		b := session.Block{Type: session.BlockImage, MimeType: d.Get("mimeType").String(), Data: d.Get("data").String()}
		if !strings.HasPrefix(b.MimeType, "image/") {
			b.Type = session.BlockFile
		}
		m.Content = append(m.Content, b)
	case p.Get("fileData").IsObject():
		d := p.Get("fileData")
		m.Content = append(m.Content, session.Block{Type: session.BlockFile, MimeType: d.Get("mimeType").String(), URL: d.Get("fileUri").String()})
	case p.Get("functionCall").IsObject():
		fc := p.Get("functionCall")
		args := fc.Get("args").Raw
		if args == "" {
			args = "{}"
		}
		m.Content = append(m.Content, session.Block{Type: session.BlockToolCall, ToolCallID: fc.Get("id").String(),
			ToolName: fc.Get("name").String(), Arguments: compact(args), Signature: sig})
	default:
		return false
	}
	return true
}

// reply is a gemini record: the assistant's message (thoughts, content,
// tool calls), then each call's result not answered by a later user
// record.
func reply(g *msg, t session.Time, src session.Source, answered map[string]bool) []*session.Entry {
	v := g.v
	m := &session.Message{Role: session.RoleAssistant, Model: v.Get("model").String()}
	v.Get("thoughts").ForEach(func(_, th gjson.Result) bool {
		text := th.Get("description").String()
		if s := th.Get("subject").String(); s != "" {
			text = "**" + s + "** " + text // as the agent sends it back on resume
		}
		m.Content = append(m.Content, session.Block{Type: session.BlockThinking, Text: text})
		return true
	})
	contentOf(m, v.Get("content"))
	if len(m.Content) > 0 && m.ContentIsString && m.Content[len(m.Content)-1].Text == "" {
		m.Content = m.Content[:len(m.Content)-1] // "" is no text
	}
	tok := v.Get("tokens")
	switch {
	case tok.IsObject():
		total := tok.Get("total").Int()
		// Gemini's input (promptTokenCount) counts the cached tokens too;
		// the model's Input is the rest, as Codex's is read.
		cached := tok.Get("cached").Int()
		m.Usage = &session.Usage{Input: tok.Get("input").Int() - cached, Output: tok.Get("output").Int(),
			CacheRead: cached, Reasoning: tok.Get("thoughts").Int(), Total: &total}
		if x := tok.Get("tool"); x.Exists() {
			m.Usage.Extra.Set("tool", []byte(x.Raw))
		}
	}
	if d := v.Get("displayContent"); d.Exists() {
		m.Extra.Set("displayContent", []byte(d.Raw))
	}
	// A call the content holds as a functionCall part (the agent then
	// sends the content as it is) is that block; its record here adds
	// only its result.
	inContent := map[string]bool{}
	for _, b := range m.Content {
		if b.Type == session.BlockToolCall {
			inContent[b.ToolCallID] = true
		}
	}
	var results []*session.Entry
	v.Get("toolCalls").ForEach(func(_, tc gjson.Result) bool {
		args := tc.Get("args").Raw
		if args == "" {
			args = "{}"
		}
		b := session.Block{Type: session.BlockToolCall, ToolCallID: tc.Get("id").String(), ToolName: tc.Get("name").String(), Arguments: compact(args)}
		for _, k := range []string{"agentId", "displayName", "description", "resultDisplay", "renderOutputAsMarkdown"} {
			if x := tc.Get(k); x.Exists() {
				b.Extra.Set(k, []byte(x.Raw))
			}
		}
		if !inContent[b.ToolCallID] {
			m.Content = append(m.Content, b)
		}
		if res := tc.Get("result"); res.Exists() && res.Type != gjson.Null && !answered[b.ToolCallID] {
			rt, _ := session.ParseTime(tc.Get("timestamp").String())
			tm := &session.Message{Role: session.RoleTool, ToolCallID: b.ToolCallID, ToolName: b.ToolName,
				IsError: tc.Get("status").String() == "error"}
			tm.Content = []session.Block{{Type: session.BlockText, Text: resultText(res)}}
			results = append(results, &session.Entry{Kind: session.KindMessage, Type: "toolCall", ID: g.id + "/" + b.ToolCallID,
				Time: rt, Message: tm, Source: session.Source{Origin: Name, Line: g.line}})
		}
		return true
	})
	e := &session.Entry{Kind: session.KindMessage, Type: "gemini", ID: g.id, Time: t, Message: m, Source: src}
	return append([]*session.Entry{e}, results...)
}

// responses is a user record of functionResponse parts: a tool result
// each.
func responses(g *msg, t session.Time, src session.Source) []*session.Entry {
	var out []*session.Entry
	for i, p := range g.v.Get("content").Array() {
		fr := p.Get("functionResponse")
		tm := &session.Message{Role: session.RoleTool, ToolCallID: fr.Get("id").String(), ToolName: fr.Get("name").String(),
			IsError: fr.Get("response.error").Exists()}
		tm.Content = []session.Block{{Type: session.BlockText, Text: responseText(fr.Get("response"))}}
		e := &session.Entry{Kind: session.KindMessage, Type: "user", ID: g.id, Time: t, Message: tm,
			Source: session.Source{Origin: Name, Line: g.line}}
		if i == 0 {
			e.Raw = src.Raw
		} else {
			e.ID = fmt.Sprintf("%s/%d", g.id, i)
		}
		out = append(out, e)
	}
	return out
}

// resultText is a tool call's result as text: its function responses'
// output, or the result as written when it is something else.
func resultText(res gjson.Result) string {
	if res.Type == gjson.String {
		return res.String()
	}
	var parts []string
	each := func(p gjson.Result) {
		switch {
		case p.Get("functionResponse").IsObject():
			parts = append(parts, responseText(p.Get("functionResponse.response")))
		case p.Get("text").Type == gjson.String:
			parts = append(parts, p.Get("text").String())
		default:
			parts = append(parts, p.Raw)
		}
	}
	if res.IsArray() {
		res.ForEach(func(_, p gjson.Result) bool { each(p); return true })
	} else {
		each(res)
	}
	return strings.Join(parts, "\n")
}

// responseText is a functionResponse's response as text: its output (or
// error) string, else the object as written.
func responseText(resp gjson.Result) string {
	for _, k := range []string{"output", "error"} {
		if x := resp.Get(k); x.Type == gjson.String && len(resp.Map()) == 1 {
			return x.String()
		}
	}
	return resp.Raw
}

// compact is a JSON value on one line (a legacy document prints its
// arguments over many), as the agent would write it again.
func compact(raw string) []byte {
	if !strings.ContainsAny(raw, "\n\r\t ") {
		return []byte(raw)
	}
	return stringify(nil, gjson.Parse(raw))
}
