package codex_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sesstool/sesstool/command"
	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/codex"
	"github.com/sesstool/sesstool/internal/testkit/hangwatch"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/session"
)

// peerSources are the sessions converted to Codex for the real program,
// one or more per layout: (layout, path under testdata/samples, or
// "shared/..." for the shared samples).
var peerSources = []struct{ name, layout, path string }{
	{"tree", "tree", "tree/pi-v3-branches.jsonl"},
	{"flat", "flat", "flat/20261121-042424-f487536d.jsonl"},
	{"ash", "ash", "ash/generated-v2/sessions"},
	{"goat", "goat", "goat/generated/projects/srv-gen-goat-work-project"},
	{"opencode", "opencode", "opencode/xdg/opencode/storage"},
	{"opencode-export", "opencode-export", "opencode/export/v1.1.34__ses_e03a7a64affe0wHc2prdw2R2s7.json"},
	// A rollout Codex wrote is copied line for line, so what Codex 0.169
	// reads of codex -> codex is tested on a rollout sesstool wrote.
	{"codex", "codex", "tree/pi-v3-branches.jsonl"},
}

// written is one session sesstool wrote as a rollout, and what the model
// read back from it says.
type written struct {
	name, file string
	title      string // the source session's title
	meta       *session.Meta
	users      []string // user message texts, as `sesstool info` counts user messages
	agents     []string // assistant replies with text
}

// writeAll converts every peer source to Codex with `sesstool convert
// --to codex -o HOME`, which writes each session where Codex looks
// (sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl), and reads back what
// it wrote.
func writeAll(t *testing.T, home string) []written {
	t.Helper()
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	var out []written
	cx := codex.Format{}
	for _, s := range peerSources {
		src := filepath.Join("..", "..", "testdata", "samples", s.path)
		var want []byte // a rollout is written back as it was read
		if s.layout == "codex" {
			src = rewritten(t, s.path)
			want, _ = os.ReadFile(src)
		}
		var stdout, stderr bytes.Buffer
		env := &command.Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, StdinIsData: func() bool { return false }}
		if err := command.Convert(env, command.ConvertOptions{From: s.layout, To: "codex", Out: home, Force: true, Paths: []string{src}}); err != nil {
			t.Fatalf("%s: convert: %v\n%s", s.name, err, stderr.String())
		}
		titles := sourceTitles(t, s.layout, src)
		files := strings.Fields(stdout.String())
		if len(files) == 0 {
			t.Fatalf("%s: convert wrote nothing", s.name)
		}
		for i, file := range files {
			rel, err := filepath.Rel(home, file)
			if err != nil || !strings.HasPrefix(filepath.ToSlash(rel), codex.SessionsDir+"/") {
				t.Fatalf("%s: convert wrote %s, not under %s/%s", s.name, file, home, codex.SessionsDir)
			}
			if want != nil {
				if got, _ := os.ReadFile(file); !bytes.Equal(got, want) {
					t.Errorf("codex -> codex changed the rollout")
				}
			}
			r, err := cx.Open(format.Ref{Path: file})
			if err != nil {
				t.Fatalf("%s: read back: %v", s.name, err)
			}
			sess, err := session.ReadAll(r)
			if err != nil {
				t.Fatalf("%s: read back: %v", s.name, err)
			}
			if got, want := filepath.ToSlash(rel), codex.RolloutPath(&sess.Meta); got != want {
				t.Errorf("%s: written at %s, Codex names it %s", s.name, got, want)
			}
			w := written{name: fmt.Sprintf("%s#%d", s.name, i), file: file, meta: &sess.Meta, title: titles[codex.SessionID(&sess.Meta)]}
			for _, e := range sess.Entries {
				if e.Kind != session.KindMessage || e.Sidechain != "" {
					continue
				}
				switch text := e.Message.Text(); {
				case e.Message.Role == session.RoleUser && text != "":
					w.users = append(w.users, text)
				case e.Message.Role == session.RoleAssistant && text != "":
					w.agents = append(w.agents, text)
				}
			}
			// The OpenCode export is a session of the OpenCode store:
			// the same id and start, so the same rollout, replaced.
			out = slices.DeleteFunc(out, func(o written) bool { return o.file == file })
			out = append(out, w)
		}
	}
	return out
}

