//go:build !unix

package regfile

import "os"

// Elsewhere a stat before the open is the check (a race with a rename is
// possible, a FIFO there is rare).
func openNonblock(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := Check(path, fi); err != nil {
		return nil, err
	}
	return os.Open(path)
}

func clearNonblock(*os.File) error { return nil }
