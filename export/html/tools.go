package html

import (
	"encoding/json"
	"strings"

	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

// toolCall renders a call with its arguments and, next to it, its result.
// bash runs look like a terminal, edits like a diff, reads and writes are
// highlighted by the file's extension.
func toolCall(b *buf, t *transcript.Transcript, bl session.Block) {
	obj, args := b.args.get(bl.Arguments)
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
	b.WriteString(`<div class="` + cls + `" id="` + esc("call-"+bl.ToolCallID) + `"` + agentAttrs(name, args) + `><div class="th"><span class="tname">` + esc(bl.ToolName) + `</span> `)
	if rm != nil && rm.IsError {
		b.WriteString(`<span class="badge">error</span> `)
	}
	b.WriteString(`<span class="targ">` + esc(argSummary(name, args)) + `</span></div>`)
	path := str(args, "path", "file_path", "filePath")
	failed := rm != nil && rm.IsError
	var details json.RawMessage
	if rm != nil {
		details = rm.Details
	}
	switch {
	case transcript.IsShellTool(name):
		out := ""
		if rm != nil {
			out = resultText(rm)
		}
		if d := args["description"]; d != "" {
			b.WriteString(`<p class="dim desc">` + esc(d) + `</p>`)
		}
		terminal(b, "$ ", str(args, "command", "cmd"), out)
		if rm != nil {
			images(b, rm)
			rawJSON(b, "details", rm.Details)
		}
		b.WriteString(`</div>`)
		return
	case name == "edit" || name == "str_replace" || name == "multiedit":
		old := str(args, "oldText", "old_string", "oldString", "old_str")
		neu := str(args, "newText", "new_string", "newString", "new_str")
		if diff, rest, ok := toolDiff(details); ok && !failed {
			clipped(b, diff, func() { toolDiffHTML(b, diff) })
			details = rest
		} else if old != "" || neu != "" {
			clipped(b, old+"\n"+neu, func() { diffHTML(b, old, neu) })
		} else {
			jsonBlock(b, bl.Arguments)
		}
	case name == "write" || name == "create":
		content := str(args, "content", "contents")
		clipped(b, content, func() { codeBlock(b, content, langFor(path)) })
	case name == "read" || name == "view":
		// the path is in the summary line, the range read under it; the
		// content is the result
		if rm != nil && !failed {
			if r := readRange(obj, resultText(rm)); r != "" {
				b.WriteString(`<p class="dim range">` + esc(r) + `</p>`)
			}
		}
	default:
		if len(bl.Arguments) > 0 && string(bl.Arguments) != "{}" {
			jsonBlock(b, bl.Arguments)
		}
	}
	if rm != nil {
		cls := "result"
		file := ""
		if failed {
			cls += " err" // a failed read holds a message, not the file
		} else if name == "read" || name == "view" {
			file = path
		}
		b.WriteString(`<div class="` + cls + `">`)
		text := resultText(rm)
		if !failed {
			text = transcript.FileText(text) // file text without the tool's line numbers
		}
		longText(b, text, file)
		images(b, rm)
		rawJSON(b, "details", details)
		b.WriteString(`</div>`)
	} else {
		b.WriteString(`<p class="dim">no result</p>`)
	}
	b.WriteString(`</div>`)
}

// readRange says which lines a read covered: its offset and limit
// arguments (pi, OpenCode and Claude Code count lines from 1), else as
// many lines as the result holds.
func readRange(args map[string]any, result string) string {
	off, hasOff := intArg(args, "offset")
	lim, hasLim := intArg(args, "limit")
	n := int64(lineCount(result))
	switch {
	case hasOff && hasLim:
		return "lines " + Thousands(max(off, 1)) + "–" + Thousands(max(off, 1)+lim-1)
	case hasOff:
		return "from line " + Thousands(max(off, 1))
	case hasLim:
		return "lines 1–" + Thousands(lim)
	case n > 0:
		return "lines 1–" + Thousands(n)
	}
	return ""
}

// intArg is a call's whole-number argument.
func intArg(args map[string]any, key string) (int64, bool) {
	num, ok := args[key].(json.Number)
	if !ok {
		return 0, false
	}
	i, err := num.Int64()
	return i, err == nil
}

// result renders a tool result that has no call to sit next to.
func result(b *buf, m *session.Message) {
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

func images(b *buf, m *session.Message) {
	for _, bl := range m.Content {
		if bl.Type == session.BlockImage || bl.Type == session.BlockFile {
			image(b, bl)
		}
	}
}

// argSummary is the one-line gist of a call, shown in its heading.
func argSummary(name string, args map[string]string) string {
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

func str(args map[string]string, keys ...string) string {
	for _, k := range keys {
		if s, ok := args[k]; ok {
			return s
		}
	}
	return ""
}

// callArgs decodes a call's arguments once for all that is shown of
// them: their members as json.Unmarshal into a map would see them (the
// last of duplicate members wins), nil when they are not a valid JSON
// object. jsonx's decoder makes the same values as encoding/json at a
// fraction of its cost, which was a tenth of the rendering time.
func callArgs(raw json.RawMessage) map[string]any {
	v, _ := jsonx.Decode(raw)
	m, _ := v.(map[string]any)
	return m
}

// argMemo keeps the decoded arguments of one entry's calls, so that the
// tree's snippet and the call's card decode each once (a card's arguments
// were decoded twice, a tenth of the rendering). A nil memo decodes every
// time. Nothing changes the maps it hands out.
type argMemo struct{ calls []memoCall }

type memoCall struct {
	raw  json.RawMessage
	obj  map[string]any
	strs map[string]string
}

func (m *argMemo) reset() {
	clear(m.calls)
	m.calls = m.calls[:0]
}

// get returns raw decoded (callArgs) and its string members (stringsOf).
func (m *argMemo) get(raw json.RawMessage) (map[string]any, map[string]string) {
	if m == nil {
		obj := callArgs(raw)
		return obj, stringsOf(obj)
	}
	for _, c := range m.calls {
		if len(c.raw) == len(raw) && (len(raw) == 0 || &c.raw[0] == &raw[0]) {
			return c.obj, c.strs
		}
	}
	obj := callArgs(raw)
	c := memoCall{raw: raw, obj: obj, strs: stringsOf(obj)}
	m.calls = append(m.calls, c)
	return c.obj, c.strs
}

func (m *argMemo) strings(raw json.RawMessage) map[string]string {
	_, s := m.get(raw)
	return s
}

// stringsOf returns the string members of decoded arguments.
func stringsOf(m map[string]any) map[string]string {
	args := map[string]string{}
	for k, v := range m {
		if s, ok := v.(string); ok {
			args[k] = s
		} else if k == "command" || k == "cmd" {
			// Codex's shell tool: an argv array, shown as its command line
			if c := transcript.CommandLine(v); c != "" {
				args[k] = c
			}
		}
	}
	return args
}

// agentAttrs are the agent type and the description a call that starts a
// sub-agent asks for (Claude Code's Task, Codex's spawn_agent), for the
// page's script to label the run it puts inside the call; "" for other
// calls.
func agentAttrs(name string, args map[string]string) string {
	typ := str(args, "subagent_type", "agent_type")
	if typ == "" && name != "task" && name != "agent" && name != "spawn_agent" {
		return ""
	}
	desc := str(args, "description", "message", "prompt")
	if i := strings.IndexByte(desc, '\n'); i >= 0 {
		desc = desc[:i] + " …"
	}
	if r := []rune(desc); len(r) > 120 {
		desc = string(r[:120]) + "…"
	}
	return ` data-agent="` + esc(typ) + `" data-desc="` + esc(desc) + `"`
}
