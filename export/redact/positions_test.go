package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sesstool/sesstool/export/markdown"
	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/claude"
	"github.com/sesstool/sesstool/format/codex"
	"github.com/sesstool/sesstool/session"
)

// minPositionRecall is the share of the corpus's secrets that must be
// masked in every position of every layout.
const minPositionRecall = 0.99

// position puts a text where sessions hold secrets: as a message, inside a
// tool call's arguments (JSON-escaped when the layout is written), or as a
// tool's output.
type position struct {
	name string
	// call is the tool call's name and arguments for text; "" puts text in
	// a message instead (role says which)
	tool string
	args func(text string) any
	role session.Role
	// result: text is the output of a tool call (wrapped by wrap when set)
	result bool
	wrap   func(text string) string
}

var positions = []position{
	{name: "user-text", role: session.RoleUser},
	{name: "assistant-text", role: session.RoleAssistant},
	{name: "bash-command", tool: "Bash", args: func(s string) any { return map[string]any{"command": s, "description": "Run it"} }},
	{name: "write-content", tool: "Write", args: func(s string) any { return map[string]any{"file_path": "/app/.env", "content": s} }},
	{name: "edit-new-string", tool: "Edit", args: func(s string) any {
		return map[string]any{"file_path": "/app/config.py", "old_string": "x = 1", "new_string": s}
	}},
	{name: "shell-array", tool: "shell", args: func(s string) any { return map[string]any{"command": []string{"bash", "-lc", s}} }},
	// a call's arguments as a JSON string holding JSON (Codex writes them so)
	{name: "json-string-args", tool: "mcp__db__query", args: func(s string) any {
		inner, _ := json.Marshal(map[string]any{"sql": "select 1", "env": s})
		return map[string]any{"arguments": string(inner)}
	}},
	{name: "tool-output", result: true},
	{name: "json-tool-output", result: true, wrap: func(s string) string {
		b, _ := json.Marshal(map[string]any{"stdout": s, "exit_code": 0})
		return string(b)
	}},
}

// positionSession is a session holding text in position p.
func positionSession(p position, text string) *session.Session {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	at := func(n int) session.Time { return session.Time{T: t0.Add(time.Duration(n) * time.Second)} }
	blocks := func(s string) []session.Block { return []session.Block{{Type: session.BlockText, Text: s}} }
	msg := func(id, parent string, n int, m *session.Message) *session.Entry {
		m.Time = at(n)
		return &session.Entry{Kind: session.KindMessage, Type: "message", ID: id, ParentID: parent, Time: at(n), Message: m}
	}
	var es []*session.Entry
	switch {
	case p.role != "":
		es = append(es, msg("e1", "", 0, &session.Message{Role: session.RoleUser, Content: blocks("look at this")}))
		es = append(es, msg("e2", "e1", 1, &session.Message{Role: p.role, Model: "m", Content: blocks(text)}))
	default:
		tool, args, out := p.tool, json.RawMessage(`{"command":"cat .env"}`), text
		if tool == "" {
			tool = "Bash"
		} else {
			args, _ = json.Marshal(p.args(text))
			out = "done"
		}
		if p.wrap != nil {
			out = p.wrap(out)
		}
		es = append(es, msg("e1", "", 0, &session.Message{Role: session.RoleUser, Content: blocks("go on")}))
		es = append(es, msg("e2", "e1", 1, &session.Message{Role: session.RoleAssistant, Model: "m", StopReason: "toolUse", Content: []session.Block{
			{Type: session.BlockToolCall, ToolCallID: "call_1", ToolName: tool, Arguments: args}}}))
		es = append(es, msg("e3", "e2", 2, &session.Message{Role: session.RoleTool, ToolCallID: "call_1", ToolName: tool, Content: blocks(out)}))
	}
	return &session.Session{Meta: session.Meta{ID: "0b5e1b64-3f0a-4d7c-9e55-2a9d8e0c4b11", Cwd: "/app", Created: at(0)}, Entries: es}
}

// layouts give the session back as the layout reads it once written.
var layouts = []struct {
	name string
	read func(t *testing.T, s *session.Session) *session.Session
}{
	{"model", func(_ *testing.T, s *session.Session) *session.Session { return s }},
	{"claude", func(t *testing.T, s *session.Session) *session.Session {
		dir := t.TempDir()
		paths, err := claude.Format{}.Write(&session.SliceReader{S: s}, dir, format.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(paths)
		var main string
		for _, p := range paths {
			if filepath.Ext(p) == ".jsonl" && !strings.Contains(p, "subagents") {
				main = p
			}
		}
		r, err := claude.Format{}.Open(format.Ref{Path: main})
		if err != nil {
			t.Fatal(err)
		}
		out, err := session.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}},
	{"codex", func(t *testing.T, s *session.Session) *session.Session {
		var b bytes.Buffer
		if err := (codex.Format{}).WriteTo(&b, &session.SliceReader{S: s}, format.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		r, err := codex.Format{}.OpenReader("rollout.jsonl", &b)
		if err != nil {
			t.Fatal(err)
		}
		out, err := session.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}},
}

// leaked reports whether out shows secret, as it is or JSON-escaped (a
// multi-line secret: any of its long lines).
func leaked(out, secret string) bool {
	forms := []string{secret}
	if strings.Contains(secret, "\n") {
		forms = nil
		for _, l := range strings.Split(secret, "\n") {
			if len(l) >= 16 && !strings.HasPrefix(l, "-----") {
				forms = append(forms, l)
			}
		}
	}
	for _, f := range forms {
		esc, _ := json.Marshal(f)
		if strings.Contains(out, f) || strings.Contains(out, string(esc[1:len(esc)-1])) {
			return true
		}
	}
	return false
}

// TestPositions builds sessions holding each secret of the corpus's
// generator in each position where sessions hold them, writes them in each
// layout, reads them back, redacts them and renders them as Markdown (which
// shows arguments and outputs as written): no more than 1% of the secrets
// may show, in any position of any layout.
func TestPositions(t *testing.T) {
	samples := secretSamples(g{rand.New(rand.NewPCG(7, 30))})
	// every sample in the model; written and read back as Claude Code and
	// Codex, which is slower, every 3rd (each form still many times)
	every := 3
	if testing.Short() {
		every = 9
	}
	type key struct{ layout, position string }
	type tally struct{ n, found int }
	got := map[key]*tally{}
	for _, l := range layouts {
		for _, p := range positions {
			k := key{l.name, p.name}
			got[k] = &tally{}
			for i, smp := range samples {
				if l.name != "model" && i%every != 0 {
					continue
				}
				s := l.read(t, positionSession(p, smp.Text))
				r := mustNew(t)
				r.Session(s)
				tr, err := transcript.New(s, "")
				if err != nil {
					t.Fatal(err)
				}
				var md bytes.Buffer
				if err := markdown.Write(&md, tr); err != nil {
					t.Fatal(err)
				}
				for _, v := range smp.Secrets {
					got[k].n++
					if leaked(md.String(), v) {
						if testing.Verbose() {
							t.Logf("%s %s: %s leaks: %q", l.name, p.name, smp.Form, v)
						}
						continue
					}
					got[k].found++
				}
			}
		}
	}
	keys := make([]key, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
	for _, k := range keys {
		c := got[k]
		recall := float64(c.found) / float64(c.n)
		t.Logf("%-7s %-17s recall %.4f (%d of %d)", k.layout, k.position, recall, c.found, c.n)
		if recall < minPositionRecall {
			t.Errorf("%s, %s: recall %.4f, want at least %.2f", k.layout, k.position, recall, minPositionRecall)
		}
	}
}
