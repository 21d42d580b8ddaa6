package pipeline

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
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

// files lists every regular file in the stage, relative to it, but those
// under a directory skip names (a piece moved whole: an OpenCode store's
// million part directories are not listed file by file).
func (s *Stage) files(skip func(rel string) bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(s.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(s.Dir, p)
		if d.IsDir() && p != s.Dir && skip(rel) {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			out = append(out, rel)
		}
		return nil
	})
	return out, err
}

// Commit moves the staged output under root, piece by piece as u says
// (format.Units; file targets pass none and each file is a piece). It
// checks every destination first: a path that would leave root is refused,
// and an existing piece is refused unless force is set, before anything
// moves. A directory piece is renamed into place whole, and with force
// swapped whole with the existing one, so a kill leaves the old session
// or the new one, never a mix. An existing shared file is left as it is.
func (s *Stage) Commit(root string, force bool, u format.Units) error {
	ps, err := s.pieces(u)
	if err != nil {
		return exitcode.IOError(fmt.Errorf("read staged output: %w", err))
	}
	for i := range ps {
		if err := ps[i].check(root, force); err != nil {
			return exitcode.IOError(err)
		}
	}
	if _, err := os.Lstat(root); errors.Is(err, fs.ErrNotExist) && len(ps) > 0 {
		if err := s.commitWhole(root, ps); err != nil {
			return exitcode.IOError(err)
		}
		return nil
	}
	if replacesEverySession(root, ps, u) {
		if done, err := s.commitSwapRoot(root, ps); done || err != nil {
			if err != nil {
				return exitcode.IOError(err)
			}
			return nil
		}
	}
	if err := s.hideReplaced(root, ps, u); err != nil {
		return exitcode.IOError(err)
	}
	parents := map[string]bool{}
	for _, p := range ps {
		if p.skip {
			continue
		}
		if err := s.move(root, p); err != nil {
			return exitcode.IOError(err)
		}
		if moved != nil {
			moved(p.rel)
		}
		parents[filepath.Dir(filepath.Join(root, p.rel))] = true
	}
	for d := range parents {
		syncDir(d)
	}
	return nil
}

// commitWhole commits into a root that does not exist yet: the pieces are
// gathered, inside the stage, into one new directory, which is then
// renamed to root. A session spread over a shared tree (OpenCode's) would
// otherwise be visible piece by piece, and a kill before its commit point
// would leave a store of parts and messages with no session, which does
// not validate; this way a kill leaves no root, or every session whole.
func (s *Stage) commitWhole(root string, ps []piece) error {
	root = filepath.Clean(root) // "out/": its parent is ".", not "out"
	whole := filepath.Join(s.Dir, ".whole")
	if err := os.Mkdir(whole, 0o755); err != nil { // the mode a new root gets
		return fmt.Errorf("create %s: %w", root, err)
	}
	parents := map[string]bool{}
	for _, p := range ps {
		if err := s.move(whole, p); err != nil {
			return err
		}
		parents[filepath.Dir(filepath.Join(whole, p.rel))] = true
	}
	for d := range parents {
		syncDir(d)
	}
	if err := os.MkdirAll(filepath.Dir(root), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(root), err)
	}
	if err := os.Rename(whole, root); err != nil {
		return fmt.Errorf("write %s: %w", root, err)
	}
	for _, p := range ps {
		if moved != nil {
			moved(p.rel)
		}
	}
	syncDir(filepath.Dir(root))
	return nil
}

// moved, when set (by tests), is called after each piece is in place.
var moved func(rel string)

// piece is one thing Commit moves: a regular file or a directory.
type piece struct {
	rel    string
	dir    bool
	shared bool
	point  bool // matched by the last pattern of Units.Each: the commit point
	exists bool // the destination exists (and is replaced)
	skip   bool // a shared file already there: left as it is
}

