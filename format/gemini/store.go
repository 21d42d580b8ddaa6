package gemini

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sesstool/sesstool/format"
)

// DefaultStore is Gemini CLI's home folder: $GEMINI_CLI_HOME/.gemini
// (the variable replaces the user's home directory), else ~/.gemini.
func (Format) DefaultStore() string {
	if h := os.Getenv("GEMINI_CLI_HOME"); h != "" {
		return filepath.Join(h, ".gemini")
	}
	return format.InHome(".gemini")
}

// isHome reports whether dir is a Gemini CLI home: a tmp/ folder with a
// project folder holding chats/.
func isHome(dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	projects, _ := filepath.Glob(filepath.Join(dir, TmpDir, "*", ChatsDir))
	for _, p := range projects {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

// Sessions lists the one session a file holds, or every session of a
// home: each project's chats/session-*.json and .jsonl, then the
// sub-agents' chats/<parentSessionId>/*.jsonl, by path.
func (Format) Sessions(path string) ([]format.Ref, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if !fi.IsDir() {
		return []format.Ref{{Path: path}}, nil
	}
	if !isHome(path) {
		return nil, fmt.Errorf("read %s: not a Gemini CLI home (no %s/<project>/%s/)", path, TmpDir, ChatsDir)
	}
	files, err := sessionFiles(path)
	if err != nil {
		return nil, err
	}
	refs := make([]format.Ref, len(files))
	for i, p := range files {
		refs[i] = format.Ref{Path: p}
	}
	return refs, nil
}

// sessionFiles lists the session files of a home, sorted by path.
func sessionFiles(home string) ([]string, error) {
	chats, err := filepath.Glob(filepath.Join(home, TmpDir, "*", ChatsDir))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, root := range chats {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return fmt.Errorf("read %s: %w", p, err)
			}
			if d.IsDir() {
				// chats/ and its sub-agents' folders, one level down
				if p != root && filepath.Dir(p) != root {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() && isSessionName(root, p) {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

// isSessionName reports whether p, under the chats folder root, is named
// as Gemini CLI names a session: session-*.json or .jsonl in chats/, or
// <sessionId>.jsonl in a sub-agent's folder.
func isSessionName(root, p string) bool {
	name := filepath.Base(p)
	if filepath.Dir(p) == root {
		return strings.HasPrefix(name, FilePrefix) && (strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".jsonl"))
	}
	return strings.HasSuffix(name, ".jsonl")
}

// projectRoot is the project folder a session file of a home belongs to,
// as its project folder's .project_root marker names it, or "".
func projectRoot(path string) string {
	dir := filepath.Dir(path)
	for i := 0; i < 2; i++ {
		if filepath.Base(dir) == ChatsDir {
			b, err := os.ReadFile(filepath.Join(filepath.Dir(dir), ProjectRoot))
			if err != nil {
				return ""
			}
			return strings.TrimSpace(string(b))
		}
		dir = filepath.Dir(dir)
	}
	return ""
}
