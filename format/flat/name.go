package flat

import (
	"os"
	"path/filepath"
	"regexp"
)

// fileName is how the flat layout's agent names a session file: its UTC
// creation time and the first 8 characters of the session's UUID
// (`20261121-042424-f487536d.jsonl`).
var fileName = regexp.MustCompile(`^\d{8}-\d{6}-[0-9a-f]{8}\.jsonl$`)

// DetectName claims a regular file named as the flat layout names its
// sessions, whatever its header holds (format.NameDetector).
func (*Format) DetectName(path string) bool {
	if !fileName.MatchString(filepath.Base(path)) {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
