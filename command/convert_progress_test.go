package command

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// convert draws a progress bar over a store of many sessions only when
// standard error is a terminal, and never mixes it into the loss lines.
func TestConvertProgressOnlyOnTerminal(t *testing.T) {
	store := filepath.Join(samplesDir(t), "opencode/xdg/opencode/storage") // 3 sessions
	for _, term := range []bool{false, true} {
		var stdout, stderr bytes.Buffer
		env := &Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
			StdinIsData: func() bool { return false }, StderrIsTerminal: func() bool { return term }}
		out := filepath.Join(t.TempDir(), "out")
		if err := Convert(env, ConvertOptions{To: "opencode-export", Out: out, Paths: []string{store}}); err != nil {
			t.Fatal(err)
		}
		bar := strings.Contains(stderr.String(), "/3)")
		if bar != term {
			t.Errorf("terminal=%v: progress bar drawn=%v; stderr %q", term, bar, stderr.String())
		}
		if n := strings.Count(stdout.String(), "\n"); n != 3 {
			t.Errorf("terminal=%v: %d output names, want 3:\n%s", term, n, stdout.String())
		}
	}
}
