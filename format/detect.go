package format

import (
	"io"
	"os"
)

// Head returns up to n bytes from the start of a regular file, for cheap
// content detection. It returns nil for anything else.
func Head(path string, n int) []byte {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	buf := make([]byte, n)
	k, _ := io.ReadFull(f, buf)
	return buf[:k]
}
