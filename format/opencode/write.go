package opencode

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/tidwall/gjson"
)

// ProjectFor returns the project id OpenCode (through 1.14) gives a
// directory: the lexically smallest root commit of its git repository when
// the directory exists here and is in one, else "global".
func ProjectFor(dir string) string {
	if dir == "" || !isDir(dir) {
		return "global"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "rev-list", "--max-parents=0", "--all")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "global"
	}
	roots := strings.Fields(string(out))
	if len(roots) == 0 {
		return "global"
	}
	sort.Strings(roots)
	return roots[0]
}

type file struct {
	path string
	data []byte
	keep bool // shared file (project, migration): written only when absent
}

// writeTree writes d as OpenCode 1.x writes its storage: one pretty-printed
// file per key, no trailing newline. Nothing is written when any of the
// session's files exists and force is false.
func writeTree(d *Doc, cwd, root string, force bool) ([]string, error) {
	sid := d.ID()
	if !ValidID("ses", sid) {
		return nil, fmt.Errorf("session id %q is not an OpenCode id", sid)
	}
	files := []file{{path: filepath.Join(root, "migration"), data: []byte("2"), keep: true}}
	switch {
	case d.Project != nil && gjson.GetBytes(d.Project, "id").String() == d.ProjectID:
		files = append(files, file{filepath.Join(root, "project", d.ProjectID+".json"), d.Project, true})
	case d.ProjectID != "global":
		var o, t jsonx.Obj
		now := gjson.GetBytes(d.Info, "time.created").Int()
		o.Str("id", d.ProjectID).Str("worktree", cwd).Str("vcs", "git").Raw("sandboxes", []byte("[]")).
			Raw("time", t.Int("created", now).Int("updated", now).Bytes())
		files = append(files, file{filepath.Join(root, "project", d.ProjectID+".json"), o.Bytes(), true})
	}
	sessionFile := filepath.Join(root, "session", d.ProjectID, sid+".json")
	files = append(files, file{path: sessionFile, data: d.Info})
	for _, m := range d.Messages {
		mid := gjson.GetBytes(m.Info, "id").String()
		if !ValidID("msg", mid) {
			return nil, fmt.Errorf("message id %q is not an OpenCode id", mid)
		}
		files = append(files, file{path: filepath.Join(root, "message", sid, mid+".json"), data: m.Info})
		for _, p := range m.Parts {
			pid := gjson.GetBytes(p, "id").String()
			if !ValidID("prt", pid) {
				return nil, fmt.Errorf("part id %q is not an OpenCode id", pid)
			}
			files = append(files, file{path: filepath.Join(root, "part", mid, pid+".json"), data: p})
		}
	}
	if d.Todo != nil {
		files = append(files, file{path: filepath.Join(root, "todo", sid+".json"), data: d.Todo})
	}
	if d.Diff != nil {
		files = append(files, file{path: filepath.Join(root, "session_diff", sid+".json"), data: d.Diff})
	}
	if !force {
		for _, f := range files {
			if !f.keep && fileExists(f.path) {
				return nil, fmt.Errorf("%s: %w", f.path, atomicfile.ErrExists)
			}
		}
	}
	written := []string{sessionFile} // the session's own file first, as format.Writer asks
	for _, f := range files {
		if f.path == sessionFile {
			if err := writeOne(f, force); err != nil {
				return nil, err
			}
			continue
		}
		if f.keep && fileExists(f.path) {
			continue
		}
		if err := writeOne(f, force); err != nil {
			return written, err
		}
		written = append(written, f.path)
	}
	return written, nil
}

func writeOne(f file, force bool) error {
	if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	return atomicfile.WriteFile(f.path, pretty(f.data), 0o644, force)
}

func fileExists(p string) bool { _, err := os.Lstat(p); return err == nil }
