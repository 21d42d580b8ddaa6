package opencode

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// ours reports whether an origin's Extras and Raw are OpenCode's: the tree,
// the database and the export share one representation.
func ours(origin string) bool { return origin == Name || origin == ExportName }

type kv struct {
	k string
	v []byte
}

// build makes an object of the modelled members, then every extra member the
// model has no slot for (skipping members already set).
func build(first []kv, extras session.Extras, useExtras bool) []byte {
	var o jsonx.Obj
	seen := map[string]bool{}
	for _, m := range first {
		if m.v == nil {
			continue
		}
		o.Raw(m.k, m.v)
		seen[m.k] = true
	}
	if useExtras {
		for _, f := range extras {
			if !seen[f.Key] {
				o.Raw(f.Key, f.Value)
				seen[f.Key] = true
			}
		}
	}
	return o.Bytes()
}

func str(s string) []byte { return jsonx.String(s) }

func num(n int64) []byte { return []byte(fmt.Sprint(n)) }

// encoder turns the model back into Docs: canonical JSON built from the
// model, merged with the source bytes when they are OpenCode's own.
type encoder struct {
	s        *session.Session // its Meta
	first    int64            // the session's first time (resultScan)
	sid      string
	renumber bool              // message and part ids are made anew (see toDocEach)
	renamed  map[string]string // with renumber: each message's new id by its old
	msgIDs   ascending
	partIDs  ascending
	lastMS   int64
	// the last message's time: OpenCode orders messages by time, so none
	// is written before it
	lastMsgMS int64
	lastUser  string
	results   map[string]*session.Entry // tool results by part id and by call id
	used      map[*session.Entry]bool
	// the messages before a compaction: what a summary message keeps when
	// read back (spell.Calls)
	// the model in force where the encoder is: the last one a message
	// or a model change named, else the session's first (model.go)
	model inForce
}

// resultScan is what the encoder needs of a session before its first
// message: its tool results (a call's part carries its result, which comes
// any later) and its first time.
type resultScan struct {
	first   int64
	results []*session.Entry // tool results, and ash's result blocks as results, in session order
	model   inForce          // the first model the session names
}

// scanResults reads a session's entries for what resultScan keeps.
func scanResults(meta *session.Meta, next func() (*session.Entry, error)) (*resultScan, error) {
	rs := &resultScan{first: max(meta.Created.UnixMilli(), 0)}
	found := rs.first > 0
	for {
		en, err := next()
		if errors.Is(err, io.EOF) {
			return rs, nil
		}
		if err != nil {
			return nil, err
		}
		if ms := en.Time.UnixMilli(); !found && ms > 0 {
			rs.first, found = ms, true
		}
		if rs.model.ModelID == "" {
			rs.model = modelNamed(en)
		}
		if en.Message == nil {
			continue
		}
		if en.Message.Role == session.RoleTool {
			rs.results = append(rs.results, en)
		}
		// ash keeps results as blocks of a user message: treat each as a result entry.
		for _, b := range en.Message.Content {
			if b.Type == session.BlockToolResult {
				rs.results = append(rs.results, &session.Entry{Kind: session.KindMessage, Time: en.Time, Source: session.Source{Origin: en.Origin}, Message: &session.Message{
					Role: session.RoleTool, ToolCallID: b.ToolCallID, IsError: b.IsError,
					Content: []session.Block{{Type: session.BlockText, Text: b.Text}}}})
			}
		}
	}
}

