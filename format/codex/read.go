package codex

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// groupMax and groupBytes bound the lines one assistant reply gathers;
// past them the reply is cut in two, so memory stays bounded whatever the
// lines' size.
const (
	groupMax   = 256
	groupBytes = 16 << 20
)

// reader streams a rollout: the session_meta line becomes the Meta; every
// later line one Entry, in file order, except that one assistant reply,
// which Codex writes as a run of items (reasoning, message, calls) with its
// events (agent_message, agent_reasoning, token_count) among them, is one
// assistant message whose note keeps every line of the run.
type reader struct {
	name   string
	lines  *jsonl.Reader
	closer io.Closer
	meta   *session.Meta
	dec    decoder

	reply     *session.Entry // the assistant reply being gathered, or nil
	note      *replyNote
	group     grouping         // which lines begin an entry
	lastTotal string           // the previous token_count's total_token_usage, to skip repeats
	records   bool             // a token_usage_record was read: the usage comes from those
	out       []*session.Entry // entries ready to be returned
	eof       bool
	prev      string            // the previous entry's id
	child     bool              // a sub-agent's rollout read into its parent: no runs of its own
	spawned   map[string]string // a sub-agent's thread id -> the call that started it
}

// replyNote keeps the lines an assistant reply was read from, for this
// layout's writer. The events among them repeat what the items say, so
// another layout loses nothing by their absence.
type replyNote struct {
	lines [][]byte
	size  int
}

func (n *replyNote) add(l []byte) {
	n.lines = append(n.lines, l)
	n.size += len(l)
}

func newReader(name string, r io.Reader, c io.Closer) (session.Reader, error) {
	br := newPeek(r)
	if doc, err := br.isDoc(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	} else if doc {
		return readDoc(name, br, c)
	}
	rd := &reader{name: name, lines: jsonl.NewHeldReader(br), closer: c}
	l, err := rd.lines.NextNonBlank()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty file, not a Codex rollout", name)
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	b := format.TrimBOM(l.Bytes)
	if !gjson.ValidBytes(b) {
		return nil, fmt.Errorf("%s:%d: invalid JSON", name, l.N)
	}
	rec := classify(gjson.ParseBytes(b), true)
	if rec.typ != "session_meta" {
		return nil, fmt.Errorf("%s:%d: not a Codex rollout: the first line is not session_meta", name, l.N)
	}
	rd.meta = decodeMeta(rec, withEnding(b, l.CR))
	if rd.meta.ID == "" {
		return nil, fmt.Errorf("%s:%d: session_meta has no id", name, l.N)
	}
	var line []byte
	if rd.meta.Title, line, err = threadName(homeOf(name), rd.meta.ID); err != nil {
		return nil, err
	}
	if n, ok := rd.meta.Private.(*metaNote); ok {
		n.index = line
	}
	rd.dec.start = rd.meta.Created
	return rd, nil
}

func (r *reader) Meta() *session.Meta { return r.meta }

func (r *reader) Next() (*session.Entry, error) {
	for len(r.out) == 0 {
		if r.eof {
			return nil, io.EOF
		}
		if err := r.fill(); err != nil {
			return nil, err
		}
	}
	e := r.out[0]
	r.out = r.out[1:]
	return e, nil
}

