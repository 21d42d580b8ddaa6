package pipeline

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/exitcode"
)

// repeatLines is a header line, then body repeated until limit bytes
// have been read: standing in for an endless pipe.
type repeatLines struct {
	head, body string
	limit, n   int64
	pending    string
}

func (r *repeatLines) Read(p []byte) (int, error) {
	if r.n >= r.limit {
		return 0, io.EOF
	}
	if r.n == 0 && r.pending == "" {
		r.pending = r.head
	}
	n := 0
	for n < len(p) && r.n < r.limit {
		if r.pending == "" {
			r.pending = r.body
		}
		c := copy(p[n:], r.pending)
		r.pending = r.pending[c:]
		n += c
		r.n += int64(c)
	}
	return n, nil
}

const stdinHeader = `{"type":"session","version":3,"id":"s","timestamp":"2026-11-20T09:00:28.000Z","cwd":"/"}` + "\n"

// Standard input is validated as it is spooled: an input invalid from its
// second line is refused, with that line, after reading a few MiB of it
// and not all of it (it used to be copied whole, without end for a pipe
// that does not end). One whose error is only known at its end is refused
// the same way; a valid one is spooled whole.
func TestSpoolStopsAtFirstError(t *testing.T) {
	const size = 64 << 20
	dangling := `{"type":"message","id":"m","parentId":"nowhere","timestamp":"2026-11-20T09:00:28.000Z","message":{"role":"user","content":"hi","timestamp":1}}` + "\n"
	for _, tc := range []struct {
		name     string
		in       *repeatLines
		readMost int64  // bytes of input read at most
		refusal  string // "" when the input is spooled
	}{
		{"duplicate headers", &repeatLines{head: stdinHeader, body: stdinHeader, limit: size}, 16 << 20,
			"<stdin>:2: error: second session header (the first is on line 1) at /type (duplicate-header)"},
		{"not JSON", &repeatLines{head: stdinHeader, body: "HEADER\n", limit: size}, 16 << 20,
			"<stdin>:2:1: error: "},
		{"an error known at the end", &repeatLines{head: stdinHeader, body: dangling, limit: int64(len(stdinHeader) + len(dangling))}, 1 << 20,
			`<stdin>:2: error: parent "nowhere" is not an entry in this file`},
		{"valid", &repeatLines{head: stdinHeader, body: "\n", limit: int64(len(stdinHeader)) + 4}, 1 << 20, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sp, err := Spool(tc.in, nil)
			if sp != nil {
				defer sp.Remove()
			}
			t.Logf("read %d KiB", tc.in.n>>10)
			if tc.in.n > tc.readMost {
				t.Errorf("read %d MiB of standard input, want at most %d", tc.in.n>>20, tc.readMost>>20)
			}
			if tc.refusal == "" {
				if err != nil {
					t.Fatal(err)
				}
				if fi, err := os.Stat(sp.Path); err != nil || fi.Size() != tc.in.n {
					t.Errorf("spooled %v (%v), want %d bytes", fi, err, tc.in.n)
				}
				return
			}
			if err == nil {
				t.Fatalf("spooled, want the refusal %q", tc.refusal)
			}
			if exitcode.Of(err) != exitcode.Invalid || !strings.HasPrefix(err.Error(), tc.refusal) || strings.Contains(err.Error(), "\n") {
				t.Errorf("refusal %q (exit %d), want one line starting %q, exit 1", err, exitcode.Of(err), tc.refusal)
			}
		})
	}
}