// toDocEach encodes a session: s's Meta (its entries are not used), the
// results rs found in them, then its entries from next, handing each
// message to emit as it is made (with the Doc, whose Info is set by then)
// instead of keeping it.
func toDocEach(s *session.Session, rs *resultScan, next func() (*session.Entry, error), project string, emit func(*Doc, *Msg) error) (*Doc, error) {
	e := &encoder{s: s, first: rs.first, results: map[string]*session.Entry{}, used: map[*session.Entry]bool{}}
	m := &s.Meta
	own := ours(m.Origin)
	e.sid = spell.SessionID(caps.IDs, m, e.first)
	// A session of ours written under another id than it was read with (a
	// second copy of one session in a run: pipeline.Distinct) gets new
	// message and part ids as well: OpenCode files parts by message id,
	// store-wide, so the copy's would land on the first's.
	e.renumber = own && m.Raw != nil && gjson.GetBytes(m.Raw, "id").String() != m.ID
	e.renamed = map[string]string{}
	e.lastMS = e.first
	e.model = rs.model
	d := &Doc{ProjectID: project}
	if n := notes[metaNote](&m.Source); n != nil {
		d.Todo, d.Diff, d.Project = n.Todo, n.Diff, n.Project
	}
	if d.ProjectID == "" {
		d.ProjectID = gjson.GetBytes(m.Extra.Get("projectID"), "@this").String()
	}
	if d.ProjectID == "" {
		d.ProjectID = "global"
	}
	if why := format.UnsafeID(d.ProjectID); why != "" {
		return nil, fmt.Errorf("project id %q %s: it cannot be a directory name", d.ProjectID, why)
	}
	d.Info = e.info(d.ProjectID)
	if own && m.Raw != nil {
		d.Info = jsonx.Merge(m.Raw, d.Info)
	}
	for _, en := range rs.results {
		e.addResult(en)
	}
	// a session of another layout is its active path (convert.Adapt)
	for {
		en, err := next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		ens := []*session.Entry{en}
		if n := notes[msgNote](&en.Source); n != nil && n.Trigger != nil {
			ens = []*session.Entry{n.Trigger, en} // the request for the summary, before it
		}
		for _, en := range ens {
			msg, err := e.entry(en)
			if err != nil {
				return nil, err
			}
			if msg != nil {
				if err := emit(d, msg); err != nil {
					return nil, err
				}
			}
		}
	}
	// a result no call took has no part: convert counted it
	// (Caps.ResultsInCall)
	return d, nil
}

func (e *encoder) addResult(en *session.Entry) {
	if en.ID != "" {
		e.results["id:"+en.ID] = en
	}
	if _, ok := e.results["call:"+en.Message.ToolCallID]; !ok {
		e.results["call:"+en.Message.ToolCallID] = en
	}
}

func (e *encoder) info(project string) []byte {
	m := &e.s.Meta
	own := ours(m.Origin)
	tm := []byte(nil)
	if own {
		tm = m.Extra.Get("time")
	}
	// OpenCode keeps times as milliseconds since 1970, never before: an
	// earlier time (a year 0026 that another layout allows) is replaced as
	// a message's is, by the first time of the session it can hold.
	created, updated := m.Created.UnixMilli(), m.Updated.UnixMilli()
	if created <= 0 { // unset by convert.Adapt when before 1970 (TimesAfter1970)
		created = e.first
	}
	if updated <= 0 {
		updated = created
	}
	tm = setMember(tm, "created", timeVal(m.Created, created))
	tm = setMember(tm, "updated", timeVal(m.Updated, updated))
	first := []kv{{"id", str(e.sid)}}
	if !own || m.Extra.Get("slug") == nil {
		first = append(first, kv{"slug", str("imported-" + strings.ToLower(e.sid[len(e.sid)-6:]))})
	}
	version := m.Version
	if !own || version == "" {
		version = "1.1.34"
	}
	first = append(first, kv{"version", str(version)}, kv{"projectID", str(project)}, kv{"directory", str(m.Cwd)})
	if m.Parent != nil && m.Parent.SessionID != "" && isID("ses", m.Parent.SessionID) {
		first = append(first, kv{"parentID", str(m.Parent.SessionID)})
	}
	title := m.Title
	if title == "" {
		title = "Imported session"
	}
	first = append(first, kv{"title", str(title)}, kv{"time", tm})
	return build(first, m.Extra, own)
}

func timeVal(t session.Time, ms int64) []byte {
	if t.UnixMilli() >= 0 && t.Raw != "" && gjson.Valid(t.Raw) && gjson.Parse(t.Raw).Type == gjson.Number {
		return []byte(t.Raw)
	}
	return num(ms)
}