// fill reads one line and moves what is ready into out.
func (r *reader) fill() error {
	l, err := r.lines.NextNonBlank()
	if errors.Is(err, io.EOF) {
		r.eof = true
		r.close()
		if !r.child {
			r.out = append(r.out, r.runs(r.prev)...)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", r.name, err)
	}
	if !gjson.ValidBytes(l.Bytes) {
		return fmt.Errorf("%s:%d: invalid JSON", r.name, l.N)
	}
	raw := withEnding(l.Bytes, l.CR) // the jsonl buffer is reused by the next call
	rec := classify(gjson.ParseBytes(raw), false)
	start, item := r.group.step(rec, len(raw))
	switch {
	case item:
		e := r.dec.entry(rec, raw, l.N)
		if start {
			r.close()
			r.open(e, l.N)
		} else {
			r.reply.Message.Content = append(r.reply.Message.Content, e.Message.Content...)
		}
		r.note.add(raw)
	case !start:
		r.note.add(raw)
		switch {
		case rec.typ == "token_usage_record":
			// One record per response, with its own usage: from the
			// first one on, the token_count events repeat what the
			// records say and count nothing more.
			r.records = true
			r.addUsage(rec.payload.Get("usage"))
		case rec.kind == "token_count" && !r.records:
			r.usage(rec.payload.Get("info"))
		}
	default:
		r.close()
		e := r.dec.entry(rec, raw, l.N)
		r.emit(e, l.N)
	}
	return nil
}

// withEnding is a copy of a line's bytes, with the CR of a CRLF ending
// kept (JSON takes it as white space), so that Codex -> Codex gives back
// a rollout written with CRLF byte for byte.
func withEnding(b []byte, cr bool) []byte {
	out := make([]byte, len(b), len(b)+1)
	copy(out, b)
	if cr {
		out = append(out, '\r')
	}
	return out
}

// replyItem reports whether rec is an item of an assistant reply.
func replyItem(rec record) bool {
	if rec.typ != "response_item" {
		return false
	}
	switch rec.kind {
	case "reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call", "tool_search_call", "image_generation_call":
		return true
	case "message":
		return rec.payload.Get("role").String() == "assistant"
	}
	return false
}

// replyEvent reports whether rec is an event Codex writes among a reply's
// items, repeating them (agent_message, agent_reasoning, and since 0.171
// item_completed, written before each item) or counting its tokens
// (token_count; since 0.171 the token_usage_record line, written between
// a reply and its token_count).
func replyEvent(rec record) bool {
	if rec.typ == "token_usage_record" {
		return true
	}
	if rec.typ != "event_msg" {
		return false
	}
	switch rec.kind {
	case "agent_message", "agent_reasoning", "agent_reasoning_raw_content", "token_count", "item_completed":
		return true
	}
	return false
}

// open starts gathering a reply at e, read from line n.
func (r *reader) open(e *session.Entry, n int) {
	r.reply, r.note = e, &replyNote{}
	e.Private = r.note
	e.Type = "reply"
	e.ID = session.DerivedID(r.meta.ID, n, nil)
}

// close hands out the reply being gathered.
func (r *reader) close() {
	if r.reply == nil {
		return
	}
	e := r.reply
	r.reply, r.note = nil, nil
	e.ParentID, r.prev = r.prev, e.ID
	r.out = append(r.out, e)
}

func (r *reader) emit(e *session.Entry, n int) {
	r.spawn(e)
	e.ID = session.DerivedID(r.meta.ID, n, nil)
	e.ParentID, r.prev = r.prev, e.ID
	r.out = append(r.out, e)
}

// usage adds a token_count's last_token_usage to the reply it follows. A
// token_count that repeats the previous total (Codex writes one again on
// some events) counts nothing, as ccusage does.
func (r *reader) usage(info gjson.Result) {
	if !info.IsObject() {
		return
	}
	total := info.Get("total_token_usage").Raw
	if total != "" && total == r.lastTotal {
		return
	}
	r.lastTotal = total
	r.addUsage(info.Get("last_token_usage"))
}

// addUsage adds one response's usage (a token_count's last_token_usage, a
// token_usage_record's usage) to the reply being gathered.
func (r *reader) addUsage(last gjson.Result) {
	if !last.IsObject() {
		return
	}
	in, cached := last.Get("input_tokens").Int(), last.Get("cached_input_tokens").Int()
	u := r.reply.Message.Usage
	if u == nil {
		u = &session.Usage{}
		r.reply.Message.Usage = u
	}
	u.Input += in - cached
	u.CacheRead += cached
	u.Output += last.Get("output_tokens").Int()
	u.Reasoning += last.Get("reasoning_output_tokens").Int()
	if t := last.Get("total_tokens"); t.Exists() {
		n := t.Int()
		if u.Total != nil {
			n += *u.Total
		}
		u.Total = &n
	}
}

func (r *reader) Close() error {
	if r.closer != nil {
		return r.closer.Close()
	}
	return nil
}

// Open streams the rollout at ref.Path into the model.
func (f Format) Open(ref format.Ref) (session.Reader, error) {
	if fi, err := os.Stat(ref.Path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("read %s: a Codex home holds many sessions; open one of its rollout files", ref.Path)
	}
	return format.OpenFile(ref, newReader)
}

// OpenReader streams a rollout from r; name is used in errors.
func (f Format) OpenReader(name string, r io.Reader) (session.Reader, error) {
	return newReader(name, r, nil)
}
