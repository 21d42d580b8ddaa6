package html

import (
	"encoding/json"
	"strings"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/session"
)

// toolCall renders a call with its arguments and, next to it, its result.
// bash runs look like a terminal, edits like a diff, reads and writes are
// highlighted by the file's extension.
func toolCall(b *strings.Builder, t *transcript.Transcript, bl session.Block) {
	args := map[string]any{}
	_ = json.Unmarshal(bl.Arguments, &args)
	res := t.Results[bl.ToolCallID]
	var rm *session.Message
	if res != nil {
		rm = res.Message
	}
	cls := "tool"
	if rm != nil && rm.IsError {
		cls += " err"
	}
	name := strings.ToLower(bl.ToolName)
	b.WriteString(`<div class="` + cls + `" id="` + esc("call-"+bl.ToolCallID) + `"><div class="th"><span class="tname">` + esc(bl.ToolName) + `</span> `)
	if rm != nil && rm.IsError {
		b.WriteString(`<span class="badge">error</span> `)
	}
	b.WriteString(`<span class="targ">` + esc(argSummary(name, args)) + `</span></div>`)
	path := str(args, "path", "file_path", "filePath")
	switch {
	case name == "bash" || name == "shell" || name == "exec" || name == "run_command":
		b.WriteString(`<pre class="term"><span class="prompt">$ </span>` + esc(str(args, "command", "cmd")) + "\n")
		if rm != nil {
			b.WriteString(esc(resultText(rm)))
		}
		b.WriteString(`</pre>`)
		if rm != nil {
			images(b, rm)
			rawJSON(b, "details", rm.Details)
		}
		b.WriteString(`</div>`)
		return
	case name == "edit" || name == "str_replace" || name == "multiedit":
		old := str(args, "oldText", "old_string", "oldString", "old_str")
		neu := str(args, "newText", "new_string", "newString", "new_str")
		if old != "" || neu != "" {
			b.WriteString(diffHTML(old, neu))
		} else {
			b.WriteString(highlight(prettyJSON(bl.Arguments), "json", ""))
		}
	case name == "write" || name == "create":
		b.WriteString(highlight(str(args, "content", "contents"), "", path))
	case name == "read" || name == "view":
		// the path is in the summary line; the content is the result
	default:
		if len(bl.Arguments) > 0 && string(bl.Arguments) != "{}" {
			b.WriteString(highlight(prettyJSON(bl.Arguments), "json", ""))
		}
	}
	if rm != nil {
		b.WriteString(`<div class="result">`)
		file := ""
		if name == "read" || name == "view" {
			file = path
		}
		longText(b, resultText(rm), file)
		images(b, rm)
		rawJSON(b, "details", rm.Details)
		b.WriteString(`</div>`)
	} else {
		b.WriteString(`<p class="dim">no result</p>`)
	}
	b.WriteString(`</div>`)
}

// result renders a tool result that has no call to sit next to.
func result(b *strings.Builder, m *session.Message) {
	cls := "result"
	if m.IsError {
		cls += " err"
	}
	b.WriteString(`<div class="` + cls + `">`)
	longText(b, resultText(m), "")
	images(b, m)
	b.WriteString(`</div>`)
	rawJSON(b, "details", m.Details)
}

func resultText(m *session.Message) string { return m.Text() }

func images(b *strings.Builder, m *session.Message) {
	for _, bl := range m.Content {
		if bl.Type == session.BlockImage || bl.Type == session.BlockFile {
			image(b, bl)
		}
	}
}

// argSummary is the one-line gist of a call, shown in its heading.
func argSummary(name string, args map[string]any) string {
	for _, k := range []string{"command", "cmd", "path", "file_path", "filePath", "pattern", "query", "url", "description"} {
		if s := str(args, k); s != "" {
			if i := strings.IndexByte(s, '\n'); i >= 0 {
				s = s[:i] + " …"
			}
			if len(s) > 160 {
				s = s[:160] + "…"
			}
			return s
		}
	}
	return ""
}

func str(args map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := args[k].(string); ok {
			return s
		}
	}
	return ""
}
