package pipeline

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/cleanup"
)

// replacesEverySession says whether committing ps over the existing root
// replaces every session root lists (each commit point there, by the last
// pattern of u.Each, is one of ps): hideReplaced would then leave a store
// listing no session at all over the old and new parts and messages, and a
// kill in the middle a store that does not validate.
func replacesEverySession(root string, ps []piece, u format.Units) bool {
	if len(u.Each) < 2 {
		return false
	}
	points, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(u.Each[len(u.Each)-1])))
	if err != nil || len(points) == 0 {
		return false
	}
	replaced := map[string]bool{}
	for _, p := range ps {
		if p.point && p.exists {
			replaced[filepath.Join(root, p.rel)] = true
		}
	}
	for _, pt := range points {
		if strings.HasPrefix(filepath.Base(pt), ".") {
			continue // a killed run's temporary file: no session
		}
		if !replaced[pt] {
			return false
		}
	}
	return true
}

// commitSwapRoot commits ps over root when they replace every session it
// lists: a copy of root made of hard links (no file's bytes are copied,
// and renaming a piece over a link leaves root's file as it was) takes the
// pieces, and is then swapped with root in one exchange. A kill before the
// exchange leaves root as it was, after it the new root, so what is visible
// is always every session whole. Its cost is a walk of root, which holds
// only the sessions replaced and what OpenCode keeps beside them. The copy
// is made beside root (the stage is often inside it, and a folder cannot
// be exchanged with its parent), under a hidden name. It returns false,
// having moved nothing, when the copy cannot be made (a parent that cannot
// be written, another file system, a FIFO in root): Commit then goes piece
// by piece.
func (s *Stage) commitSwapRoot(root string, ps []piece) (bool, error) {
	root = filepath.Clean(root)
	if fi, err := os.Lstat(root); err != nil || !fi.IsDir() {
		// a link to the store: exchanging it would put a folder in the
		// link's place, so the pieces go through it one by one instead
		return false, nil
	}
	whole, err := os.MkdirTemp(filepath.Dir(root), ".sesstool-whole-*")
	if err != nil {
		return false, nil
	}
	forget := cleanup.Track(whole)
	defer func() {
		os.RemoveAll(whole) // the old root after the exchange, or the unused copy
		forget()
	}()
	if err := linkTree(root, whole, s.Dir); err != nil {
		return false, nil
	}
	parents := map[string]bool{}
	for _, p := range ps {
		if p.skip {
			continue // a shared file already there: the link to it stays
		}
		if p.exists && !p.dir {
			// a file replaced: its link goes, so the rename below lands
			// on no name and the original stays root's until the swap
			if err := os.Remove(filepath.Join(whole, p.rel)); err != nil {
				return true, fmt.Errorf("replace %s: %w", filepath.Join(root, p.rel), err)
			}
		}
		if err := s.move(whole, p); err != nil {
			return true, err
		}
		parents[filepath.Dir(filepath.Join(whole, p.rel))] = true
	}
	for d := range parents {
		syncDir(d)
	}
	syncDir(whole)
	if err := swapDir(whole, root); err != nil {
		return true, err
	}
	syncDir(filepath.Dir(root))
	for _, p := range ps {
		if moved != nil && !p.skip {
			moved(p.rel)
		}
	}
	return true, nil
}

// linkTree fills the empty directory dst with a copy of the directory src
// of the same folders (with their modes) and hard links to its files and
// symbolic links, leaving out the folder skip (the stage); anything else
// is an error.
func linkTree(src, dst, skip string) error {
	// both absolute, so that the stage is recognised however it was named
	src, err := filepath.Abs(src)
	if err != nil {
		return err
	}
	if skip, err = filepath.Abs(skip); err != nil {
		return err
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == skip {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case rel == ".":
			fi, err := d.Info()
			if err != nil {
				return err
			}
			return os.Chmod(to, fi.Mode().Perm())
		case d.IsDir():
			fi, err := d.Info()
			if err != nil {
				return err
			}
			if err := os.Mkdir(to, 0o700); err != nil {
				return err
			}
			return os.Chmod(to, fi.Mode().Perm())
		case d.Type().IsRegular(), d.Type()&fs.ModeSymlink != 0:
			return os.Link(p, to)
		}
		return fmt.Errorf("%s: neither a file nor a folder", p)
	})
}
