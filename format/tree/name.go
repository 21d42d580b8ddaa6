package tree

import (
	"os"
	"path/filepath"
	"regexp"
)

// fileName is how pi names a session file: the creation time with ':' and
// '.' spelled '-', then the session id (`2026-01-05T10-11-12-123Z_<id>.jsonl`).
var fileName = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z_[^/\\]+\.jsonl$`)

// DetectName claims a regular file named as pi names its sessions, whatever
// its header holds (format.NameDetector).
func (Format) DetectName(path string) bool {
	if !fileName.MatchString(filepath.Base(path)) {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
