package command

import (
	"bytes"
	"strings"
	"testing"
)

func TestProgress(t *testing.T) {
	for _, c := range []struct {
		terminal bool
		total    int
		want     string
	}{
		{false, 3, ""},
		{true, 1, ""}, // one session: no bar
		{true, 2, "\r\x1b[K[" + strings.Repeat(" ", 30) + "] 0/2 a\r\x1b[K[" + strings.Repeat("=", 15) + strings.Repeat(" ", 15) + "] 1/2 a\r\x1b[K"},
	} {
		var buf bytes.Buffer
		env := &Env{Stderr: &buf, StderrIsTerminal: func() bool { return c.terminal }}
		p := newProgress(env, c.total)
		p.start("a")
		p.finish()
		p.clear()
		if buf.String() != c.want {
			t.Errorf("terminal=%v total=%d: got %q, want %q", c.terminal, c.total, buf.String(), c.want)
		}
	}
}
