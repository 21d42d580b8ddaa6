package copilot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// DetectHead judges the first line by content: Copilot's session.start
// (a copilotVersion or a copilot producer), never another agent's first
// line or a session.start of someone else.
func TestDetectHead(t *testing.T) {
	for _, tc := range []struct {
		name string
		head string
		want bool
	}{
		{"copilotVersion", `{"type":"session.start","data":{"sessionId":"s","copilotVersion":"1.0.102"},"id":"a","timestamp":"t","parentId":null}`, true},
		{"producer only", `{"type":"session.start","data":{"sessionId":"s","producer":"copilot-agent"},"id":"a"}`, true},
		{"Python spacing", `{"type": "session.start", "data": {"copilotVersion": "1.0.49-1"}}`, true},
		{"byte order mark and blank lines", "\xef\xbb\xbf\n\n" + `{"type":"session.start","data":{"copilotVersion":"1"}}`, true},
		{"first line cut short", `{"type":"session.start","data":{"copilotVersion":"1.0.102","context":{"cwd":"/very/long`, true},
		{"another producer", `{"type":"session.start","data":{"producer":"someone-else"}}`, false},
		{"a later event first", `{"type":"user.message","data":{"content":"hi"}}`, false},
		{"Claude Code", `{"type":"user","sessionId":"s","uuid":"u","parentUuid":null,"message":{"role":"user","content":"hi"}}`, false},
		{"pi", `{"type":"session","version":3,"id":"x"}`, false},
		{"not JSON", `session.start copilotVersion`, false},
		{"empty", ``, false},
	} {
		if got := (Format{}).DetectHead([]byte(tc.head)); got != tc.want {
			t.Errorf("%s: DetectHead = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// Sessions lists a home's sessions (folders and the older flat files,
// judged by content, by path), a session-state folder's, a session
// folder's one, and refuses a folder with none.
func TestSessions(t *testing.T) {
	start := `{"type":"session.start","data":{"copilotVersion":"1.0.102"},"id":"a","timestamp":"t","parentId":null}` + "\n"
	home := t.TempDir()
	files := map[string]string{
		"session-state/b-session/events.jsonl":   start,
		"session-state/b-session/workspace.yaml": "id: b-session\n",
		"session-state/a-old.jsonl":              start,
		"session-state/c-not-copilot.jsonl":      `{"type":"session","version":3}` + "\n",
		"session-state/d-no-log/workspace.yaml":  "id: d\n",
		"session-state/e-other/events.jsonl":     `{"type":"user.message"}` + "\n",
		"config.json":                            "{}",
	}
	for p, body := range files {
		p = filepath.Join(home, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	state := filepath.Join(home, "session-state")
	both := []string{filepath.Join(state, "a-old.jsonl"), filepath.Join(state, "b-session", "events.jsonl")}
	for _, tc := range []struct {
		path string
		want []string
	}{
		{home, both},
		{state, both},
		{filepath.Join(state, "b-session"), both[1:]},
		{filepath.Join(state, "a-old.jsonl"), both[:1]},
	} {
		refs, err := Format{}.Sessions(tc.path)
		if err != nil {
			t.Errorf("Sessions(%s): %v", tc.path, err)
			continue
		}
		var got []string
		for _, r := range refs {
			got = append(got, r.Path)
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("Sessions(%s) = %v, want %v", tc.path, got, tc.want)
		}
		if !(Format{}).Detect(tc.path) {
			t.Errorf("Detect(%s) = false", tc.path)
		}
	}
	for _, p := range []string{filepath.Join(state, "d-no-log"), filepath.Join(state, "e-other")} {
		if _, err := (Format{}).Sessions(p); err == nil {
			t.Errorf("Sessions(%s): no error for a folder without a Copilot log", p)
		}
		if (Format{}).Detect(p) {
			t.Errorf("Detect(%s) = true", p)
		}
	}
}
