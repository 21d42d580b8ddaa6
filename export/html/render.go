package html

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

// entryHTML renders one entry as an <article> into b. Everything is built
// here in Go; the page's script only inserts these strings.
func entryHTML(b *buf, t *transcript.Transcript, e *session.Entry, idx int) {
	if n := session.Note(e); n != "" {
		// a record its layout shows as a line: a small note, not a card
		b.WriteString(`<article class="msg note" id="` + esc(Anchor(e, idx)) + `" data-i="` + strconv.Itoa(idx) + `"><p>` + esc(n))
		if ts := when(e); ts != "" {
			b.WriteString(` <time>` + esc(ts) + `</time>`)
		}
		b.WriteString(`</p></article>`)
		return
	}
	cls, who := describe(e)
	b.WriteString(`<article class="msg ` + cls + `" id="` + esc(Anchor(e, idx)) + `" data-i="` + strconv.Itoa(idx) + `">`)
	// a prompt is a heading of level 2 and a reply of level 3, so a screen
	// reader moves by message; headings inside a message are below them
	// (markdown.go)
	tag := "span"
	switch cls {
	case "role-user":
		tag = "h2"
	case "role-assistant":
		tag = "h3"
	}
	b.WriteString(`<div class="mh"><` + tag + ` class="who">` + esc(who) + `</` + tag + `>`)
	if l := t.Labels[e.ID]; l != "" {
		b.WriteString(`<span class="tag">` + esc(l) + `</span>`)
	}
	if ts := when(e); ts != "" {
		b.WriteString(`<time>` + esc(ts) + `</time>`)
	}
	b.WriteString(`<a class="anchor" href="#` + esc(Anchor(e, idx)) + `" title="link to this message">#</a></div>`)
	b.WriteString(`<div class="mb">`)
	body(b, t, e)
	b.WriteString(`</div></article>`)
}

// Anchor is the element id of an entry: its own id, or its position.
func Anchor(e *session.Entry, idx int) string {
	if e.ID != "" {
		return e.ID
	}
	return fmt.Sprintf("entry-%d", idx)
}

func when(e *session.Entry) string {
	tm := e.Time
	if e.Message != nil && !e.Message.Time.IsZero() {
		tm = e.Message.Time
	}
	if tm.T.IsZero() {
		return tm.Raw
	}
	return tm.T.UTC().Format(time.DateTime)
}

// describe returns an entry's CSS class and its visible heading.
func describe(e *session.Entry) (string, string) {
	switch transcript.KindOf(e) {
	case session.KindMessage, session.KindCustomMessage:
		m := e.Message
		r := string(m.Role)
		switch m.Role {
		case session.RoleTool:
			return "role-tool", "tool result: " + m.ToolName
		case session.RoleCustom:
			return "role-custom", "custom: " + m.CustomType
		case session.RoleAssistant:
			if m.Model != "" {
				return "role-assistant", "assistant · " + m.Model
			}
		case session.RoleUser:
			if transcript.Injected(m) {
				return "role-user injected", "user · injected"
			}
		}
		return "role-" + cssName(r), r
	case session.KindCompaction:
		return "ev compaction", "compaction"
	case session.KindBranchSummary:
		return "ev branch-summary", "branch summary"
	case session.KindModelChange:
		return "ev change", "model change"
	case session.KindThinkingLevel:
		return "ev change", "thinking level"
	case session.KindSessionInfo:
		return "ev change", "title"
	case session.KindCustom:
		return "ev custom", "custom: " + customType(e)
	case session.KindSubagent, session.KindSubagentEnd:
		return "ev subagent", "sub-agent"
	case session.KindLabel:
		return "ev label", "label"
	}
	return "ev other", e.Type
}

var cssRe = regexp.MustCompile(`[^a-z0-9-]`)

// cssName is s lower-cased with each character that is not a-z, 0-9 or -
// replaced by -. Every message's class has one, so an ASCII name (all of
// them, in practice) is made without the regexp.
func cssName(s string) string {
	b := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			return cssRe.ReplaceAllString(strings.ToLower(s), "-")
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-'):
			c = '-'
		}
		b[i] = c
	}
	return string(b)
}

