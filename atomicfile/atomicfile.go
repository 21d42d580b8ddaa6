// Package atomicfile writes files so that a crash, a kill or a full disk
// leaves either the old file or the complete new one, never a partial one:
// a temporary file in the same directory, fsync, rename, fsync the directory.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// File is a pending replacement for a path. Write to it, then Commit; Abort
// (or a failed Commit) removes the temporary file and leaves path untouched.
type File struct {
	*os.File
	// Check, when set, runs after the new content is on disk and
	// immediately before the rename; an error aborts the commit and leaves
	// path as it is. It is where a caller checks that the file it is
	// replacing did not change while the new one was being written.
	Check func() error
	path  string
	mode  fs.FileMode
	done  bool
}

// Hook, when set, is called at two points of every Commit: "synced", right
// after the new content is fsynced, and "checked", after Check and just
// before the rename. Tests set it to stretch the commit window (as a slow
// fsync does on a large file) and to act in it; it is nil otherwise.
var Hook func(point, path string)

func hook(point, path string) {
	if Hook != nil {
		Hook(point, path)
	}
}

// ErrExists is returned by Create when the target exists and replace is false.
var ErrExists = errors.New("already exists (use --force to replace it)")

// Create starts a replacement for path. The new file gets the old file's
// mode when there is one, else perm. With replace false, an existing path is
// refused up front.
func Create(path string, perm fs.FileMode, replace bool) (*File, error) {
	mode := perm
	if fi, err := os.Stat(path); err == nil {
		if !replace {
			return nil, fmt.Errorf("%s: %w", path, ErrExists)
		}
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file", path)
		}
		mode = fi.Mode().Perm()
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("create temporary file for %s: %w", path, err)
	}
	return &File{File: f, path: path, mode: mode}, nil
}

// Commit makes the written content the file at path.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("%s: already committed or aborted", f.path)
	}
	f.done = true
	tmp := f.File.Name()
	fail := func(err error) error {
		f.File.Close()
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	if err := f.File.Chmod(f.mode); err != nil {
		return fail(err)
	}
	if err := f.File.Sync(); err != nil {
		return fail(err)
	}
	hook("synced", f.path)
	if err := f.File.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	if f.Check != nil {
		if err := f.Check(); err != nil {
			os.Remove(tmp)
			return err
		}
	}
	hook("checked", f.path)
	if err := os.Rename(tmp, f.path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	return syncDir(filepath.Dir(f.path))
}

// Abort discards the replacement. It is safe to call after Commit.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	os.Remove(f.File.Name())
}

// WriteFile writes data to path atomically.
func WriteFile(path string, data []byte, perm fs.FileMode, replace bool) error {
	f, err := Create(path, perm, replace)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil // some filesystems do not allow opening directories; the rename is done
	}
	defer d.Close()
	_ = d.Sync()
	return nil
}