// sourceTitles is the title of each session at src, by the id Codex
// gives its thread.
func sourceTitles(t *testing.T, layout, src string) map[string]string {
	t.Helper()
	f, err := registry.Lookup(layout)
	if err != nil {
		t.Fatal(err)
	}
	refs, err := f.Sessions(src)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, ref := range refs {
		r, err := f.Open(ref)
		if err != nil {
			t.Fatal(err)
		}
		out[codex.SessionID(r.Meta())] = r.Meta().Title
		r.Close()
	}
	return out
}

// rewritten is the tree sample at rel written as a rollout, placed in a
// temporary Codex home whose session_index.jsonl names it, so codex ->
// codex carries a title.
func rewritten(t *testing.T, rel string) string {
	t.Helper()
	tree, _ := registry.Lookup("tree")
	src := filepath.Join("..", "..", "testdata", "samples", rel)
	r, err := tree.Open(format.Ref{Path: src})
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	tmp := filepath.Join(home, "pi.jsonl")
	if _, err := convert.Write(codex.Format{}, r, tmp, format.WriteOptions{Reopen: func() (session.Reader, error) { return tree.Open(format.Ref{Path: src}) }}, nil); err != nil {
		t.Fatal(err)
	}
	back, err := codex.Format{}.Open(format.Ref{Path: tmp})
	if err != nil {
		t.Fatal(err)
	}
	m := back.Meta()
	back.Close()
	out := filepath.Join(home, filepath.FromSlash(codex.RolloutPath(m)))
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, out); err != nil {
		t.Fatal(err)
	}
	index := `{"id":"` + codex.SessionID(m) + `","thread_name":"Renamed in Codex — twice","updated_at":"2026-11-20T09:30:00Z"}` + "\n"
	if err := os.WriteFile(filepath.Join(home, codex.IndexFile), []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// codexEnv runs the binary offline with HOME and CODEX_HOME in dir.
func codexEnv(dir string) []string {
	env := []string{"HOME=" + dir, "CODEX_HOME=" + filepath.Join(dir, ".codex"), "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8",
		"OPENAI_BASE_URL=http://127.0.0.1:9", "CODEX_DISABLE_UPDATE_CHECK=1"}
	return env
}

// TestRolloutLineSchema: every line sesstool writes, from every source
// layout, passes the pinned Codex binary's own schema (RolloutLine.json).
func TestRolloutLineSchema(t *testing.T) {
	bin := peers.Codex(t)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".codex"), 0o755)
	cmd := exec.Command(bin, "app-server", "generate-internal-json-schema", "--out", filepath.Join(dir, "schema"))
	cmd.Env = codexEnv(dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("codex generate-internal-json-schema: %v: %s", err, out)
	}
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(filepath.Join(dir, "schema", "RolloutLine.json"))
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, w := range writeAll(t, filepath.Join(dir, "home")) {
		b, err := os.ReadFile(w.file)
		if err != nil {
			t.Fatal(err)
		}
		for n, l := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(l))
			if err != nil {
				t.Fatalf("%s:%d: %v", w.name, n+1, err)
			}
			if err := sch.Validate(v); err != nil {
				t.Errorf("%s:%d: RolloutLine.json rejects the line: %v\n%s", w.name, n+1, err, l)
			}
			lines++
		}
	}
	if lines < 50 {
		t.Fatalf("only %d lines checked", lines)
	}
	t.Logf("%d lines valid", lines)
}

