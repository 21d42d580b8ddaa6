package pipeline

import (
	"os"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/exitcode"
)

// claudeLine is one user line of a Claude Code transcript whose prompt is
// text.
func claudeLine(text string) string {
	return `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/home/dev/app","sessionId":"9a1b2c3d-0000-4000-8000-00000000bbbb","version":"2.1.332","type":"user","message":{"role":"user","content":"` +
		text + `"},"uuid":"00000000-0000-4000-8000-000000000001","timestamp":"2026-11-27T10:00:00.000Z"}` + "\n"
}

// A Claude Code transcript on standard input is known by its content, as
// a file is, and spooled whole to a session file of its own; so is one
// whose first line is longer than the first peek (a pasted log, an image).
// A single-file layout is still read as a stream, and what is no session
// is refused.
func TestReadStdinFileOnStdin(t *testing.T) {
	for _, tc := range []struct {
		name, in, spooled string
		stream            bool
		code              int
	}{
		{name: "transcript", in: claudeLine("hello"), spooled: "claude"},
		{name: "long first line", in: claudeLine(strings.Repeat("x", 100<<10)), spooled: "claude"},
		{name: "single-file layout", in: stdinHeader, stream: true},
		{name: "no session", in: `{"x":1}` + "\n", code: exitcode.Invalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _, sp, err := ReadStdin(strings.NewReader(tc.in), nil)
			if tc.code != 0 {
				if exitcode.Of(err) != tc.code {
					t.Fatalf("err %v (exit %d), want exit %d", err, exitcode.Of(err), tc.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.stream {
				if s == nil || sp != nil {
					t.Fatalf("stream %v, spooled %v: want a stream", s, sp)
				}
				return
			}
			if sp == nil {
				t.Fatalf("not spooled (stream %v)", s)
			}
			defer sp.Remove()
			if got := sp.Format.Name(); got != tc.spooled {
				t.Errorf("layout %s, want %s", got, tc.spooled)
			}
			b, err := os.ReadFile(sp.Path)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.in {
				t.Errorf("spooled %d bytes, want the %d given", len(b), len(tc.in))
			}
		})
	}
}
