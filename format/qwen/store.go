package qwen

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/session"
)

// DefaultStore is Qwen Code's home: $QWEN_HOME, else ~/.qwen.
func (Format) DefaultStore() string { return format.EnvOrHome("QWEN_HOME", ".qwen") }

// ProjectDir is Qwen Code's name for a project folder: the working
// directory with every character but an ASCII letter or digit as '-'.
func ProjectDir(cwd string) string { return nonAlnum.ReplaceAllString(cwd, "-") }

var nonAlnum = regexp.MustCompile(`[^a-zA-Z0-9]`)

// SessionID is the id a session is written under: its own when it is a
// UUID, else a UUID derived from it, as Qwen Code resumes <uuid>.jsonl.
// Qwen Code takes a session id to resume only in the form of a UUID of
// version 1 to 5 (qwenID): another form (Codex's UUIDv7) is derived anew.
func SessionID(m *session.Meta) string {
	id := spell.SessionID(caps.IDs, m, 0)
	if qwenID.MatchString(id) {
		return id
	}
	return spell.UUID(caps.IDs.Seed + id)
}

// qwenID is the session id Qwen Code 0.24.4 resumes (session-id.ts).
var qwenID = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// Place is where Qwen Code looks for a session in its home:
// projects/<project folder>/chats/<sessionId>.jsonl (format.Placer).
func (Format) Place(m *session.Meta) string {
	return ProjectsDir + "/" + ProjectDir(cwdOf(m)) + "/" + ChatsDir + "/" + SessionID(m) + ".jsonl"
}

// cwdOf is the working directory a session is written with: its own, else
// "/" (every line names one).
func cwdOf(m *session.Meta) string {
	if m.Cwd == "" {
		return "/"
	}
	return m.Cwd
}

// isHome reports whether dir is a Qwen Code home: a projects/ folder with
// a project's chats/ folder holding a session.
func isHome(dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	files, _ := filepath.Glob(filepath.Join(dir, ProjectsDir, "*", ChatsDir, "*.jsonl"))
	for _, p := range files {
		if (Format{}).DetectHead(format.Head(p, headDetectSz)) {
			return true
		}
	}
	return false
}

// Sessions lists the one session a file holds, or every session of a
// home (projects/*/chats/*.jsonl, by path).
func (f Format) Sessions(path string) ([]format.Ref, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if !fi.IsDir() {
		return []format.Ref{{Path: path}}, nil
	}
	root := filepath.Join(path, ProjectsDir)
	if _, err := os.Stat(root); err != nil {
		return nil, fmt.Errorf("read %s: not a Qwen Code home (no %s/)", path, ProjectsDir)
	}
	var found []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".jsonl") && filepath.Base(filepath.Dir(p)) == ChatsDir {
			found = append(found, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(found)
	refs := make([]format.Ref, len(found))
	for i, p := range found {
		refs[i] = format.Ref{Path: p}
	}
	return refs, nil
}
