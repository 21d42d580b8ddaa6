package markdown

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"path/filepath"
	"strings"

	"github.com/sesstool/sesstool/export/transcript"

	"github.com/sesstool/sesstool/session"
)

// Tools says how much of each tool call a transcript shows. Tool calls are
// most of a real transcript (88% of one), far more than a GitHub issue
// holds, so they can be cut down.
type Tools string

const (
	ToolsFull    Tools = "full"    // arguments and the whole output
	ToolsSummary Tools = "summary" // arguments and output cut to their first lines
	ToolsNone    Tools = "none"    // one line naming the tool and its key argument
)

// ParseTools reads a --tools value.
func ParseTools(s string) (Tools, error) {
	switch t := Tools(s); t {
	case ToolsFull, ToolsSummary, ToolsNone:
		return t, nil
	case "":
		return ToolsFull, nil
	}
	return "", fmt.Errorf("--tools is full, summary or none, not %q", s)
}

// WithTools is Write with a --tools value.
func WithTools(tools string) (func(io.Writer, *transcript.Transcript) error, error) {
	mode, err := ParseTools(tools)
	if err != nil {
		return nil, err
	}
	return func(w io.Writer, t *transcript.Transcript) error { return WriteTools(w, t, mode) }, nil
}

// summaryLines is how many lines of arguments or output --tools summary keeps.
const summaryLines = 10

func (x *writer) toolCall(b session.Block) {
	name := toolLabel(b)
	res := x.result(b.ToolCallID)
	isErr := res != nil && res.Message.IsError
	if isErr {
		name += " (error)"
	}
	if x.tools == ToolsNone {
		fmt.Fprintf(x.w, "- %s\n\n", plain(name))
		x.runsOf(b)
		return
	}
	var body strings.Builder
	var args map[string]any
	_ = json.Unmarshal(b.Arguments, &args) // not an object: shown as JSON
	tool := strings.ToLower(b.ToolName)
	cmd := ""
	if transcript.IsShellTool(tool) {
		cmd = transcript.CommandLine(args["command"])
		if cmd == "" {
			cmd = transcript.CommandLine(args["cmd"])
		}
	}
	if cmd != "" {
		// a shell command as the command line it is, its description above
		if d, ok := args["description"].(string); ok && d != "" {
			body.WriteString(plain(d) + "\n\n")
		}
		body.WriteString(x.trimmed("$ "+cmd, "console"))
	} else {
		body.WriteString(x.trimmed(pretty(b.Arguments), "json"))
	}
	if d := editDiff(b); d != "" {
		body.WriteString(x.trimmed(d, "diff"))
	}
	if res != nil {
		if isErr {
			body.WriteString("**Error:**\n\n")
		} else {
			body.WriteString("**Result:**\n\n")
		}
		text, lang := res.Message.Text(), ""
		if !isErr {
			text = transcript.FileText(text) // file text without the tool's line numbers
		}
		if (tool == "read" || tool == "view") && !isErr {
			// the file, fenced as its kind
			for _, k := range []string{"file_path", "filePath", "path"} {
				if p, ok := args[k].(string); ok && p != "" {
					lang = strings.TrimPrefix(filepath.Ext(p), ".")
					break
				}
			}
		}
		body.WriteString(x.trimmed(text, lang))
	}
	if len(x.hosted[b.ToolCallID]) == 0 {
		details(x.w, name, body.String())
		return
	}
	// the runs it started go inside its fold, after its result
	fmt.Fprintf(x.w, "<details>\n<summary>%s</summary>\n\n%s\n\n", html.EscapeString(name), strings.TrimRight(body.String(), "\n"))
	x.runsOf(b)
	x.w.WriteString("</details>\n\n")
}

// exec shows a user-run shell command and its output.
func (x *writer) exec(e *session.Exec) {
	out := e.Output
	if e.ExitCode != nil {
		out += fmt.Sprintf("\n(exit %d)", *e.ExitCode)
	}
	if x.tools == ToolsNone {
		x.w.WriteString(fence("$ "+e.Command, "console"))
		x.w.WriteString(omitted(out))
		return
	}
	x.w.WriteString(x.trimmed("$ "+e.Command+"\n"+out, "console"))
}

// output shows a tool result that is not shown with its call.
func (x *writer) output(s string, isErr bool) {
	if isErr {
		x.w.WriteString("**Error:**\n\n")
	}
	if x.tools == ToolsNone {
		x.w.WriteString(omitted(s))
		return
	}
	x.w.WriteString(x.trimmed(s, ""))
}

// trimmed fences s, cut to its first lines under --tools summary with a
// note of how many lines were left out.
func (x *writer) trimmed(s, lang string) string {
	if x.tools != ToolsSummary {
		return fence(s, lang)
	}
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) <= summaryLines {
		return fence(s, lang)
	}
	return fence(strings.Join(lines[:summaryLines], "\n"), lang) +
		fmt.Sprintf("_… %d more lines_\n\n", len(lines)-summaryLines)
}

// omitted notes output left out under --tools none.
func omitted(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	n := strings.Count(s, "\n") + 1
	if n == 1 {
		return "_output omitted (1 line)_\n\n"
	}
	return fmt.Sprintf("_output omitted (%d lines)_\n\n", n)
}

// keyArgs are the arguments that say what a call did, most telling first;
// a search names its pattern before its path.
var (
	keyArgs    = []string{"command", "cmd", "file_path", "filePath", "path", "file", "filename", "url", "pattern", "query", "description", "prompt", "name"}
	searchArgs = []string{"pattern", "query", "regex"}
)

// keyArgMax is the longest key argument a fold's title shows, in runes.
const keyArgMax = 80

// toolLabel names a call's tool and its key argument: "bash: npm test",
// "edit: src/x.go".
func toolLabel(b session.Block) string {
	name := oneLine(b.ToolName)
	if name == "" {
		name = "tool"
	}
	var args map[string]json.RawMessage
	if json.Unmarshal(b.Arguments, &args) != nil {
		return name
	}
	order := keyArgs
	if n := strings.ToLower(name); strings.Contains(n, "grep") || strings.Contains(n, "glob") || strings.Contains(n, "find") || strings.Contains(n, "search") {
		order = append(append([]string{}, searchArgs...), keyArgs...)
	}
	for _, k := range order {
		var v string
		if json.Unmarshal(args[k], &v) != nil {
			var argv []any // Codex's shell tool: an argv array
			if (k != "command" && k != "cmd") || json.Unmarshal(args[k], &argv) != nil {
				continue
			}
			v = transcript.CommandLine(argv)
		}
		if v = oneLine(v); v != "" {
			if r := []rune(v); len(r) > keyArgMax {
				v = string(r[:keyArgMax]) + "…"
			}
			return name + ": " + v
		}
	}
	return name
}