func customType(e *session.Entry) string {
	if e.Custom != nil {
		return e.Custom.CustomType
	}
	return ""
}

func body(b *buf, t *transcript.Transcript, e *session.Entry) {
	switch transcript.KindOf(e) {
	case session.KindMessage, session.KindCustomMessage:
		message(b, t, e.Message)
	case session.KindCompaction:
		c := e.Compaction
		sum := "compacted context: summary"
		if c.TokensBefore != nil {
			sum = fmt.Sprintf("compacted from %d tokens", *c.TokensBefore)
		}
		b.WriteString(`<details class="fold"><summary>` + sum + `</summary>`)
		markdownTo(b, c.Summary)
		if c.FirstKeptID != "" {
			b.WriteString(`<p class="dim">context kept from ` + esc(c.FirstKeptID) + `</p>`)
		}
		rawJSON(b, "details", c.Details)
		b.WriteString(`</details>`)
	case session.KindBranchSummary:
		s := e.BranchSummary
		b.WriteString(`<p class="dim">left branch at ` + esc(s.FromID) + `</p>`)
		markdownTo(b, s.Summary)
		rawJSON(b, "details", s.Details)
	case session.KindModelChange:
		m := e.ModelChange
		name := m.ModelID
		if m.Provider != "" {
			name = m.Provider + "/" + name
		}
		if m.Role != "" {
			name += " (" + m.Role + ")"
		}
		b.WriteString(`<p>→ ` + esc(name) + `</p>`)
	case session.KindThinkingLevel:
		lvl := "off"
		if e.ThinkingLevel != nil {
			lvl = *e.ThinkingLevel
		}
		b.WriteString(`<p>→ ` + esc(lvl) + `</p>`)
	case session.KindSessionInfo:
		b.WriteString(`<p>→ ` + esc(e.Title) + `</p>`)
	case session.KindSubagent, session.KindSubagentEnd:
		s := e.Subagent
		what := "started"
		if e.Kind == session.KindSubagentEnd {
			what = "finished"
		}
		b.WriteString(`<p>` + esc(strings.TrimSpace(s.AgentName+" "+s.AgentType+" "+s.ID)) + ` ` + what + `</p>`)
		if s.Result != "" {
			markdownTo(b, s.Result)
		}
	case session.KindCustom, session.KindOther:
		if e.Custom != nil {
			rawJSON(b, "data", e.Custom.Data)
		}
	}
}

func message(b *buf, t *transcript.Transcript, m *session.Message) {
	switch m.Role {
	case session.RoleBash, session.RolePython:
		execBlock(b, m)
	case session.RoleTool:
		result(b, m)
		return
	}
	if m.CustomType != "" && m.Display != nil && !*m.Display {
		b.WriteString(`<p class="dim">not displayed to the user</p>`)
	}
	for _, bl := range m.Content {
		if m.Role == session.RoleUser && bl.Type == session.BlockText {
			userText(b, bl.Text)
			continue
		}
		block(b, t, bl)
	}
	if m.Error != "" {
		b.WriteString(`<div class="error">` + esc(m.Error) + `</div>`)
	}
	if m.StopReason != "" && !ordinaryStop[m.StopReason] {
		b.WriteString(`<p class="dim">stop: ` + esc(m.StopReason) + `</p>`)
	}
	usageLine(b, m.Usage)
	rawJSON(b, "details", m.Details)
}

// ordinaryStop are the stop reasons of a turn that ended as turns do, in
// each layout's spelling: saying so under every message is noise.
var ordinaryStop = map[string]bool{"stop": true, "toolUse": true, "tool_use": true, "tool-calls": true, "tool_calls": true,
	"end_turn": true, "endTurn": true, "end": true, "STOP": true}