// ms is t in OpenCode's milliseconds after 1970. A time missing takes the
// one before it (spell.Clock's rule); convert.Adapt left unset another
// layout's times before 1970 (TimesAfter1970), and an own session's keep
// their spelling (timeVal).
func (e *encoder) ms(t session.Time) int64 {
	ms := t.UnixMilli()
	if ms > 0 {
		e.lastMS = ms
		return ms
	}
	return e.lastMS
}

// entry encodes one entry as a message, or returns nil for tool results (they
// live in their call's tool part) and for what OpenCode cannot hold.
func (e *encoder) entry(en *session.Entry) (*Msg, error) {
	if en.Message == nil && en.Kind == session.KindCompaction && en.Compaction != nil {
		// a summary message (counted by convert.Adapt: CompactionConverted, FirstKeptMoved)
		m := &session.Message{Role: session.RoleAssistant, Content: []session.Block{{Type: session.BlockText, Text: en.Compaction.Summary}}}
		return e.message(en, m, true)
	}
	if n := modelNamed(en); n.ModelID != "" {
		e.model = n
	}
	if en.Message == nil { // convert.Adapt dropped the kinds OpenCode lacks
		return nil, fmt.Errorf("entry %s: OpenCode has no message for a %s entry", en.ID, loss.Entry(en))
	}
	if en.Message.Role == session.RoleTool || onlyResults(en.Message) {
		return nil, nil
	}
	return e.message(en, en.Message, en.Kind == session.KindCompaction)
}

// onlyResults reports a message that holds nothing but tool results (ash):
// they go into their calls' tool parts and leave no message behind.
func onlyResults(m *session.Message) bool {
	if len(m.Content) == 0 {
		return false
	}
	for _, b := range m.Content {
		if b.Type != session.BlockToolResult {
			return false
		}
	}
	return true
}

func (e *encoder) message(en *session.Entry, m *session.Message, summary bool) (*Msg, error) {
	own := ours(en.Origin)
	ms := e.ms(en.Time)
	created := en.Time
	if !own && ms < e.lastMsgMS {
		// OpenCode orders a session's messages by their time: one
		// stamped before the message it follows (a Claude Code prompt
		// queued while a tool ran) would move ahead of it. convert.Adapt
		// raised every stamped one (TimesForward, counted); a missing
		// time that took an earlier result's is raised here.
		ms, created = e.lastMsgMS, session.Time{}
	}
	e.lastMsgMS = ms
	id := en.ID
	if e.renumber || !isID("msg", id) {
		id = e.msgIDs.Next("msg", ms, e.sid+":"+en.ID)
	}
	if e.renumber {
		e.renamed[en.ID] = id
	}
	role := string(m.Role)
	if role != "user" && role != "assistant" {
		if own && m.SourceRole != "" {
			role = m.SourceRole
		} else { // convert.Adapt gave another layout's messages a role OpenCode has
			return nil, fmt.Errorf("entry %s: OpenCode has no %s role", en.ID, m.Role)
		}
	}
	var tm []byte
	if own {
		tm = m.Extra.Get("time")
	}
	tm = setMember(tm, "created", timeVal(created, ms))
	first := []kv{{"id", str(id)}, {"sessionID", str(e.sid)}, {"role", str(role)}, {"time", tm}}
	if role == "assistant" {
		first = append(first, e.assistant(m, own, summary)...)
	} else if !own {
		first = append(first, kv{"agent", str("build")}, kv{"model", e.modelOf(m)})
	}
	info := build(first, m.Extra, own)
	if role == "user" {
		e.lastUser = id
	}
	parts, err := e.parts(en, m, id, ms, own)
	if err != nil {
		return nil, err
	}
	canon := Msg{Info: info, Parts: parts}
	if own && en.Raw != nil {
		merged, err := decodeMsg(jsonx.Merge(en.Raw, canon.encode()))
		if err != nil {
			return nil, err
		}
		if p, ok := e.renamed[gjson.GetBytes(merged.Info, "parentID").String()]; ok {
			merged.Info = setMember(merged.Info, "parentID", str(p))
		}
		return &merged, nil
	}
	return &canon, nil
}