// TestAppServerReads: codex app-server lists every session sesstool wrote
// into $CODEX_HOME/sessions, under the title sesstool wrote into its
// session_index.jsonl, and, reading each with its turns, shows the same
// user and assistant messages the model reads back from the file.
func TestAppServerReads(t *testing.T) {
	bin := peers.Codex(t)
	dir := t.TempDir()
	ws := writeAll(t, filepath.Join(dir, ".codex"))
	srv := startServer(t, bin, dir)
	srv.call(t, "initialize", map[string]any{"clientInfo": map[string]any{"name": "sesstool-test", "version": "0"}})
	srv.notify(t, "initialized")
	var list struct {
		Data []struct {
			ID   string  `json:"id"`
			Path string  `json:"path"`
			Name *string `json:"name"`
		} `json:"data"`
	}
	srv.decode(t, srv.call(t, "thread/list", map[string]any{"limit": 100}), &list)
	checked, named := 0, 0
	listed := map[string]bool{}
	names := map[string]string{}
	for _, th := range list.Data {
		listed[th.ID] = true
		if th.Name != nil {
			names[th.ID] = *th.Name
		}
	}
	for _, w := range ws {
		id := codex.SessionID(w.meta)
		if len(w.users) == 0 {
			continue // Codex lists no thread without a user message
		}
		if !listed[id] {
			t.Errorf("%s: thread/list does not list %s (%s)", w.name, id, w.file)
			continue
		}
		if names[id] != w.title {
			t.Errorf("%s: thread/list names %s %q, the source's title is %q", w.name, id, names[id], w.title)
		}
		if w.title != "" {
			named++
		}
		var read struct {
			Thread struct {
				Turns []struct {
					Items []struct {
						Type    string `json:"type"`
						Text    string `json:"text"`
						Content []struct {
							Type string `json:"type"`
							Text string `json:"text"`
						} `json:"content"`
					} `json:"items"`
				} `json:"turns"`
			} `json:"thread"`
		}
		srv.decode(t, srv.call(t, "thread/read", map[string]any{"threadId": id, "includeTurns": true}), &read)
		var users, agents []string
		for _, turn := range read.Thread.Turns {
			for _, it := range turn.Items {
				switch it.Type {
				case "userMessage":
					var parts []string
					for _, c := range it.Content {
						if c.Type == "text" {
							parts = append(parts, c.Text)
						}
					}
					users = append(users, strings.Join(parts, "\n"))
				case "agentMessage":
					agents = append(agents, it.Text)
				}
			}
		}
		checked++
		if !equal(users, w.users) {
			t.Errorf("%s: codex shows user messages %q, sesstool reads %q", w.name, users, w.users)
		}
		if !equal(agents, w.agents) {
			t.Errorf("%s: codex shows agent messages %q, sesstool reads %q", w.name, agents, w.agents)
		}
	}
	if checked < len(peerSources) {
		t.Fatalf("only %d threads read of %d sessions written", checked, len(ws))
	}
	if named < 4 {
		t.Fatalf("only %d threads with a title checked: the OpenCode sessions have three, the Codex one one", named)
	}
	t.Logf("%d threads listed and read, %d by name", checked, named)
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// server is codex app-server on stdio, JSON-RPC 2.0, one message a line.
type server struct {
	in  *json.Encoder
	out *bufio.Scanner
	id  int
}

func startServer(t *testing.T, bin, dir string) *server {
	t.Helper()
	cmd := exec.Command(bin, "app-server")
	cmd.Env = codexEnv(dir)
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = nil
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// No wall-clock limit: the server is killed when it and the test both
	// stop working (a request that gets no answer), or use far too much CPU.
	stop := hangwatch.Guard(cmd.Process, hangwatch.Limits{CPU: 10 * time.Minute, Stall: time.Minute})
	t.Cleanup(func() {
		stdin.Close() // the server ends when its input does
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		if hangwatch.Watch(cmd.Process.Pid, done, hangwatch.Default) != "" {
			cmd.Process.Kill()
			<-done
		}
		stop()
	})
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	return &server{in: json.NewEncoder(stdin), out: sc}
}

func (s *server) notify(t *testing.T, method string) {
	t.Helper()
	if err := s.in.Encode(map[string]any{"jsonrpc": "2.0", "method": method}); err != nil {
		t.Fatal(err)
	}
}

// call sends a request and returns its result, passing over notifications.
func (s *server) call(t *testing.T, method string, params any) json.RawMessage {
	t.Helper()
	s.id++
	if err := s.in.Encode(map[string]any{"jsonrpc": "2.0", "id": s.id, "method": method, "params": params}); err != nil {
		t.Fatal(err)
	}
	for s.out.Scan() {
		var m struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(s.out.Bytes(), &m); err != nil {
			t.Fatalf("%s: not JSON: %s", method, s.out.Bytes())
		}
		if m.ID == nil || *m.ID != s.id {
			continue
		}
		if m.Error != nil {
			t.Fatalf("%s: error %s", method, m.Error)
		}
		return m.Result
	}
	t.Fatalf("%s: codex app-server closed its output: %v", method, s.out.Err())
	return nil
}

func (s *server) decode(t *testing.T, b json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
}