// usageLine is a message's token use and cost, each part only when the
// layout recorded it (a layout without cache counts gets no R0 W0); the
// header's legend explains the marks.
func usageLine(b *buf, u *session.Usage) {
	if u == nil {
		return
	}
	cost := u.Cost != nil && u.Cost.Total > 0
	if u.Input == 0 && u.Output == 0 && u.CacheRead == 0 && u.CacheWrite == 0 && !cost {
		return
	}
	// written as it goes: the parts joined by spaces
	b.WriteString(`<p class="usage">`)
	sep := ""
	part := func(n int64, open string) {
		if n != 0 {
			b.WriteString(sep)
			b.WriteString(open)
			b.WriteString(Thousands(n))
			b.WriteString(`</span>`)
			sep = " "
		}
	}
	part(u.Input, `<span title="input tokens">↑`)
	part(u.Output, `<span title="output tokens">↓`)
	part(u.CacheRead, `<span title="cache read tokens">R`)
	part(u.CacheWrite, `<span title="cache write tokens">W`)
	if cost {
		b.WriteString(sep)
		b.WriteString(`<span title="cost">` + Money(u.Cost.Total) + `</span>`)
	}
	b.WriteString(`</p>`)
}

func block(b *buf, t *transcript.Transcript, bl session.Block) {
	switch bl.Type {
	case session.BlockText:
		b.WriteString(`<div class="md">`)
		markdownTo(b, bl.Text)
		b.WriteString(`</div>`)
	case session.BlockThinking:
		txt := bl.Text
		if bl.Redacted && txt == "" {
			txt = "(redacted by the provider)"
		}
		b.WriteString(`<details class="thinking"><summary>thinking</summary>`)
		markdownTo(b, txt)
		b.WriteString(`</details>`)
	case session.BlockImage, session.BlockFile:
		image(b, bl)
	case session.BlockToolCall:
		toolCall(b, t, bl)
	case session.BlockToolResult:
		cls := "result"
		if bl.IsError {
			cls += " err"
		}
		b.WriteString(`<div class="` + cls + `">`)
		longText(b, bl.Text, "")
		b.WriteString(`</div>`)
	}
}

var (
	mimeRe = regexp.MustCompile(`^image/(png|jpeg|gif|webp)$`)
	b64Re  = regexp.MustCompile(`^[A-Za-z0-9+/]*={0,2}$`)
)

// image inlines an embedded image of a safe type; anything else (a URL, an
// odd MIME type) is named, never loaded.
func image(b *buf, bl session.Block) {
	if bl.Data != "" && mimeRe.MatchString(bl.MimeType) && b64Re.MatchString(bl.Data) {
		b.WriteString(`<img class="img" alt="image" src="data:` + bl.MimeType + `;base64,` + bl.Data + `">`)
		return
	}
	name := bl.Filename
	if name == "" {
		name = bl.URL
	}
	if name == "" {
		name = bl.MimeType
	}
	b.WriteString(`<p class="dim">[` + esc(string(bl.Type)) + `: ` + esc(name) + `]</p>`)
}

func execBlock(b *buf, m *session.Message) {
	x := m.Exec
	if x == nil {
		return
	}
	prompt := "$ "
	if m.Role == session.RolePython {
		prompt = ">>> "
	}
	terminal(b, prompt, x.Command, x.Output)
	var notes []string
	if x.ExitCode != nil {
		notes = append(notes, fmt.Sprintf("exit %d", *x.ExitCode))
	}
	if x.Cancelled {
		notes = append(notes, "cancelled")
	}
	if x.Truncated {
		notes = append(notes, "truncated")
	}
	if x.FullOutputPath != "" {
		notes = append(notes, "full output: "+x.FullOutputPath)
	}
	if len(notes) > 0 {
		b.WriteString(`<p class="dim">` + esc(strings.Join(notes, " · ")) + `</p>`)
	}
}

// rawJSON shows a JSON value indented, collapsed.
func rawJSON(b *buf, name string, v json.RawMessage) {
	if len(v) == 0 || string(v) == "null" {
		return
	}
	b.WriteString(`<details class="fold"><summary>` + name + `</summary>`)
	jsonBlock(b, v)
	b.WriteString(`</details>`)
}

