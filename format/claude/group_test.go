package claude

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
)

// Lines of a session for the grouping cases: an assistant message's part
// (uuid, parent, message.id, requestId), a progress line, a prompt.
func gAssistant(uuid, parent, id, req string) string {
	return fmt.Sprintf(`{"parentUuid":%q,"sessionId":"s1","type":"assistant","message":{"id":%q,"role":"assistant","content":[{"type":"text","text":"x"}]},"requestId":%q,"uuid":%q,"timestamp":"2026-02-11T20:31:53.000Z"}`, parent, id, req, uuid)
}

func gProgress(uuid, parent string) string {
	return fmt.Sprintf(`{"parentUuid":%q,"sessionId":"s1","type":"progress","data":{},"uuid":%q,"timestamp":"2026-02-11T20:31:53.000Z"}`, parent, uuid)
}

func gUser(uuid, parent string) string {
	return fmt.Sprintf(`{"parentUuid":%q,"sessionId":"s1","type":"user","message":{"role":"user","content":"hi"},"uuid":%q,"timestamp":"2026-02-11T20:31:53.000Z"}`, parent, uuid)
}

// gProgressRun is n progress lines p1..pn hanging from parent, one after
// the other.
func gProgressRun(n int, parent string) []string {
	var out []string
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("p%d", i)
		out = append(out, gProgress(id, parent))
		parent = id
	}
	return out
}

func cat(parts ...any) []string {
	var out []string
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			out = append(out, p)
		case []string:
			out = append(out, p...)
		}
	}
	return out
}

// TestGroupingCountsAsTheReaderJoins: validate counts the entries the
// reader yields, which join the lines of one API message, for each shape
// that does or does not continue a message.
func TestGroupingCountsAsTheReaderJoins(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		want  int
	}{
		{"two parts", cat(gUser("u", ""), gAssistant("a1", "u", "m", "r"), gAssistant("a2", "a1", "m", "r")), 2},
		{"three parts", cat(gAssistant("a1", "", "m", "r"), gAssistant("a2", "a1", "m", "r"), gAssistant("a3", "a2", "m", "r")), 1},
		{"progress between", cat(gAssistant("a1", "", "m", "r"), gProgressRun(3, "a1"), gAssistant("a2", "p3", "m", "r")), 1},
		{"16 progress lines between", cat(gAssistant("a1", "", "m", "r"), gProgressRun(16, "a1"), gAssistant("a2", "p16", "m", "r")), 1},
		{"17 progress lines between", cat(gAssistant("a1", "", "m", "r"), gProgressRun(17, "a1"), gAssistant("a2", "p17", "m", "r")), 19},
		{"progress after the last part", cat(gAssistant("a1", "", "m", "r"), gAssistant("a2", "a1", "m", "r"), gProgressRun(2, "a2"), gUser("u", "p2")), 4},
		{"another requestId", cat(gAssistant("a1", "", "m", "r"), gAssistant("a2", "a1", "m", "r2")), 2},
		{"another message id", cat(gAssistant("a1", "", "m", "r"), gAssistant("a2", "a1", "m2", "r")), 2},
		{"not the child", cat(gAssistant("a1", "", "m", "r"), gUser("u", "a1"), gAssistant("a2", "u", "m", "r")), 3},
		{"no message id", cat(strings.Replace(gAssistant("a1", "", "m", "r"), `"id":"m",`, "", 1), gAssistant("a2", "a1", "m", "r")), 2},
		{"content not an array", cat(gAssistant("a1", "", "m", "r"), strings.Replace(gAssistant("a2", "a1", "m", "r"), `[{"type":"text","text":"x"}]`, `"x"`, 1)), 2},
		{"progress without a uuid", cat(gAssistant("a1", "", "m", "r"), `{"parentUuid":"a1","type":"progress"}`, gAssistant("a2", "a1", "m", "r")), 3},
		{"a byte order mark", cat("\ufeff"+gAssistant("a1", "", "m", "r"), gAssistant("a2", "a1", "m", "r")), 1},
		{"invalid UTF-8", cat(gAssistant("a1", "", "m", "r"), strings.Replace(gAssistant("a2", "a1", "m", "r"), `"x"`, "\"\xff\"", 1)), 1},
		// Lines the reader cannot read: the entries are the lines.
		{"not JSON", cat(gAssistant("a1", "", "m", "r"), gAssistant("a2", "a1", "m", "r"), `{"type":`, gUser("u", "a2")), 4},
		{"not an object", cat(gAssistant("a1", "", "m", "r"), gAssistant("a2", "a1", "m", "r"), `[1]`), 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "s1.jsonl")
			if err := os.WriteFile(p, []byte(strings.Join(c.lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			rep := &report.Report{}
			if err := (Format{}).Validate(p, rep, format.ValidateOptions{}); err != nil {
				t.Fatal(err)
			}
			got := rep.Summary().Entries
			if got != c.want {
				t.Errorf("validate counts %d entries, want %d", got, c.want)
			}
			if n, ok := readerEntries(t, p); ok && n != got {
				t.Errorf("validate counts %d entries, the reader yields %d", got, n)
			} else if !ok && got != len(c.lines) {
				t.Errorf("the reader cannot read it: validate counts %d entries, want its %d lines", got, len(c.lines))
			}
		})
	}
}

// readerEntries is the number of entries the reader yields from the
// session file p; ok is false when it cannot read it.
func readerEntries(t *testing.T, p string) (n int, ok bool) {
	t.Helper()
	r, err := (Format{}).Open(format.Ref{Path: p})
	if err != nil {
		return 0, false
	}
	defer r.Close()
	for {
		_, err := r.Next()
		if errors.Is(err, io.EOF) {
			return n, true
		}
		if err != nil {
			return 0, false
		}
		n++
	}
}
