package claude

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/loss"
)

// Claude Code (2.1.x) moves a tool's output over 100 K characters (50 K
// since 2.1.51) to <session uuid>/tool-results/<tool_use id>.txt beside
// the session file and writes in the tool result only a preview:
//
//	<persisted-output>
//	Output too large (126.7KB). Full output saved to: /home/…/.claude/projects/<cwd>/<uuid>/tool-results/toolu_….txt
//
//	Preview (first 2KB):
//	…
//	</persisted-output>
//
// validate checks that the file a tool result names is there; claude to
// claude copies the folder byte for byte; another layout keeps the preview
// and counts the side file as lost (loss.ToolResultFile).

const persistedTag = "<persisted-output>"

// persistedFile is the name of the side file a tool result's text names,
// or "" when it names none (or a name that is not a plain file name).
func persistedFile(s string) string {
	i := strings.Index(s, persistedTag)
	if i < 0 {
		return ""
	}
	s = s[i:]
	for _, sep := range []string{"/", `\`} {
		mark := sep + ToolResults + sep
		j := strings.Index(s, mark)
		if j < 0 {
			continue
		}
		name := s[j+len(mark):]
		if k := strings.IndexAny(name, "\r\n"); k >= 0 {
			name = name[:k]
		}
		name = strings.TrimSpace(name)
		if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
			return ""
		}
		return name
	}
	return ""
}

// resultsDir is the tool-results folder of the session file path.
func resultsDir(path string) string {
	return filepath.Join(strings.TrimSuffix(path, ".jsonl"), ToolResults)
}

// metaNote is the reader's note on the session: where its side files are.
type metaNote struct {
	toolResults string // the session's tool-results folder, when it has one
}

// persisted marks a block whose text is the preview of a side file: only
// Claude Code keeps the file beside it, so another layout counts it lost.
type persisted struct{}

func (persisted) Opaque() (string, int) { return string(loss.ToolResultFile), 1 }

// copyResults copies every file of the folder from into to, byte for
// byte, each appearing complete or not at all, and returns their paths.
func copyResults(from, to string, force bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return fmt.Errorf("create %s: %w", dst, err)
			}
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("copy %s: not a regular file", p)
		}
		if err := copyFile(p, dst, force); err != nil {
			return err
		}
		out = append(out, dst)
		return nil
	})
	return out, err
}

func copyFile(from, to string, force bool) error {
	in, err := os.Open(from)
	if err != nil {
		return fmt.Errorf("read %s: %w", from, err)
	}
	defer in.Close()
	af, err := atomicfile.Create(to, 0o644, force)
	if err != nil {
		return err
	}
	if _, err := io.Copy(af, in); err != nil {
		af.Abort()
		return fmt.Errorf("copy %s to %s: %w", from, to, err)
	}
	return af.Commit()
}
