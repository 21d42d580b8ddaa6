//go:build unix

package opencode

import (
	"os"
	"syscall"

	"github.com/sesstool/sesstool/internal/regfile"
)

// readFile reads path into buf[:0], growing it when the file does not fit:
// open, read, close, without os.File's stat and poller registration, which
// cost as much again on a store of 60,000 small files. Errors read as
// os.ReadFile's do. Only a regular file is read.
func readFile(path string, buf []byte) ([]byte, error) {
	fd, err := regfile.OpenFd(path) // a FIFO in the store would block a plain open
	if err != nil {
		return buf[:0], err
	}
	defer syscall.Close(fd)
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf[:0], &os.PathError{Op: "read", Path: path, Err: err}
		}
		if n <= 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}
