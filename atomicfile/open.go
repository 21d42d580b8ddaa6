package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// OpenFile opens a file sesstool may create in place, not through a
// temporary file (a lock file, a file in a private staging directory),
// under the rule Create follows: a symbolic link to an existing file is
// written through, a link to nothing is refused rather than followed to
// create its target wherever it points, and the last component is opened
// with O_NOFOLLOW so that a link put there after the check is refused too.
func OpenFile(path string, flag int, perm fs.FileMode) (*os.File, error) {
	target, err := Resolve(path)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(target, flag|syscall.O_NOFOLLOW, perm)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return f, nil
}
