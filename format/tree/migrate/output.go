package migrate

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/regfile"
	"github.com/sesstool/sesstool/report"
)

// stream opens path, hands it and the destination opt names to body, and
// finishes the destination only when body succeeded: an in-place replacement
// is atomic (the old file stays, whole, until the rename), a new -o file
// appears only complete, and a dry run writes nothing.
//
// In place, the file is locked (flock) for the whole rewrite and must still
// be the version since describes (the one the migration was planned on),
// and unchanged just before the rename: two processes migrating one file,
// or an agent appending to it meanwhile, never lose or mix lines.
func stream(path string, opt format.MigrateOptions, res *format.MigrateResult, since *atomicfile.Stamp, body func(io.Reader, io.Writer) error) error {
	src, err := regfile.Open(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	defer src.Close() // releases the lock, after the rename
	inPlace := opt.Out == "" && !opt.DryRun
	var held atomicfile.Stamp
	if inPlace {
		if err := atomicfile.Lock(src, since); err != nil {
			return err
		}
		if held, err = atomicfile.StampOf(path); err != nil {
			return err
		}
	}
	dst, err := openDest(path, opt, src, held)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(dst.w, 1<<20)
	if err := body(src, bw); err != nil {
		dst.abort()
		var inv *invalid
		if errors.As(err, &inv) {
			return &format.InvalidError{Path: path, Findings: inv.findings()}
		}
		return err
	}
	if err := bw.Flush(); err != nil {
		dst.abort()
		return fmt.Errorf("write %s: %w", dst.name, err)
	}
	if inPlace {
		if err := atomicfile.Unchanged(path, held); err != nil {
			dst.abort()
			return err
		}
	}
	if err := dst.commit(); err != nil {
		return err
	}
	res.Written, res.Backup = dst.written, dst.backup
	return nil
}

func (e *invalid) findings() []report.Finding { return []report.Finding{e.Finding} }

// copyOut writes an input that is already at the target version, unchanged,
// to -o FILE or -o -.
func copyOut(path string, opt format.MigrateOptions, res *format.MigrateResult) error {
	return stream(path, opt, res, nil, func(src io.Reader, dst io.Writer) error {
		_, err := io.Copy(dst, src)
		return err
	})
}

// dest is where one migration writes.
type dest struct {
	w       io.Writer
	name    string
	commit  func() error
	abort   func()
	written string
	backup  string
}

func openDest(path string, opt format.MigrateOptions, src *os.File, held atomicfile.Stamp) (*dest, error) {
	switch {
	case opt.DryRun:
		return &dest{w: io.Discard, name: "(dry run)", commit: func() error { return nil }, abort: func() {}}, nil
	case opt.Out == "-":
		if opt.Stdout == nil {
			return nil, fmt.Errorf("write standard output: no writer")
		}
		return &dest{w: opt.Stdout, name: "standard output", commit: func() error { return nil }, abort: func() {}}, nil
	case opt.Out != "":
		return newFile(path, opt.Out)
	}
	return inPlace(path, !opt.NoBackup, src, held)
}

// newFile creates -o FILE; an existing file is never overwritten.
func newFile(path, out string) (*dest, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	af, err := atomicfile.Create(out, fi.Mode().Perm(), false)
	if err != nil {
		return nil, err
	}
	d := &dest{w: af, name: out, abort: af.Abort}
	d.commit = func() error {
		d.written = out
		return af.Commit()
	}
	return d, nil
}

// inPlace replaces path atomically, keeping its mode. With backup, the
// original file itself (same bytes, mode and mtime) stays as <path>.bak; an
// existing .bak is never overwritten, since it may hold an older original;
// one that is a hard link to path itself is what a run killed between the
// link and the rename left, and is kept as this run's backup.
//
// A path that is a symbolic link is migrated through it: the target file is
// replaced (and backed up beside itself) and the link stays.
//
// An agent may append to path at any moment, and on a large file the fsync
// before the rename takes long. So the file is checked against held (the
// version that was read, through src, its open descriptor) after the new
// content is on disk and immediately before the rename, and once more
// through src after it: a line that reached the old file in between is
// not lost with it. The original, which keeps a name (the .bak, or a
// hidden link without a backup) until that last check, is put back, and
// the migration is refused.
func inPlace(path string, backup bool, src *os.File, held atomicfile.Stamp) (*dest, error) {
	path, err := atomicfile.Resolve(path)
	if err != nil {
		return nil, err
	}
	bak := path + ".bak"
	if backup && len(filepath.Base(bak)) > 255 {
		return nil, fmt.Errorf("write %s: its backup %s.bak would be a name longer than 255 bytes; run with --no-backup, or -o FILE", path, filepath.Base(path))
	}
	leftover := false // bak is this very file: a run killed after linking it
	if backup {
		if bi, err := os.Lstat(bak); err == nil {
			fi, ferr := os.Lstat(path)
			if leftover = ferr == nil && os.SameFile(fi, bi); !leftover {
				return nil, fmt.Errorf("write %s: backup %s already exists, from an earlier migration or one that was interrupted; "+
					"if it is no longer needed, remove it and run again, or run with --no-backup or -o FILE", path, bak)
			}
		}
	}
	af, err := atomicfile.Create(path, 0o644, true)
	if err != nil {
		return nil, err
	}
	af.Check = func() error { return atomicfile.Unchanged(path, held) }
	d := &dest{w: af, name: path, abort: af.Abort}
	d.commit = func() error {
		keep := bak
		if backup && !leftover {
			if err := keepBackup(path, bak); err != nil {
				af.Abort()
				return err
			}
		} else if !backup {
			keep = hiddenLink(path)
		}
		drop := func() {
			if keep != "" && !leftover { // a leftover .bak is the original itself: it stays
				os.Remove(keep)
			}
		}
		if err := af.Commit(); err != nil {
			drop() // the original is still in place
			return err
		}
		if err := atomicfile.Held(src, held); err != nil {
			if rerr := restore(path, keep, src); rerr != nil {
				return fmt.Errorf("%s: a line was appended while the migrated file replaced it, and putting the original back failed (%v); the original, with the line, is %s", path, rerr, keepName(keep))
			}
			return fmt.Errorf("%s: %w (a line was appended during the commit; the original, with it, is back in place)", path, atomicfile.ErrChanged)
		}
		if backup {
			d.backup = bak
		} else {
			drop()
		}
		d.written = path
		return nil
	}
	return d, nil
}

// hiddenLink gives the original a second, hidden name for the length of
// the commit, so it can be put back whole; "" when the filesystem has no
// hard links (restore then copies it back through its descriptor).
func hiddenLink(path string) string {
	name := filepath.Join(filepath.Dir(path), fmt.Sprintf(".%s.orig-%d", filepath.Base(path), os.Getpid()))
	os.Remove(name) // left by an earlier run of this process id that was killed
	if err := os.Link(path, name); err != nil {
		return ""
	}
	return name
}

func keepName(keep string) string {
	if keep == "" {
		return "lost (no hard links on this filesystem)"
	}
	return keep
}

// restore puts the original, as the other program left it, back at path:
// by renaming its other name when that is the very same file, else by
// copying it from its descriptor.
func restore(path, keep string, src *os.File) error {
	if keep != "" {
		ki, kerr := os.Lstat(keep)
		si, serr := src.Stat()
		if kerr == nil && serr == nil && os.SameFile(ki, si) {
			return os.Rename(keep, path)
		}
	}
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return err
	}
	fi, err := src.Stat()
	if err != nil {
		return err
	}
	af, err := atomicfile.Create(path, fi.Mode().Perm(), true)
	if err != nil {
		return err
	}
	if _, err := io.Copy(af, src); err != nil {
		af.Abort()
		return err
	}
	return af.Commit()
}

// keepBackup makes bak name the original file: a hard link when the
// filesystem has them (the very same inode, so bytes, mode and mtime are the
// original's), else a copy with the original's mode and mtime.
func keepBackup(path, bak string) error {
	if err := os.Link(path, bak); err == nil {
		return nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	src, err := regfile.Open(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	defer src.Close()
	af, err := atomicfile.Create(bak, fi.Mode().Perm(), false)
	if err != nil {
		return fmt.Errorf("backup %s: %w", path, err)
	}
	if _, err := io.Copy(af, src); err != nil {
		af.Abort()
		return fmt.Errorf("backup %s: %w", path, err)
	}
	if err := af.Commit(); err != nil {
		return fmt.Errorf("backup %s: %w", path, err)
	}
	return os.Chtimes(bak, fi.ModTime(), fi.ModTime())
}