func (e *encoder) assistant(m *session.Message, own, summary bool) []kv {
	var out []kv
	model := gjson.ParseBytes(e.modelOf(m))
	out = append(out, kv{"modelID", str(model.Get("modelID").String())}, kv{"providerID", str(model.Get("providerID").String())})
	u := m.Usage
	cost := 0.0
	if u != nil && u.Cost != nil {
		cost = u.Cost.Total
	}
	out = append(out, kv{"cost", jsonx.AppendFloat(nil, cost)})
	if !own || m.Extra.Get("tokens") == nil {
		out = append(out, kv{"tokens", tokensOf(u)})
	}
	if m.StopReason != "" {
		out = append(out, kv{"finish", str(m.StopReason)})
	}
	if m.Error != "" && (!own || m.Extra.Get("error") == nil) {
		var d, o jsonx.Obj
		out = append(out, kv{"error", o.Str("name", "UnknownError").Raw("data", d.Str("message", m.Error).Bytes()).Bytes()})
	}
	if !own {
		mode := "build"
		if summary {
			mode = "compaction"
			out = append(out, kv{"summary", []byte("true")})
		}
		var p jsonx.Obj
		out = append(out, kv{"parentID", str(e.lastUser)}, kv{"mode", str(mode)}, kv{"agent", str(mode)},
			kv{"path", p.Str("cwd", e.s.Meta.Cwd).Str("root", e.s.Meta.Cwd).Bytes()})
	}
	return out
}

func tokensOf(u *session.Usage) []byte {
	if u == nil {
		u = &session.Usage{}
	}
	var o, c jsonx.Obj
	if u.Total != nil {
		o.Int("total", *u.Total)
	}
	o.Int("input", u.Input).Int("output", u.Output).Int("reasoning", u.Reasoning)
	return o.Raw("cache", c.Int("read", u.CacheRead).Int("write", u.CacheWrite).Bytes()).Bytes()
}

// parts encodes the content blocks and reinserts the parts kept in the
// entry's msgNote at their positions.
func (e *encoder) parts(en *session.Entry, m *session.Message, mid string, ms int64, own bool) ([][]byte, error) {
	var content [][]byte
	for i, b := range m.Content {
		p, err := e.part(b, mid, ms, i, own)
		if err != nil {
			return nil, err
		}
		if p != nil {
			content = append(content, p)
		}
	}
	type kept struct {
		at   int
		part []byte
	}
	var others []kept
	if n := notes[msgNote](&en.Source); n != nil {
		_ = jsonx.Elements(n.Parts, func(_ int, v []byte) {
			r := gjson.ParseBytes(v)
			p := []byte(r.Get("part").Raw)
			if e.renumber {
				p = setMember(p, "id", str(e.partIDs.Next("prt", ms, fmt.Sprintf("%s:%s:kept:%d", e.sid, mid, r.Get("at").Int()))))
			}
			p = setMember(p, "sessionID", str(e.sid))
			p = setMember(p, "messageID", str(mid))
			others = append(others, kept{int(r.Get("at").Int()), p})
		})
	}
	out := make([][]byte, 0, len(content)+len(others))
	ci := 0
	for _, k := range others {
		for len(out) < k.at && ci < len(content) {
			out = append(out, content[ci])
			ci++
		}
		out = append(out, k.part)
	}
	return append(out, content[ci:]...), nil
}

func (e *encoder) partID(b session.Block, ms int64, mid string, i int) string {
	var id string
	_ = json.Unmarshal(b.Extra.Get("id"), &id)
	if isID("prt", id) && !e.renumber {
		return id
	}
	return e.partIDs.Next("prt", ms, fmt.Sprintf("%s:%s:%d", e.sid, mid, i))
}

