package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/sesstool/sesstool/internal/testkit/heapwatch"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// genLayout stands in for a large session without one on disk: a file
// holding {"generated-session": N} opens as a session of N turns (a user
// message, an assistant message with a tool call, its result of a few KB
// holding a secret), generated as it is read. So what an export keeps is
// all that grows the heap.
type genLayout struct{}

type genFile struct {
	Turns int `json:"generated-session"`
}

func (genLayout) Name() string      { return "generated" }
func (genLayout) Aliases() []string { return nil }
func (genLayout) Detect(p string) bool {
	return genLayout{}.DetectHead(format.Head(p, 64))
}
func (genLayout) DetectHead(h []byte) bool { return bytes.HasPrefix(h, []byte(`{"generated-session"`)) }
func (genLayout) Sessions(p string) ([]format.Ref, error) {
	return []format.Ref{{Path: p}}, nil
}
func (g genLayout) Open(ref format.Ref) (session.Reader, error) {
	fh, err := os.Open(ref.Path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return g.OpenReader(ref.Path, fh)
}
func (genLayout) OpenReader(name string, r io.Reader) (session.Reader, error) {
	var gf genFile
	if err := json.NewDecoder(r).Decode(&gf); err != nil {
		return nil, err
	}
	return &genReader{turns: gf.Turns, r: rand.New(rand.NewPCG(5, 6)), meta: session.Meta{ID: "generated", Title: "generated"}}, nil
}
func (g genLayout) Validate(p string, rep *report.Report, opt format.ValidateOptions) error {
	fh, err := os.Open(p)
	if err != nil {
		return err
	}
	defer fh.Close()
	return g.ValidateReader(p, fh, rep, opt)
}
func (genLayout) ValidateReader(name string, r io.Reader, rep *report.Report, _ format.ValidateOptions) error {
	var gf genFile
	if err := json.NewDecoder(r).Decode(&gf); err != nil {
		rep.Errorf(name, 1, "", "schema", "not a generated session")
	}
	return nil
}
func (genLayout) WriteTo(io.Writer, session.Reader, format.WriteOptions) error { return nil }

func init() { registry.All = append(registry.All, genLayout{}) }

var genWords = strings.Fields(`the parser file function return error value test build module package import
string buffer reader writer context session entry branch commit merge config token`)

// genReader generates the entries; text counts the bytes of text made.
type genReader struct {
	turns, i int
	r        *rand.Rand
	meta     session.Meta
	parent   string
	text     int64
}

func (g *genReader) Meta() *session.Meta { return &g.meta }
func (g *genReader) Close() error        { return nil }
func (g *genReader) prose(k int) string {
	var b strings.Builder
	for range k {
		b.WriteString(genWords[g.r.IntN(len(genWords))])
		b.WriteByte(' ')
	}
	g.text += int64(b.Len())
	return b.String()
}

func (g *genReader) Next() (*session.Entry, error) {
	if g.i == 3*g.turns {
		genText.Store(g.text)
		return nil, io.EOF
	}
	k := g.i / 3
	var m *session.Message
	switch g.i % 3 {
	case 0:
		m = &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: g.prose(40)}}}
	case 1:
		args, _ := json.Marshal(map[string]string{"command": "cat .env " + genWords[k%len(genWords)]})
		m = &session.Message{Role: session.RoleAssistant, Model: "m", Usage: &session.Usage{Input: int64(1000 + k), Output: 50},
			Content: []session.Block{{Type: session.BlockText, Text: g.prose(60)},
				{Type: session.BlockToolCall, ToolCallID: fmt.Sprintf("c%d", k), ToolName: "bash", Arguments: args}}}
	default:
		m = &session.Message{Role: session.RoleTool, ToolCallID: fmt.Sprintf("c%d", k), ToolName: "bash",
			Content: []session.Block{{Type: session.BlockText, Text: "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8kL3mN5p\n" + g.prose(3000)}}}
	}
	id := fmt.Sprintf("e%07d", g.i)
	e := &session.Entry{Kind: session.KindMessage, Type: "message", ID: id, ParentID: g.parent, Message: m}
	g.parent = id
	g.i++
	return e, nil
}

// genText is the text the last generated session held, in bytes.
var genText atomic.Int64

// TestExportMemory: export html --redact and export markdown keep the heap
// under the session's text (which holding the session would exceed):
// each entry is masked and written as it is read.
func TestExportMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("exports 55 MB of text")
	}
	const turns = 3000
	for _, c := range []struct {
		kind   string
		redact bool
	}{{"html", false}, {"html", true}, {"markdown", false}, {"markdown", true}} {
		t.Run(fmt.Sprintf("%s redact=%v", c.kind, c.redact), func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "g.json")
			if err := os.WriteFile(in, []byte(fmt.Sprintf(`{"generated-session":%d}`, turns)), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			env, _, errb := testEnv("")
			// the live heap is measured at each collection, so what is
			// kept shows only as often as the collector runs: export
			// lets garbage reach a floor before collecting
			// (tuneExportGC), which a setting of GOGC turns off; 50, so
			// that a session held would be seen well before its end
			if os.Getenv("GOGC") == "" {
				t.Setenv("GOGC", "50")
				defer debug.SetGCPercent(debug.SetGCPercent(50))
			}
			var err error
			grew := heapwatch.LiveGrowth(func() {
				err = Export(env, ExportOptions{Kind: c.kind, Redact: c.redact, Out: out, Paths: []string{in}})
			})
			if err != nil {
				t.Fatal(err)
			}
			size := genText.Load()
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("text %d bytes, output %d bytes, live heap grew by at most %d bytes (%.2f of the text)", size, len(b), grew, float64(grew)/float64(size))
			if c.redact {
				if want := fmt.Sprintf("masked %d secret(s)", turns); !strings.Contains(errb.String(), want) {
					t.Errorf("stderr %q, want %q", errb.String(), want)
				}
				if bytes.Contains(b, []byte("wJalrXUtnFEMI")) {
					t.Error("a secret is in the output")
				}
			}
			if c.kind == "markdown" {
				if n := bytes.Count(b, []byte("### User")); n != turns {
					t.Errorf("%d user messages, want %d", n, turns)
				}
				if n := bytes.Count(b, []byte("**Result:**")); n != turns {
					t.Errorf("%d results inside their calls, want %d", n, turns)
				}
				if bytes.Contains(b, []byte("### Tool result")) {
					t.Error("a paired tool result is shown on its own")
				}
			}
			// holding the session takes more than its text (2.9 times
			// for markdown before it streamed, 1.5 for markdown holding
			// its entries); the live heap leaves garbage out, which on a
			// loaded machine came to two thirds of the text
			if grew > size*2/3 {
				t.Errorf("the heap grew by %d bytes, more than two thirds of the session's text (%d bytes)", grew, size)
			}
		})
	}
}
