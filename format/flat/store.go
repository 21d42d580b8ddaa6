package flat

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sesstool/sesstool/format"
)

// DefaultStore is where the agent keeps its sessions:
// $XDG_CONFIG_HOME/agent/sessions, else ~/.config/agent/sessions.
func (*Format) DefaultStore() string {
	return filepath.Join(format.EnvOrHome("XDG_CONFIG_HOME", ".config"), "agent", "sessions")
}

// Sessions lists the one session a flat file holds.
func (f *Format) Sessions(path string) ([]format.Ref, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("read %s: a flat session is a file, not a directory", path)
	}
	return []format.Ref{{Path: path}}, nil
}
