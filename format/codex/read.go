package codex

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// holdMax bounds the entries held back while the reader waits for the
// token_count event that carries an assistant reply's usage; past it the
// entries go out without usage, so memory stays bounded.
const holdMax = 256

// reader streams a rollout: the session_meta line becomes the Meta, every
// later line one Entry, in file order.
type reader struct {
	name   string
	lines  *jsonl.Reader
	closer io.Closer
	meta   *session.Meta
	dec    decoder
	n      int // entries given ids so far

	held      []*session.Entry // entries since the last assistant reply, awaiting its usage
	assistant int              // index in held of the reply usage goes to; -1 for none
	lastTotal string           // the previous token_count's total_token_usage, to skip repeats
	out       []*session.Entry // entries ready to be returned
	eof       bool
	prev      string // the previous entry's id
}

func newReader(name string, r io.Reader, c io.Closer) (session.Reader, error) {
	br := newPeek(r)
	if doc, err := br.isDoc(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	} else if doc {
		return readDoc(name, br, c)
	}
	rd := &reader{name: name, lines: jsonl.NewReader(br), closer: c, assistant: -1}
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
	rd.meta = decodeMeta(rec, bytes.Clone(b))
	if rd.meta.ID == "" {
		return nil, fmt.Errorf("%s:%d: session_meta has no id", name, l.N)
	}
	rd.meta.Title = threadName(homeOf(name), rd.meta.ID)
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
		r.release()
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", r.name, err)
	}
	if !gjson.ValidBytes(l.Bytes) {
		return fmt.Errorf("%s:%d: invalid JSON", r.name, l.N)
	}
	raw := bytes.Clone(l.Bytes) // the jsonl buffer is reused by the next call
	rec := classify(gjson.ParseBytes(raw), false)
	e := r.dec.entry(rec, raw, l.N)
	r.n++
	e.ID = session.DerivedID(r.meta.ID, l.N, nil)
	e.ParentID, r.prev = r.prev, e.ID
	r.hold(e, rec)
	return nil
}

// hold queues e; an assistant reply waits for the token_count that gives
// its usage.
func (r *reader) hold(e *session.Entry, rec record) {
	if rec.typ == "event_msg" && rec.payload.Get("type").String() == "token_count" {
		r.usage(rec.payload.Get("info"))
		r.held = append(r.held, e)
		r.release()
		return
	}
	if e.Kind == session.KindMessage && e.Message.Role == session.RoleAssistant {
		r.assistant = len(r.held)
	}
	r.held = append(r.held, e)
	if r.assistant < 0 || len(r.held) >= holdMax {
		r.release()
	}
}

// release hands every held entry out.
func (r *reader) release() {
	r.out = append(r.out, r.held...)
	r.held, r.assistant = nil, -1
}

// usage puts a token_count's last_token_usage on the reply it follows. A
// token_count that repeats the previous total (Codex writes one again on
// some events) counts nothing, as ccusage does.
func (r *reader) usage(info gjson.Result) {
	if !info.IsObject() || r.assistant < 0 {
		return
	}
	total := info.Get("total_token_usage").Raw
	if total != "" && total == r.lastTotal {
		return
	}
	r.lastTotal = total
	last := info.Get("last_token_usage")
	if !last.IsObject() {
		return
	}
	in, cached := last.Get("input_tokens").Int(), last.Get("cached_input_tokens").Int()
	u := &session.Usage{Input: in - cached, CacheRead: cached, Output: last.Get("output_tokens").Int(),
		Reasoning: last.Get("reasoning_output_tokens").Int()}
	if t := last.Get("total_tokens"); t.Exists() {
		n := t.Int()
		u.Total = &n
	}
	r.held[r.assistant].Message.Usage = u
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
	return format.OpenFile(ref.Path, newReader)
}

// OpenReader streams a rollout from r; name is used in errors.
func (f Format) OpenReader(name string, r io.Reader) (session.Reader, error) {
	return newReader(name, r, nil)
}
