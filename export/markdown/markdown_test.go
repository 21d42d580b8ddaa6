package markdown

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/export/transcript"
	fixture "github.com/sesstool/sesstool/internal/testkit/exportfixture"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/session"
)

// goldenCases are the golden transcripts: each written from the session
// held (TestGolden) and streamed (TestStreamGolden).
var goldenCases = []struct {
	name, leaf string
	s          func() *session.Session
	tools      Tools
}{
	{"fixture.md", "", fixture.Session, ToolsFull},
	{"fixture-branch-b2.md", "b2", fixture.Session, ToolsFull},
	{"fixture-tools-summary.md", "", fixture.Session, ToolsSummary},
	{"fixture-tools-none.md", "", fixture.Session, ToolsNone},
	{"hostile.md", "", fixture.HostileSession, ToolsFull},
	{"hostile-tools-summary.md", "", fixture.HostileSession, ToolsSummary},
	{"hostile-tools-none.md", "", fixture.HostileSession, ToolsNone},
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := transcript.New(tc.s(), tc.leaf)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := WriteTools(&b, tr, tc.tools); err != nil {
				t.Fatal(err)
			}
			golden.Assert(t, tc.name, b.Bytes())
		})
	}
}

func TestFence(t *testing.T) {
	got := fence("a ```` b", "")
	if !strings.HasPrefix(got, "`````\n") {
		t.Errorf("fence did not outgrow the content's backticks: %q", got)
	}
}
