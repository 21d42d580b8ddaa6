//go:build unix

package regfile

import (
	"os"
	"syscall"
)

// openNonblock opens path read-only without blocking: open(2) of a FIFO
// with no writer returns at once with O_NONBLOCK.
func openNonblock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// clearNonblock puts a regular file's descriptor back to blocking reads,
// which for a regular file changes nothing but keeps the descriptor as
// os.Open would have made it.
func clearNonblock(f *os.File) error {
	raw, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := raw.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	return serr
}

// OpenFd is Open for callers that read through a raw descriptor: it opens
// path without blocking and refuses what is not a regular file. The caller
// closes fd.
func OpenFd(path string) (int, error) {
	var fd int
	var err error
	for {
		if fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0); err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return -1, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return -1, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		syscall.Close(fd)
		if fi, serr := os.Stat(path); serr == nil {
			return -1, refuse(path, fi.Mode())
		}
		return -1, refuse(path, os.ModeIrregular)
	}
	return fd, nil
}
