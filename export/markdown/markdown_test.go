package markdown

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/export/transcript"
	fixture "github.com/sesstool/sesstool/internal/exportfixture"
	"github.com/sesstool/sesstool/internal/golden"
)

func TestGolden(t *testing.T) {
	for _, tc := range []struct{ name, leaf string }{{"fixture.md", ""}, {"fixture-branch-b2.md", "b2"}} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := transcript.New(fixture.Session(), tc.leaf)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := Write(&b, tr); err != nil {
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
