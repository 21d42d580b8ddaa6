package redact

import (
	"encoding/json"

	"github.com/sesstool/sesstool/session"
)

// Session masks secrets in every string of s an exporter shows as text, in
// place, and drops the source bytes (they would still hold the secrets).
// Every layout is read into this model and every exporter renders from it,
// so redaction is the same for all of them.
func (r *Redactor) Session(s *session.Session) {
	r.Meta(&s.Meta)
	for _, e := range s.Entries {
		r.Entry(e)
	}
}

// Meta masks the session's own strings, for an exporter that streams
// entries rather than holding the session (it calls Entry on each).
func (r *Redactor) Meta(m *session.Meta) {
	m.Title = r.String(m.Title)
	m.Cwd = r.String(m.Cwd)
	m.Raw = nil
	if p := m.Parent; p != nil {
		p.Path = r.String(p.Path)
		p.Summary = r.String(p.Summary)
		p.Raw = nil
	}
	for i := range m.Checkpoints {
		m.Checkpoints[i].Raw = nil
	}
}

// Entry masks one entry's strings, in place, and drops its source bytes.
func (r *Redactor) Entry(e *session.Entry) {
	e.Raw = nil
	e.Title = r.String(e.Title)
	if m := e.Message; m != nil {
		for i := range m.Content {
			b := &m.Content[i]
			b.Text = r.text(b.Text)
			b.Arguments = r.raw(b.Arguments)
			b.Filename = r.String(b.Filename)
			b.URL = r.String(b.URL)
			b.Raw = nil
		}
		m.Error = r.text(m.Error)
		m.Details = r.raw(m.Details)
		if x := m.Exec; x != nil {
			x.Command = r.text(x.Command)
			x.Output = r.text(x.Output)
			x.FullOutputPath = r.String(x.FullOutputPath)
		}
	}
	if c := e.Compaction; c != nil {
		c.Summary = r.String(c.Summary)
		c.Details = r.raw(c.Details)
	}
	if b := e.BranchSummary; b != nil {
		b.Summary = r.String(b.Summary)
		b.Details = r.raw(b.Details)
	}
	if l := e.Label; l != nil {
		l.Label = r.String(l.Label)
	}
	if c := e.Custom; c != nil {
		c.Data = r.raw(c.Data)
	}
	if s := e.Subagent; s != nil {
		s.Result = r.text(s.Result)
	}
}

// raw masks secrets inside a JSON value: first in each of its strings as
// the text it decodes to (see jsonStrings), then in the value as written,
// where a member's name gives its value away ("api_key": "…"). Mask holds
// no quote or backslash and the patterns stop at quotes and backslashes,
// so the result stays valid JSON; should it not, the value is walked
// string by string.
func (r *Redactor) raw(v json.RawMessage) json.RawMessage {
	if len(v) == 0 {
		return v
	}
	count := r.Count
	dec, _ := r.jsonStrings(v, 0)
	out := json.RawMessage(r.String(string(dec)))
	if json.Valid(out) {
		return out
	}
	r.Count = count
	var x any
	if err := json.Unmarshal(v, &x); err != nil {
		return v
	}
	b, err := json.Marshal(r.walk(x))
	if err != nil {
		return v
	}
	return b
}

func (r *Redactor) walk(x any) any {
	switch t := x.(type) {
	case string:
		return r.text(t)
	case []any:
		for i := range t {
			t[i] = r.walk(t[i])
		}
	case map[string]any:
		for k := range t {
			t[k] = r.walk(t[k])
		}
	}
	return x
}
