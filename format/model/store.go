package model

import (
	"fmt"
	"os"

	"github.com/sesstool/sesstool/format"
)

// Sessions lists the one session a dump holds.
func (Format) Sessions(path string) ([]format.Ref, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("read %s: a model dump is a file, not a directory", path)
	}
	return []format.Ref{{Path: path}}, nil
}
