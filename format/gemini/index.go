package gemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/session"
)

// Index records, after convert has put sessions into a Gemini CLI home,
// which project folder each belongs to, as the agent records its own: the
// folder's .project_root names the project root, and projects.json maps
// the root to the folder. Gemini CLI, started in that root, then finds the
// folder and lists (and resumes) the sessions in it. A session with no
// working directory stays under tmp/project/, which no project claims.
func (Format) Index(home string, metas []*session.Meta) error {
	roots := map[string]string{} // root -> slug
	var order []string
	for _, m := range metas {
		if m.Cwd == "" {
			continue
		}
		if _, ok := roots[m.Cwd]; !ok {
			order = append(order, m.Cwd)
		}
		roots[m.Cwd] = Slug(m.Cwd)
	}
	if len(order) == 0 {
		return nil
	}
	for _, root := range order {
		marker := filepath.Join(home, TmpDir, roots[root], ProjectRoot)
		b, err := os.ReadFile(marker)
		switch {
		case err == nil && strings.TrimSpace(string(b)) != root:
			return fmt.Errorf("%s: the project folder %s belongs to %s, not %s; Gemini CLI started in %s will not find the sessions written there",
				marker, roots[root], strings.TrimSpace(string(b)), root, root)
		case errors.Is(err, os.ErrNotExist):
			if err := atomicfile.WriteFile(marker, []byte(root), 0o644, false); err != nil {
				return err
			}
		case err != nil:
			return fmt.Errorf("read %s: %w", marker, err)
		}
	}
	return addProjects(filepath.Join(home, ProjectsFile), order, roots)
}

// addProjects adds root -> slug to projects.json ({"projects": {...}},
// printed as the agent prints it), keeping what it holds.
func addProjects(path string, order []string, roots map[string]string) error {
	var data struct {
		Projects map[string]string `json:"projects"`
	}
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(b, &data); err != nil {
			return fmt.Errorf("%s: not the agent's projects.json: %w", path, err)
		}
	case !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("read %s: %w", path, err)
	}
	if data.Projects == nil {
		data.Projects = map[string]string{}
	}
	changed := false
	for _, root := range order {
		if _, ok := data.Projects[root]; !ok {
			data.Projects[root] = roots[root]
			changed = true
		}
	}
	if !changed {
		return nil
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(data); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, bytes.TrimSuffix(out.Bytes(), []byte("\n")), 0o644, true)
}
