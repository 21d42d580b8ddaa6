package pipeline

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/internal/cleanup"
)

// Stage is a private directory next to the final output. Everything is
// written there first, validated, and only then moved into place, so a
// failed or refused conversion leaves nothing behind and never half-writes.
type Stage struct {
	Dir    string
	forget func()
}

func NewStage(near string) (*Stage, error) {
	parent := near
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, exitcode.IOError(fmt.Errorf("create %s: %w", parent, err))
	}
	dir, err := os.MkdirTemp(parent, ".sesstool-stage-*")
	if err != nil {
		return nil, exitcode.IOError(fmt.Errorf("create staging directory in %s: %w", parent, err))
	}
	return &Stage{Dir: dir, forget: cleanup.Track(dir)}, nil
}

func (s *Stage) Remove() {
	os.RemoveAll(s.Dir)
	if s.forget != nil {
		s.forget()
	}
}

// files lists every regular file in the stage, relative to it.
func (s *Stage) files() ([]string, error) {
	var out []string
	err := filepath.WalkDir(s.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(s.Dir, p)
			out = append(out, rel)
		}
		return nil
	})
	return out, err
}

// Commit moves every staged file to the same relative path under root. It
// checks every destination first: a path that would leave root is refused,
// and an existing file is refused unless force is set, before anything moves.
func (s *Stage) Commit(root string, force bool) error {
	rels, err := s.files()
	if err != nil {
		return exitcode.IOError(fmt.Errorf("read staged output: %w", err))
	}
	for _, rel := range rels {
		if !filepath.IsLocal(rel) {
			return exitcode.IOError(fmt.Errorf("refusing to write %s outside %s", rel, root))
		}
		dst := filepath.Join(root, rel)
		if fi, err := os.Lstat(dst); err == nil {
			if !force {
				return exitcode.IOError(fmt.Errorf("%s already exists (use --force to replace it)", dst))
			}
			if !fi.Mode().IsRegular() {
				return exitcode.IOError(fmt.Errorf("%s exists and is not a regular file", dst))
			}
		}
	}
	for _, rel := range rels {
		dst := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return exitcode.IOError(fmt.Errorf("create %s: %w", filepath.Dir(dst), err))
		}
		if err := os.Rename(filepath.Join(s.Dir, rel), dst); err != nil {
			return exitcode.IOError(fmt.Errorf("write %s: %w", dst, err))
		}
	}
	return nil
}

// CopyTo streams one staged file to w (for -o -).
func (s *Stage) CopyTo(w io.Writer, rel string) error {
	f, err := os.Open(filepath.Join(s.Dir, rel))
	if err != nil {
		return exitcode.IOError(err)
	}
	defer f.Close()
	if _, err := io.Copy(w, f); err != nil {
		return exitcode.IOError(fmt.Errorf("write standard output: %w", err))
	}
	return nil
}
