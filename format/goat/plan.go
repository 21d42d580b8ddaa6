package goat

import (
	"fmt"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

// plan carries what Write has put in messages.jsonl and transcript.jsonl
// so far, and the values metadata.json derives from them.
type plan struct {
	messages   *lineFile
	transcript *lineFile // created at the first transcript entry
	model      string
	title      string // leaf_title: the session's, or its last title entry's
	created    session.Time
	updated    session.Time
	turns      int
	cost       float64
	calls      map[string]bool // tool call ids written in assistant messages
	first      bool            // no entry of the active path seen yet
	clock      spell.Clock     // entry times (an ash tool result has none)
	now        session.Time    // the time of the entry being written
	forkPoint  string          // the uuid written for the entry a fork names as its fork point
}

// plan writes the entries walk puts on the path as messages.jsonl lines and
// goat-origin transcript entries as transcript.jsonl lines. What goat
// cannot hold the adaptation dropped and counted before (caps).
func (w *writer) plan(walk walkFunc) (*plan, error) {
	m := w.meta
	p := &plan{model: m.Model, title: m.Title, created: m.Created, updated: m.Updated, calls: map[string]bool{}, first: true}
	p.clock.Start(m.Created)
	var err error
	if p.messages, err = w.createLines(MessagesFile); err != nil {
		return nil, err
	}
	defer p.abort()
	err = walk(func(e *session.Entry, on bool) error {
		switch {
		case isTranscript(e):
			return w.transcriptLine(p, jsonx.Merge(e.Raw, e.Custom.Data))
		case on:
			if err := w.pathEntry(p, e); err != nil {
				return err
			}
		}
		return p.err()
	})
	if err != nil {
		return nil, err
	}
	if first, last, ok := format.PathTimes(w.entries); ok {
		// the session's span, though goat keeps only its messages
		if m.Created.IsZero() && !first.IsZero() {
			p.created = first
		}
		if m.Updated.IsZero() && !last.IsZero() {
			p.updated = last
		}
	}
	return p, w.commit(p)
}

func (w *writer) pathEntry(p *plan, e *session.Entry) error {
	if w.meta.Origin != Name {
		p.now = p.clock.Entry(e)
		t := p.now
		if p.first && w.meta.Created.IsZero() {
			p.created = t
		}
		if w.meta.Updated.IsZero() {
			p.updated = t // the last entry of the path
		}
	}
	p.first = false
	return w.entry(p, e)
}

func (w *writer) transcriptLine(p *plan, line []byte) error {
	if p.transcript == nil {
		var err error
		if p.transcript, err = w.createLines(TranscriptFile); err != nil {
			return err
		}
	}
	p.transcript.line(line)
	return p.transcript.err
}

// message writes one messages.jsonl line for entry e, fitted to what goat
// can read (fitMessage); a refusal ends the plan.
func (w *writer) message(p *plan, e *session.Entry, b []byte) {
	if p.messages.err != nil {
		return
	}
	b, err := w.fitMessage(e, b)
	if err != nil {
		p.messages.err = err
		return
	}
	p.messages.line(b)
}

func (p *plan) err() error {
	if p.messages.err != nil {
		return p.messages.err
	}
	if p.transcript != nil {
		return p.transcript.err
	}
	return nil
}

// commit puts the files in place, messages.jsonl first.
func (w *writer) commit(p *plan) error {
	for _, f := range []*lineFile{p.messages, p.transcript} {
		if f == nil {
			continue
		}
		if err := f.commit(); err != nil {
			return err
		}
		w.written = append(w.written, f.path)
	}
	return nil
}

// abort removes the files of a plan that did not finish; after commit it
// does nothing.
func (p *plan) abort() {
	p.messages.abort()
	if p.transcript != nil {
		p.transcript.abort()
	}
}

func isTranscript(e *session.Entry) bool {
	return e.Origin == Name && e.Kind == session.KindOther && e.Custom != nil && e.Custom.CustomType == TranscriptType
}

// entry writes e, an entry of the active path. The adaptation left a
// session from another layout only what goat holds, by goat's
// declaration (caps): chat messages, and title entries with a title
// (Caps.ConvertedWhy, NoLineWhy); anything else is refused, naming it.
func (w *writer) entry(p *plan, e *session.Entry) error {
	if e.Kind == session.KindSessionInfo && e.Origin != Name && e.Title != "" {
		// A title entry (pi's session name, Claude Code's ai-title): goat
		// keeps one title, the last, in metadata.json.
		p.title = e.Title
		return nil
	}
	if e.Kind != session.KindMessage || e.Message == nil {
		return fmt.Errorf("write goat session: entry %s is a %s entry with no chat message, which goat's messages.jsonl cannot hold", e.ID, e.Kind)
	}
	if e.Origin == Name {
		w.message(p, e, jsonx.Merge(e.Raw, encodeLine(e, e.ID, true)))
		return nil
	}
	src := e.Message
	if src.Role == session.RoleUser {
		var err error
		if src, err = w.toolResults(p, e); src == nil || err != nil {
			return err
		}
	}
	m, err := foreignMessage(src)
	if err == nil {
		err = p.answers(m)
	}
	if err != nil {
		return fmt.Errorf("write goat session: entry %s: %w", e.ID, err)
	}
	if m.Role == session.RoleUser {
		p.turns++
	}
	if u := e.Message.Usage; u != nil && u.Cost != nil {
		p.cost += u.Cost.Total
	}
	if e.Message.Model != "" {
		p.model = e.Message.Model
	}
	id := e.ID
	if !w.ids.Keeps(id) {
		id = w.ids.Nth(p.messages.n+1, nil)
	}
	w.forkAt(p, e, id)
	w.message(p, e, encodeLine(&session.Entry{Time: p.now, Message: m}, id, false))
	return nil
}

// answers records an assistant message's tool calls, and refuses a tool
// message that answers none of them: goat (and its validator) need every
// tool message to follow its call, and the adaptation dropped a result
// whose call goat does not write (Caps.ResultsNeedCall).
func (p *plan) answers(m *session.Message) error {
	switch m.Role {
	case session.RoleAssistant:
		for _, b := range m.Content {
			if b.Type == session.BlockToolCall {
				p.calls[b.ToolCallID] = true
			}
		}
	case session.RoleTool:
		if !p.calls[m.ToolCallID] {
			return fmt.Errorf("a result of tool call %q, which is not in an assistant message written before it", m.ToolCallID)
		}
	}
	return nil
}

// toolResults writes the tool_result blocks of a user message (ash keeps them
// there) as goat tool messages, and returns the message without them, or nil
// when nothing else is left.
func (w *writer) toolResults(p *plan, e *session.Entry) (*session.Message, error) {
	src := e.Message
	var rest []session.Block
	for _, b := range src.Content {
		if b.Type != session.BlockToolResult {
			rest = append(rest, b)
			continue
		}
		tm := resultMessage(b)
		if err := p.answers(tm); err != nil {
			return nil, fmt.Errorf("write goat session: entry %s: %w", e.ID, err)
		}
		id := w.ids.Nth(p.messages.n+1, nil)
		w.forkAt(p, e, id)
		w.message(p, e, encodeLine(&session.Entry{Time: p.now, Message: tm}, id, false))
	}
	if len(rest) == len(src.Content) {
		return src, nil
	}
	if len(rest) == 0 {
		return nil, nil
	}
	c := *src
	c.Content = rest
	return &c, nil
}

// resultMessage is the goat tool message of tool_result block b.
func resultMessage(b session.Block) *session.Message {
	return &session.Message{Role: session.RoleTool, ToolCallID: b.ToolCallID, ContentIsString: true,
		Content: []session.Block{{Type: session.BlockText, Text: b.Text}}}
}

// foreignMessage maps a message from another layout onto what a goat
// ChatMessage can say. The adaptation left it only what goat's
// declaration holds (caps: text, user images, assistant tool calls and
// one text block); anything else is refused, naming it.
func foreignMessage(src *session.Message) (*session.Message, error) {
	m := &session.Message{Role: src.Role, ToolCallID: src.ToolCallID}
	var texts, images, calls []session.Block
	for _, b := range src.Content {
		switch b.Type {
		case session.BlockText:
			texts = append(texts, b)
		case session.BlockImage:
			images = append(images, b)
		case session.BlockToolCall:
			calls = append(calls, b)
		default:
			return nil, fmt.Errorf("goat has no %s content part in a %s message", b.Type, src.Role)
		}
	}
	switch {
	case len(calls) > 0 && m.Role != session.RoleAssistant:
		return nil, fmt.Errorf("goat has tool calls on assistant messages only, not on a %s message", m.Role)
	case len(images) > 0 && m.Role != session.RoleUser:
		return nil, fmt.Errorf("goat keeps images in user messages only, not in a %s message", m.Role)
	case len(texts) > 1 && m.Role == session.RoleAssistant:
		return nil, fmt.Errorf("goat keeps one text block of an assistant turn, not %d", len(texts))
	}
	switch m.Role {
	case session.RoleAssistant:
		assistantContent(m, texts, calls)
	case session.RoleTool:
		m.ContentIsString = true
		m.Content = []session.Block{{Type: session.BlockText, Text: src.Text()}}
	default:
		if len(images) == 0 && len(texts) == 1 {
			m.ContentIsString = true
		}
		m.Content = append(texts, images...)
		if len(m.Content) == 0 {
			m.ContentIsString = true
			m.Content = []session.Block{{Type: session.BlockText}}
		}
	}
	return m, nil
}

// assistantContent is an assistant turn's text as goat's
// responseToAssistantMessage keeps it, one string (the adaptation left
// the last text block only: Caps.LastText), and null content for a
// tool-only turn, then its tool calls.
func assistantContent(m *session.Message, texts, calls []session.Block) {
	switch {
	case len(texts) > 0:
		m.ContentIsString = true
		m.Content = []session.Block{texts[0]}
	case len(calls) > 0:
		m.ContentIsNull = true
	default:
		m.ContentIsString = true
		m.Content = []session.Block{{Type: session.BlockText}}
	}
	m.Content = append(m.Content, calls...)
}

// forkAt notes id, a message written for entry e, as the fork point when e
// is the fork entry of a fork from another layout: the last message
// written for it, as the fork holds everything up to it.
func (w *writer) forkAt(p *plan, e *session.Entry, id string) {
	if pa := w.meta.Parent; pa != nil && pa.EntryID != "" && pa.EntryID == e.ID {
		p.forkPoint = id
	}
}
