// Package regfile opens files that must be regular files, and only those.
// A FIFO with no writer blocks open(2) and read(2) forever, and a device
// can yield endless bytes, so every reader of a file inside a session or a
// store opens it here: the open never blocks (O_NONBLOCK), and anything
// that fstat does not call a regular file is closed again unread and
// refused with an error that names the path and what it is.
package regfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is what the error for a FIFO, socket or device matches
// (errors.Is).
var ErrNotRegular = errors.New("not a regular file")

// kindError says what a path that is not a regular file is; it comes
// wrapped in an *os.PathError naming the path, as open's own errors do.
type kindError struct{ mode fs.FileMode }

func (e kindError) Error() string { return "not a regular file: a " + Kind(e.mode) }

// Is makes errors.Is(err, ErrNotRegular) hold.
func (e kindError) Is(target error) bool { return target == ErrNotRegular }

func refuse(path string, m fs.FileMode) error {
	return &os.PathError{Op: "open", Path: path, Err: kindError{m.Type()}}
}

// Kind names the kind of a file mode that is not a regular file.
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	case m.IsDir():
		return "directory"
	}
	return "special file"
}

// Check refuses fi unless it is a regular file.
func Check(path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return refuse(path, fi.Mode())
}

// Open opens path for reading if it is a regular file (links followed).
func Open(path string) (*os.File, error) {
	f, err := openNonblock(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if err := Check(path, fi); err != nil {
		f.Close()
		return nil, err
	}
	if err := clearNonblock(f); err != nil {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return f, nil
}

// ReadFile is os.ReadFile for a path that must be a regular file.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var size int
	if fi, err := f.Stat(); err == nil && fi.Size() < 1<<30 {
		size = int(fi.Size())
	}
	b := make([]byte, 0, size+512)
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}
