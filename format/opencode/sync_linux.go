package opencode

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// syncTree makes a freshly written tree durable with one syncfs(2) of the
// filesystem holding root, instead of one fsync per file and directory.
func syncTree(root string, syncFiles func() error) error {
	fh, err := os.Open(root)
	if err != nil {
		return syncFiles()
	}
	defer fh.Close()
	if err := unix.Syncfs(int(fh.Fd())); err != nil {
		if errors.Is(err, syscall.ENOSYS) {
			return syncFiles()
		}
		return fmt.Errorf("write %s: sync: %w", root, err)
	}
	return nil
}
