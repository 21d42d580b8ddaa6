package oracle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format/claude"
	"github.com/sesstool/sesstool/internal/testkit/convo"
)

// Claude Code files a session under the folder claude.EncodeCwd names,
// for a working directory with a non-ASCII letter, an emoji (two UTF-16
// units) and a name longer than 200 once encoded (cut and hashed); and a
// session sesstool writes for that directory (claude → tree → claude) is
// where Claude Code looks: it resumes it.
func TestClaudeProjectFolder(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(t.TempDir(), "josé", "😀")
	for len(claude.EncodeCwd(dir)) <= 200 {
		dir = filepath.Join(dir, "deep-folder-"+strings.Repeat("x", 20))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	dir, _ = filepath.EvalSymlinks(dir)
	runClaude(t, home, dir, "-p", "Print a greeting with the shell.", "--allowedTools", "Bash")
	file := claudeSessionFile(t, home)
	if got, want := filepath.Base(filepath.Dir(file)), claude.EncodeCwd(dir); got != want {
		t.Fatalf("Claude Code filed the session under\n%s\nsesstool names\n%s", got, want)
	}

	tree := filepath.Join(t.TempDir(), "s.jsonl")
	sesstool(t, "convert", "--from", "claude", "--to", "tree", "-o", tree, file)
	home2 := t.TempDir()
	store := filepath.Join(home2, ".claude")
	sesstool(t, "convert", "--from", "tree", "--to", "claude", "-o", store, tree)
	written := claudeSessionFile(t, home2)
	if got, want := filepath.Dir(written), filepath.Join(store, "projects", claude.EncodeCwd(dir)); got != want {
		t.Fatalf("written to %s, want %s", got, want)
	}
	src := convo.Sessions(t, "tree", tree)
	id := strings.TrimSuffix(filepath.Base(written), ".jsonl")
	r := runClaude(t, home2, dir, "--resume", id, "-p", "continue", "--allowedTools", "Bash")
	checkClaudeResume(t, r, convo.Expected(src[0]), nil)
}
