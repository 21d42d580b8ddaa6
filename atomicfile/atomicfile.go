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
	"strings"

	"github.com/sesstool/sesstool/internal/cleanup"
)

// File is a pending replacement for a path. Write to it, then Commit; Abort
// (or a failed Commit) removes the temporary file and leaves path untouched.
type File struct {
	*os.File
	// Check, when set, runs after the new content is on disk and
	// immediately before the rename; an error aborts the commit and leaves
	// path as it is. It is where a caller checks that the file it is
	// replacing did not change while the new one was being written.
	Check     func() error
	path      string
	mode      fs.FileMode
	done      bool
	suspended bool   // the temporary file is closed until Resume
	forget    func() // the temporary file is removed if a signal stops the run
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
//
// A path that is a symbolic link is written through: its target is
// replaced and the link stays a link (a link to nothing is refused). The
// new file keeps the old one's owner and group where the process may set
// them.
func Create(path string, perm fs.FileMode, replace bool) (*File, error) {
	mode := perm
	path, err := Resolve(path)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(path)
	if err == nil {
		if !replace {
			return nil, fmt.Errorf("%s: %w", path, ErrExists)
		}
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file", path)
		}
		mode = fi.Mode().Perm()
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, tempPattern(filepath.Base(path)))
	if err != nil {
		return nil, fmt.Errorf("create temporary file for %s: %w", path, err)
	}
	if fi != nil {
		keepOwner(f, fi)
	}
	return &File{File: f, path: path, mode: mode, forget: cleanup.Track(f.Name())}, nil
}

// Resolve returns the file path names: path itself, or the target of the
// symbolic link(s) it is, so that replacing it keeps the link.
func Resolve(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	t, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("write %s: a symbolic link whose target cannot be reached: %w", path, err)
	}
	return t, nil
}

// nameMax is the longest file name Linux and macOS allow, in bytes.
const nameMax = 255

// tempPattern is the temporary file's name: hidden, after the target's,
// cut so that with ".tmp-" and CreateTemp's random digits (at most 20) it
// stays a legal name even when the target's name is near the limit.
func tempPattern(base string) string {
	const room = nameMax - len(".") - len(".tmp-") - 20
	if len(base) > room {
		base = strings.ToValidUTF8(base[:room], "")
	}
	return "." + base + ".tmp-*"
}

// Suspend closes the temporary file, which stays pending: a writer of
// thousands of files at once (Claude Code's sub-agents) keeps a few open
// instead of one descriptor each. Resume opens it again, to write on at
// its end; Commit and Abort take it either way.
func (f *File) Suspend() error {
	if f.done || f.suspended {
		return nil
	}
	f.suspended = true
	if err := f.File.Close(); err != nil {
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	return nil
}

// Resume opens a suspended temporary file again, positioned at its end.
func (f *File) Resume() error {
	if f.done || !f.suspended {
		return nil
	}
	fh, err := os.OpenFile(f.File.Name(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	f.File, f.suspended = fh, false
	return nil
}

// Commit makes the written content the file at path.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("%s: already committed or aborted", f.path)
	}
	if err := f.Resume(); err != nil {
		f.Abort()
		return err
	}
	f.done = true
	defer f.forget()
	tmp := f.File.Name()
	fail := func(err error) error {
		f.File.Close()
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	if err := f.File.Chmod(f.mode); err != nil {
		return fail(err)
	}
	if err := Sync(f.File); err != nil {
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
	if !f.suspended {
		f.File.Close()
	}
	os.Remove(f.File.Name())
	f.forget()
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
	_ = Sync(d)
	return nil
}
