package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// ErrBusy: another process holds the lock on the file.
var ErrBusy = errors.New("another process is rewriting it (file locked); try again when it has finished")

// ErrChanged: the file was replaced or modified since it was first read.
var ErrChanged = errors.New("it changed while sesstool was working on it (another program wrote it); left as the other program wrote it")

// Stamp identifies one version of a file: its inode, size and mtime.
type Stamp struct {
	Dev, Ino uint64
	Size     int64
	Mod      int64 // mtime in nanoseconds
}

// StampOf stats path.
func StampOf(path string) (Stamp, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Stamp{}, fmt.Errorf("read %s: %w", path, err)
	}
	return stampOf(fi), nil
}

func stampOf(fi os.FileInfo) Stamp {
	s := Stamp{Size: fi.Size(), Mod: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.Dev, s.Ino = uint64(st.Dev), uint64(st.Ino)
	}
	return s
}

// Lock takes an exclusive advisory lock (flock) on the open file f, without
// waiting, so two sesstool processes never rewrite one file at once; the
// lock goes when f is closed. It then checks that f's path still names f
// and that the file is still the version since describes (when given): a
// file replaced or modified after it was first read is refused.
func Lock(f *os.File, since *Stamp) error {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("%s: %w", f.Name(), ErrBusy)
		}
		return fmt.Errorf("lock %s: %w", f.Name(), err)
	}
	if err := checkHeld(f, since); err != nil {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return err
	}
	return nil
}

func checkHeld(f *os.File, since *Stamp) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("read %s: %w", f.Name(), err)
	}
	held := stampOf(fi)
	if since != nil && held != *since {
		return fmt.Errorf("%s: %w", f.Name(), ErrChanged)
	}
	return Unchanged(f.Name(), held)
}

// Unchanged checks that path is still the version s describes.
func Unchanged(path string, s Stamp) error {
	now, err := StampOf(path)
	if err != nil {
		return err
	}
	if now != s {
		return fmt.Errorf("%s: %w", path, ErrChanged)
	}
	return nil
}

// Held checks through the open descriptor f that the file is still the
// version s describes. After f's path has been renamed over, only the
// descriptor still reaches the old file: this is how a line appended to it
// in the last moment before the rename is noticed.
func Held(f *os.File, s Stamp) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("read %s: %w", f.Name(), err)
	}
	if stampOf(fi) != s {
		return fmt.Errorf("%s: %w", f.Name(), ErrChanged)
	}
	return nil
}
