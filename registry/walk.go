package registry

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/sesstool/sesstool/format"
)

// Unit is one path a layout claims: a session file, a session directory, or
// a store.
type Unit struct {
	Format format.Format
	Path   string
}

// Skipped is a file met while walking that no layout claims.
type Skipped struct {
	Path   string
	Reason string
}

// Walk finds what is at root. When root itself is a session or store (or when
// forced is set), it is one unit. Otherwise a directory is walked: each
// entry that a layout claims becomes a unit and is not descended into.
// Symlinked directories are followed once; a link loop is reported, not
// followed forever. Hidden entries and *.bak backups are not walked into.
func Walk(root string, forced format.Format) ([]Unit, []Skipped, error) {
	fi, err := os.Stat(root)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", root, err)
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		// A FIFO, socket or device: detecting its layout would read it (and
		// block on a FIFO with no writer), and it cannot be read twice.
		return nil, nil, fmt.Errorf("read %s: %w", root, errNotRegular(fi))
	}
	if forced != nil {
		if forced.Detect(root) || !isDir(root) {
			return []Unit{{forced, root}}, nil, nil
		}
	} else if f := Detect(root); f != nil {
		return []Unit{{f, root}}, nil, nil
	}
	if !isDir(root) {
		return nil, []Skipped{{root, "not a session in any known format"}}, nil
	}
	w := walker{forced: forced, seen: map[[2]uint64]bool{}}
	err = w.dir(root)
	return w.units, w.skipped, err
}

type walker struct {
	forced  format.Format
	seen    map[[2]uint64]bool
	units   []Unit
	skipped []Skipped
}

func (w *walker) dir(dir string) error {
	if id, ok := fileID(dir); ok {
		if w.seen[id] {
			w.skipped = append(w.skipped, Skipped{dir, "directory already visited (symlink loop)"})
			return nil
		}
		w.seen[id] = true
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("read %s: %w", dir, err)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if strings.HasSuffix(e.Name(), ".bak") {
			// A backup sesstool migrate kept: not a live session, never
			// validated, converted or migrated again while walking. Named
			// on the command line, it is handled like any other path.
			continue
		}
		p := filepath.Join(dir, e.Name())
		if reason := w.unreadable(p); reason != "" {
			w.skipped = append(w.skipped, Skipped{p, reason})
			continue
		}
		if f := w.claim(p); f != nil {
			w.units = append(w.units, Unit{f, p})
			continue
		}
		if isDir(p) {
			if err := w.dir(p); err != nil {
				return err
			}
			continue
		}
		if ext := filepath.Ext(p); ext == ".jsonl" || ext == ".json" {
			w.skipped = append(w.skipped, Skipped{p, "not a session in any known format"})
		}
	}
	return nil
}

// unreadable says why p cannot be walked or detected (a broken link or a
// link loop, a FIFO, socket or device), or "" when it is a regular file or a
// directory. Such entries are reported, never silently passed over, and
// never opened: a FIFO with no writer would block forever.
func (w *walker) unreadable(p string) string {
	fi, err := os.Stat(p)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return "symlink loop (too many levels of symbolic links)"
		}
		return fmt.Sprintf("cannot be read: %v", err)
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return errNotRegular(fi).Error()
	}
	return ""
}

func errNotRegular(fi os.FileInfo) error {
	kind := "special file"
	switch m := fi.Mode(); {
	case m&os.ModeNamedPipe != 0:
		kind = "named pipe (FIFO); read it as standard input with - instead"
	case m&os.ModeSocket != 0:
		kind = "socket"
	case m&os.ModeDevice != 0:
		kind = "device"
	}
	return fmt.Errorf("not a regular file or directory: a %s", kind)
}

func (w *walker) claim(p string) format.Format {
	if w.forced != nil {
		if w.forced.Detect(p) {
			return w.forced
		}
		return nil
	}
	return Detect(p)
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func fileID(p string) ([2]uint64, bool) {
	fi, err := os.Stat(p)
	if err != nil {
		return [2]uint64{}, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return [2]uint64{}, false
	}
	return [2]uint64{uint64(st.Dev), uint64(st.Ino)}, true
}