func (e *encoder) part(b session.Block, mid string, ms int64, i int, own bool) ([]byte, error) {
	head := []kv{{"id", str(e.partID(b, ms, mid, i))}, {"sessionID", str(e.sid)}, {"messageID", str(mid)}}
	switch b.Type {
	case session.BlockText:
		return build(append(head, kv{"type", str("text")}, kv{"text", str(b.Text)}), b.Extra, own), nil
	case session.BlockThinking:
		x := append(head, kv{"type", str("reasoning")}, kv{"text", str(b.Text)})
		if !own {
			var t jsonx.Obj
			x = append(x, kv{"time", t.Int("start", ms).Int("end", ms).Bytes()})
		}
		return build(x, b.Extra, own), nil
	case session.BlockImage, session.BlockFile:
		url := b.URL
		if b.Data != "" {
			url = "data:" + b.MimeType + ";base64," + b.Data
		}
		mime := b.MimeType
		if mime == "" {
			mime = "application/octet-stream"
		}
		x := append(head, kv{"type", str("file")}, kv{"mime", str(mime)})
		if b.Filename != "" {
			x = append(x, kv{"filename", str(b.Filename)})
		}
		return build(append(x, kv{"url", str(url)}), b.Extra, own), nil
	case session.BlockToolCall:
		return e.tool(b, head, ms, own), nil
	case session.BlockToolResult:
		return nil, nil // carried into its call's tool part (a result no call takes: Caps.ResultsInCall)
	}
	// convert.Adapt dropped the blocks OpenCode's declaration lacks
	return nil, fmt.Errorf("OpenCode has no part for a %s block", b.Type)
}

func (e *encoder) tool(b session.Block, head []kv, ms int64, own bool) []byte {
	pid := gjson.ParseBytes(head[0].v).String()
	res := e.results["id:"+pid]
	if res == nil || res.Message.ToolCallID != b.ToolCallID {
		res = e.results["call:"+b.ToolCallID]
	}
	if res != nil && e.used[res] {
		res = nil
	}
	if n := notes[callNote](&b.Source); res == nil && own && n != nil {
		// A call read without a result: its state as it was, with the
		// model's arguments.
		state := n.State
		if gjson.GetBytes(state, "input").Exists() {
			args := []byte(b.Arguments)
			if len(args) == 0 {
				args = []byte("{}")
			}
			state = setMember(state, "input", args)
		}
		x := append(head, kv{"type", str("tool")}, kv{"callID", str(b.ToolCallID)}, kv{"tool", str(b.ToolName)}, kv{"state", state})
		return build(x, b.Extra, own)
	}
	var st []kv
	var extras session.Extras
	resOwn := false
	status := "pending"
	if res != nil {
		e.used[res] = true
		r := res.Message
		resOwn = ours(res.Origin)
		extras = r.Extra
		status = "completed"
		if r.IsError {
			status = "error"
		}
		if s := gjson.ParseBytes(r.Extra.Get("status")).String(); resOwn && s != "" {
			status = s
		}
	}
	st = append(st, kv{"status", str(status)})
	noInput := false
	if res != nil {
		if n := notes[resultNote](&res.Source); n != nil {
			noInput = n.NoInput
		}
	}
	if !noInput {
		args := []byte(b.Arguments)
		if len(args) == 0 {
			args = []byte("{}")
		}
		st = append(st, kv{"input", args})
	}
	if res != nil {
		text := res.Message.Text()
		switch {
		case status == "error" && !(resOwn && extras.Get("error") != nil):
			st = append(st, kv{"error", str(text)})
		case status == "completed":
			st = append(st, kv{"output", str(text)})
		}
		if !resOwn {
			var t jsonx.Obj
			rms := e.ms(res.Time)
			if status == "completed" {
				st = append(st, kv{"title", str(b.ToolName)}, kv{"metadata", []byte("{}")})
			}
			st = append(st, kv{"time", t.Int("start", ms).Int("end", rms).Bytes()})
		}
	} else if !own {
		st = append(st, kv{"raw", str("")})
	}
	state := build(st, extras, resOwn)
	x := append(head, kv{"type", str("tool")}, kv{"callID", str(e.callID(b, pid))}, kv{"tool", str(b.ToolName)}, kv{"state", state})
	return build(x, b.Extra, own)
}

// callID is a call's id, or for a call read without one (Codex's
// web_search) one made from its part id: OpenCode sends the id back to
// the model with the call and its result, and the APIs refuse a call
// without one, so a session holding one could not be continued.
func (e *encoder) callID(b session.Block, pid string) string {
	if b.ToolCallID != "" {
		return b.ToolCallID
	}
	// not counted as a loss: like the message and part ids OpenCode
	// needs, it is made, and the source had none to lose
	return "call_" + strings.TrimPrefix(pid, "prt_")
}