// pieces lists what the stage holds as u cuts it: the files no pattern
// claims first, each on its own, then the shared files, then the pieces
// of u.Each in its order. Anything but regular files and directories (a
// link a writer left) is never moved.
func (s *Stage) pieces(u format.Units) ([]piece, error) {
	claimed := map[string]bool{}
	under := func(rel string) bool {
		for p := rel; p != "." && p != string(filepath.Separator); p = filepath.Dir(p) {
			if claimed[p] {
				return true
			}
		}
		return false
	}
	var out []piece
	add := func(pats []string, shared bool) error {
		for i, pat := range pats {
			ms, err := filepath.Glob(filepath.Join(s.Dir, filepath.FromSlash(pat)))
			if err != nil {
				return fmt.Errorf("pattern %q: %w", pat, err)
			}
			sort.Strings(ms)
			for _, m := range ms {
				rel, err := filepath.Rel(s.Dir, m)
				if err != nil || under(rel) {
					continue
				}
				fi, err := os.Lstat(m)
				if err != nil {
					return err
				}
				if !fi.IsDir() && !fi.Mode().IsRegular() || shared && fi.IsDir() {
					continue
				}
				claimed[rel] = true
				out = append(out, piece{rel: rel, dir: fi.IsDir(), shared: shared, point: !shared && i == len(pats)-1})
			}
		}
		return nil
	}
	if err := add(u.Shared, true); err != nil {
		return nil, err
	}
	if err := add(u.Each, false); err != nil {
		return nil, err
	}
	files, err := s.files(func(rel string) bool { return claimed[rel] })
	if err != nil {
		return nil, err
	}
	var loose []piece
	for _, f := range files {
		if !under(f) {
			loose = append(loose, piece{rel: f})
		}
	}
	return append(loose, out...), nil
}

// check decides what happens to p at its destination under root.
func (p *piece) check(root string, force bool) error {
	if !filepath.IsLocal(p.rel) {
		return fmt.Errorf("refusing to write %s outside %s", p.rel, root)
	}
	dst := filepath.Join(root, p.rel)
	fi, err := os.Lstat(dst)
	if err != nil {
		return nil
	}
	switch {
	case p.shared:
		p.skip = true
	case !force:
		return fmt.Errorf("%s already exists (use --force to replace it)", dst)
	case p.dir && !fi.IsDir():
		return fmt.Errorf("%s exists and is not a directory", dst)
	case !p.dir && !fi.Mode().IsRegular():
		return fmt.Errorf("%s exists and is not a regular file", dst)
	}
	p.exists = true
	return nil
}

// hideReplaced moves each existing commit point that is about to be
// replaced into the stage before anything else moves, when a session is
// more than one piece: a kill in the middle then leaves that session out
// of sight (its old commit point is in the stage), never its old commit
// point over a mix of old and new pieces.
func (s *Stage) hideReplaced(root string, ps []piece, u format.Units) error {
	if len(u.Each) < 2 {
		return nil
	}
	for _, p := range ps {
		if !p.point || !p.exists {
			continue
		}
		aside := filepath.Join(s.Dir, ".replaced", p.rel)
		if err := os.MkdirAll(filepath.Dir(aside), 0o755); err != nil {
			return fmt.Errorf("create %s: %w", filepath.Dir(aside), err)
		}
		if err := os.Rename(filepath.Join(root, p.rel), aside); err != nil {
			return fmt.Errorf("replace %s: %w", filepath.Join(root, p.rel), err)
		}
	}
	return nil
}

// move puts one piece in place: one rename (or, for a directory replacing
// another, one exchange).
func (s *Stage) move(root string, p piece) error {
	src, dst := filepath.Join(s.Dir, p.rel), filepath.Join(root, p.rel)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(dst), err)
	}
	if err := settle(src); err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	if p.dir && p.exists {
		if _, err := os.Lstat(dst); err == nil {
			return swapDir(src, dst)
		}
	}
	if err := os.Rename(src, dst); err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	return nil
}

// settle makes a staged piece ready to be renamed into place: what is not
// a regular file or a directory (a link a writer left) is removed, so it
// never lands under root. The files are already on disk: writers write
// them with atomicfile (or fsync them), so none is fsynced again here.
func settle(p string) error {
	return filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && !d.Type().IsRegular() {
			return os.Remove(q)
		}
		return nil
	})
}

// swapDir replaces the directory dst with src whole: one atomic exchange
// where the system has it, else dst renamed aside, src renamed in, and the
// old one removed (a kill between the two renames leaves the old session
// under a hidden name beside it, never a mix).
func swapDir(src, dst string) error {
	if err := exchange(src, dst); err == nil {
		return nil // the old directory is in the stage now, removed with it
	}
	aside := filepath.Join(filepath.Dir(dst), "."+filepath.Base(dst)+".old-"+filepath.Base(filepath.Dir(src)))
	os.RemoveAll(aside)
	if err := os.Rename(dst, aside); err != nil {
		return fmt.Errorf("replace %s: %w", dst, err)
	}
	if err := os.Rename(src, dst); err != nil {
		os.Rename(aside, dst)
		return fmt.Errorf("write %s: %w", dst, err)
	}
	return os.RemoveAll(aside)
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = atomicfile.Sync(d)
		d.Close()
	}
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
