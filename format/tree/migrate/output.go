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
	dst, err := openDest(path, opt)
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

func openDest(path string, opt format.MigrateOptions) (*dest, error) {
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
	return inPlace(path, !opt.NoBackup)
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
func inPlace(path string, backup bool) (*dest, error) {
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
	d := &dest{w: af, name: path, abort: af.Abort}
	d.commit = func() error {
		if backup && !leftover {
			if err := keepBackup(path, bak); err != nil {
				af.Abort()
				return err
			}
		}
		if backup {
			d.backup = bak
		}
		if err := af.Commit(); err != nil {
			if backup && !leftover {
				os.Remove(bak) // the original is still in place
				d.backup = ""
			}
			return err
		}
		d.written = path
		return nil
	}
	return d, nil
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