// indented holds jsonBlock's indented text between calls.
var indented = sync.Pool{New: func() any { return new([]byte) }}

// jsonBlock is codeBlock(b, prettyJSON(v), "json") without making a string
// of the indented text: it is indented into a reused buffer and escaped
// into b from there (the details and arguments of every call, 30 MB of
// strings for the 100 MB benchmark session).
func jsonBlock(b *buf, v json.RawMessage) {
	if len(v) == 0 || !jsonx.Valid(v) {
		codeBlock(b, string(v), "json")
		return
	}
	p := indented.Get().(*[]byte)
	s := indentJSON((*p)[:0], v)
	codeBlock(b, unsafe.String(unsafe.SliceData(s), len(s)), "json") // s is not changed until the call returns
	if cap(s) <= 1<<20 {
		*p = s[:0]
		indented.Put(p)
	}
}

// prettyJSON indents v as json.Indent(dst, v, "", "  ") does, keeping the
// source's member order and spelling; v is returned as it is when it is
// not valid JSON.
func prettyJSON(v json.RawMessage) string {
	if len(v) == 0 || !jsonx.Valid(v) {
		return string(v)
	}
	return string(indentJSON(make([]byte, 0, len(v)+len(v)/4), v))
}

// indentJSON is json.Indent for valid JSON without its byte-at-a-time
// scanner (which was most of the time spent showing arguments and details):
// white space between tokens is dropped, strings and other tokens are
// copied, and an empty object or array stays {} or [].
func indentJSON(dst, v []byte) []byte {
	end := len(v)
	for end > 0 && isSpace(v[end-1]) {
		end-- // trailing space is copied as it is, as json.Indent does
	}
	depth, open := 0, false // open: just after { or [, so } or ] closes an empty one
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, ' ', ' ')
		}
	}
	for i := 0; i < end; i++ {
		c := v[i]
		if isSpace(c) {
			continue
		}
		if open && c != '}' && c != ']' {
			open = false
			depth++
			newline()
		}
		switch c {
		case '"':
			j := i + 1
			for ; j < end && v[j] != '"'; j++ {
				if v[j] == '\\' {
					j++
				}
			}
			dst = append(dst, v[i:j+1]...)
			i = j
		case '{', '[':
			dst = append(dst, c)
			open = true
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				newline()
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, v[end:]...)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// longText shows text in a <pre>, folded to a preview when long; the text
// of a file is coloured as its extension says.
func longText(b *buf, s, file string) {
	if file != "" {
		clipped(b, s, func() { codeBlock(b, s, langFor(file)) })
		return
	}
	clipped(b, s, func() {
		b.WriteString(`<pre class="out">`)
		b.text(s)
		b.WriteString(`</pre>`)
	})
}

// terminal shows a command and its output as a terminal, folded when long.
func terminal(b *buf, prompt, cmd, out string) {
	clipped(b, out, func() {
		b.WriteString(`<pre class="term"><span class="prompt">` + prompt + `</span>`)
		b.text(cmd)
		b.WriteByte('\n')
		b.text(out)
		b.WriteString(`</pre>`)
	})
}

// previewLines is how many lines a folded block shows.
const previewLines = 10

// clipped wraps what draw writes in a fold when text is long: the block is
// cut to its first previewLines lines (by the style sheet, so the text is
// in the page once and search, copy and print see all of it) with a
// "show all N lines" button, as pi's exporter does.
func clipped(b *buf, text string, draw func()) {
	n := lineCount(text)
	if n <= previewLines+2 && len(text) <= 2000 {
		draw()
		return
	}
	b.WriteString(`<div class="clip">`)
	draw()
	b.WriteString(`<button type="button" class="unclip" aria-expanded="false">show all ` + Thousands(int64(n)) + ` lines</button></div>`)
}

// lineCount counts lines as an editor does: a final newline ends the last
// line rather than starting another.
func lineCount(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
